import type { Block } from './blocks';
import { isElement, lowestCommonAncestor, type DomElement, type DomParent } from './dom';
import { shape } from './items';

/** Lines a gap inside one item may hold: an author line, a tag line; more is a box of its own. */
const MAX_GAP_LINES = 2;
/** Sibling items of one shape, each with kept lines, needed to call them a repeated group. */
const MIN_KEPT_ITEMS = 3;
/** Levels above the two kept lines' common box at which the item may sit (a card's inner wrapper). */
const MAX_ITEM_LEVELS = 3;
/** Share of a line's characters in links from which it is made of links (separators aside). */
const MIN_LINK_SHARE = 0.8;

/**
 * The content with the link lines of its repeated items: a card that names its authors or
 * tags as links between two kept lines of its own (a paper's title, authors, subjects) loses
 * that line to the link share, though it is as much the card's as the title. Kept when the line's
 * box recurs in every item of the group (a part of the card's template, not an odd link box) and
 * the group's items hold kept lines (they are the content, not a menu of cards).
 */
export function keepItemLinkLines(blocks: Block[], chosen: Block[]): Block[] {
  if (chosen.length < 2 * MIN_KEPT_ITEMS) return chosen;
  const keptOwners = new Set<DomParent>(chosen.map((b) => b.owner));
  // Each group (the items' parent and shape) is read once, however many gaps it holds.
  const groups = new Map<DomParent, Map<string, Set<string> | null>>();
  const partsOf = (item: DomElement): Set<string> | null => {
    const parent = item.parent!;
    const key = shape(item);
    let byShape = groups.get(parent);
    if (!byShape) groups.set(parent, (byShape = new Map()));
    if (!byShape.has(key)) byShape.set(key, everyItemHolds(parent, key, keptOwners));
    return byShape.get(key)!;
  };
  // A label every card repeats word for word ("More like this") is a button, not the card's own.
  let texts: Map<string, number> | undefined;
  const repeated = (b: Block): boolean => {
    if (!texts) {
      texts = new Map();
      for (const l of blocks) texts.set(l.text, (texts.get(l.text) ?? 0) + 1);
    }
    return texts.get(b.text)! > 1;
  };
  let added: Block[] | undefined;
  for (let k = 1; k < chosen.length; k++) {
    const prev = chosen[k - 1]!;
    const next = chosen[k]!;
    const gapLines = next.index - prev.index - 1;
    if (gapLines < 1 || gapLines > MAX_GAP_LINES) continue;
    const gap = blocks.slice(prev.index + 1, next.index);
    if (!gap.every((b) => b.chars > 0 && b.linkChars >= MIN_LINK_SHARE * b.chars && !b.inComments && isElement(b.owner)) || gap.some(repeated)) continue;
    let el: DomParent | undefined = lowestCommonAncestor([prev.owner, next.owner]);
    for (let level = 0; el && isElement(el) && el.parent && level <= MAX_ITEM_LEVELS; level++, el = el.parent) {
      const parts = partsOf(el);
      if (!parts) continue;
      if (gap.every((b) => parts.has(shape(b.owner as DomElement)))) (added ??= []).push(...gap);
      break;
    }
  }
  return added ? [...chosen, ...added].sort((a, b) => a.index - b.index) : chosen;
}

/**
 * The shapes of the elements every item of the group holds (the parent's children of that
 * shape), when at least MIN_KEPT_ITEMS of them hold kept lines; else null.
 */
function everyItemHolds(parent: DomParent, key: string, keptOwners: ReadonlySet<DomParent>): Set<string> | null {
  const items = parent.children.filter((c): c is DomElement => isElement(c) && shape(c) === key);
  if (items.length < MIN_KEPT_ITEMS) return null;
  let common: Set<string> | undefined;
  let withKept = 0;
  for (const item of items) {
    const shapes = new Set<string>();
    let holdsKept = false;
    const stack: DomElement[] = [item];
    while (stack.length) {
      const el = stack.pop()!;
      if (keptOwners.has(el)) holdsKept = true;
      if (el !== item) shapes.add(shape(el));
      for (const c of el.children) if (isElement(c)) stack.push(c);
    }
    if (holdsKept) withKept++;
    common = common ? new Set([...common].filter((s) => shapes.has(s))) : shapes;
  }
  return withKept >= MIN_KEPT_ITEMS && common ? common : null;
}
