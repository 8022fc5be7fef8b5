/**
 * Tuning report (not a benchmark): freshet on the TUNE part of extraction-dev-large, per page type,
 * against the dataset's stored Readability.js per-page scores (baselines/reference-outputs.json.gz,
 * the same 0.6.0 + linkedom run the benchmark repeats live). Per-page rows are written for the tune
 * part only; the check part is reported as aggregates alone (`--check`), so it is never tuned on.
 *
 *   node -r <ts loader> test/bench/extraction/tune-report.ts [--check] [--only=<subset>] [--half=A|B] [--out=<file>]
 *
 * `--half` reads one half of the tune part (split.ts tuneHalf): develop on A, confirm on B.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadDataset, readTruthMeta, type DatasetPage } from '../../../src/eval/dataset';
import { aggregate, scorePage, type PageScore } from '../../../src/eval/score';
import { shPrecision, shRecall } from '../../../src/eval/shingles';
import { extract } from '../../../src/extractors/text-density';
import { sharedDataDir } from '../lib/results';
import { authorRight, dateRight } from './meta-score';
import { isCheck, tuneHalf } from './split';
import { pagePrimaryF1, PRIMARY_METRIC, SUBSETS } from './subsets';

interface RefScores { SH_P: number; SH_R: number; SH_CJK_P: number; SH_CJK_R: number; BOW_F1: number }

const args = process.argv.slice(2);
const check = args.includes('--check');
const only = args.find((a) => a.startsWith('--only='))?.slice(7);
const half = args.find((a) => a.startsWith('--half='))?.slice(7).toUpperCase();
if (half !== undefined && (check || (half !== 'A' && half !== 'B'))) throw new Error('--half=A or --half=B, on the tune part only');
const out = args.find((a) => a.startsWith('--out='))?.slice(6) ?? '/tmp/ext/tune-pages.json';

const dir = sharedDataDir('extraction-dev-large');
const ref = JSON.parse(gunzipSync(readFileSync(join(dir, 'baselines', 'reference-outputs.json.gz'))).toString('utf8')) as {
  per_page_scores: Record<string, { readability_js_linkedom: RefScores }>;
};
const onlyTest = only ? SUBSETS.find((s) => s.name === only)!.test : (): boolean => true;
const pages = loadDataset(dir).filter((p) => isCheck(p.id) === check && onlyTest(p) && (half === undefined || tuneHalf(p.id) === half));

const t0 = process.cpuUsage();
const scores = new Map<string, PageScore>();
const texts = new Map<string, string>();
const metas = new Map<string, { published_at?: string; author?: string }>();
for (const p of pages) {
  let text = '';
  try {
    const page = extract(p.bytes, { url: p.url });
    text = page.text;
    metas.set(p.id, { published_at: page.published_at, author: page.author });
  } catch (err) {
    console.error(`${p.id}: ${(err as Error).message}`);
  }
  texts.set(p.id, text);
  scores.set(p.id, scorePage(p.truthText, text));
}
const used = process.cpuUsage(t0);
const f2 = (x: number): string => x.toFixed(3);
const f1 = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

function refPrimary(p: DatasetPage, subset: string): number {
  const r = ref.per_page_scores[p.id]!.readability_js_linkedom;
  const m = PRIMARY_METRIC[subset]!;
  return m === 'BOW' ? r.BOW_F1 : m === 'SH' ? f1(r.SH_P, r.SH_R) : f1(r.SH_CJK_P, r.SH_CJK_R);
}

console.log(`${check ? 'CHECK' : 'TUNE'} part: ${pages.length} pages, freshet ${(pages.length / ((used.user + used.system) / 1e6)).toFixed(0)} pages/CPU-s`);
let catastrophic = 0;
for (const sub of SUBSETS) {
  const ps = pages.filter(sub.test);
  if (ps.length === 0) continue;
  const a = aggregate(ps.map((p) => scores.get(p.id)!));
  const m = PRIMARY_METRIC[sub.name]!;
  const rs = ps.map((p) => ref.per_page_scores[p.id]!.readability_js_linkedom);
  const mean = (f: (r: RefScores) => number): number => rs.reduce((s, r) => s + f(r), 0) / rs.length;
  const refF1 = m === 'BOW' ? mean((r) => r.BOW_F1) : m === 'SH' ? f1(mean((r) => r.SH_P), mean((r) => r.SH_R)) : f1(mean((r) => r.SH_CJK_P), mean((r) => r.SH_CJK_R));
  const mine = a[m];
  console.log(`${sub.name.padEnd(20)} n=${String(ps.length).padStart(4)}  ${m.padEnd(6)} freshet ${f2(mine.f1)} (P ${f2(mine.precision)} R ${f2(mine.recall)})  readability ${f2(refF1)}  diff ${(mine.f1 - refF1 >= 0 ? '+' : '')}${f2(mine.f1 - refF1)}`);
}
const rows = pages.map((p) => {
  const sub = SUBSETS.filter((s) => s.name !== 'all' && s.test(p)).map((s) => s.name)[0] ?? 'all';
  const s = scores.get(p.id)!;
  const mine = pagePrimaryF1(p, s);
  const theirs = refPrimary(p, sub);
  if (mine < 0.2 && theirs > 0.8) catastrophic++;
  return {
    id: p.id, source: p.source, type: p.page_type ?? p.source, url: p.url ?? p.domain, f: +mine.toFixed(3), r: +theirs.toFixed(3),
    bowP: +s.bow.precision.toFixed(3), bowR: +s.bow.recall.toFixed(3), shP: +shPrecision(s.sh).toFixed(3), shR: +shRecall(s.sh).toFixed(3),
    chars: texts.get(p.id)!.length, truthChars: p.truthText.length,
  };
});
const metaRows: unknown[] = [];
let dates = 0;
let datesRight = 0;
let authors = 0;
let authorsRight = 0;
for (const p of pages) {
  const truth = readTruthMeta(dir, p);
  const got = metas.get(p.id) ?? {};
  if (truth.publishDate) {
    dates++;
    if (dateRight(got.published_at, truth.publishDate)) datesRight++;
    else metaRows.push({ id: p.id, url: p.url, field: 'date', truth: truth.publishDate, got: got.published_at });
  }
  if (truth.author) {
    authors++;
    if (authorRight(got.author, truth.author)) authorsRight++;
    else metaRows.push({ id: p.id, url: p.url, field: 'author', truth: truth.author, got: got.author });
  }
}
console.log(`published_at right ${datesRight}/${dates} = ${f2(datesRight / dates)}; author right ${authorsRight}/${authors} = ${f2(authorsRight / authors)}`);
if (!check) writeFileSync(out.replace(/\.json$/, '-meta.json'), JSON.stringify(metaRows, null, 1));
console.log(`catastrophic misses (freshet < 0.2, readability > 0.8): ${catastrophic}`);
if (!check) writeFileSync(out, JSON.stringify(rows));
if (!check) writeFileSync(out.replace(/\.json$/, '-texts.json'), JSON.stringify(Object.fromEntries(texts)));
