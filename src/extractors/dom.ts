import { DomHandler, Parser, parseDocument } from 'htmlparser2';

/**
 * The slice of htmlparser2's DOM (domhandler) the extractors walk. Walking these plain objects
 * directly, rather than through cheerio's wrapper API, keeps extraction at a few ms per page.
 */
export interface DomNode {
  type: string;
  parent: DomElement | DomRoot | null;
}

export interface DomText extends DomNode {
  type: 'text';
  data: string;
}

export interface DomElement extends DomNode {
  type: 'tag' | 'script' | 'style';
  name: string;
  attribs: Record<string, string>;
  children: DomNode[];
}

export interface DomRoot extends DomNode {
  type: 'root';
  children: DomNode[];
}

export type DomParent = DomElement | DomRoot;

/**
 * Parses with htmlparser2, the parser behind cheerio's slim entry point (no parse5, no browser
 * DOM), called directly: the same document, without the cheerio instance built around it per page.
 */
export function parseHtml(html: string): DomRoot {
  // htmlparser2 reads `<![CDATA[` as a comment up to `]]>`, which on some XenForo pages
  // swallows the whole thread; browsers end such a bogus comment at the next `>`.
  // `CDATA[` first: a search for it skips ahead fast, one for `<![` stops at every `<` of the page.
  const source = html.includes('CDATA[') && html.includes('<![CDATA[') ? html.replace(/<!\[CDATA\[/g, '') : html;
  if (source.length < COMPACT_DOM_FROM_CHARS) return parseDocument(source) as unknown as DomRoot;
  const handler = new CompactDomHandler();
  new Parser(handler).end(source);
  return handler.root as unknown as DomRoot;
}

/**
 * Pages at least this long are parsed into a compact DOM (CompactDomHandler): ordinary pages
 * (tens to hundreds of kB) are parsed as htmlparser2 builds them, at no extra cost.
 */
export const COMPACT_DOM_FROM_CHARS = 2 ** 20;

/** The attributes of every element without any, in a compact DOM: read-only, as all readers treat them. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * domhandler's DOM, smaller: each element's `children` is cut to its length once the element
 * closes, and elements without attributes share one empty (frozen) record. A child list is built
 * by `push`, and V8 gives an array 17 slots at its first push: an element with one child (a `<td>`
 * around its text, an `<a>` around its label) kept 152 bytes of list for 8 used. On a 9.5 MB page
 * of link tables (346,000 nodes) the DOM took 91 MiB; 64 with the lists cut, 54 with the shared
 * record, held on its page thread while the page is read (issue 24). The lists are copied as the
 * parse goes, so the long ones die young and the parse's peak falls as well.
 */
class CompactDomHandler extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    for (const _ in attribs) return super.onopentag(name, attribs);
    super.onopentag(name, NO_ATTRIBUTES);
  }

  override onclosetag(): void {
    const el = this.tagStack[this.tagStack.length - 1]!;
    super.onclosetag();
    if (el.children.length > 0) el.children = el.children.slice();
  }
}

export const isElement = (n: DomNode): n is DomElement => n.type === 'tag' || n.type === 'script' || n.type === 'style';
export const isText = (n: DomNode): n is DomText => n.type === 'text';

/** First element in document order that satisfies `pred`. */
export function findFirst(root: DomParent, pred: (el: DomElement) => boolean): DomElement | undefined {
  const stack: DomNode[] = [...root.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (pred(n)) return n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return undefined;
}

export function findAll(root: DomParent, pred: (el: DomElement) => boolean): DomElement[] {
  const out: DomElement[] = [];
  const stack: DomNode[] = [...root.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (pred(n)) out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

/** Concatenated text of a subtree (no block separation; for short fields such as titles). */
export function textContent(n: DomNode): string {
  const parts: string[] = [];
  const stack: DomNode[] = [n];
  while (stack.length) {
    const x = stack.pop()!;
    if (isText(x)) parts.push(x.data);
    else if (isElement(x) || x.type === 'root') {
      const children = (x as DomParent).children;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return parts.join('');
}

export function normalizeSpace(s: string): string {
  return s.replace(/[\s\u00a0\u200b\u3000]+/g, ' ').trim();
}

/** Depth-first ancestors, nearest first. */
export function ancestors(n: DomNode): DomParent[] {
  const out: DomParent[] = [];
  for (let p = n.parent; p; p = p.parent) out.push(p);
  return out;
}

export function lowestCommonAncestor(nodes: DomNode[]): DomParent | undefined {
  if (nodes.length === 0) return undefined;
  let chain = [nodes[0]!, ...ancestors(nodes[0]!)] as DomNode[];
  for (let i = 1; i < nodes.length; i++) {
    const set = new Set<DomNode>([nodes[i]!, ...ancestors(nodes[i]!)]);
    chain = chain.filter((a) => set.has(a));
  }
  return chain.find((n) => isElement(n) || n.type === 'root') as DomParent | undefined;
}

/**
 * The element next to `el` among its siblings (`step` −1: before it, +1: after it), passing over
 * the nodes `across` allows (white space, comments…); undefined when the first node not passed
 * over is no element.
 */
export function adjacentElement(el: DomElement, step: -1 | 1, across: (n: DomNode) => boolean): DomElement | undefined {
  const sibs = el.parent?.children ?? [];
  for (let i = sibs.indexOf(el) + step; i >= 0 && i < sibs.length; i += step) {
    const s = sibs[i]!;
    if (across(s)) continue;
    return isElement(s) ? s : undefined;
  }
  return undefined;
}

export function isAncestorOf(a: DomNode, n: DomNode): boolean {
  for (let p: DomNode | null = n; p; p = p.parent) if (p === a) return true;
  return false;
}
