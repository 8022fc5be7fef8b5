/**
 * Prints test/bench/results/schedule.json as Markdown tables (means over seeds, and the goals):
 * `node .state/build/test/bench/schedule/table.js` after `npm run bench schedule`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchReport, projectRoot } from '../lib/results';

function main(): void {
  const report = JSON.parse(readFileSync(join(projectRoot(), 'test', 'bench', 'results', 'schedule.json'), 'utf8')) as BenchReport;
  const rows = report.results.filter((r) => r.variant.includes('/mean-of-'));
  const key = (system: string, variant: string): string => `${system}|${variant}`;
  const cells = new Map<string, Map<string, number | null>>();
  for (const r of rows) {
    const k = key(r.system, r.variant);
    if (!cells.has(k)) cells.set(k, new Map());
    cells.get(k)!.set(r.metric, r.value);
  }
  const theory = new Map<string, number[]>();
  for (const r of report.results) {
    if (r.system !== 'sqrt-rule-theory' || r.value === null) continue;
    const v = r.variant.replace(/\/seed\d+$/, '');
    theory.set(v, [...(theory.get(v) ?? []), r.value]);
  }
  const fmt = (x: number | null | undefined, digits = 2): string => (x === null || x === undefined ? '–' : x.toFixed(digits));
  const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)} %`);
  console.log('| world / budget | policy | mean delay h | p90 delay h | ≤ 1 h | lost | waiting at end | avg freshness | captured from t=0 |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [k, m] of cells) {
    const [system, variant] = k.split('|') as [string, string];
    const world = variant.replace(/\/mean-of-\d+-seeds$/, '');
    console.log(`| ${world} | ${system} | ${fmt(m.get('mean_delay_hours'))} | ${fmt(m.get('p90_delay_hours'))} | ${pct(m.get('within_1h_share'))} | `
      + `${fmt(m.get('posts_lost'), 0)} | ${fmt(m.get('posts_waiting_at_end'), 0)} | ${fmt(m.get('avg_freshness'), 3)} | ${pct(m.get('captured_share_from_start'))} |`);
  }
  for (const [v, xs] of theory) console.log(`| ${v} | (Σ√λ)²/(2BΣλ) | ${fmt(xs.reduce((a, b) => a + b, 0) / xs.length)} | | | | | | |`);
  console.log('\n| goal | target | value | met |');
  console.log('|---|---|---|---|');
  for (const g of report.goals) console.log(`| ${g.name} | ${g.op} ${g.target} | ${g.value ?? '–'} | ${g.met ? 'yes' : 'no'} |`);
}

main();
