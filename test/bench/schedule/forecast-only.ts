/**
 * `--forecast-only`: the planner's goals without the hour of simulation. A change to the planner
 * alone changes no simulated run (the policy is untouched), so only freshet's run at the reference
 * budget is replayed, up to the end of the warm-up where the forecast is taken, and each budget's
 * forecast is set against the simulated delay (Little's law) of the committed report's runs.
 *
 * The committed runs are only valid while the scheduler and the simulation are as they were: the
 * mode refuses to run when a file under src/schedule/ other than the planner's changed since the
 * report's commit (`--allow-changed` names files the caller vouches change no run, e.g. a removed
 * unused method; they are recorded in the report).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchReport, type ResultRow, projectRoot, writeReport } from '../lib/results';
import { createPolicy } from '../../../src/schedule/simulation/policies';
import { FreshetPolicy } from '../../../src/schedule/simulation/policies/freshet';
import { generateWorld } from '../../../src/schedule/simulation/world';
import { simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import type { BenchArgs } from './args';
import { type PlannerFigures, hookForecast, policyOptions, referenceBudget, runsFromRows, simulationOf, summarise } from './realistic';
import { REALISTIC_WORLDS, type RealisticWorld, realisticWorldOptions } from './worlds';

/** The planner's own files: their changes are what this mode re-evaluates. */
const PLANNER_FILE = /^src\/schedule\/planner[\w-]*\.ts$/;

/** The planner's metrics in the per-run rows (rewritten); every other row is carried. */
const PLANNER_METRICS = ['planner_predicted_mean_delay_hours', 'planner_model_mean_delay_hours', 'planner_calibration', 'planner_posts_per_burst'];

/** Thrown from the replan hook once the forecast is taken: the rest of the run is not needed. */
class ForecastTaken extends Error {}

function reportPath(): string {
  return join(projectRoot(), 'test', 'bench', 'results', 'schedule.json');
}

/** Files under src/schedule/ changed (committed or not) since `commit`, the planner's and the allowed apart. */
export function staleChanges(commit: string, allowed: readonly string[]): string[] {
  const out = execFileSync('git', ['diff', '--name-only', commit, '--', 'src/schedule'], { cwd: projectRoot(), encoding: 'utf8' });
  const untracked = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '--', 'src/schedule'], { cwd: projectRoot(), encoding: 'utf8' });
  return [...out.split('\n'), ...untracked.split('\n')].filter((f) => f !== '' && !PLANNER_FILE.test(f) && !allowed.includes(f));
}

/** Freshet at the reference budget up to the end of the warm-up: the planner's figures there. */
function forecastAtWarmup(all: BenchArgs, worldName: RealisticWorld, seed: number): PlannerFigures {
  const args = all.realistic;
  const sim = simulationOf(all);
  const world = generateWorld(realisticWorldOptions(worldName, args.subjects, simulationEndMs(sim), seed));
  const budgetPerHour = (referenceBudget(args.budgets) * args.subjects) / 24;
  const policy = createPolicy('freshet', policyOptions(world, budgetPerHour, sim, all));
  if (!(policy instanceof FreshetPolicy)) throw new Error('freshet is not a FreshetPolicy');
  let figures: PlannerFigures | undefined;
  const atMs = all.forecastAtDays === null ? sim.warmupMs : all.forecastAtDays * 86_400_000;
  hookForecast(policy, world.subjects, args.budgets.map((b) => (b * args.subjects) / 24), atMs, sim.measureMs / 3_600_000, (p) => {
    figures = p;
    throw new ForecastTaken();
  });
  try {
    simulate(world, policy, { ...sim, budgetPerHour });
  } catch (e) {
    if (!(e instanceof ForecastTaken)) throw e;
  }
  if (!figures) throw new Error(`${worldName} seed ${seed}: the run ended before the warm-up did`);
  return figures;
}

export function runForecastOnly(all: BenchArgs): void {
  if (all.write && all.forecastAtDays !== null) throw new Error('--forecast-at-days explores when the forecast is taken: the report\'s goals take it at the warm-up\'s end, drop --write');
  const report = JSON.parse(readFileSync(reportPath(), 'utf8')) as BenchReport;
  // A report this mode wrote carries runs made on an earlier commit: the check is against that one.
  const earlier = report.params['forecast_only'] as { runs_commit: string; allowed_changes: string[] } | undefined;
  const runsCommit = earlier?.runs_commit ?? report.commit;
  const allowed = [...new Set([...(earlier?.allowed_changes ?? []), ...all.allowChanged])];
  const stale = staleChanges(runsCommit, allowed);
  if (stale.length > 0) {
    throw new Error(`--forecast-only: ${stale.join(', ')} changed since ${runsCommit}, the commit schedule.json's runs were made on: `
      + 'the carried runs would be stale. Rerun the suite (or, if the change alters no run, pass --allow-changed with the files).');
  }
  const realisticParams = (report.params['realistic'] ?? {}) as { subjects?: number };
  // The runs are per subject count: the forecasts must be taken on the same population.
  if (realisticParams.subjects !== undefined) all.realistic.subjects = realisticParams.subjects;
  const args = all.realistic;
  const seedRows = report.results.filter((r) => /\/seed\d+(-held-out)?$/.test(r.variant));
  const runs = runsFromRows(seedRows);
  const seeds = [...args.devSeeds.map((s) => ({ seed: s, heldOut: false })), ...args.heldOutSeeds.map((s) => ({ seed: s, heldOut: true }))];
  let worstChange = 0;
  for (const worldName of REALISTIC_WORLDS) {
    if (!args.worlds.has(worldName)) continue;
    for (const { seed, heldOut } of seeds) {
      const t0 = Date.now();
      const p = forecastAtWarmup(all, worldName, seed);
      const cells: string[] = [];
      args.budgets.forEach((budget, i) => {
        const run = runs.find((r) => r.m.policy === 'freshet' && r.world === worldName && r.budget === budget && r.seed === seed && r.heldOut === heldOut);
        if (!run) throw new Error(`schedule.json has no freshet run ${worldName}/${budget}x/seed${seed}${heldOut ? '-held-out' : ''}`);
        const metric = (k: string): number | undefined => run.m.metrics.find(([name]) => name === k)?.[1];
        const little = metric('little_mean_delay_hours') ?? Number.NaN;
        const before = metric('planner_predicted_mean_delay_hours');
        // Rounded as the report writes them: the goals and means of a merge are computed from written rows.
        const set = (k: string, v: number): void => {
          const row = run.m.metrics.find(([name]) => name === k);
          const written = Math.round(v * 10_000) / 10_000;
          if (row) row[1] = written;
          else run.m.metrics.push([k, written]);
        };
        set('planner_predicted_mean_delay_hours', p.forecast[i]!);
        set('planner_model_mean_delay_hours', p.model[i]!);
        set('planner_calibration', p.calibration);
        set('planner_posts_per_burst', p.dispersion);
        const ratio = p.forecast[i]! / little;
        const was = before === undefined ? Number.NaN : before / little;
        worstChange = Math.max(worstChange, Math.abs(Math.round(p.forecast[i]! * 10_000) / 10_000 - (before ?? Number.NaN)));
        cells.push(`${budget}x ${ratio.toFixed(4)} (was ${was.toFixed(4)})`);
      });
      console.error(`[forecast-only] ${worldName} seed ${seed}${heldOut ? ' (held out)' : ''}: plan / Little ${cells.join(', ')}; `
        + `calibration ${p.calibration.toFixed(3)}, posts per burst ${p.dispersion.toFixed(3)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
  }
  console.error(`[forecast-only] largest change of a forecast against schedule.json (rounded as written): ${worstChange.toFixed(4)} h`);
  const fresh = summarise(runs, all);
  const planGoals = fresh.goals.filter((g) => g.name.includes('freshet plan predicted'));
  for (const g of planGoals) {
    const old = report.goals.find((x) => x.name === g.name);
    console.error(`[forecast-only] ${g.name}: ${old?.value ?? '-'} -> ${g.value}${g.met ? '' : ' (not met)'}`);
  }
  if (!all.write) return;
  // Every run of the report must have its forecast retaken, or the report would mix planners.
  const taken = new Set(seeds.map((s) => `${s.seed}|${s.heldOut}`));
  const missed = runs.filter((r) => r.m.policy === 'freshet' && (!args.worlds.has(r.world) || !taken.has(`${r.seed}|${r.heldOut}`)));
  if (missed.length > 0) throw new Error(`--forecast-only --write retakes every world and seed of schedule.json (${missed.length} freshet runs were not): drop --worlds/--dev-seeds/--held-out-seeds`);
  const value = new Map(fresh.results.map((r) => [`${r.system}|${r.variant}|${r.metric}`, r.value]));
  const results: ResultRow[] = report.results.map((r) => (PLANNER_METRICS.includes(r.metric) && value.has(`${r.system}|${r.variant}|${r.metric}`)
    ? { ...r, value: value.get(`${r.system}|${r.variant}|${r.metric}`)! } : r));
  const goals = report.goals.map((g) => planGoals.find((x) => x.name === g.name) ?? g);
  const carried = ((report.params['carried_from_commits'] as string[] | undefined) ?? []).filter((c) => !c.includes('--forecast-only'));
  const params = {
    ...report.params,
    carried_from_commits: [...carried, `${runsCommit} (every other realistic row; the planner rows recomputed by --forecast-only)`],
    forecast_only: { runs_commit: runsCommit, allowed_changes: allowed },
  };
  writeReport('schedule', params, results, goals, { note: report.machine.note ?? '' });
}
