import type { Block } from './blocks';
import { classWeight } from './clean';
import { findFirst, isElement, type DomElement, type DomParent } from './dom';

/**
 * Pages made of repeated items (listings, search results, product grids, event calendars, job
 * boards): each item is a card whose title, and often whose whole snippet, is a link. Scored line
 * by line, link text is navigation and the cards sink below the bar. But navigation repeats
 * short labels, while cards repeat a structure holding prose: several lines, or long ones. When
 * such a run of sibling cards holds a large share of the page's text, their link text is read
 * as text.
 */
export interface ItemParams {
  /** Siblings of one shape needed to call them items. */
  minItems: number;
  /** Characters an item must hold on average (menu entries hold a word or two). */
  minItemChars: number;
  /** At most this many characters an item on average (page sections are not items). */
  maxItemChars: number;
  /** Share of the page's characters the items must hold together. */
  minShare: number;
  /** At most this many lines with a link per item on average: a card links its title, snippet, source and a button or two; a box of links is a link list. */
  maxLinkLinesPerItem: number;
  /** Share of the page a grid of cards with little link text must hold to count as items. */
  minShortShare: number;
  /** At most this many characters per line on average in such a grid (names, prices, specs; not prose). */
  maxShortLineChars: number;
  /** Siblings needed when each holds a picture and little more than a name (a grid of picture cards). */
  minPictureItems: number;
  /** Characters such a picture card must hold on average (a name of a few words). */
  minPictureItemChars: number;
  /** Share of the items' text above which the item holding the page's headline is the page's own story. */
  maxHeadlineItemShare: number;
  /** Sections an A-Z directory needs (headed by letters in order) to be read as items. */
  minLetteredItems: number;
  /** Groups of one shape (sliders of cards) at most summed against minShare. */
  maxSliders: number;
  /** Characters of a linked line that reads as a card's teaser (a sentence or two), not a menu entry. */
  minTeaserChars: number;
  /** Siblings a list right under the page's headline needs (headedList). */
  minHeadedItems: number;
  /** Share of the page such a list must hold (menus and a long blurb below it may hold the rest). */
  minHeadedShare: number;
  /** Characters of text at most between the headline and such a list (a category's intro, not an article). */
  maxIntroChars: number;
}

export const DEFAULT_ITEMS: ItemParams = {
  minItems: 3, minItemChars: 60, maxItemChars: 1500, minShare: 0.3, maxLinkLinesPerItem: 6, minShortShare: 0.5, maxShortLineChars: 40,
  minPictureItems: 6, minPictureItemChars: 12, minTeaserChars: 100, minLetteredItems: 5, maxHeadlineItemShare: 0.3, maxSliders: 6,
  minHeadedItems: 6, minHeadedShare: 0.1, maxIntroChars: 1200,
};

/** How far above a line its item may sit. */
const MAX_DEPTH = 8;
/**
 * How far on a page where no item list sits within MAX_DEPTH: a best-seller list nests each
 * card's lines a dozen wrappers below its entry. Only then, for reaching that far also counts the
 * lines of whole page sections into their ancestors, and on a page that has a list near its lines
 * those sections would outweigh it. That far, only cards whose text is much in links count: a
 * page's sections of short plain lines (a plan table, a spec sheet) read as a grid of short cards.
 */
const MAX_DEEP_DEPTH = 14;

/** What makes sibling items alike: the tag and first class word, digits ignored. */
export function shape(el: DomElement): string {
  return `${el.name}.${(el.attribs.class ?? '').replace(/\d+/g, '').trim().split(/\s+/)[0]}`;
}

interface Group {
  parent: DomParent;
  items: Set<DomParent>;
  chars: number;
  linkChars: number;
  linkLines: number;
  lines: number;
  cjkChars: number;
  /** Linked lines of prose size (see ItemParams.minTeaserChars). */
  teasers: number;
  /** Lines showing a price (PRICE_RE). */
  prices: number;
  /** The first line of each item, in page order. */
  firsts: string[];
  /** Index of the group's first line. */
  at: number;
  /** The parents of several groups read as one (sliders of one shape); else only `parent`. */
  parents?: Set<DomParent>;
}

/**
 * The lines of the page's item list: the largest group of at least `minItems` siblings of one
 * shape whose items hold prose-sized text on average and together a large share of the page,
 * with much of it in links (else the line model already reads them) but in a few lines per item
 * (a box of many links is a link list). Undefined when none.
 */
export function findItemLines(blocks: Block[], headline?: Block, params: ItemParams = DEFAULT_ITEMS): Map<Block, DomParent> | undefined {
  const top = headline ?? blocks.find((b) => b.heading === 1);
  // The list under the headline is looked for in the same walk, and read only when no list holds minShare.
  const headed: HeadedList | undefined = top ? { by: top } : undefined;
  const near = itemLinesWithin(MAX_DEPTH, blocks, headline, params, false, headed);
  if (near !== null) return near;
  const deep = itemLinesWithin(MAX_DEEP_DEPTH, blocks, headline, params, true);
  if (deep !== null) return deep;
  return headed?.group ? groupLines(blocks, headed.group, headed.held!, headline, params) : undefined;
}

/** The list right under the page's headline (headedList) found during the near walk, and what that walk's elements hold. */
interface HeadedList {
  by: Block;
  group?: Group;
  held?: ReadonlyMap<DomParent, { chars: number }>;
  before?: number[];
}

/**
 * Characters of the lines before each line (prefix sums, a Han character counting as a short
 * word): what stands between a headline and a list.
 */
function charsBefore(blocks: Block[]): number[] {
  const before = new Array<number>(blocks.length + 1);
  before[0] = 0;
  for (let i = 0; i < blocks.length; i++) before[i + 1] = before[i]! + blocks[i]!.chars + 3 * blocks[i]!.cjkChars;
  return before;
}

/** findItemLines with items at most `maxDepth` above their lines; null when no group of siblings reads as items. */
function itemLinesWithin(
  maxDepth: number, blocks: Block[], headline: Block | undefined, params: ItemParams, linkedOnly = false, headed?: HeadedList,
): Map<Block, DomParent> | undefined | null {
  let total = 0;
  // What each element holds, summed over its lines first: the shape strings are then built once
  // per element, not once per line and ancestor.
  const held = new Map<DomParent, { chars: number; linkChars: number; linkLines: number; lines: number; cjkChars: number; teasers: number; prices: number; first: string; at: number }>();
  for (const b of blocks) {
    total += b.chars;
    const teaser = b.linkChars > 0.5 * b.chars && b.chars + 3 * b.cjkChars >= params.minTeaserChars ? 1 : 0;
    const price = PRICE_RE.test(b.text) ? 1 : 0;
    let depth = 0;
    for (let el: DomParent | null = b.owner; el && el.parent && depth < maxDepth; el = el.parent, depth++) {
      let h = held.get(el);
      if (!h) held.set(el, (h = { chars: 0, linkChars: 0, linkLines: 0, lines: 0, cjkChars: 0, teasers: 0, prices: 0, first: b.text, at: b.index }));
      h.chars += b.chars;
      h.lines++;
      h.cjkChars += b.cjkChars;
      h.teasers += teaser;
      h.prices += price;
      h.linkChars += b.linkChars;
      if (b.linkChars > 0) h.linkLines++;
    }
  }
  const groups = new Map<DomParent, Map<string, Group>>();
  for (const [el, h] of held) {
    if (!isElement(el) || !el.parent) continue;
    const parent = el.parent;
    // The page's own bands (a table-layout page's header, body and footer tables) are no cards.
    if (isElement(parent) && (parent as DomElement).name === 'body') continue;
    const key = shape(el as DomElement);
    let byShape = groups.get(parent);
    if (!byShape) groups.set(parent, (byShape = new Map()));
    let g = byShape.get(key);
    if (!g) byShape.set(key, (g = { parent, items: new Set(), chars: 0, linkChars: 0, linkLines: 0, lines: 0, cjkChars: 0, teasers: 0, prices: 0, firsts: [], at: h.at }));
    g.items.add(el);
    g.at = Math.min(g.at, h.at);
    g.chars += h.chars;
    g.linkChars += h.linkChars;
    g.linkLines += h.linkLines;
    g.lines += h.lines;
    g.cjkChars += h.cjkChars;
    g.teasers += h.teasers;
    g.prices += h.prices;
    g.firsts.push(h.first);
  }
  let best: Group | undefined;
  // Groups that pass every test but the page share, by the shape of their parent and items:
  // several sliders of product cards on one page are one list cut in rows.
  const families = new Map<string, Group[]>();
  for (const byShape of groups.values()) {
    for (const [key, g] of byShape) {
      if (!itemGroup(g, total, params, linkedOnly)) continue;
      if (headed && (!headed.group || g.chars > headed.group.chars) && headedList(g, headed.by, (headed.before ??= charsBefore(blocks)), total, params)) {
        headed.group = g;
        headed.held = held;
      }
      if (g.chars >= params.minShare * total) {
        if (!best || g.chars > best.chars) best = g;
      } else if (isElement(g.parent)) {
        const family = `${shape(g.parent as DomElement)}>${key}`;
        const list = families.get(family);
        if (list) list.push(g);
        else families.set(family, [g]);
      }
    }
  }
  if (best && !best.parents && isElement(best.parent)) {
    // The list's other modules: groups of the same item template under parents of the same
    // template (a "Featured" row above the grid), each too small to pass the share alone.
    const family = families.get(`${shape(best.parent as DomElement)}>${shape([...best.items][0] as DomElement)}`);
    if (family && family.length <= params.maxSliders) {
      const items = new Set([...best.items, ...family.flatMap((g) => [...g.items])]);
      best = { ...best, items, chars: best.chars + family.reduce((n, g) => n + g.chars, 0), parents: new Set([best.parent, ...family.map((g) => g.parent)]) };
    }
  }
  if (!best) {
    for (const list of families.values()) {
      // Sliders are rows of picture cards, a handful on a page; dozens of rows of cards are the
      // grid of more stories under a story.
      if (list.length < 2 || list.length > params.maxSliders) continue;
      const sum = list.reduce((n, g) => n + g.chars, 0);
      if (sum < params.minShare * total || (best && sum <= best.chars)) continue;
      const items = new Set(list.flatMap((g) => [...g.items]));
      if (!pictureCards(items)) continue;
      best = { ...list[0]!, parent: list[0]!.parent, items, chars: sum, parents: new Set(list.map((g) => g.parent)) };
    }
  }
  if (!best) return null;
  return groupLines(blocks, best, held, headline, params);
}

/** The lines of a group's items, or undefined when the page's headline sits in one of them and holds much of the group (a detail page). */
function groupLines(
  blocks: Block[], best: Group, held: ReadonlyMap<DomParent, { chars: number }>, headline: Block | undefined, params: ItemParams,
): Map<Block, DomParent> | undefined {
  // A detail page whose own headline sits in one of the repeated boxes (a story among "breaking
  // news" boxes) is one item's page, not a listing: the line model decides. Unless that box is
  // no bigger than its siblings: a listing whose headline tops its first section.
  if (headline) {
    for (let el: DomParent | null = headline.owner; el; el = el.parent) {
      if (best.items.has(el) && held.get(el)!.chars > params.maxHeadlineItemShare * best.chars) return undefined;
    }
  }
  const lines = new Map<Block, DomParent>();
  const parents = best.parents ?? new Set([best.parent]);
  for (const b of blocks) {
    for (let el: DomParent | null = b.owner; el && !parents.has(el); el = el.parent) {
      if (el.parent && parents.has(el.parent)) {
        if (best.items.has(el)) lines.set(b, el);
        break;
      }
    }
  }
  return lines;
}

/**
 * A list right under the page's headline: a category's grid of story, recipe or show cards
 * whose menus, filters and footer hold most of the page's text, so it never holds minShare.
 * Many picture cards, opening after the headline with at most an intro's worth of text between
 * (a Han character counting as a short word); a detail page's own text lies there, and its
 * more-stories list follows it. A shop's grid of priced products under a category blurb is left
 * to minShare: whether such a page's content is its products or its buying guide, its own
 * template does not tell (a shop's category pages go either way).
 */
function headedList(g: Group, headedBy: Block, before: number[], total: number, params: ItemParams): boolean {
  if (g.items.size < params.minHeadedItems || g.at <= headedBy.index || g.chars < params.minHeadedShare * total) return false;
  const between = before[g.at]! - before[headedBy.index + 1]!;
  return between <= Math.min(g.chars + 3 * g.cjkChars, params.maxIntroChars) && pictureCards(g.items) && !pricedCards(g) && !galleryCards(g.items);
}

/** A link to a picture file: a gallery's lightbox, not an item's page. */
const PICTURE_HREF_RE = /\.(?:jpe?g|png|gif|webp|avif)(?:[?#]|$)/i;

/** The link an item is, or sits in, or holds first. */
function linkOf(item: DomParent): DomElement | undefined {
  for (let el: DomParent | null = item, up = 0; el && up < 3; el = el.parent, up++) if (isElement(el) && (el as DomElement).name === 'a') return el as DomElement;
  return findFirst(item, (d) => d.name === 'a');
}

/** Whether most items link to their picture (a photo gallery with captions) rather than to a page of their own. */
function galleryCards(items: Set<DomParent>): boolean {
  let pictures = 0;
  for (const el of items) {
    const a = linkOf(el);
    if (a && PICTURE_HREF_RE.test(a.attribs.href ?? '')) pictures++;
  }
  return 2 * pictures > items.size;
}

/** A price: a currency sign beside a figure ("$199.00", "199 €", "£88"). */
const PRICE_RE = /[$€£¥]\s?\d|\d\s?[$€£¥]/;

/** Whether most items show a price (a product grid). */
function pricedCards(g: Group): boolean {
  return 2 * g.prices >= g.items.size;
}

/** Whether a group of siblings of one shape reads as items, whatever share of the page it holds. */
function itemGroup(g: Group, total: number, params: ItemParams, linkedOnly = false): boolean {
  const n = g.items.size;
  if (n < params.minItems) return false;
  const avg = g.chars / n;
  if (avg > params.maxItemChars) return false;
  // A grid of picture cards names each item in a few words (a recipe, a product): short as
  // menu entries, but a menu's entries carry no picture each.
  // An A-Z directory's sections hold a letter and a few linked names each: a menu's entries
  // are not headed by the alphabet in order.
  if (avg < params.minItemChars && !(n >= params.minPictureItems && avg >= params.minPictureItemChars && pictureCards(g.items)) && !alphabetical(g.firsts, params.minLetteredItems)) return false;
  // Cards with little link text already score as text, unless their lines are too short to
  // (a product grid's names, prices and specs: most of the page, but no prose; a line of Han
  // characters says as much as one several times longer); boxes of many links are link lists.
  const shortCards = !linkedOnly && g.chars >= params.minShortShare * total && (g.chars + 3 * g.cjkChars) / g.lines <= params.maxShortLineChars;
  // A card whose teaser sentence is a link may also carry a box of tag and category links: one
  // teaser per item. A link list's entries are never sentences, and a box of several teasers
  // is a section of other stories, not one card.
  const oneTeaserEach = g.teasers >= n && g.teasers <= 1.5 * n;
  const linkList = g.linkLines > params.maxLinkLinesPerItem * n && !oneTeaserEach;
  return !((g.linkChars < 0.3 * g.chars && !shortCards) || linkList);
}

/**
 * Whether the items open with single letters in alphabetical order (A, B, C ... W; letters with
 * no entries left out), at least `min` of them: the sections of an A-Z directory.
 */
function alphabetical(firsts: string[], min: number): boolean {
  if (firsts.length < min) return false;
  let prev = '';
  for (const t of firsts) {
    const letter = t.trim();
    if (!/^\p{Lu}$/u.test(letter) || letter.localeCompare(prev) <= 0) return false;
    prev = letter;
  }
  return true;
}

/** Whether (nearly) every item holds a picture of its own. */
function pictureCards(items: Set<DomParent>): boolean {
  let pictured = 0;
  for (const el of items) if (findFirst(el, (d) => d.name === 'img' || d.name === 'picture')) pictured++;
  return pictured >= 0.9 * items.size;
}

/**
 * Values of the item lines: each item's lines scored as one node with its link text read as
 * text (the threshold paid once per item, the value shared out by length); other lines keep theirs.
 */
export function itemValues(lines: Map<Block, DomParent>, values: number[], lineValue: (b: Block) => number): number[] {
  const out = values.slice();
  const byItem = new Map<DomParent, Block[]>();
  for (const [b, item] of lines) {
    const list = byItem.get(item);
    if (list) list.push(b);
    else byItem.set(item, [b]);
  }
  for (const [item, run] of byItem) {
    // Class words inside the card (Bootstrap's div.caption) name its parts, not furniture: only
    // those above the item count.
    let inside = 0;
    for (let el: DomParent | null = run[0]!.owner; el && el !== item; el = el.parent) if (isElement(el)) inside += classWeight(el as DomElement);
    const node: Block = { ...run[0]!, chars: 0, linkChars: 0, cjkChars: 0, punct: 0, classScore: run[0]!.classScore - inside };
    for (const b of run) {
      node.chars += b.chars;
      node.cjkChars += b.cjkChars;
      node.punct += b.punct;
    }
    const v = lineValue(node);
    for (const b of run) out[b.index] = node.chars === 0 ? 0 : (v * b.chars) / node.chars;
  }
  return out;
}
