import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every command by name, loaded on demand: `inferkit validate` imports validate's module only, and `--version`
 * none (the server, the cluster client and ONNX Runtime cost most of a start). Adding a command is one line here.
 * The order is the help's order: the local commands, then kubectl's verbs against the kubeconfig's cluster.
 */
export const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  manifest: async () => (await import('./manifest.js')).registerManifestCommand,
  validate: async () => (await import('./validate.js')).registerValidateCommand,
  get: async () => (await import('./get.js')).registerGetCommand,
  demo: async () => (await import('./demo.js')).registerDemoCommand,
  serve: async () => (await import('./serve.js')).registerServeCommand,
  init: async () => (await import('./init.js')).registerInitCommand,
  cache: async () => (await import('./cache.js')).registerCacheCommand,
  apply: async () => (await import('./apply.js')).registerApplyCommand,
  wait: async () => (await import('./wait.js')).registerWaitCommand,
  delete: async () => (await import('./delete.js')).registerDeleteCommand,
};

const VERSION_FLAGS = new Set(['-V', '--version']);

/**
 * The commands a command line needs: the one it names; none for a bare `--version`; every one otherwise (help,
 * an unknown command, no command), so help lists them all and a typo gets commander's suggestion.
 */
export function commandsFor(args: readonly string[]): string[] {
  const name = args.find((a) => !a.startsWith('-'));
  if (name !== undefined && Object.hasOwn(COMMANDS, name)) {
    return [name];
  }
  if (name === undefined && args.length > 0 && args.every((a) => VERSION_FLAGS.has(a))) {
    return [];
  }
  return Object.keys(COMMANDS);
}
