import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';
import { COMMANDS, commandsFor } from './lazy-commands.js';

describe('commandsFor', () => {
  it('loads only the command named, none for --version, all for help or a typo', () => {
    expect(commandsFor(['validate', 'examples/forecast.yaml'])).toEqual(['validate']);
    expect(commandsFor(['--version'])).toEqual([]);
    expect(commandsFor(['-V'])).toEqual([]);
    expect(commandsFor(['--help'])).toEqual(Object.keys(COMMANDS));
    expect(commandsFor(['valdate'])).toEqual(Object.keys(COMMANDS));
    expect(commandsFor([])).toEqual(Object.keys(COMMANDS));
  });

  it('still lists every command in the help and suggests one for a typo (CLI as a process)', { timeout: 120_000 }, async () => {
    const help = await runCli(['--help']);
    for (const name of ['manifest', 'validate', 'get', 'demo', 'serve', 'init', 'cache', 'apply', 'wait', 'delete']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
    const typo = await runCli(['valdate', 'x.yaml']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("(Did you mean validate?)");
    const version = await runCli(['--version']);
    expect([version.code, version.stdout.trim()]).toEqual([0, JSON.parse(await import('node:fs').then((fs) => fs.readFileSync('package.json', 'utf8'))).version]);
  });
});
