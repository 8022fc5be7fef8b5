/**
 * Prints test/bench/results/schedule.json as Markdown tables (means over seeds, and the goals):
 * `node .state/build/test/bench/schedule/table.js` after `npm run bench schedule`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchReport, projectRoot } from '../lib/results';

const fmt = (x: number | null | undefined, digits = 2): string => (x === null || x === undefined ? '–' : x.toFixed(digits));
const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)} %`);

function realisticTable(report: BenchReport, seeds: 'dev' | 'held-out'): void {
  const cell = new Map<string, number | null>();
  const keys: string[] = [];
  for (const r of report.results) {
    const m = new RegExp(`^(.+)/([\\d.]+)x/mean-of-\\d+-${seeds}-seeds$`).exec(r.variant);
    if (!m) continue;
    const k = `${m[1]}|${m[2]}`;
    if (!keys.includes(k)) keys.push(k);
    cell.set(`${k}|${r.system}|${r.metric}`, r.value);
  }
  if (keys.length === 0) return;
  console.log(`\nIssue 21's worlds, mean of the ${seeds} seeds: mean delay in hours (freshet's ratio to the reference oracle), captured share, budget spent`);
  console.log('| world | budget | freshet | oracle (long-run) | oracle (current rate) | round-robin | freshet / reference | captured | spent |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const k of keys) {
    const [world, budget] = k.split('|') as [string, string];
    const v = (system: string, metric: string): number | null | undefined => cell.get(`${k}|${system}|${metric}`);
    const ref = v('oracle-current', 'mean_delay_hours') ?? v('oracle', 'mean_delay_hours');
    const fr = v('freshet', 'mean_delay_hours');
    const spent = v('freshet', 'pages_per_hour');
    const subjects = (report.params['realistic'] as { subjects?: number } | undefined)?.subjects ?? Number.NaN;
    console.log(`| ${world} | ${budget}× | ${fmt(fr)} | ${fmt(v('oracle', 'mean_delay_hours'))} | ${fmt(v('oracle-current', 'mean_delay_hours'))} | `
      + `${fmt(v('uniform', 'mean_delay_hours'))} | ${fr && ref ? (fr / ref).toFixed(3) : '–'} | ${pct(v('freshet', 'captured_share'))} | `
      + `${spent ? pct(spent / ((Number(budget) * subjects) / 24)) : '–'} |`);
  }
}

function main(): void {
  const report = JSON.parse(readFileSync(join(projectRoot(), 'test', 'bench', 'results', 'schedule.json'), 'utf8')) as BenchReport;
  realisticTable(report, 'dev');
  realisticTable(report, 'held-out');
  const rows = report.results.filter((r) => /^(homogeneous|cold|diurnal)\/.*\/mean-of-/.test(r.variant));
  const cells = new Map<string, Map<string, number | null>>();
  for (const r of rows) {
    const k = `${r.system}|${r.variant}`;
    if (!cells.has(k)) cells.set(k, new Map());
    cells.get(k)!.set(r.metric, r.value);
  }
  if (cells.size > 0) {
    console.log('\nIssue 6\'s worlds, mean of the seeds');
    console.log('| world / budget | policy | mean delay h | p90 delay h | ≤ 1 h | lost | waiting at end | avg freshness | captured from t=0 |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const [k, m] of cells) {
      const [system, variant] = k.split('|') as [string, string];
      const world = variant.replace(/\/mean-of-\d+-seeds$/, '');
      console.log(`| ${world} | ${system} | ${fmt(m.get('mean_delay_hours'))} | ${fmt(m.get('p90_delay_hours'))} | ${pct(m.get('within_1h_share'))} | `
        + `${fmt(m.get('posts_lost'), 0)} | ${fmt(m.get('posts_waiting_at_end'), 0)} | ${fmt(m.get('avg_freshness'), 3)} | ${pct(m.get('captured_share_from_start'))} |`);
    }
  }
  console.log('\n| goal | target | value | met |');
  console.log('|---|---|---|---|');
  for (const g of report.goals) console.log(`| ${g.name} | ${g.op} ${g.target} | ${g.value ?? '–'} | ${g.met ? 'yes' : 'no'} |`);
}

main();
