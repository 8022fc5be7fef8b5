/**
 * Stress probe (not a benchmark): the TUNE part of extraction-dev-large read as it is and under
 * structural perturbations that keep the page's text but change how it is built, per-page
 * primary F1 side by side. A page that reads well as it is but collapses (F1 < 0.2) once its
 * markup is built another way is a catastrophic miss waiting on an unseen site. Perturbations:
 *   drop     every class and id attribute removed
 *   sem      article/main/aside/nav/header/footer/section turned into div; role and itemprop removed
 *   wrap     the content container wrapped in four divs, each of its children in two
 *   sidebar  a long sidebar (link lists, short blurbs, a tag cloud), no class words, put before the content container
 *   last     the content container moved to the end of its parent, after the other columns
 *   all      drop + sem + wrap + sidebar
 * The content container is the smallest element holding 70 % of the truth's words the page holds
 * (found from the truth, so it is a bench tool only). Tune part only: the check part is never probed.
 *
 *   node .state/build/test/bench/extraction/stress-probe.js [--only=<subset>] [--modes=drop,sem,wrap,sidebar,last,all] [--half=A|B] [--out=rows.json]
 * Halves as tune-report's `--half` (split.ts `tuneHalf`).
 */
import { writeFileSync } from 'node:fs';
import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element, ParentNode } from 'domhandler';
import { decodeHtml } from '../../../src/core/charset';
import { loadDataset, type DatasetPage } from '../../../src/eval/dataset';
import { scorePage } from '../../../src/eval/score';
import { cjkTokens } from '../../../src/eval/tokenize';
import { extract } from '../../../src/extractors/text-density';
import { sharedDataDir } from '../lib/results';
import { readabilityText } from './readability';
import { isCheck, tuneHalf } from './split';
import { pagePrimaryF1, SUBSETS } from './subsets';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = arg('only') ?? 'all';
const modes = (arg('modes') ?? 'drop,sem,wrap,sidebar,last,all').split(',');
const halfWanted = arg('half');
const outPath = arg('out');
/** `<id prefix>:<mode>`: print what freshet extracts from that page so perturbed, and stop. */
const show = arg('show');
/** Also read each collapsed page (F1 >= 0.8 as is, < 0.2 perturbed) with Readability.js, perturbed the same way. */
const withReadability = args.includes('--readability');

const isTag = (n: ChildNode): n is Element => n.type === 'tag';

/** The smallest element holding 70 % of the truth words the page's text holds. */
function contentContainer(doc: ParentNode, truth: string): Element | undefined {
  const words = new Set(cjkTokens(truth.toLowerCase()));
  const hits = new Map<Element, number>();
  const totals = new Map<Element, number>();
  const walk = (n: ChildNode): [number, number] => {
    if (n.type === 'text') {
      const ts = cjkTokens(n.data.toLowerCase());
      return [ts.filter((t) => words.has(t)).length, ts.length];
    }
    if (!isTag(n) || n.name === 'script' || n.name === 'style' || n.name === 'noscript') return [0, 0];
    let h = 0;
    let t = 0;
    for (const c of n.children) {
      const [a, b] = walk(c);
      h += a;
      t += b;
    }
    hits.set(n, h);
    totals.set(n, t);
    return [h, t];
  };
  let all = 0;
  for (const c of doc.children) all += walk(c)[0];
  let best: Element | undefined;
  for (const [el, h] of hits) {
    if (h < 0.7 * all || el.name === 'html' || el.name === 'body') continue;
    if (!best || totals.get(el)! < totals.get(best)!) best = el;
  }
  return best;
}

function el(name: string, children: ChildNode[], attribs: Record<string, string> = {}): Element {
  const doc = parseDocument(`<${name}></${name}>`);
  const e = doc.children[0] as Element;
  e.attribs = attribs;
  for (const c of children) appendChild(e, c);
  return e;
}

function appendChild(parent: ParentNode, child: ChildNode): void {
  detach(child);
  child.parent = parent;
  const prev = parent.children[parent.children.length - 1] ?? null;
  child.prev = prev;
  child.next = null;
  if (prev) prev.next = child;
  parent.children.push(child);
}

function detach(n: ChildNode): void {
  const p = n.parent;
  if (!p) return;
  const i = p.children.indexOf(n);
  if (i >= 0) p.children.splice(i, 1);
  if (n.prev) n.prev.next = n.next;
  if (n.next) n.next.prev = n.prev;
  n.parent = null;
  n.prev = null;
  n.next = null;
}

function replaceWith(old: ChildNode, neu: ChildNode): void {
  const p = old.parent!;
  const i = p.children.indexOf(old);
  p.children.splice(i, 0, neu);
  neu.parent = p;
  neu.prev = old.prev;
  if (neu.prev) neu.prev.next = neu;
  p.children.splice(i + 1, 1);
  neu.next = old.next;
  if (neu.next) neu.next.prev = neu;
  old.parent = null;
  old.prev = null;
  old.next = null;
}

function insertBefore(ref: ChildNode, neu: ChildNode): void {
  const p = ref.parent!;
  p.children.splice(p.children.indexOf(ref), 0, neu);
  neu.parent = p;
  neu.prev = ref.prev;
  if (neu.prev) neu.prev.next = neu;
  neu.next = ref;
  ref.prev = neu;
}

const SIDEBAR_HTML = (() => {
  const topics = ['gardening', 'travel', 'cooking', 'finance', 'fitness', 'technology', 'parenting', 'photography', 'music', 'design'];
  const links = Array.from({ length: 30 }, (_, i) => `<li><a href="/p/${i}">Ten simple ways to get better at ${topics[i % 10]} this year, part ${i + 1}</a></li>`).join('');
  const blurbs = topics.slice(0, 4).map((t, i) => `<div><h3><a href="/c/${t}">${t} weekly</a></h3><p>Our editors pick the best ${t} stories of the week, with tips, interviews and reviews, delivered every Friday morning.</p><a href="/c/${t}?p=${i}">Read more</a></div>`).join('');
  const tags = topics.map((t) => `<a href="/tag/${t}">${t}</a>`).join(' ');
  return `<div><div><h2>Popular now</h2><ul>${links}</ul></div><div><h2>Newsletters</h2>${blurbs}</div><div><h2>About this site</h2><p>We are a small independent team writing about everyday life since 2009. Subscribe to get the latest updates delivered to your inbox every week, and follow us on social media.</p></div><div><h2>Tags</h2>${tags}</div></div>`;
})();

function perturb(html: string, truth: string, mode: string): string | undefined {
  // As dom.ts parseHtml does: htmlparser2 reads `<![CDATA[` as a comment that may swallow the
  // page, which a round trip through the serializer would then make real.
  const doc = parseDocument(html.replace(/<!\[CDATA\[/g, ''));
  const content = contentContainer(doc, truth);
  const walkAll = (f: (e: Element) => void): void => {
    const stack: ChildNode[] = [...doc.children];
    while (stack.length) {
      const n = stack.pop()!;
      if (isTag(n)) {
        f(n);
        stack.push(...n.children);
      }
    }
  };
  const parts = mode === 'all' ? ['drop', 'sem', 'wrap', 'sidebar'] : [mode];
  // Structure first (the container is found before any tag is renamed).
  if (parts.includes('wrap') || parts.includes('sidebar') || parts.includes('last')) {
    if (!content?.parent) return undefined;
    if (parts.includes('last')) {
      const p = content.parent;
      detach(content);
      appendChild(p, content);
    }
    if (parts.includes('sidebar')) insertBefore(content, parseDocument(SIDEBAR_HTML).children[0]!);
    if (parts.includes('wrap')) {
      for (const c of [...content.children]) {
        if (!isTag(c)) continue;
        const holder = el('div', []);
        replaceWith(c, holder);
        appendChild(holder, el('div', [c]));
      }
      const holder = el('div', []);
      replaceWith(content, holder);
      appendChild(holder, el('div', [el('div', [el('div', [content])])]));
    }
  }
  walkAll((e) => {
    if (parts.includes('drop')) {
      delete e.attribs.class;
      delete e.attribs.id;
    }
    if (parts.includes('sem')) {
      if (/^(?:article|main|aside|nav|header|footer|section)$/.test(e.name)) e.name = 'div';
      delete e.attribs.role;
      delete e.attribs.itemprop;
    }
  });
  return render(doc, { decodeEntities: false });
}

interface Row { id: string; half: 'A' | 'B'; type: string; url: string; asIs: number; [mode: string]: number | string }

const test = SUBSETS.find((s) => s.name === only)!.test;
const pages = loadDataset(sharedDataDir('extraction-dev-large'))
  .filter((p) => !isCheck(p.id) && test(p) && (!halfWanted || tuneHalf(p.id) === halfWanted));
const f1 = (p: DatasetPage, h: string): number => {
  try {
    return pagePrimaryF1(p, scorePage(p.truthText, extract(h, { url: p.url }).text));
  } catch {
    return 0;
  }
};
const rows: Row[] = [];
if (show) {
  const [id, m] = show.split(':');
  const p = pages.find((q) => q.id.startsWith(id!))!;
  const h = m === 'asIs' ? decodeHtml(p.bytes).text : perturb(decodeHtml(p.bytes).text, p.truthText, m!)!;
  if (arg('dump')) writeFileSync(arg('dump')!, h);
  console.log(extract(h, { url: p.url }).text);
  process.exit(0);
}
for (const p of pages) {
  const html = decodeHtml(p.bytes).text;
  const row: Row = { id: p.id, half: tuneHalf(p.id), type: p.page_type ?? p.source, url: p.url ?? p.domain ?? '', asIs: +f1(p, html).toFixed(3) };
  for (const m of modes) {
    const h = perturb(html, p.truthText, m);
    const score = h === undefined ? row.asIs : +f1(p, h).toFixed(3);
    row[m] = score;
    if (withReadability && h !== undefined && row.asIs >= 0.8 && score < 0.2) {
      row[`${m}:readability`] = +pagePrimaryF1(p, scorePage(p.truthText, readabilityText(Buffer.from(h)).text)).toFixed(3);
    }
  }
  rows.push(row);
}
const mean = (xs: number[]): string => (xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length)).toFixed(4);
for (const h of ['A', 'B'] as const) {
  const rs = rows.filter((r) => r.half === h);
  if (!rs.length) continue;
  const worst = rs.map((r) => Math.min(...modes.map((m) => r[m] as number)));
  console.log(`half ${h}: ${rs.length} pages, as is ${mean(rs.map((r) => r.asIs))}, worst case ${mean(worst)}, collapses (as is >= 0.8, worst < 0.2) ${rs.filter((r, i) => r.asIs >= 0.8 && worst[i]! < 0.2).length}`);
  for (const m of modes) {
    const xs = rs.map((r) => r[m] as number);
    const collapses = rs.filter((r) => r.asIs >= 0.8 && (r[m] as number) < 0.2).length;
    const drops = rs.filter((r) => r.asIs - (r[m] as number) >= 0.3).length;
    const misses = rs.filter((r) => r.asIs >= 0.8 && (r[m] as number) < 0.2 && ((r[`${m}:readability`] as number | undefined) ?? 0) > 0.8).length;
    console.log(`  ${m.padEnd(8)} mean ${mean(xs)}  min ${Math.min(...xs).toFixed(3)}  collapses ${collapses}${withReadability ? ` (Readability.js > 0.8 on ${misses})` : ''}  drops >= 0.3: ${drops}`);
  }
}
if (outPath) writeFileSync(outPath, JSON.stringify(rows));
