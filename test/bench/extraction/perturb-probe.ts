/**
 * Robustness probe (not a benchmark): the TUNE part of extraction-dev-large read as it is and
 * perturbed, per-page primary F1 side by side. A mechanism that leans on one site's wording
 * of its markup breaks here first, the way it breaks on unseen pages. Perturbations (combine
 * with commas): `rename` (every class and id replaced by a hash of it, consistently per page),
 * `meta` (meta tags and JSON-LD dropped), `sem` (article/main/aside/nav/header/footer/section
 * turned into div). Tune part only: the check part is never probed.
 *
 *   node .state/build/test/bench/extraction/perturb-probe.js [--only=<subset>] [--mode=rename] [--half=A|B] [--out=rows.json]
 */
import { writeFileSync } from 'node:fs';
import { decodeHtml } from '../../../src/core/charset';
import { loadDataset } from '../../../src/eval/dataset';
import { scorePage } from '../../../src/eval/score';
import { extract } from '../../../src/extractors/text-density';
import { sharedDataDir } from '../lib/results';
import { isCheck, tuneHalf } from './split';
import { pagePrimaryF1, SUBSETS } from './subsets';

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice(7) ?? 'scrapinghub';
const mode = args.find((a) => a.startsWith('--mode='))?.slice(7) ?? 'rename';
/** Where to write the per-page rows (id, url, asIs, perturbed) as JSON, for comparing runs. */
const outPath = args.find((a) => a.startsWith('--out='))?.slice(6);
/** Restrict to one half of the tune part (split.ts tuneHalf): develop on A, confirm on B. */
const half = args.find((a) => a.startsWith('--half='))?.slice(7);

/** FNV-1a, base 36: a class word's stand-in that keeps equal words equal. */
function hashWord(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return `x${(h >>> 0).toString(36)}`;
}

function perturb(html: string): string {
  let h = html;
  if (mode.includes('rename')) {
    h = h.replace(/(\s(?:class|id)\s*=\s*)(?:"([^"]*)"|'([^']*)')/gi, (_m, pre: string, a?: string, b?: string) =>
      `${pre}"${(a ?? b ?? '').split(/\s+/).filter(Boolean).map(hashWord).join(' ')}"`);
  }
  if (mode.includes('meta')) h = h.replace(/<meta\b[^>]*>/gi, '').replace(/<script[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script>/gi, '');
  if (mode.includes('sem')) h = h.replace(/<(\/?)(?:article|main|aside|nav|header|footer|section)\b/gi, '<$1div');
  return h;
}

const test = SUBSETS.find((s) => s.name === only)!.test;
const pages = loadDataset(sharedDataDir('extraction-dev-large')).filter((p) => !isCheck(p.id) && test(p) && (!half || tuneHalf(p.id) === half));
const rows: Array<{ id: string; url: string; asIs: number; perturbed: number }> = [];
for (const p of pages) {
  const html = decodeHtml(p.bytes).text;
  const f1 = (h: string): number => {
    try {
      return pagePrimaryF1(p, scorePage(p.truthText, extract(h, { url: p.url }).text));
    } catch {
      return 0;
    }
  };
  rows.push({ id: p.id, url: p.url ?? p.domain ?? '', asIs: f1(html), perturbed: f1(perturb(html)) });
}
rows.sort((a, b) => (a.perturbed - a.asIs) - (b.perturbed - b.asIs));
for (const r of rows.slice(0, 15)) console.log(`${r.asIs.toFixed(3)} -> ${r.perturbed.toFixed(3)}  ${r.id.slice(0, 16)}  ${r.url.slice(0, 80)}`);
const mean = (f: (r: (typeof rows)[number]) => number): string => (rows.reduce((s, r) => s + f(r), 0) / rows.length).toFixed(4);
console.log(`${only}${half ? ` half ${half}` : ''} ${mode}: ${rows.length} tune pages, mean primary F1 as is ${mean((r) => r.asIs)}, perturbed ${mean((r) => r.perturbed)}`);
if (outPath) writeFileSync(outPath, JSON.stringify(rows));
