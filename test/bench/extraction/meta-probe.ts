/**
 * Robustness probe for metadata (not a benchmark): the WCXB tune pages read as they are, with
 * their JSON-LD dropped, with their meta tags dropped, and with both dropped, author and date
 * scored with meta-score. The rows written are the pages some mode gets wrong, with each mode's answer. A byline the page
 * shows should still be found from the page; a page whose author only a meta tag gives is lost,
 * and rightly. What fails here hints at what fails on unseen sites. Tune part only.
 *
 *   node .state/build/test/bench/extraction/meta-probe.js [--ids=a,b] [--out=rows.json]
 */
import { writeFileSync } from 'node:fs';
import { decodeHtml } from '../../../src/core/charset';
import { loadDataset, readTruthMeta } from '../../../src/eval/dataset';
import { extract } from '../../../src/extractors/text-density';
import { sharedDataDir } from '../lib/results';
import { dropLd, dropMeta, dropTags } from './meta-drop';
import { authorRight, dateRight } from './meta-score';
import { isCheck } from './split';
import { SUBSETS } from './subsets';

const args = process.argv.slice(2);
const ids = args.find((a) => a.startsWith('--ids='))?.slice(6).split(',');
const outPath = args.find((a) => a.startsWith('--out='))?.slice(6);

const dir = sharedDataDir('extraction-dev-large');
const wcxb = SUBSETS.find((s) => s.name === 'wcxb')!.test;
const pages = loadDataset(dir).filter((p) => !isCheck(p.id) && wcxb(p) && (ids === undefined || ids.some((id) => p.id.startsWith(id))));
const rows: Array<{ id: string; url: string; truth: string; asIs?: string; dropped?: string; noLd?: string; noTags?: string; field: string }> = [];
const tally = { author: 0, authorAsIs: 0, authorDropped: 0, date: 0, dateAsIs: 0, dateDropped: 0 };
/** Right answers with only the JSON-LD, only the meta tags dropped. */
const partial = { authorNoLd: 0, authorNoTags: 0, dateNoLd: 0, dateNoTags: 0 };
for (const p of pages) {
  const truth = readTruthMeta(dir, p);
  const html = decodeHtml(p.bytes).text;
  const run = (h: string): { published_at?: string; author?: string } => {
    try {
      return extract(h, { url: p.url });
    } catch {
      return {};
    }
  };
  const asIs = run(html);
  const dropped = run(dropMeta(html));
  const noLd = run(dropLd(html));
  const noTags = run(dropTags(html));
  if (truth.author) {
    tally.author++;
    const a = authorRight(asIs.author, truth.author);
    const d = authorRight(dropped.author, truth.author);
    if (a) tally.authorAsIs++;
    if (d) tally.authorDropped++;
    const l = authorRight(noLd.author, truth.author);
    const t = authorRight(noTags.author, truth.author);
    if (l) partial.authorNoLd++;
    if (t) partial.authorNoTags++;
    if (a !== d || !d || !l || !t) rows.push({ id: p.id, url: p.url ?? '', field: 'author', truth: truth.author, asIs: asIs.author, dropped: dropped.author, noLd: noLd.author, noTags: noTags.author });
  }
  if (truth.publishDate) {
    tally.date++;
    const a = dateRight(asIs.published_at, truth.publishDate);
    const d = dateRight(dropped.published_at, truth.publishDate);
    if (a) tally.dateAsIs++;
    if (d) tally.dateDropped++;
    const l = dateRight(noLd.published_at, truth.publishDate);
    const t = dateRight(noTags.published_at, truth.publishDate);
    if (l) partial.dateNoLd++;
    if (t) partial.dateNoTags++;
    if (a !== d || !d || !l || !t) {
      rows.push({ id: p.id, url: p.url ?? '', field: 'date', truth: truth.publishDate, asIs: asIs.published_at, dropped: dropped.published_at, noLd: noLd.published_at, noTags: noTags.published_at });
    }
  }
}
console.log(`wcxb tune, ${pages.length} pages: author as is ${tally.authorAsIs}/${tally.author}, meta dropped ${tally.authorDropped}/${tally.author}; date as is ${tally.dateAsIs}/${tally.date}, meta dropped ${tally.dateDropped}/${tally.date}`);
console.log(`  JSON-LD only dropped: author ${partial.authorNoLd}/${tally.author}, date ${partial.dateNoLd}/${tally.date}; meta tags only dropped: author ${partial.authorNoTags}/${tally.author}, date ${partial.dateNoTags}/${tally.date}`);
if (outPath) writeFileSync(outPath, JSON.stringify(rows, null, 1));
