import type { Block } from './blocks';
import { isElement, type DomElement, type DomParent } from './dom';

/** Times a control's label must recur for it to be a card's control, not a one-off line. */
const MIN_REPEATS = 3;
/** Longest label read as a control's ("Add to wishlist", "Quick Shop", a row of rating stars' labels). */
const MAX_LABEL_CHARS = 80;
/** How far above a line the control's box may sit (label, its wrapper, the button row). */
const MAX_DEPTH = 6;

/**
 * Class words of a card's controls and stickers: buttons, wishlist toggles and checkboxes, quick-add
 * and quick-shop openers, action rows, badges ("New", "Best seller", "Sold out"). Words of their
 * own or camel-case parts (`cartButton`, `WishlistButtonText`, `custom-checkbox`).
 */
const CONTROL_RE = /button|btn|wishlist|checkbox|quick-?(?:add|shop|view|buy)|badge|product-form|(?:^|[-_\s])(?:actions?|cta|apply|cart)(?=$|[-_\s])/i;
/** Tags of form parts that name an input, not the item: a variant picker's legend, a label. */
const CONTROL_TAGS = new Set(['label', 'legend']);

function isControl(el: DomElement): boolean {
  if (CONTROL_TAGS.has(el.name) || el.attribs.role === 'button') return true;
  const cls = el.attribs.class;
  return cls !== undefined && CONTROL_RE.test(cls);
}

function underControl(b: Block): boolean {
  let depth = 0;
  for (let p: DomParent | null = b.owner; p && depth < MAX_DEPTH; p = p.parent, depth++) {
    if (isElement(p) && isControl(p as DomElement)) return true;
  }
  return false;
}

/**
 * The content without its cards' controls: a grid of products or jobs repeats the same button
 * labels and stickers in every card ("Quick Shop", "Add to wishlist", "Apply now", "Ne plus
 * comparer", "New"), which the line selection keeps as short text of each item. A short line
 * whose box a control's class word or tag names, and whose words recur so under
 * `MIN_REPEATS` or more lines, is such a label; a label that appears once (a page's own "Apply"
 * heading) or a card's repeated data (a fit, a format, a colour) outside such boxes stays.
 */
export function dropCardControls(lines: Block[]): Block[] {
  const counts = new Map<string, number>();
  const controls = new Set<Block>();
  for (const b of lines) {
    if (b.text.length > MAX_LABEL_CHARS || !underControl(b)) continue;
    controls.add(b);
    counts.set(b.text, (counts.get(b.text) ?? 0) + 1);
  }
  if (controls.size < MIN_REPEATS) return lines;
  const drop = (b: Block): boolean => controls.has(b) && counts.get(b.text)! >= MIN_REPEATS;
  return lines.some(drop) ? lines.filter((b) => !drop(b)) : lines;
}
