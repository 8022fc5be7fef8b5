import type { DomElement } from './dom';

/**
 * Accordion, collapse and tab panels by their class word: the page's own text folded away until
 * a click (the sections of a service page, a FAQ), not a modal or screen-reader text.
 */
const PANEL_CLASS_RE = /accordion|collaps|tab-?pane|tabpanel/i;

/**
 * A collapsed or inactive panel of the page's own text: a tab panel by its ARIA role (the tab
 * strip shows one panel, the rest wait with `hidden`, `display:none` or `aria-hidden`), or an
 * accordion or tab panel by its class word. Whichever tab or fold is open, the text is the page's:
 * templates hide the panels in any of those ways, so none of them makes a panel furniture.
 */
export function isCollapsedPanel(el: DomElement): boolean {
  if (el.attribs.role === 'tabpanel') return true;
  const cls = el.attribs.class;
  return cls !== undefined && PANEL_CLASS_RE.test(cls);
}

/**
 * One of a switcher's panels: a hidden element whose sibling of the same tag and class, less the
 * hiding (the `hidden` attribute, or `isHiddenToken`'s class words), is shown. A tab strip or a
 * category switch shows one panel and hides its alike siblings with the very same mark
 * (`<ul class="templates-list">` then `<ul class="templates-list hidden">` ×5; `<div
 * class="tab__content">` then `<div hidden class="tab__content">`), whatever they are called; a
 * modal or a screen-reader label has no shown twin beside it, and elements without a class of
 * their own are no series.
 */
export function isSwitchedPanel(el: DomElement, isHiddenToken: (token: string) => boolean): boolean {
  const parent = el.parent;
  if (!parent) return false;
  const key = shownClass(el.attribs.class, isHiddenToken);
  // A bare <div hidden> beside a bare <div> (a signed-in and a signed-out notice) names no panel.
  if (!key) return false;
  for (const s of parent.children) {
    if (s === el || s.type !== 'tag') continue;
    const sib = s as DomElement;
    if (sib.name !== el.name || sib.attribs.hidden !== undefined) continue;
    const cls = sib.attribs.class ?? '';
    if (shownClass(cls, isHiddenToken) === key && !cls.split(/\s+/).some(isHiddenToken)) return true;
  }
  return false;
}

/** An element's class tokens without the words that hide it, in order. */
function shownClass(cls: string | undefined, isHiddenToken: (token: string) => boolean): string {
  return (cls ?? '').split(/\s+/).filter((t) => t && !isHiddenToken(t)).join(' ');
}
