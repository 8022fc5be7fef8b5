/**
 * Where a WCXB tune page's author truth comes from (not a benchmark): for each source freshet reads
 * an author from — JSON-LD (a person, else an organisation), the meta tags, a rel/itemprop=author
 * element, a link to an author's page, and the visible byline (freshet's author with the meta tags
 * and JSON-LD dropped) — how often it is present, right and wrong; and where a metadata source and
 * the visible byline disagree, which one the truth follows, split by what the metadata name looks
 * like (the site's own name, a name the page never shows, one word like a login). Tune part only.
 *
 *   node .state/build/test/bench/extraction/author-sources.js [--out=rows.json]
 */
import { writeFileSync } from 'node:fs';
import { decodeHtml } from '../../../src/core/charset';
import { loadDataset, readTruthMeta } from '../../../src/eval/dataset';
import { DESK_RE } from '../../../src/extractors/bylines';
import { normalizeSpace, parseHtml, textContent } from '../../../src/extractors/dom';
import { ldAuthor, nameKey, siteNames } from '../../../src/extractors/json-ld';
import { jsonLd, metaAuthor, metaMap } from '../../../src/extractors/metadata';
import { pageElements } from '../../../src/extractors/page-elements';
import { hostKey } from '../../../src/extractors/site-owner';
import { extract } from '../../../src/extractors/text-density';
import { cleanAuthor } from '../../../src/extractors/thread-starter';
import { sharedDataDir } from '../lib/results';
import { dropMeta } from './meta-drop';
import { authorRight, firstAuthorKey } from './meta-score';
import { isCheck } from './split';
import { SUBSETS } from './subsets';

const outPath = process.argv.slice(2).find((a) => a.startsWith('--out='))?.slice(6);

const SOURCES = ['ldPerson', 'ldOrg', 'tags', 'rel', 'link', 'visible', 'final'] as const;
type Source = (typeof SOURCES)[number];

/** The text a reader sees: the body without scripts, styles and tags. */
function shownKey(html: string): string {
  const body = html.replace(/<head\b[\s\S]*?<\/head>/i, ' ').replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  return nameKey(body.replace(/&nbsp;|&#160;/g, ' ').replace(/&amp;/g, '&'));
}

/** What a metadata name looks like: the site's, shown nowhere on the page, one word (a login), else a shown name. */
function kindOf(name: string, site: Set<string>, host: string, shown: string): string {
  const k = nameKey(name);
  if (site.has(k) || (host.length >= 4 && k.length >= 4 && (k.startsWith(host) || host.startsWith(k)))) return 'site';
  if (!shown.includes(k)) return 'unshown';
  if (!/\s/.test(name.trim())) return 'oneWord';
  return 'shown';
}

/** What the visible byline names: the site, a desk ("Aidoc Staff"), else a person (or something read as one). */
function visibleKind(name: string, site: Set<string>, host: string): string {
  const k = nameKey(name);
  if (site.has(k) || (host.length >= 4 && k.length >= 4 && (k.startsWith(host) || host.startsWith(k)))) return 'site';
  return DESK_RE.test(name) ? 'desk' : 'person';
}

const dir = sharedDataDir('extraction-dev-large');
const wcxb = SUBSETS.find((s) => s.name === 'wcxb')!.test;
const pages = loadDataset(dir).filter((p) => !isCheck(p.id) && wcxb(p));
const count = Object.fromEntries(SOURCES.map((s) => [s, { present: 0, right: 0, wrong: 0 }])) as Record<Source, { present: number; right: number; wrong: number }>;
/** Metadata source vs visible byline where both are present and name different people: key `source/kind` → who the truth follows, and freshet. */
const clash = new Map<string, { meta: number; visible: number; neither: number; finalRight: number }>();
/** A metadata source present and wrong where no visible byline exists, by kind. */
const alone = new Map<string, { right: number; wrong: number }>();
const rows: Array<Record<string, string | undefined>> = [];
let withTruth = 0;
for (const p of pages) {
  const truth = readTruthMeta(dir, p).author;
  if (!truth) continue;
  withTruth++;
  const html = decodeHtml(p.bytes).text;
  const els = pageElements(parseHtml(html));
  const meta = metaMap(els);
  const ld = jsonLd(els);
  const run = (h: string): string | undefined => {
    try {
      return extract(h, { url: p.url }).author;
    } catch {
      return undefined;
    }
  };
  const got: Record<Source, string | undefined> = {
    ldPerson: ldAuthor(ld, 'person'),
    ldOrg: ldAuthor(ld, 'organization'),
    tags: metaAuthor(meta),
    rel: cleanAuthor(els.author ? normalizeSpace(textContent(els.author)) : undefined),
    link: els.authorLink,
    visible: run(dropMeta(html)),
    final: run(html),
  };
  for (const s of SOURCES) {
    const v = got[s];
    if (v === undefined) continue;
    count[s].present++;
    count[s][authorRight(v, truth) ? 'right' : 'wrong']++;
  }
  const site = siteNames(meta, ld);
  const host = hostKey(p.url);
  const shown = shownKey(html);
  const visible = got.visible;
  const kinds: Record<string, string> = {};
  for (const s of ['ldPerson', 'tags'] as const) {
    const v = got[s];
    if (v === undefined) continue;
    const kind = kindOf(v, site, host, shown);
    kinds[s] = kind;
    if (visible === undefined) {
      const a = alone.get(`${s}/${kind}`) ?? { right: 0, wrong: 0 };
      a[authorRight(v, truth) ? 'right' : 'wrong']++;
      alone.set(`${s}/${kind}`, a);
      continue;
    }
    if (firstAuthorKey(v) === firstAuthorKey(visible)) continue;
    const who = authorRight(v, truth) ? 'meta' : authorRight(visible, truth) ? 'visible' : 'neither';
    for (const key of [`${s}/${kind}`, `${s} vs visible ${visibleKind(visible, site, host)}`]) {
      const c = clash.get(key) ?? { meta: 0, visible: 0, neither: 0, finalRight: 0 };
      c[who]++;
      if (authorRight(got.final, truth)) c.finalRight++;
      clash.set(key, c);
    }
  }
  rows.push({ id: p.id, url: p.url, truth, ...got, ldKind: kinds.ldPerson, tagKind: kinds.tags });
}
console.log(`wcxb tune pages with an author truth: ${withTruth}`);
console.log('source     present right wrong');
for (const s of SOURCES) console.log(`${s.padEnd(10)} ${String(count[s].present).padStart(7)} ${String(count[s].right).padStart(5)} ${String(count[s].wrong).padStart(5)}`);
console.log('\nmetadata vs visible byline, both present and different, by what the metadata name and what the visible name look like\n(truth follows meta, visible, neither; freshet right)');
for (const [k, c] of [...clash].sort()) console.log(`${k.padEnd(26)} meta ${c.meta}  visible ${c.visible}  neither ${c.neither}  freshet right ${c.finalRight}`);
console.log('\nmetadata with no visible byline (source/kind: right, wrong)');
for (const [k, a] of [...alone].sort()) console.log(`${k.padEnd(18)} right ${a.right}  wrong ${a.wrong}`);
if (outPath) writeFileSync(outPath, JSON.stringify(rows, null, 1));
