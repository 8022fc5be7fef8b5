import type { Command } from 'commander';
import type { Settings } from './env';

/** What every CLI command module gets: settings read lazily (so --help needs no environment). */
export interface CliContext {
  settings(): Settings;
  /** The project root (for mappings/, pipelines/ and package.json). */
  root: string;
}

/**
 * One file per sub-command under src/cli/commands/, each exporting a `register`. Registering
 * declares the options only: an action loads what it runs when it runs (`require(…) as typeof
 * import(…)`), so `--help` and `validate` start in a fraction of a second (test/unit/cli/start-up.test.ts).
 */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;
