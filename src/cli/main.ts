import { Command } from 'commander';
import { isInferkitError } from '../errors.js';
import { maskSecretText } from '../manifest/secret-text.js';
import { registerApplyCommand } from './apply.js';
import { registerDeleteCommand } from './delete.js';
import { registerDemoCommand } from './demo.js';
import { registerGetCommand } from './get.js';
import { registerInitCommand } from './init.js';
import { registerManifestCommand } from './manifest.js';
import { cliVersion } from './package-info.js';
import { registerServeCommand } from './serve.js';
import { registerValidateCommand } from './validate.js';
import { registerWaitCommand } from './wait.js';

/** Every command, one `register…Command(program)` per file; adding a command is one line here. */
const COMMANDS: ReadonlyArray<(program: Command) => void> = [registerManifestCommand, registerValidateCommand, registerGetCommand, registerDemoCommand, registerServeCommand, registerInitCommand];
/** The cluster commands (kubectl's verbs against the kubeconfig's cluster). */
const CLUSTER_COMMANDS: ReadonlyArray<(program: Command) => void> = [registerApplyCommand, registerWaitCommand, registerDeleteCommand];

/** Builds the `inferkit` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('inferkit')
    .description('Model inference and time-series forecasting: KServe-style manifests, protocols and local serving')
    .version(cliVersion(), '-V, --version', 'print the inferkit version')
    .showHelpAfterError();
  for (const register of [...COMMANDS, ...CLUSTER_COMMANDS]) {
    register(program);
  }
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((e: unknown) => {
    // Credentials are masked here too: an error may quote a manifest value (issue 28 N3).
    console.error(`inferkit: ${maskSecretText(isInferkitError(e) ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e))}`);
    process.exitCode = 1;
  });
