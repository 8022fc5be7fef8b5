import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import { COMPACT_DOM_FROM_CHARS, isElement, parseHtml, type DomElement, type DomNode, type DomParent } from '../../../src/extractors/dom';

/** Every element of a tree, in document order. */
function elements(root: DomParent): DomNode[] {
  const out: DomNode[] = [];
  const stack: DomNode[] = [...root.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    if (isElement(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

// A long page of link tables (the shape that made a 9.5 MB page's DOM ~91 MiB, issue 24), with
// unclosed and implied elements so htmlparser2 closes some tags itself.
const rows = Array.from({ length: 18_000 }, (_, k) => `<tr><td><a href="/t/${k}">${k}</a></td><td>${(k * 13) % 997}<p>x</td></tr>`).join('');
const big = `<!doctype html><html><head><title>T</title></head><body><nav><table class="links">${rows}</table></nav><main><p>One<p>Two <b>bold</main><li>open`;

describe('parseHtml: a compact DOM for huge pages', () => {
  it('is the same tree htmlparser2 builds, elements without attributes sharing one frozen record', () => {
    expect(big.length).toBeGreaterThanOrEqual(COMPACT_DOM_FROM_CHARS);
    const compact = parseHtml(big);
    const plain = parseDocument(big) as unknown as DomParent;
    expect(render(compact as never)).toBe(render(plain as never));
    const a = elements(compact);
    const b = elements(plain);
    expect(a.length).toBe(b.length);
    const bare = a.filter((n): n is DomElement => isElement(n) && Object.keys(n.attribs).length === 0);
    expect(bare.length).toBeGreaterThan(50_000);
    // One frozen record for all of them (a reader that wrote one would fail loudly, not change the others).
    expect(new Set(bare.map((n) => n.attribs)).size).toBe(1);
    expect(Object.isFrozen(bare[0]!.attribs)).toBe(true);
    // Links between nodes are intact after the lists were copied.
    for (const n of a.slice(0, 5000)) {
      if (!isElement(n)) continue;
      n.children.forEach((c, i) => {
        expect(c.parent).toBe(n);
        expect((c as unknown as { prev: DomNode | null }).prev).toBe(i === 0 ? null : n.children[i - 1]);
      });
    }
  });

  it('leaves ordinary pages as htmlparser2 builds them', () => {
    const small = '<div><p>a</p><p class="x">b</p></div>';
    const root = parseHtml(small);
    const div = elements(root).filter(isElement)[0]!;
    expect(Object.isFrozen(div.attribs)).toBe(false);
    expect(render(root as never)).toBe(small);
  });
});
