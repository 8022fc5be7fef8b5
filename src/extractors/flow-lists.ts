import type { Block } from './blocks';
import { findAll, isAncestorOf, isElement, type DomParent } from './dom';
import { linkRatio } from './scoring';

/** Items a list needs to be read as a list of the text (one link alone is a link of the text already kept or not). */
const MIN_LIST_ITEMS = 2;
/** Items beyond which a list is a directory of the site (every town it serves), not a list the text gives. */
const MAX_LIST_ITEMS = 100;
/** Words an item may hold on average: names of things; longer linked lines are headlines of other stories. */
const MAX_ITEM_WORDS = 6;

/**
 * The content with the link lists that sit in its own flow: a list of linked names between two
 * kept paragraphs of one box (the tools an article reviews, the agencies a program page names,
 * the forms a department page offers) is part of the text, though every line of it is a link
 * and the line selection dropped it as navigation. Only lists whose box holds the kept lines
 * on both sides: menus and link boxes sit beside the text, not inside its flow.
 */
export function keepFlowLists(blocks: Block[], chosen: Block[], listing: boolean): Block[] {
  if (listing || chosen.length < 2) return chosen;
  let added: Block[] | undefined;
  for (let k = 1; k < chosen.length; k++) {
    const prev = chosen[k - 1]!;
    const next = chosen[k]!;
    if (next.index - prev.index <= MIN_LIST_ITEMS) continue;
    const gap = blocks.slice(prev.index + 1, next.index);
    const list = listOf(gap);
    if (!list || !list.parent || !isAncestorOf(list.parent, prev.owner) || !isAncestorOf(list.parent, next.owner) || tableOfContents(list)) continue;
    (added ??= []).push(...gap);
  }
  return added ? [...chosen, ...added].sort((a, b) => a.index - b.index) : chosen;
}

/** The one <ul>/<ol> that holds every line of the gap, each a linked list item of the page's text; else undefined. */
function listOf(gap: Block[]): DomParent | undefined {
  let list: DomParent | undefined;
  for (const b of gap) {
    if (!b.inList || b.classScore < 0 || b.furniture || b.inComments || linkRatio(b) <= 0.5) return undefined;
    let l: DomParent | null = b.owner;
    while (l && !(isElement(l) && (l.name === 'ul' || l.name === 'ol'))) l = l.parent;
    if (!l || (list && l !== list)) return undefined;
    list = l;
  }
  if (gap.length < MIN_LIST_ITEMS || gap.length > MAX_LIST_ITEMS) return undefined;
  // Names of things, not headlines of other stories.
  const words = gap.reduce((n, b) => n + b.text.split(/\s+/).length, 0);
  return words <= MAX_ITEM_WORDS * gap.length ? list : undefined;
}

/** Whether the list's links point into the page itself (`#section`): a table of contents, which repeats the headings. */
function tableOfContents(list: DomParent): boolean {
  const links = findAll(list, (el) => el.name === 'a');
  return links.filter((a) => (a.attribs.href ?? '').startsWith('#')).length * 2 > links.length;
}
