import type { Block } from './blocks';
import { isElement, type DomElement, type DomParent } from './dom';
import { shape } from './items';
import { keepLine, type SelectionParams } from './selection';

/** How far above a line its card may sit. */
const MAX_CARD_DEPTH = 6;
/** Siblings of one template that make an element a card of a row (a lone box is no card). */
const MIN_ROW_CARDS = 3;
/** Cards the chosen lines must lie in before their template counts as the page's list. */
const MIN_CHOSEN_CARDS = 3;
/** Share of the chosen text those cards must hold. */
const MIN_CARD_SHARE = 0.5;
/** Share of those cards whose first line is a link (a story's or product's title): sections of a text are no teasers. */
const MIN_LINKED_SHARE = 0.8;
/** Lines a card holds on average (a title and its teaser, byline or date): a paragraph's wrapper holds one. */
const MIN_CARD_LINES = 2;

/**
 * A front page or blog index splits its one list of stories over sibling modules ("Top stories",
 * "Latest", "More news"), each a row of cards of one template. Scored line by line, the densest
 * module wins and the others are left out, though a reader reads them as one list. When the chosen
 * lines are mostly cards of one template (tag and first class word, each holding a few lines),
 * the lines of that template's cards elsewhere on the page are content too, each kept or left as
 * inside the chosen card (links of a card's title stay; furniture and comments stay out).
 */
export function withCardModules(blocks: Block[], chosen: Block[], selection: SelectionParams): Block[] {
  if (chosen.length < MIN_CHOSEN_CARDS * MIN_CARD_LINES) return chosen;
  // Children per template, counted once per parent: a flat page puts hundreds of elements under one.
  const shapeCounts = new Map<DomParent, Map<string, number>>();
  const inRow = (el: DomElement): boolean => {
    const parent = el.parent!;
    let counts = shapeCounts.get(parent);
    if (!counts) {
      shapeCounts.set(parent, (counts = new Map()));
      for (const c of parent.children) {
        if (!isElement(c)) continue;
        const k = shape(c as DomElement);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
    }
    return (counts.get(shape(el)) ?? 0) >= MIN_ROW_CARDS;
  };
  const cardOf = (b: Block): DomElement | undefined => {
    let el: DomParent | null = b.owner;
    for (let depth = 0; el && depth < MAX_CARD_DEPTH; el = el.parent, depth++) {
      if (!isElement(el)) return undefined;
      const e = el as DomElement;
      if (e.name === 'body' || e.name === 'html') return undefined;
      if (e.attribs.class && e.parent && inRow(e)) return e;
    }
    return undefined;
  };
  // Each line's card, and the cards whose first line is mostly link (a teaser's linked title).
  const cardLines = new Map<Block, DomElement>();
  const linked = new Set<DomElement>();
  const seen = new Set<DomElement>();
  for (const b of blocks) {
    const card = cardOf(b);
    if (!card) continue;
    cardLines.set(b, card);
    if (seen.has(card)) continue;
    seen.add(card);
    if (b.linkChars > 0.5 * b.chars) linked.add(card);
  }
  // The chosen lines by the template of their card.
  const byShape = new Map<string, { chars: number; lines: number; cards: Set<DomElement> }>();
  let total = 0;
  for (const b of chosen) {
    total += b.chars;
    const card = cardLines.get(b);
    if (!card) continue;
    const key = shape(card);
    let s = byShape.get(key);
    if (!s) byShape.set(key, (s = { chars: 0, lines: 0, cards: new Set() }));
    s.chars += b.chars;
    s.lines++;
    s.cards.add(card);
  }
  let key: string | undefined;
  for (const [k, s] of byShape) {
    if (s.cards.size < MIN_CHOSEN_CARDS || s.lines < MIN_CARD_LINES * s.cards.size || s.chars < MIN_CARD_SHARE * total) continue;
    let titled = 0;
    for (const c of s.cards) if (linked.has(c)) titled++;
    if (titled >= MIN_LINKED_SHARE * s.cards.size) key = k;
  }
  if (key === undefined) return chosen;
  const cards = new Map<Block, DomParent>();
  // Only cards none of whose lines were chosen (what the selection left out of a card it read
  // stays out), and titled by a link as well: a box of the template that opens with a label or a share bar is no teaser.
  const read = new Set<DomElement>();
  for (const b of chosen) {
    const card = cardLines.get(b);
    if (card) read.add(card);
  }
  for (const [b, card] of cardLines) if (!read.has(card) && linked.has(card) && shape(card) === key) cards.set(b, card);
  const weights = new Map<DomElement, number>();
  const add = [...cards].filter(([b, card]) => keepLine(b, card.parent!, true, selection, weights, cards)).map(([b]) => b);
  if (add.length === 0) return chosen;
  return [...chosen, ...add].sort((a, b) => a.index - b.index);
}
