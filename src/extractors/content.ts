import type { Block } from './blocks';
import { isAncestorOf, isElement, lowestCommonAncestor, type DomElement, type DomParent } from './dom';
import { gaussianSmooth, type ScoringParams } from './scoring';
import { splitAtDips, topSegments, type Segment } from './segments';
import { headedSiblings } from './headed-sections';
import { isTermLabel } from './term-labels';
import { isAdmonition } from './clean';
import { isProse } from './second-opinion';
import { sectionStyle } from './section-style';
import { forumContent } from './thread-content';
import { keepLine, segmentContainer, selectLines, signature, type SelectionParams } from './selection';

export interface ContentParams {
  /** Further segments are candidates when worth at least this share of the best one. */
  minSegmentFraction: number;
  /** Weight of the first segment that ends at or after the headline (the article follows its title). */
  titleBonus: number;
  /** A run of lines summing below minus this splits a segment. */
  maxDip: number;
  /** Text outside comment areas on the page (characters of positive lines) from which comment areas count as furniture. */
  minArticleChars: number;
  /** On forum threads: posts may be short, and every post is content. */
  forum: boolean;
  /** The page is a forum thread by its URL alone, no forum markup (page-kind.ts). */
  forumByUrlOnly: boolean;
  /** minSegmentFraction on forum threads. */
  forumMinSegmentFraction: number;
  /** Share of the page's positive line value a post list must hold to be the content. */
  forumMinShare: number;
}

export const DEFAULT_CONTENT: ContentParams = { minSegmentFraction: 0.08, titleBonus: 2, maxDip: 200, minArticleChars: 200, forum: false, forumByUrlOnly: false, forumMinSegmentFraction: 0.02, forumMinShare: 0.4 };

function candidates(values: number[], sigma: number, p: ContentParams): Segment[] {
  const smoothed = gaussianSmooth(values, sigma);
  const fraction = p.forum ? p.forumMinSegmentFraction : p.minSegmentFraction;
  const segs = topSegments(smoothed, fraction).flatMap((s) => splitAtDips(smoothed, s, p.maxDip));
  const best = Math.max(0, ...segs.map((s) => s.sum));
  return segs.filter((s) => s.sum >= fraction * best);
}

function pickMain(segs: Segment[], titleIndex: number | undefined, bonus: number): Segment | undefined {
  const afterTitle = titleIndex === undefined ? undefined : segs.find((s) => s.end >= titleIndex);
  let best: Segment | undefined;
  let bestScore = -Infinity;
  for (const s of segs) {
    const score = s.sum * (s === afterTitle ? bonus : 1);
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best;
}

/** Characters of positive lines outside comment areas in a segment. */
function articleChars(blocks: Block[], values: number[], seg: Segment): number {
  let n = 0;
  for (let i = seg.start; i <= seg.end; i++) if (values[i]! > 0 && !blocks[i]!.inComments) n += blocks[i]!.chars;
  return n;
}

/**
 * Chooses the content lines: the main maximum-sum segment (favouring the one after the
 * headline), plus segments whose containers repeat the main one's structure (forum posts) or
 * sit inside it (an article split by an embedded box). Reader comments of an article are dropped.
 */
export function chooseContent(
  blocks: Block[], rawValues: number[], titleIndex: number | undefined,
  scoring: ScoringParams, selection: SelectionParams, params: ContentParams, wrappers: ReadonlySet<DomElement> = new Set(),
  items?: ReadonlyMap<Block, DomParent>,
): Block[] {
  let values = rawValues;
  let segs = candidates(values, scoring.sigmaLines, params);
  let main = pickMain(segs, titleIndex, params.titleBonus);
  if (!main) return [];
  // Reader comments are furniture where the page has an article of its own anywhere, not only
  // where the best segment has one: a long comment thread can outweigh the story it follows.
  const dropComments = !params.forum && articleChars(blocks, values, { start: 0, end: blocks.length - 1, sum: 0 }) >= params.minArticleChars;
  if (dropComments && blocks.some((b) => b.inComments)) {
    values = rawValues.map((v, i) => (blocks[i]!.inComments ? -scoring.threshold : v));
    segs = candidates(values, scoring.sigmaLines, params);
    main = pickMain(segs, titleIndex, params.titleBonus);
    if (!main) return [];
  }
  const mainContainer = segmentContainer(blocks, values, main);
  if (!mainContainer) return [];
  // Layout wrappers (layout.ts) are not furniture, whatever their class words say.
  const weights = new Map<DomElement, number>([...wrappers].map((el) => [el, 0]));
  if (params.forum) {
    const posts = forumContent(blocks, values, selection, weights, params, titleIndex);
    if (posts) return posts;
  }
  const containers = new Map<Segment, DomParent>();
  for (const seg of segs) {
    const c = seg === main ? mainContainer : segmentContainer(blocks, values, seg);
    if (c) containers.set(seg, c);
  }
  // Forum posts repeat one structure: a signature shared by two or more segments marks posts.
  const bySignature = new Map<string, number>();
  if (params.forum) {
    for (const c of containers.values()) {
      const sig = signature(c, null);
      bySignature.set(sig, (bySignature.get(sig) ?? 0) + 1);
    }
  }
  const chosen: Block[][] = [];
  const inMain: Segment[] = [];
  for (const [seg, container] of containers) {
    if (seg !== main && !isAncestorOf(mainContainer, container)) {
      const top = lowestCommonAncestor([container, mainContainer]) as DomParent;
      // Repeated structures count only inside the page body's own wrapper (not a banner after it).
      const repeated = (bySignature.get(signature(container, null)) ?? 0) >= 2 && isElement(top) && !['body', 'html'].includes((top as DomElement).name);
      if (!repeated && signature(container, top) !== signature(mainContainer, top)) continue;
    } else {
      inMain.push(seg);
    }
    chosen.push(selectLines(blocks, seg, container, dropComments, selection, weights, !params.forum, items));
  }
  inMain.sort((a, b) => a.start - b.start);
  if (params.forum) {
    // Between two runs of posts: the furniture between them is left out, the lines of the thread kept.
    for (let k = 1; k < inMain.length; k++) {
      const gap = { start: inMain[k - 1]!.end + 1, end: inMain[k]!.start - 1, sum: 0 };
      if (gap.start <= gap.end) chosen.push(selectLines(blocks, gap, mainContainer, dropComments, selection, weights, false, items));
    }
  } else {
    chosen.push(containerLines(blocks, inMain, mainContainer, chosen.flat(), dropComments, selection, weights, items));
  }
  const sections = params.forum ? [] : siblingSections(blocks, mainContainer, dropComments, selection, weights, items);
  // Another segment or the container may have taken a line already.
  const lines = [...new Set([...chosen.flat(), ...sections])];
  return lines.sort((a, b) => a.index - b.index);
}

/**
 * Share of the main container's text that the chosen runs and what precedes them must hold for
 * the text after the last run to stay out.
 */
const MIN_COVERED_SHARE = 0.7;

/**
 * The main container's own text around its runs of dense lines, minus link lists, furniture,
 * captions and boilerplate lines. Everything up to the end of the last run belongs to the text:
 * the lead and the headings above the first run, and what cuts the runs apart in a multi-section
 * article (a data table, a product box, a call to action between two sections). After the last
 * run comes what a template appends (an author's bio, a sign-up box) unless the runs hold little
 * of the container's text: then the container is the text, as on a service or landing page whose
 * short sections never make a long run, and on a round-up whose product boxes cut it short.
 * Else what continues the article's own flow right after the last run is kept (flowTail).
 */
function containerLines(
  blocks: Block[], inMain: Segment[], container: DomParent, chosen: Block[], dropComments: boolean, selection: SelectionParams,
  weights: Map<DomElement, number>, items?: ReadonlyMap<Block, DomParent>,
): Block[] {
  const last = inMain[inMain.length - 1];
  if (!last) return [];
  // The container's lines are one run of the page's lines (the walk is depth-first): found from a
  // line inside it, without asking every line of the page.
  const inside = chosen.find((b) => isAncestorOf(container, b.owner));
  let start = inside?.index ?? 0;
  let end = inside?.index ?? blocks.length - 1;
  if (inside) {
    while (start > 0 && isAncestorOf(container, blocks[start - 1]!.owner)) start--;
    while (end < blocks.length - 1 && isAncestorOf(container, blocks[end + 1]!.owner)) end++;
  }
  const all = selectLines(blocks, { start, end, sum: 0 }, container, dropComments, selection, weights, true, items);
  const before = all.filter((b) => b.index <= last.end);
  const covered = new Set([...chosen, ...before]);
  let coveredChars = 0;
  for (const b of covered) coveredChars += b.chars;
  const allChars = all.reduce((n, b) => n + b.chars, 0);
  if (coveredChars < MIN_COVERED_SHARE * allChars) return all;
  return [...before, ...flowTail(all.filter((b) => b.index > last.end), container)];
}

/** Tags of an article's own flow: a paragraph, a heading, a list, a table, a quote, code. */
const FLOW_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table', 'blockquote', 'pre']);

/**
 * The lines after the last run that continue the article's own flow: each sits in a paragraph,
 * heading, list or table that is a child of the container itself, as the runs' lines do (a last
 * section after a table of prices). The first line inside a box of its own (a <div> or <section>
 * under the container: an author's bio, a sign-up form) ends it.
 */
function flowTail(after: Block[], container: DomParent): Block[] {
  const out: Block[] = [];
  for (const b of after) {
    if (!inFlow(b.owner, container)) break;
    // A link that is no sentence (a related story's title and date, a button) ends it too.
    if (b.linkChars > 0 && !isProse(b) && !isTermLabel(b)) break;
    out.push(b);
  }
  // …and it ends with its last sentence: a sign-off, a "connect with me" line are not the text.
  let end = out.length;
  while (end > 0 && !isProse(out[end - 1]!)) end--;
  return out.slice(0, end);
}

/**
 * Whether a line sits in the article's own flow under the container: in a paragraph, heading,
 * list, table, quote or code block that is a child of it, or in an admonition box (a note, a
 * "See also" box), or the same again inside a plain <section> of it (documentation nests each
 * subsection in one, with no class word of its own).
 */
function inFlow(owner: DomParent, container: DomParent): boolean {
  let top = container;
  for (;;) {
    let child: DomParent | null = owner;
    while (child && child.parent !== top) child = child.parent;
    if (!child || !isElement(child)) return false;
    const el = child as DomElement;
    if (FLOW_TAGS.has(el.name) || isAdmonition(el)) return true;
    if (el.name !== 'section' || el.attribs.class !== undefined) return false;
    top = el;
  }
}

/** Levels above the main container looked at for sibling sections. */
const SECTION_LEVELS = 3;
/**
 * Levels looked at for a series of bare wrappers (section-style.ts): a component framework's
 * page is a column of them, each around one styled section, with the text nested deep inside.
 */
const WRAPPED_SECTION_LEVELS = 8;
const MIN_SECTION_CHARS = 80;
const MIN_SIBLINGS = 2;
/** Mean characters of a section's lines: menu labels and prices are shorter. */
const MIN_SECTION_LINE_CHARS = 10;
/** Grid columns and widgets repeat a style without being sections of one text. */
const LAYOUT_CLASS_RE = /col|widget|sidebar|card|teaser|item|nav|menu|toggle|filter|cookie|consent|modal/i;

/**
 * Sibling sections: a service page or a guide spreads its text over sections the template styles
 * alike (section.location, div.accordion-panel); the run of dense lines finds one of them. From
 * the main container up a few levels, the first element with siblings of its own tag and class
 * (a class, or a bare wrapper's styled only child: section-style.ts) gives those siblings'
 * lines, kept as any content line is.
 */
function siblingSections(
  blocks: Block[], main: DomParent, dropComments: boolean, selection: SelectionParams,
  weights: Map<DomElement, number>, items?: ReadonlyMap<Block, DomParent>,
): Block[] {
  let el: DomParent | null = main;
  for (let level = 0; level <= WRAPPED_SECTION_LEVELS && el && isElement(el); level++, el = el.parent) {
    const e = el as DomElement;
    if (e.name === 'body' || e.name === 'html') return [];
    const parent = e.parent;
    const own = sectionStyle(e);
    if (!parent || (level > SECTION_LEVELS && !own?.wrapped)) continue;
    let sibs = own ? parent.children.filter((c) => c !== e && isElement(c) && sectionStyle(c as DomElement)?.style === own.style) as DomElement[] : [];
    let cls = own?.cls ?? '';
    // A plain element's siblings are its sections when each opens with a heading of one level, as it does.
    if (sibs.length < MIN_SIBLINGS && !e.attribs.class && level <= SECTION_LEVELS) {
      sibs = headedSiblings(e);
      cls = '';
    }
    // Two sections beside the main one make a series; one is as likely a side column or a footer band.
    if (sibs.length < MIN_SIBLINGS || LAYOUT_CLASS_RE.test(cls)) continue;
    // One pass: each line's ancestor among the siblings.
    const bySib = new Map<DomParent, Block[]>(sibs.map((s) => [s, []]));
    for (const b of blocks) {
      let a: DomParent | null = b.owner;
      while (a && a.parent !== parent) a = a.parent;
      const lines = a ? bySib.get(a) : undefined;
      if (lines && keepLine(b, a!, dropComments, selection, weights, items)) lines.push(b);
    }
    // A section holds text, not a row of menu labels or prices.
    return [...bySib.values()].filter((ls) => {
      const chars = ls.reduce((n, b) => n + b.chars, 0);
      return chars >= MIN_SECTION_CHARS && chars >= MIN_SECTION_LINE_CHARS * ls.length;
    }).flat();
  }
  return [];
}
