import { isBoilerplate, type Block } from './blocks';
import { isBoilerplateLine, isDateline } from './boilerplate-lines';
import { SHORT_CAPTION_CHARS } from './alt-captions';
import { classWeight, isPosterBox } from './clean';
import { isAncestorOf, isElement, lowestCommonAncestor, normalizeSpace, textContent, type DomElement, type DomParent, type DomText } from './dom';
import { linkRatio } from './scoring';
import { isProse } from './second-opinion';
import type { Segment } from './segments';
import { isSiteHeader } from './site-header';
import { isTermLabel } from './term-labels';
import { isTextBand } from './text-bands';

export interface SelectionParams {
  /** Lines with a larger share of link text are navigation, even inside the content. */
  maxLinkRatio: number;
  /** A sentence whose words are mostly links stays all the same (linkedSentence); not on forum threads, where it is a reply's quote of a post elsewhere. */
  keepLinkedSentences: boolean;
}

export const DEFAULT_SELECTION: SelectionParams = { maxLinkRatio: 0.5, keepLinkedSentences: true };
export const FORUM_SELECTION: Partial<SelectionParams> = { keepLinkedSentences: false };

/** A segment mapped to the DOM: its container and the lines kept from it. */
export interface Selected {
  segment: Segment;
  container: DomParent;
  lines: Block[];
}

/** The smallest element holding the segment's positive lines (all its lines when none is). */
export function segmentContainer(blocks: Block[], values: number[], seg: Segment): DomParent | undefined {
  const inSeg = blocks.slice(seg.start, seg.end + 1);
  const core = inSeg.filter((b) => values[b.index]! > 0);
  return lowestCommonAncestor((core.length ? core : inSeg).map((b) => b.owner));
}

/** Furniture (share bars, captions, ads, poster boxes…) between a node (a line's owner) and the content container. */
function underFurniture(from: DomParent, container: DomParent, weights: Map<DomElement, number>): boolean {
  for (let p: DomParent | null = from; p && p !== container; p = p.parent) {
    if (!isElement(p)) continue;
    const el = p as DomElement;
    let w = weights.get(el);
    if (w === undefined) {
      w = isPosterBox(el) || isSiteHeader(el) ? -1 : classWeight(el);
      // A banner that holds a paragraph of running text is a section of the text (text-bands.ts).
      if (w < 0 && isTextBand(el, container)) w = 0;
      weights.set(el, w);
    }
    if (w < 0) return true;
  }
  return false;
}

/** Under a forum poster box (name, rank, join date…) between the line and its post. */
export function inPosterBox(b: Block, post: DomParent): boolean {
  for (let p: DomParent | null = b.owner; p && p !== post; p = p.parent) if (isElement(p) && isPosterBox(p as DomElement)) return true;
  return false;
}

const SENTENCE_END_RE = /[。！？!?.…]["”」』’)）]?$/;

function centered(el: DomParent): boolean {
  if (!isElement(el)) return false;
  const a = (el as DomElement).attribs;
  return (a.align ?? '').toLowerCase() === 'center' || /text-align\s*:\s*center/i.test(a.style ?? '') || (el as DomElement).name === 'center';
}

/**
 * An image caption: a short line that repeats the image's alt text (a long one that is the one
 * text of the image's figure), or that follows an image
 * centred or with no sentence end (news sites put "大会现场" under the photo). Truths of every
 * source leave captions out.
 */
export function isCaption(b: Block): boolean {
  // The owner itself, not b.heading: an unclosed <h1> high up marks half a page as heading.
  if (isElement(b.owner) && /^h[1-6]$/.test((b.owner as DomElement).name)) return false;
  // A long line repeats the alt text only as its figure's caption (blocks.ts).
  if (b.repeatsAlt) return true;
  if (b.text.length > SHORT_CAPTION_CHARS) return false;
  if (!b.afterImage || b.cjkChars * 2 < b.chars) return false;
  return centered(b.owner) && !SENTENCE_END_RE.test(b.text);
}

/**
 * The lines of a segment kept as content: inside its container, minus link lists and furniture.
 * A card of repeated items (items.ts) names its product or story under its picture, often in the
 * picture's alt text again: that name is the item's title, not a caption.
 */
export function selectLines(
  blocks: Block[], seg: Segment, container: DomParent, dropComments: boolean, p: SelectionParams,
  weights: Map<DomElement, number>, dropCaptions = false, items?: ReadonlyMap<Block, DomParent>,
): Block[] {
  return blocks.slice(seg.start, seg.end + 1).filter((b) => isAncestorOf(container, b.owner)
    && keepLine(b, container, dropComments, p, weights, items) && !(dropCaptions && isCaption(b) && items?.has(b) !== true));
}

/**
 * A line inside a content container stays unless it is link list, furniture or boilerplate
 * (the linked title or snippet of a repeated item, items.ts, is not a link list).
 */
export function keepLine(
  b: Block, container: DomParent, dropComments: boolean, p: SelectionParams, weights: Map<DomElement, number>, items?: ReadonlyMap<Block, DomParent>,
): boolean {
  return (!isBoilerplate(b) || (items?.has(b) === true && cardStamp(b.text)) || tableFigure(b) || listFact(b))
    && (linkRatio(b) <= p.maxLinkRatio || items?.has(b) === true || rowLabel(b) || isTermLabel(b) || (p.keepLinkedSentences && linkedSentence(b)))
    && !(dropComments && b.inComments)
    // Inside a repeated item the card's own parts (Bootstrap's div.caption) are not furniture: only above the item.
    && !underFurniture(items?.get(b) ?? b.owner, container, weights);
}

/** A labelled fact: a short label, a colon, then its value ("Location: Boston, Massachusetts"). */
const FACT_RE = /^[\p{L}][\p{L}\p{N} .'’&/-]{0,30}:\s*\S/u;
/** Other labelled facts a list item needs beside it that are no furniture. */
const MIN_PLAIN_FACTS = 2;

/**
 * A labelled fact that a furniture wording matches ("Location: Boston" reads as a forum poster
 * box's line) in a list of facts whose other labels are plain ("Median GMAT: 740", "Class Size:
 * 930"): a record's field, as data as its siblings. A poster box's other facts are furniture
 * too ("Join Date:", "Posts:").
 */
function listFact(b: Block): boolean {
  if (!isElement(b.owner) || (b.owner as DomElement).name !== 'li' || !FACT_RE.test(b.text)) return false;
  const list = b.owner.parent;
  if (!list || !isElement(list)) return false;
  let plain = 0;
  for (const c of (list as DomElement).children) {
    if (c === b.owner || !isElement(c) || (c as DomElement).name !== 'li') continue;
    const t = normalizeSpace(textContent(c));
    if (FACT_RE.test(t) && !isBoilerplateLine(t) && ++plain >= MIN_PLAIN_FACTS) return true;
  }
  return false;
}

/** Above this share of link text even a sentence is a link list ("Home › Docs › Guides."). */
const MAX_SENTENCE_LINK_RATIO = 0.8;
/** Characters of a link named in a sentence at most, on average: a page's or a thing's name, not a headline. */
const MAX_SENTENCE_LINK_CHARS = 40;

/**
 * A sentence whose words are mostly links ("Read updating objects in state and updating arrays in
 * state to learn more.", "See the Many-to-many relationship model example for a full example."):
 * a pointer the text makes in its own words, as documentation and reviews do after a section,
 * not a link list. A row of linked headlines run together ("…anti-drug campaign South Dakota
 * drops pipeline protest laws…") has a sentence's length too, but each link is a whole title.
 */
function linkedSentence(b: Block): boolean {
  return linkRatio(b) <= MAX_SENTENCE_LINK_RATIO && b.links > 0 && b.linkChars <= MAX_SENTENCE_LINK_CHARS * b.links && isProse(b);
}

/**
 * A figure in a table cell ("37% / 40%", "$175,000", "3.6") whose row names what it measures (a
 * cell with words: a school, a state, a product): boilerplate on a line of its own (a counter, a
 * separator), data in a table the content holds. A grid of bare figures (a standings table
 * whose names sit in another table) stays out.
 */
function tableFigure(b: Block): boolean {
  if (!isElement(b.owner)) return false;
  const cell = b.owner as DomElement;
  if ((cell.name !== 'td' && cell.name !== 'th') || !/\d/.test(b.text) || /\p{L}/u.test(b.text)) return false;
  const row = cell.parent;
  // Asked once per figure: a row is a handful of short cells.
  return row !== null && isElement(row) && (row as DomElement).name === 'tr' && hasWords(row as DomElement);
}

/** A table row longer than this is a layout band (a page laid out in table cells), not a row of data. */
const MAX_ROW_CHARS = 600;

/**
 * A linked label in a table cell ("Process file uploads" linking to its page) whose row says in
 * words, outside links, what it is ("Run code when a file is uploaded"): the row's name, as much
 * data as the row, not a link list. The row is short (a layout table's band holds far more) and
 * has another cell.
 */
function rowLabel(b: Block): boolean {
  // Words, not a sort link in a header cell ("PCT"), a rating ("4.8"), a permalink ("#1 | Link") or a bare URL.
  if (!isElement(b.owner) || b.text.length > 80 || b.text.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length < 2) return false;
  const cell = b.owner as DomElement;
  if (cell.name !== 'td') return false;
  const row = cell.parent;
  if (row === null || !isElement(row) || (row as DomElement).name !== 'tr') return false;
  const cells = (row as DomElement).children.filter((c) => isElement(c) && ((c as DomElement).name === 'td' || (c as DomElement).name === 'th'));
  if (cells.length < 2) return false;
  let chars = 0;
  let unlinked = false;
  for (const c of cells) {
    if (c === cell) continue;
    const t = rowText(c as DomElement);
    chars += t.all;
    unlinked ||= t.unlinkedWords;
  }
  return unlinked && chars + b.chars <= MAX_ROW_CHARS;
}

/** Characters of an element's text, and whether some of its words sit outside links. */
function rowText(el: DomElement): { all: number; unlinkedWords: boolean } {
  let all = 0;
  let unlinkedWords = false;
  const visit = (e: DomElement, linked: boolean): void => {
    for (const c of e.children) {
      if (c.type === 'text') {
        const d = (c as DomText).data;
        all += d.replace(/\s+/g, '').length;
        if (!linked && /\p{L}{2}/u.test(d)) unlinkedWords = true;
      } else if (isElement(c)) visit(c as DomElement, linked || (c as DomElement).name === 'a');
    }
  };
  visit(el, false);
  return { all, unlinkedWords };
}

function hasWords(el: DomElement): boolean {
  for (const c of el.children) {
    if (c.type === 'text' ? /\p{L}{2}/u.test((c as DomText).data) : isElement(c) && hasWords(c as DomElement)) return true;
  }
  return false;
}

/** A relative time: "2 weeks ago", "3 hours ago". */
const AGO_RE = /^\d+\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s+ago$/i;

/**
 * A stamp of a repeated item that is boilerplate on its own but part of the card it sits in:
 * its price or discount ("$19.99", "-15%", "1 399,00 €"), a count, its date or age ("2 weeks ago").
 */
function cardStamp(text: string): boolean {
  return (/\d/.test(text) && !/\p{L}/u.test(text)) || AGO_RE.test(text) || isDateline(text);
}

/** tag.class path from an element up to (not including) an ancestor, digits ignored. */
export function signature(el: DomParent, upTo: DomParent | null): string {
  const parts: string[] = [];
  for (let p: DomParent | null = el; p && p !== upTo; p = p.parent) {
    if (!isElement(p)) break;
    const e = p as DomElement;
    parts.push(`${e.name}.${(e.attribs.class ?? '').replace(/\d+/g, '')}`);
  }
  return parts.join('<');
}
