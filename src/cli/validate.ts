import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { isInferkitError } from '../errors.js';
import { validateManifest } from '../manifest/validate-manifest.js';
import { manifestFiles } from './manifest-files.js';

/** One output line of `inferkit validate` for a file. */
interface Line {
  ok: boolean;
  text: string;
}

/**
 * Registers `inferkit validate FILE…`: checks manifest YAML files as the API server and KServe would
 * (contract, runtime args, the InferenceService CRD schema with unknown fields as errors, credentials in
 * clear), lists every error, exits 1 on any.
 */
export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('validate InferenceService/Secret YAML files against inferkit\'s contract and KServe\'s CRD schema; '
      + 'prints "FILE: ok" or every error as "FILE: path: message"')
    .argument('<files...>', 'YAML files (multi-document), or folders of them (their *.yaml, *.yml and *.json files)')
    .option('--allow-inline-secrets', 'report tokens/keys written in clear into env[].value as warnings, not errors')
    .action(async (files: string[], flags: { allowInlineSecrets?: boolean }) => {
      let failed = false;
      for (const { file, problem } of await filesOf(files)) {
        if (problem !== undefined) {
          failed = true;
          process.stdout.write(`${problem}\n`);
          continue;
        }
        const lines = await validateFile(file, flags.allowInlineSecrets === true);
        failed ||= lines.some((l) => !l.ok);
        for (const line of lines) {
          process.stdout.write(`${file}: ${line.text}\n`);
        }
      }
      if (failed) {
        process.exitCode = 1;
      }
    });
}

/**
 * Folders become their manifest files (`manifestFiles`); anything else stays, so that an unreadable file
 * gets its own line. A folder without manifests is a `problem` line of its own; the other paths are still checked.
 */
async function filesOf(paths: readonly string[]): Promise<Array<{ file: string; problem?: string }>> {
  const out: Array<{ file: string; problem?: string }> = [];
  for (const path of paths) {
    if (!(await stat(path).then((s) => s.isDirectory(), () => false))) {
      out.push({ file: path });
      continue;
    }
    try {
      out.push(...(await manifestFiles([path])).map((file) => ({ file })));
    } catch (e) {
      if (!isInferkitError(e)) {
        throw e;
      }
      out.push({ file: path, problem: e.message });
    }
  }
  return out;
}

async function validateFile(file: string, allowInlineSecrets: boolean): Promise<Line[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return [{ ok: false, text: `cannot read file (${typeof code === 'string' ? code : String(e)})` }];
  }
  try {
    const r = await validateManifest(text, { allowInlineSecrets });
    if (r.count === 0) {
      return [{ ok: false, text: 'no documents' }];
    }
    const warnings = r.warnings.map((i) => ({ ok: true, text: `warning: ${i.path}: ${i.message}` }));
    if (r.errors.length > 0) {
      return [...r.errors.map((i) => ({ ok: false, text: i.path ? `${i.path}: ${i.message}` : i.message })), ...warnings];
    }
    return [...warnings, { ok: true, text: `ok (${r.count} ${r.count === 1 ? 'document' : 'documents'})` }];
  } catch (e) {
    if (isInferkitError(e)) {
      return [{ ok: false, text: e.message }];
    }
    throw e;
  }
}
