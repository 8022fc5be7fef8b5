import { isBoilerplate, type Block } from '../../../src/extractors/blocks';
import { findFirst, parseHtml, type DomElement } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';

/** A line of the given text owned by the first element named `tag` of a snippet. */
const lineIn = (html: string, tag: string, text: string): Block =>
  ({ text, owner: findFirst(parseHtml(html), (e: DomElement) => e.name === tag)! }) as unknown as Block;

const para = (i: number): string =>
  `<p>Paragraph ${i}: the framework builds small, fast binaries for every desktop platform, and its front end may use any web technology you like.</p>`;

describe('code lines (code-lines.ts)', () => {
  it('does not read a short command with a web address as a site signature', () => {
    const cmd = 'sh <(curl https://create.tauri.app/sh)';
    expect(isBoilerplate(lineIn(`<pre data-language="sh"><code><div class="ec-line"><div class="code">${cmd}</div></div></code></pre>`, 'div', cmd))).toBe(false);
    expect(isBoilerplate(lineIn(`<p>${cmd}</p>`, 'p', cmd))).toBe(true);
  });

  it('keeps a guide\'s install command between its paragraphs', () => {
    const html = `<html><head><title>What is Tauri?</title></head><body><main><div class="sl-markdown-content"><h1>What is Tauri?</h1>
${[1, 2, 3].map(para).join('\n')}
<div class="expressive-code"><figure class="frame"><pre data-language="sh"><code><div class="ec-line"><div class="code">sh &lt;(curl https://create.tauri.app/sh)</div></div></code></pre></figure></div>
${[4, 5, 6].map(para).join('\n')}</div></main></body></html>`;
    expect(extract(html).paragraphs).toContain('sh <(curl https://create.tauri.app/sh)');
  });
});
