/**
 * `npm run bench schedule`: the recrawl-scheduling simulations of issues 6 and 21 on the project's
 * own scheduler code. Writes test/bench/results/schedule.json (`--quick` iterates without writing).
 */
import { writeReport } from '../lib/results';
import { DEFAULT_SIMULATION, type SimulationOptions } from '../../../src/schedule/simulation/simulate';
import { parseArgs } from './args';
import { type Suite, runLegacy } from './legacy';
import { runRealistic } from './realistic';

const DAY_MS = 86_400_000;

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const keep = (p: string): boolean => args.policies === null || args.policies.has(p);
  const suites: Record<string, Suite> = {};
  if (args.suites.has('realistic')) suites['realistic'] = runRealistic(args, keep);
  if (args.suites.has('legacy')) {
    const sim: Omit<SimulationOptions, 'budgetPerHour'> = {
      ...DEFAULT_SIMULATION, warmupMs: args.warmupDays * DAY_MS, measureMs: args.measureDays * DAY_MS, tailMs: args.tailDays * DAY_MS,
    };
    suites['legacy'] = runLegacy(args, sim, keep);
  }
  const params: Record<string, unknown> = {
    warmup_days: args.warmupDays, measure_days: args.measureDays, tail_days: args.tailDays, tick_secs: DEFAULT_SIMULATION.tickMs / 1000,
    replan_every_secs: DEFAULT_SIMULATION.replanEveryMs / 1000, run_secs: Math.round((Date.now() - started) / 1000),
  };
  for (const [name, s] of Object.entries(suites)) params[name] = s.params;
  const results = Object.values(suites).flatMap((s) => s.results);
  const goals = Object.values(suites).flatMap((s) => s.goals);
  if (args.write) writeReport('schedule', params, results, goals);
  else console.log(JSON.stringify(goals, null, 2));
}

main();
