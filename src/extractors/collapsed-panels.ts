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
