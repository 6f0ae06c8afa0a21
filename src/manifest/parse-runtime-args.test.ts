import { describe, expect, it } from 'vitest';
import { parseRuntimeArgs } from './parse-runtime-args.js';

describe('parseRuntimeArgs', () => {
  it('reads --key=value options and bare flags', () => {
    const { values, flags } = parseRuntimeArgs(['--model_name=bert', '--model_id=dslim/bert-base-NER', '--disable_lower_case']);
    expect(values).toEqual({ model_name: 'bert', model_id: 'dslim/bert-base-NER' });
    expect([...flags]).toEqual(['disable_lower_case']);
  });

  it('keeps everything after the first = as the value', () => {
    expect(parseRuntimeArgs(['--dtype=a=b']).values).toEqual({ dtype: 'a=b' });
    expect(parseRuntimeArgs(['--model_id=']).values).toEqual({ model_id: '' });
  });

  it('reads --key value like argparse, except after known boolean flags', () => {
    const { values, flags } = parseRuntimeArgs(['--model_name', 'bert', '--disable_lower_case', 'stray', '--http_port', '9000']);
    expect(values).toEqual({ model_name: 'bert', http_port: '9000' });
    expect(flags.has('disable_lower_case')).toBe(true);
  });

  it('lets the last repeated value win (runtime args first, resource args after)', () => {
    const { values } = parseRuntimeArgs(['--model_name=runtime-default', '--http_port=8080', '--model_name=bert', '--http_port', '9000']);
    expect(values).toEqual({ model_name: 'bert', http_port: '9000' });
  });

  it('treats an unknown option followed by another option as a flag', () => {
    const { values, flags } = parseRuntimeArgs(['--verbose', '--model_name=x']);
    expect(flags.has('verbose')).toBe(true);
    expect(values).toEqual({ model_name: 'x' });
  });

  it('ignores positional words and a bare --', () => {
    expect(parseRuntimeArgs(['python', '-m', 'server', '--'])).toEqual({ values: {}, flags: new Set() });
  });
});
