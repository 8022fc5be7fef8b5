import type { Block } from './blocks';
import { isElement, lowestCommonAncestor, type DomElement, type DomParent } from './dom';
import { shape } from './items';
import { keepLine, type SelectionParams } from './selection';

/** How far above the chosen lines' common container the list of posts may sit. */
const MAX_POST_DEPTH = 10;
/** Boxes of one template a list of posts needs. */
const MIN_BOXES = 3;
/** Share of the chosen text that must lie in those boxes: the chosen lines are the list's, not a page section beside it. */
const MIN_INSIDE_SHARE = 0.8;
/** Characters of its own text (not in links) the chosen box holds at least: a post, not a card's caption. */
const MIN_POST_CHARS = 400;
/** Characters of own text a sibling box needs to count as an entry (a title link and a date alone hold none). */
const MIN_ENTRY_CHARS = 80;
/**
 * Share of the template's other boxes that must be entries, each titled by a link to its own
 * page: a run of boxes mostly empty is a menu or a slider, and a page's own sections (a product's
 * tabs, a guide's chapters) are headed by plain headings.
 */
const MIN_ENTRY_SHARE = 0.5;

/**
 * A blog index or news page that shows its latest posts one after another, some at length and
 * some by excerpt, each in a box of one template (`<article class="entry">`). Scored line by
 * line, the long post is a run of dense lines of its own and wins alone when no class word ties
 * the posts together (hashed or utility class names). When the chosen lines lie in such boxes,
 * and the other boxes of the run are entries (a linked title over text of their own) holding
 * together as much as the longest chosen one, the entries are the page's content too, each
 * line kept or left as inside the chosen box.
 * Not where the page's headline sits in one of the boxes: that is the page of one post, whose
 * siblings are the next posts an endless scroll appended, or other stories.
 */
export function withSiblingPosts(blocks: Block[], chosen: Block[], head: Block | undefined, selection: SelectionParams): Block[] {
  for (const { boxes, read } of postLists(chosen)) {
    if (head && boxOf(head, boxes)) return chosen;
    const add = otherPosts(blocks, chosen, boxes, read, selection);
    if (add) return add.length === 0 ? chosen : [...chosen, ...add].sort((a, b) => a.index - b.index);
  }
  return chosen;
}

/**
 * The lines to add from the boxes of a run that hold none of the chosen lines, when the run reads
 * as a list of posts; undefined when it does not (a run further up may).
 */
function otherPosts(blocks: Block[], chosen: Block[], boxes: Set<DomParent>, read: Set<DomElement>, selection: SelectionParams): Block[] | undefined {
  // Own text per box, and each box's lines, in one pass over the lines.
  const own = new Map<DomParent, number>();
  const linesOf = new Map<DomParent, Block[]>();
  for (const b of blocks) {
    const box = boxOf(b, boxes);
    if (!box) continue;
    const list = linesOf.get(box);
    if (list) list.push(b);
    else linesOf.set(box, [b]);
    if (!b.inComments && b.linkChars <= 0.5 * b.chars) own.set(box, (own.get(box) ?? 0) + b.chars);
  }
  let postChars = 0;
  let readChars = 0;
  for (const r of read) {
    postChars = Math.max(postChars, own.get(r) ?? 0);
    readChars += own.get(r) ?? 0;
  }
  if (postChars < MIN_POST_CHARS) return undefined;
  const others = [...boxes].filter((o) => !read.has(o as DomElement));
  const posts = others.filter((o) => (own.get(o) ?? 0) >= MIN_ENTRY_CHARS && linkTitled(linesOf.get(o)!));
  if (posts.length === 0 || posts.length < MIN_ENTRY_SHARE * others.length) return undefined;
  // The entries beside the longest one hold as much as it: a post's few related-story cards hold far less.
  if (readChars - postChars + posts.reduce((n, o) => n + (own.get(o) ?? 0), 0) < postChars) return undefined;
  const weights = new Map<DomElement, number>();
  const kept = new Set(chosen);
  return posts.flatMap((o) => (linesOf.get(o) ?? []).filter((b) => !kept.has(b) && keepLine(b, o, true, selection, weights)));
}

/**
 * The runs of sibling boxes of one template (at least MIN_BOXES) that hold nearly all the chosen
 * text, from the chosen lines' common container up, each with the boxes that hold chosen lines.
 */
function* postLists(chosen: Block[]): Generator<{ boxes: Set<DomParent>; read: Set<DomElement> }> {
  if (chosen.length === 0) return;
  const common = lowestCommonAncestor(chosen.map((b) => b.owner));
  let total = 0;
  for (const b of chosen) total += b.chars;
  let list: DomParent | null = common ?? null;
  for (let depth = 0; list && depth <= MAX_POST_DEPTH; list = list.parent, depth++) {
    if (!isElement(list) || list.name === 'html') return;
    const byShape = new Map<string, DomElement[]>();
    for (const c of list.children) {
      if (!isElement(c)) continue;
      const key = shape(c as DomElement);
      const same = byShape.get(key);
      if (same) same.push(c as DomElement);
      else byShape.set(key, [c as DomElement]);
    }
    for (const same of byShape.values()) {
      if (same.length < MIN_BOXES) continue;
      const boxes = new Set<DomParent>(same);
      const read = new Set<DomElement>();
      let inside = 0;
      for (const b of chosen) {
        const box = boxOf(b, boxes);
        if (!box) continue;
        read.add(box as DomElement);
        inside += b.chars;
      }
      // Boxes the chosen lines fill all of are the chosen text's own parts (its paragraphs): the list, if any, is further up.
      if (read.size > 0 && read.size < same.length && inside >= MIN_INSIDE_SHARE * total) yield { boxes, read };
    }
  }
}

/** Whether a box's first line is mostly a link (a post's title linking to its page). */
function linkTitled(lines: Block[]): boolean {
  const first = lines[0];
  return first !== undefined && first.linkChars > 0.5 * first.chars;
}

/** The box of `boxes` a line lies in, if any. */
function boxOf(b: Block, boxes: ReadonlySet<DomParent>): DomParent | undefined {
  for (let p: DomParent | null = b.owner; p; p = p.parent) if (boxes.has(p)) return p;
  return undefined;
}
