import type { Block } from '../../../src/extractors/blocks';
import { findFirst, parseHtml, type DomElement } from '../../../src/extractors/dom';
import { isTermLabel } from '../../../src/extractors/term-labels';
import { extract } from '../../../src/extractors/text-density';

/** A line owned by the first <dt> of a snippet. */
const termLine = (html: string): Block => {
  const dt = findFirst(parseHtml(html), (e: DomElement) => e.name === 'dt')!;
  return { text: 'Builder', owner: dt } as unknown as Block;
};

const para = (i: number): string =>
  `<p>Paragraph ${i}: the runtime provides an I/O driver, a task scheduler and a timer, and every async application needs one of them to run its futures.</p>`;

describe('linked terms of a definition list (term-labels.ts)', () => {
  it('reads a linked term with a worded description as an item name', () => {
    expect(isTermLabel(termLine('<dl class="item-table"><dt><a href="struct.Builder.html">Builder</a></dt><dd>Builds Tokio Runtime with custom configuration values.</dd></dl>'))).toBe(true);
  });

  it('leaves a menu laid out as a <dl> (a link for a description) alone', () => {
    expect(isTermLabel(termLine('<dl><dt><a href="/a">Builder</a></dt><dd><a href="/b">More builders</a></dd></dl>'))).toBe(false);
    expect(isTermLabel(termLine('<dl><dt><a href="/a">Builder</a></dt></dl>'))).toBe(false);
  });

  it('keeps a module page\'s item table after its text', () => {
    const items = ['Builder|Builds the runtime with custom configuration values.', 'Handle|Handle to the runtime, cheap to clone.', 'Runtime|The Tokio runtime itself, which drives every task.',
      'EnterGuard|Runtime context guard, dropped on leaving.', 'Id|An opaque ID that identifies a runtime among those running.']
      .map((r) => `<dt><a class="struct" href="struct.${r.split('|')[0]}.html">${r.split('|')[0]}</a></dt><dd>${r.split('|')[1]}</dd>`).join('\n');
    const html = `<html><head><title>tokio::runtime - Rust</title></head><body><nav class="sidebar"><a href="/">tokio</a></nav>
<main><section id="main-content" class="content"><h1>Module runtime</h1>
${[1, 2, 3, 4, 5, 6].map(para).join('\n')}
<h2 id="structs" class="section-header">Structs<a href="#structs" class="anchor">§</a></h2>
<dl class="item-table">${items}</dl></section></main></body></html>`;
    const page = extract(html);
    expect(page.paragraphs).toContain('Builder');
    expect(page.text).toContain('Builds the runtime with custom configuration values.');
    expect(page.text).toContain('An opaque ID that identifies a runtime');
  });
});
