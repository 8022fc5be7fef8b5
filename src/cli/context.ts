import type { Command } from 'commander';
import type { Settings } from './env';

/** What every CLI command module gets: settings read lazily (so --help needs no environment). */
export interface CliContext {
  settings(): Settings;
  /** The project root (for mappings/, pipelines/ and package.json). */
  root: string;
}

/** One file per sub-command under src/cli/commands/, each exporting a `register`. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;
