import type { Block } from './blocks';
import { isAncestorOf, isElement, type DomElement, type DomParent } from './dom';
import { postShape } from './forum-posts';

/**
 * Reader comments found by their shape, not by their class words: clean.ts knows a comment area
 * by `comment`, `disqus`, `pinglun`…, and a template that names it otherwise (a hashed class, a
 * word in another language, none at all) let a long thread outweigh the article above it. A
 * thread is a run of sibling items of one shape, three or more of which carry a stamp line (a
 * day and a time of day: "Catherine on September 13, 2018 at 5:23 pm said:", "# re: … 2004-12-27
 * 12:46 name"), after the article's own text. A story's dateline names the day; a teaser list
 * names the day too, but opens each item with a linked headline.
 */

/** Stamped items a thread needs (two could be a story's own updates). */
const MIN_STAMPED_ITEMS = 3;
/** A stamp line is a header, not a sentence of the article. */
const MAX_STAMP_CHARS = 160;
/** Characters of positive lines before the thread that make it an article's thread. */
const MIN_ARTICLE_CHARS = 200;
/** Words a linked first line needs to be a teaser's headline rather than a commenter's name. */
const MIN_HEADLINE_WORDS = 4;

const TIME_RE = /(?:^|[^\d:])\d{1,2}:\d{2}(?!\d)/;
const DAY_RE = /(?:19|20)\d{2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2}|\d+\s*月\s*\d+\s*日|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\.?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

/** A span of hours ("1:30-3:30", "8:00至10:00"): a programme's session, not a post's moment. */
const TIME_SPAN_RE = /\d:\d{2}\s*(?:[-–—－~～至到]|to\b)\s*\d/i;

/** A comment's header: a short line naming a day and a time of day. */
export function isStampLine(text: string): boolean {
  return text.length <= MAX_STAMP_CHARS && TIME_RE.test(text) && DAY_RE.test(text) && !TIME_SPAN_RE.test(text);
}

interface Group { parent: DomParent; shape: string; stamped: Set<DomParent> }

/** The sibling group with the most stamped items (the finest of those on a tie). */
function stampedGroup(blocks: Block[]): Group | undefined {
  const groups = new Map<DomParent, Map<string, Group>>();
  const depth = new Map<Group, number>();
  for (const b of blocks) {
    if (!isStampLine(b.text)) continue;
    let d = 0;
    for (let el: DomParent | null = b.owner; el && el.parent && isElement(el); el = el.parent, d++) {
      const shape = postShape(el as DomElement);
      let byShape = groups.get(el.parent);
      if (!byShape) groups.set(el.parent, (byShape = new Map()));
      let g = byShape.get(shape);
      if (!g) byShape.set(shape, (g = { parent: el.parent, shape, stamped: new Set() }));
      g.stamped.add(el);
      depth.set(g, Math.max(depth.get(g) ?? -Infinity, -d));
    }
  }
  let best: Group | undefined;
  for (const byShape of groups.values()) {
    for (const g of byShape.values()) {
      if (g.stamped.size < MIN_STAMPED_ITEMS) continue;
      if (!best || g.stamped.size > best.stamped.size || (g.stamped.size === best.stamped.size && depth.get(g)! > depth.get(best)!)) best = g;
    }
  }
  return best;
}

/** The child of the group's parent a line lies in, if any. */
function childIn(b: Block, g: Group): DomParent | undefined {
  for (let el: DomParent | null = b.owner; el; el = el.parent) if (el.parent === g.parent) return el;
  return undefined;
}

/** The item of the group a line lies in, if any. */
function itemOf(b: Block, g: Group): DomParent | undefined {
  const el = childIn(b, g);
  return el && g.stamped.has(el) ? el : undefined;
}

/** Words a thread's heading may add around the quoted headline ("59 Comments on", "One thought on"). */
const MAX_HEADING_EXTRA_CHARS = 60;
const QUOTED_RE = /[“"„«「『‘'](.+)[”"»」』’']/u;

/**
 * A thread's heading, whatever its class: a line after the article that quotes the article's
 * headline (the title, or a heading line above it) within a few more words ("59 Comments on
 * “The Title”", "2 Responses to "The Title""). The article never quotes its own headline; what
 * follows speaks about the article. Returns the heading and the headline line it quotes.
 */
function threadHeading(blocks: Block[], title: string): { heading: Block; headline: number } | undefined {
  const headlines = new Map<string, number>();
  for (const b of blocks) {
    const quoted = QUOTED_RE.exec(b.text)?.[1]?.trim();
    const extra = b.text.length - (quoted?.length ?? 0);
    if (quoted && quoted.length >= 8 && extra > 2 && extra <= MAX_HEADING_EXTRA_CHARS) {
      const at = headlines.get(quoted) ?? (quoted === title ? -1 : undefined);
      if (at !== undefined) return { heading: b, headline: at };
    }
    if (b.heading > 0 && !headlines.has(b.text)) headlines.set(b.text, b.index);
  }
  return undefined;
}

/**
 * Whether the text before the thread is its opening post: the lines lie in an item of the
 * thread's own shape beside the stamped ones (a forum's first post, dated without a time of day
 * or not at all), not in an article of their own. A blog's comments follow the post, they do
 * not sit beside it in one list.
 */
function openingInSeries(blocks: Block[], values: number[], g: Group, start: number, end: number): boolean {
  let inSeries = 0;
  let all = 0;
  for (let i = start; i < end; i++) {
    const b = blocks[i]!;
    if (values[i]! <= 0 || b.inComments) continue;
    all += b.chars;
    const el = childIn(b, g);
    if (el && isElement(el) && postShape(el) === g.shape) inSeries += b.chars;
  }
  return all > 0 && 2 * inSeries > all;
}

/** Characters of positive lines from `start` to before `end`, outside comment areas. */
function textBefore(blocks: Block[], values: number[], start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if (values[i]! > 0 && !blocks[i]!.inComments) n += blocks[i]!.chars;
  return n;
}

/** Marks the lines from `first` to the end of `parent` as comments. */
function markFrom(blocks: Block[], first: number, parent: DomParent): void {
  for (let i = first; i < blocks.length && isAncestorOf(parent, blocks[i]!.owner); i++) blocks[i]!.inComments = true;
}

/** Replies nested inside items of the thread's own shape that make it a discussion. */
const MIN_NESTED_REPLIES = 2;

/**
 * Whether the group's items hold replies of their own shape (a reply list inside a comment,
 * threaded): a discussion, whatever its items open with. A list of teasers is flat; a thread
 * whose comments carry linked titles of several words ("What could go wrong? (Score:3)") would
 * otherwise pass for one, and the thread then outweighs the story above it.
 */
function threaded(blocks: Block[], g: Group): boolean {
  // A bare tag (items told apart by no class or role) matches any list inside a comment.
  if (g.shape.endsWith('.')) return false;
  const nested = new Set<DomParent>();
  for (const b of blocks) {
    if (itemOf(b, g) === undefined) continue;
    for (let el: DomParent | null = b.owner; el && el.parent !== g.parent; el = el.parent) {
      if (isElement(el) && postShape(el) === g.shape) {
        nested.add(el);
        break;
      }
    }
    if (nested.size >= MIN_NESTED_REPLIES) return true;
  }
  return false;
}

/**
 * Marks the lines of a reader-comment thread found by shape (see above) as comments: from the
 * first stamped item to the end of the items' parent (a flat thread puts each comment's text
 * beside its header, not inside it); or from a heading quoting the headline (threadHeading) to
 * the end of the element around that heading and what follows it. Only where the article's own text comes first.
 */
export function markCommentThreads(blocks: Block[], values: number[], titleIndex: number | undefined, title = ''): void {
  const thread = threadHeading(blocks, title);
  if (thread && thread.heading.owner.parent) {
    const start = Math.max(0, titleIndex ?? 0, thread.headline);
    if (textBefore(blocks, values, start, thread.heading.index) >= MIN_ARTICLE_CHARS) markFrom(blocks, thread.heading.index, thread.heading.owner.parent);
  }
  const g = stampedGroup(blocks);
  if (!g) return;
  const first = blocks.find((b) => itemOf(b, g) !== undefined);
  if (!first || (titleIndex !== undefined && first.index <= titleIndex)) return;
  // Teasers open with a linked headline of several words, a comment with its writer's name or its stamp.
  const opening = new Map<DomParent, Block>();
  for (const b of blocks) {
    const item = itemOf(b, g);
    if (item !== undefined && !opening.has(item)) opening.set(item, b);
  }
  // A linked stamp (a comment's permalink) is no headline.
  const headlines = [...opening.values()].filter((b) => b.linkChars > 0.5 * b.chars && b.text.split(/\s+/).length >= MIN_HEADLINE_WORDS && !isStampLine(b.text)).length;
  if (2 * headlines > opening.size && !threaded(blocks, g)) return;
  // One piece of text comes first: at most its own dateline is stamped (a front page's dated posts are not a piece).
  // A headline line just above the thread with no text between (the thread's own header repeats
  // the title; the story's headline carried its source's name and matched nothing): the piece
  // is read from the top of the page.
  const from = titleIndex !== undefined && textBefore(blocks, values, titleIndex, first.index) < MIN_ARTICLE_CHARS ? 0 : titleIndex ?? 0;
  let stamps = 0;
  for (let i = from; i < first.index; i++) if (isStampLine(blocks[i]!.text)) stamps++;
  if (textBefore(blocks, values, from, first.index) < MIN_ARTICLE_CHARS || stamps > 1) return;
  if (openingInSeries(blocks, values, g, from, first.index)) return;
  markFrom(blocks, first.index, g.parent);
}
