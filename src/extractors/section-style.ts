import { isElement, type DomElement } from './dom';

/** tag.class of an element, digits ignored (generated class names number their variants). */
const styleOf = (e: DomElement): string => `${e.name}.${(e.attribs.class ?? '').replace(/\d+/g, '')}`;

/**
 * How a template styles a section, for finding its sibling sections: its tag and class; or, for
 * a bare element whose only child element carries a class (a component framework wraps each
 * section of the page in a plain <div> around its styled box), the bare tag and that child's
 * style. Undefined for a bare element without such a child: bare <div>s are alike everywhere.
 * `cls` is the class the style names, for judging what kind of box it is; `wrapped`: found through a bare wrapper.
 */
export function sectionStyle(e: DomElement): { style: string; cls: string; wrapped: boolean } | undefined {
  if (e.attribs.class) return { style: styleOf(e), cls: e.attribs.class, wrapped: false };
  const kids = e.children.filter(isElement) as DomElement[];
  const only = kids.length === 1 ? kids[0]! : undefined;
  if (!only?.attribs.class) return undefined;
  return { style: `${e.name}>${styleOf(only)}`, cls: only.attribs.class, wrapped: true };
}
