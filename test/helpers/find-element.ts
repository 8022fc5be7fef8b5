import type { DomElement, DomParent } from '../../src/extractors/dom';

/** The first element under `root`, depth first, that passes `test`. */
export function findElement(root: DomParent, test: (el: DomElement) => boolean): DomElement | undefined {
  for (const c of root.children) {
    if (c.type !== 'tag') continue;
    const el = c as DomElement;
    if (test(el)) return el;
    const deeper = findElement(el, test);
    if (deeper) return deeper;
  }
  return undefined;
}
