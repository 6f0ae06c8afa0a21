import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { unpickle } from './unpickle.js';

// Pickles written by Python's own pickle module, every protocol, read back as the documented JavaScript values.
const PYTHON_VALUE = `
import base64, pickle, sys
x = [7]
value = {
    'ints': [0, 1, -1, 255, 256, 65535, 65536, -2**31, 2**31 - 1, 2**31, 2**53 - 1, -2**53 + 1],
    'big': [2**53, 2**63, -2**70],
    'floats': [1.5, -0.0, 1e-300, float('inf'), float('-inf')],
    'texts': ['', 'plain', 'ü€😀 \\\\u0041 line\\nbreak'],
    'consts': (True, False, None),
    'tuples': ((), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)),
    'shared': [x, x],
    2: 'int key',
}
if int(sys.argv[1]) >= 3:
    value['bytes'] = [b'', b'\\x00\\xff', bytes(300)]
print(base64.b64encode(pickle.dumps(value, protocol=int(sys.argv[1]))).decode())
`;

function pickled(protocol: number): Buffer {
  return Buffer.from(execFileSync('python3', ['-c', PYTHON_VALUE, String(protocol)], { encoding: 'utf8' }).trim(), 'base64');
}

describe('unpickle (data only)', () => {
  it.each([0, 1, 2, 3, 4, 5])('reads protocol %i as Python wrote it', (protocol) => {
    const v = unpickle(pickled(protocol), { globals: {} }) as Map<unknown, unknown>;
    expect(v).toBeInstanceOf(Map);
    expect(v.get('ints')).toEqual([0, 1, -1, 255, 256, 65535, 65536, -(2 ** 31), 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
    expect(v.get('big')).toEqual([2n ** 53n, 2n ** 63n, -(2n ** 70n)]); // past 2^53 - 1: bigint, exact
    expect(v.get('floats')).toEqual([1.5, -0, 1e-300, Infinity, -Infinity]);
    expect(Object.is((v.get('floats') as number[])[1], -0)).toBe(true);
    expect(v.get('texts')).toEqual(['', 'plain', 'ü€😀 \\u0041 line\nbreak']);
    expect(v.get('consts')).toEqual([true, false, null]);
    expect(Object.isFrozen(v.get('consts'))).toBe(true);
    expect(v.get('tuples')).toEqual([[], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4]]);
    const shared = v.get('shared') as unknown[][];
    expect(shared[0]).toBe(shared[1]); // the memo gives back the same object
    expect(v.get(2)).toBe('int key');
    if (protocol >= 3) {
      expect(v.get('bytes')).toEqual([new Uint8Array(0), Uint8Array.of(0, 255), new Uint8Array(300)]);
    }
  });

  it('appends 300,000 items in one APPENDS (Python batches 1,000; a hand-made file need not)', () => {
    const n = 300_000;
    const bytes = Buffer.concat([Buffer.from([0x80, 0x02, 0x5d, 0x28]), Buffer.alloc(2 * n, Buffer.from([0x4b, 0x07])), Buffer.from([0x65, 0x2e])]);
    const list = unpickle(bytes, { globals: {} }) as number[];
    expect(list).toHaveLength(n);
    expect(list[n - 1]).toBe(7);
  });

  it('refuses any global not in the caller\'s table, and reports cut-short and unknown input without throwing anything but its own error', () => {
    const code = Buffer.from(execFileSync('python3', ['-c', 'import base64, os, pickle\nclass R:\n  def __reduce__(self): return (os.system, ("true",))\nprint(base64.b64encode(pickle.dumps(R(), protocol=2)).decode())'], { encoding: 'utf8' }).trim(), 'base64');
    expect(() => unpickle(code, { globals: {} })).toThrow(/names the global posix\.system, which inferkit does not load/);
    const whole = pickled(2);
    expect(() => unpickle(whole.subarray(0, whole.length - 9), { globals: {} })).toThrow(/cut short|pops an empty stack|stops with/);
    expect(() => unpickle(Buffer.from([0x80, 0x02, 0x90, 0x2e]), { globals: {} })).toThrow(/pickle opcode 0x90 at byte 2 is not one inferkit reads/);
    expect(() => unpickle(Buffer.from([0x80, 0x02, 0x68, 0x05, 0x2e]), { globals: {} })).toThrow(/reads memo 5, never stored/);
  });
});
