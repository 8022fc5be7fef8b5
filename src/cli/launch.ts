import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { missingFlags, relaunchArgs } from './node-flags';

/** What the parent passes on to the crawler it re-runs; the crawler handles them (drain, exit). */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface LaunchOptions {
  /** The script to run again (bin/freshet.js). */
  script: string;
  /** Runs the CLI in this process (when no flag is missing). */
  runHere: () => void;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs the CLI with the Node flags of node-flags.ts: in this process when it has them all (given
 * on the command line, in NODE_OPTIONS, or by being the re-run), else once more as a child with
 * them added, stdio shared. The parent stays as a thin proxy: it forwards SIGINT, SIGTERM and
 * SIGHUP, and ends as the child did (its exit code, or killed by the same signal). The child is
 * in the parent's process group, so a terminal's Ctrl-C and Ctrl-Z reach it directly too
 * (signals.ts takes the two copies of one Ctrl-C for one).
 */
export function launch(opts: LaunchOptions): void {
  const flags = missingFlags(opts.env, process.execArgv);
  if (flags.length === 0) {
    opts.runHere();
    return;
  }
  const child = spawn(process.execPath, relaunchArgs(flags, process.execArgv, opts.script, process.argv.slice(2)), { stdio: 'inherit', env: opts.env });
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const s of FORWARDED_SIGNALS) process.on(s, forward);
  child.once('error', (err) => {
    console.error(`freshet: could not start ${process.execPath} with ${flags.join(' ')}: ${err.message} (FRESHET_NODE_FLAGS= runs without re-starting)`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    if (signal) {
      for (const s of FORWARDED_SIGNALS) process.off(s, forward);
      process.kill(process.pid, signal);
      // A signal whose default is not to terminate (or one ignored here): the shell's convention.
      setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
      return;
    }
    // The forwarders stay (a no-op now): a signal arriving while this process exits, such as
    // Ctrl-C's copy landing just as the crawler ends, must not meet Node's default and kill it.
    process.exit(code ?? 1);
  });
}

