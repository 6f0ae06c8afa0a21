import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { isInferkitError, ValidationError, type ValidationIssue } from '../errors.js';
import { fromYaml } from '../manifest/manifest-yaml.js';
import { runtimeConfig } from '../manifest/runtime-config.js';

/** Registers `inferkit validate FILE…`: checks manifest YAML files, lists every error, exits 1 on any. */
export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('validate InferenceService/Secret YAML files; prints "FILE: ok" or every error as "FILE: path: message"')
    .argument('<files...>', 'YAML files (multi-document)')
    .action(async (files: string[]) => {
      let failed = false;
      for (const file of files) {
        const lines = await validateFile(file);
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

async function validateFile(file: string): Promise<Array<{ ok: boolean; text: string }>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return [{ ok: false, text: `cannot read file (${typeof code === 'string' ? code : String(e)})` }];
  }
  try {
    const docs = fromYaml(text);
    if (docs.length === 0) {
      return [{ ok: false, text: 'no documents' }];
    }
    const issues: ValidationIssue[] = [];
    docs.forEach((doc, i) => {
      if (doc.kind !== 'InferenceService') {
        return;
      }
      try {
        runtimeConfig(doc);
      } catch (e) {
        if (!(e instanceof ValidationError)) {
          throw e;
        }
        issues.push(...e.issues.map((issue) => ({ path: `documents[${i}].${issue.path}`, message: issue.message })));
      }
    });
    if (issues.length > 0) {
      return issues.map((i) => ({ ok: false, text: `${i.path}: ${i.message}` }));
    }
    return [{ ok: true, text: `ok (${docs.length} ${docs.length === 1 ? 'document' : 'documents'})` }];
  } catch (e) {
    if (e instanceof ValidationError) {
      return e.issues.map((i) => ({ ok: false, text: i.path ? `${i.path}: ${i.message}` : i.message }));
    }
    if (isInferkitError(e)) {
      return [{ ok: false, text: e.message }];
    }
    throw e;
  }
}
