import { isBoilerplate, type Block } from './blocks';
import { isCollapsedPanel } from './collapsed-panels';
import type { DomElement, DomParent } from './dom';

/** The element above a node, or undefined at the root. */
function parentElement(n: DomParent): DomElement | undefined {
  const up = n.parent;
  return up && up.type === 'tag' ? (up as DomElement) : undefined;
}

/** The element that holds a line's text, or undefined when the text sits at the root. */
const ownerElement = (b: Block): DomElement | undefined => (b.owner.type === 'tag' ? (b.owner as DomElement) : undefined);

/** A line of an <li> (a few levels down: `<li><a><span>`), not of an accordion's <dd> panel. */
function inListItem(b: Block): boolean {
  let e = ownerElement(b);
  for (let depth = 0; e && depth < 3; depth++, e = parentElement(e)) if (e.name === 'li') return true;
  return false;
}

/** The panels (tab panels, accordion folds) a line lies in, innermost first; never the page's <body> (`skybox-auto-collapse`). */
function panelsAbove(b: Block, isPanel: (el: DomElement) => boolean): DomElement[] {
  const found: DomElement[] = [];
  for (let e = ownerElement(b); e && e.name !== 'body' && e.name !== 'html'; e = parentElement(e)) if (isPanel(e)) found.push(e);
  return found;
}

/** A tab strip or accordion: an element with two panels or more among its children (one lone fold is no switch between texts). */
function isSwitcher(el: DomElement, isPanel: (el: DomElement) => boolean): boolean {
  let panels = 0;
  for (const c of el.children) if (c.type === 'tag' && isPanel(c as DomElement) && ++panels >= 2) return true;
  return false;
}

/**
 * The other panels of a tab strip or accordion the content reads from are the content too. A
 * service page spreads its text over tabs ("Information", "Documents", "FAQs") or folds:
 * scoring sees one open panel of prose beside siblings of short lines or lists of links (a
 * department's forms, a grant's partner agencies), and keeps the first alone, though a reader
 * clicks through them all as one text; a lone accordion (a `<dl>` of questions and folded answers)
 * the content reads from is read whole the same way. Only lines that are no furniture by their class words,
 * no comments and no boilerplate; links are kept as items of a list (a panel's list of
 * documents), not as lines of their own (a "Learn more" under each fold). `hiddenPanels` are
 * panels by their shape rather than their name (layout.ts: hidden siblings alike that hold the
 * page's text between them, a home page's detail panes that open one at a time).
 */
export function withSiblingPanels(blocks: Block[], chosen: Block[], hiddenPanels: ReadonlySet<DomElement> = new Set()): Block[] {
  const isPanel = (el: DomElement): boolean => isCollapsedPanel(el) || hiddenPanels.has(el);
  // The parents of the panels that hold chosen text: the tab strips or accordions the content reads from.
  const switchers = new Set<DomElement>();
  // A lone panel the content reads from is an accordion of its own (a <dl> of questions and folded answers): it is read whole.
  const wholes = new Set<DomElement>();
  for (const b of chosen) {
    if (b.inComments) continue;
    const inner = panelsAbove(b, isPanel)[0];
    const up = inner ? parentElement(inner) : undefined;
    if (up && isSwitcher(up, isPanel)) switchers.add(up);
    else if (inner) wholes.add(inner);
  }
  if (switchers.size === 0 && wholes.size === 0) return chosen;
  const taken = new Set(chosen);
  const added: Block[] = [];
  // A carousel's slides repeat one another: a line is read once.
  const texts = new Set(chosen.map((b) => b.text));
  for (const b of blocks) {
    if (taken.has(b) || b.inComments || b.classScore < 0 || texts.has(b.text)) continue;
    const joins = panelsAbove(b, isPanel).some((p) => {
      const up = parentElement(p);
      return wholes.has(p) || (up !== undefined && switchers.has(up));
    });
    if (!joins || (b.linkChars * 2 > b.chars && !inListItem(b)) || isBoilerplate(b)) continue;
    added.push(b);
    texts.add(b.text);
  }
  if (added.length === 0) return chosen;
  return [...chosen, ...added].sort((a, b) => a.index - b.index);
}
