import { isElement, type DomElement, type DomNode } from './dom';

const CHOICE_TYPE_RE = /^(?:radio|checkbox)$/i;

function isChoice(n: DomNode | undefined): boolean {
  return n !== undefined && isElement(n) && (n as DomElement).name === 'input' && CHOICE_TYPE_RE.test((n as DomElement).attribs.type ?? '');
}

/**
 * The label of a radio button or check box (a "how did this story make you feel" poll under a
 * news story: 實用 / 期待 / 激動, a filter's options, an opt-in): a control's caption, never the
 * page's text. Outside a form, so the comment-form rule (blocks.ts) does not see it. The input
 * sits inside the label or right beside it; a label is a handful of nodes, so this looks at a few.
 */
export function isChoiceLabel(label: DomElement): boolean {
  if (label.children.some(isChoice)) return true;
  const sibs = label.parent?.children ?? [];
  const i = sibs.indexOf(label);
  const next = sibs.slice(i + 1).find((n) => isElement(n));
  const prev = sibs.slice(0, i).reverse().find((n) => isElement(n));
  return isChoice(next) || isChoice(prev);
}
