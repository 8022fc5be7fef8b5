/**
 * The Node/V8 flags freshet's CLI runs with, and the arguments that re-run it with them
 * (`bin/freshet.js` re-executes itself once; the benchmarks fork their crawler children with the
 * same list so they measure what users run). V8 sizes the young generation when the isolate is
 * created, so these cannot be set from inside the process (`v8.setFlagsFromString` has no effect
 * on the semi-space once the heap exists).
 *
 * By default there are none: the CLI runs in one process on V8's defaults. `BIG_PAGE_NODE_FLAGS`
 * is the measured opt-in for crawls of very large pages (`FRESHET_NODE_FLAGS=--max-semi-space-size=2`):
 * V8 grows the semi-spaces to 16 MiB under a crawl's allocation pressure, and capped at 2 MiB the
 * RSS peak with 200 pages of 9.5 MB fell by 10-45 MiB (`npm run bench memory`; since huge pages
 * get a compact DOM, the defaults peak at ~370 MiB and the cap saves ~20 more). Its price ruled it
 * out as a default: HTML pages/s fell ~30 % (740 against 1,070 pages/s into the null sink, side by
 * side) and JSON pages cost ~26 % more CPU (README, Throughput).
 */
export const BIG_PAGE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

/** The environment variable that replaces the list (space-separated; empty: none, no re-exec). */
export const NODE_FLAGS_ENV = 'FRESHET_NODE_FLAGS';

/** `--max_semi_space_size=4` and `--max-semi-space-size 4` name the same flag. */
export function flagName(arg: string): string {
  const name = arg.split('=', 1)[0]!;
  return `--${name.replace(/^-+/, '').replace(/_/g, '-')}`;
}

/** The flags of `FRESHET_NODE_FLAGS` when set (even empty), else none. */
export function configuredFlags(value: string | undefined): string[] {
  if (value === undefined) return [];
  const flags = value.split(/\s+/).filter(Boolean);
  for (const f of flags) {
    if (!/^--?[A-Za-z]/.test(f)) throw new Error(`${NODE_FLAGS_ENV}: "${f}" is not a node option (expected --name or --name=value, separated by spaces)`);
  }
  return flags;
}

/**
 * The configured flags this process still lacks: a flag whose name is already in the process's
 * own arguments (`execArgv`) or in `NODE_OPTIONS` is the user's choice (or the re-run's own) and
 * is not added again. Empty: run in this process (that is also why the re-run never loops).
 */
export function missingFlags(env: { FRESHET_NODE_FLAGS?: string | undefined; NODE_OPTIONS?: string | undefined }, execArgv: readonly string[]): string[] {
  const given = new Set([...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].filter((a) => a.startsWith('-')).map(flagName));
  return configuredFlags(env.FRESHET_NODE_FLAGS).filter((f) => !given.has(flagName(f)));
}

/** The arguments of `process.execPath` that re-run `script` with `flags` added before the process's own. */
export function relaunchArgs(flags: readonly string[], execArgv: readonly string[], script: string, args: readonly string[]): string[] {
  return [...flags, ...execArgv, script, ...args];
}
