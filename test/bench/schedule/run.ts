/**
 * `npm run bench schedule`: the recrawl-scheduling simulations of issues 6 and 21 on the project's
 * own scheduler code. Writes test/bench/results/schedule.json (`--quick` iterates without writing).
 * The full run takes about an hour on one core: `--shard` runs part of it (e.g. some worlds) and
 * saves the runs, `--merge` writes the report from the shards, goals computed over all of them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultRow, projectRoot, writeReport } from '../lib/results';
import { DEFAULT_SIMULATION, type SimulationOptions } from '../../../src/schedule/simulation/simulate';
import { parseArgs } from './args';
import { type Suite, runLegacy } from './legacy';
import { runsFromRows, simulateRealistic, summarise } from './realistic';
import { runForecastOnly } from './forecast-only';

const DAY_MS = 86_400_000;

interface Shard {
  realisticRows: ResultRow[];
  legacy?: Suite;
  runSecs: number;
  /** The realistic suite's subjects the shard ran (the budget rows of a merge are per subject). */
  subjects?: number;
  /**
   * Runs carried over from an earlier report (its commit), written by hand for policies whose code
   * has not changed since: a change to the freshet policy alone re-runs freshet alone.
   */
  carriedFrom?: string;
}

function shardPath(name: string): string {
  return join(projectRoot(), '.state', 'schedule-shards', `${name}.json`);
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  if (args.forecastOnly) {
    runForecastOnly(args);
    return;
  }
  const keep = (p: string): boolean => args.policies === null || args.policies.has(p);
  let shards: Shard[];
  if (args.merge) {
    shards = args.merge.map((name) => JSON.parse(readFileSync(shardPath(name), 'utf8')) as Shard);
    const sizes = new Set(shards.flatMap((s) => (s.subjects === undefined ? [] : [s.subjects])));
    if (sizes.size > 1) throw new Error(`shards ran different numbers of subjects (${[...sizes].join(', ')}): merge shards of one size`);
    // A merge reads its subjects from the shards, not from a flag it could be given wrong.
    for (const n of sizes) args.realistic.subjects = n;
  } else {
    const shard: Shard = { realisticRows: [], runSecs: 0, subjects: args.realistic.subjects };
    if (args.suites.has('realistic')) shard.realisticRows = summarise(simulateRealistic(args, keep), args).results.filter((r) => /\/seed\d+(-held-out)?$/.test(r.variant));
    if (args.suites.has('legacy')) {
      const sim: Omit<SimulationOptions, 'budgetPerHour'> = {
        ...DEFAULT_SIMULATION, warmupMs: args.warmupDays * DAY_MS, measureMs: args.measureDays * DAY_MS, tailMs: args.tailDays * DAY_MS,
      };
      shard.legacy = runLegacy(args, sim, keep);
    }
    shard.runSecs = Math.round((Date.now() - started) / 1000);
    if (args.shard) {
      mkdirSync(join(projectRoot(), '.state', 'schedule-shards'), { recursive: true });
      writeFileSync(shardPath(args.shard), JSON.stringify(shard));
      console.error(`[schedule] shard ${args.shard} saved (${shard.runSecs} s)`);
      return;
    }
    shards = [shard];
  }
  const suites: Record<string, Suite> = {};
  const rows = shards.flatMap((s) => s.realisticRows);
  if (rows.length > 0) suites['realistic'] = summarise(runsFromRows(rows), args);
  const legacy = shards.find((s) => s.legacy)?.legacy;
  if (legacy) suites['legacy'] = legacy;
  const params: Record<string, unknown> = {
    warmup_days: args.warmupDays, measure_days: args.measureDays, tail_days: args.tailDays, tick_secs: DEFAULT_SIMULATION.tickMs / 1000,
    replan_every_secs: DEFAULT_SIMULATION.replanEveryMs / 1000, run_secs: shards.reduce((s, x) => s + x.runSecs, 0), shards: shards.length,
  };
  const carried = shards.flatMap((s) => (s.carriedFrom ? [s.carriedFrom] : []));
  if (carried.length > 0) params['carried_from_commits'] = carried;
  for (const [name, s] of Object.entries(suites)) params[name] = s.params;
  const results = Object.values(suites).flatMap((s) => s.results);
  const goals = Object.values(suites).flatMap((s) => s.goals);
  if (args.write) writeReport('schedule', params, results, goals);
  else console.log(JSON.stringify(goals, null, 2));
}

main();
