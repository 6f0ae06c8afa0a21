import { Command } from 'commander';
import { isInferkitError } from '../errors.js';
import { maskSecretText } from '../manifest/secret-text.js';
import { COMMANDS, commandsFor } from './lazy-commands.js';
import { cliVersion } from './package-info.js';

/** Builds the `inferkit` program with the commands `argv` needs (all without `argv`). */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command('inferkit')
    .description('Model inference and time-series forecasting: KServe-style manifests, protocols and local serving')
    .version(cliVersion(), '-V, --version', 'print the inferkit version')
    .showHelpAfterError();
  const names = argv === undefined ? Object.keys(COMMANDS) : commandsFor(argv.slice(2));
  const registers = await Promise.all(names.map((n) => COMMANDS[n]()));
  for (const register of registers) {
    register(program);
  }
  return program;
}

buildProgram(process.argv)
  .then((program) => program.parseAsync(process.argv))
  .catch((e: unknown) => {
    // Credentials are masked here too: an error may quote a manifest value (issue 28 N3).
    console.error(`inferkit: ${maskSecretText(isInferkitError(e) ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e))}`);
    process.exitCode = 1;
  });
