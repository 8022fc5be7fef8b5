import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli/main';

describe('freshet simsite command', () => {
  it('documents every flag in --help', () => {
    const program = buildProgram(() => {
      throw new Error('simsite --help needs no settings');
    });
    const cmd = program.commands.find((c: Command) => c.name() === 'simsite');
    expect(cmd).toBeDefined();
    const help = cmd!.helpInformation();
    for (const flag of ['--host', '--port', '--users', '--seed', '--speed', '--start', '--history-days', '--zombie-share',
      '--diurnal', '--era', '--faults', '--robots', '--response-cache-ms', '--lifecycle', '--count-floors']) {
      expect(help).toContain(flag);
    }
    for (const opt of cmd!.options) expect(opt.description.length).toBeGreaterThan(10);
  });
});
