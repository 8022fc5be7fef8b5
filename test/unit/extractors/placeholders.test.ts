import { extract } from '../../../src/extractors/text-density';

const body = [
  'Our aluminium wallet holds up to twelve cards without stretching and blocks RFID readers from skimming them.',
  'The two plates are machined from aerospace-grade aluminium and held together by an elastic band you can replace.',
  'A money clip on the back holds cash, and a strap version is available for those who carry notes folded in half.',
].map((p) => `<p>${p}</p>`).join('\n');
const filler = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>';

describe('dropPlaceholders: a template\'s filler text', () => {
  it('drops "Lorem ipsum" paragraphs and headings of an unused tab', () => {
    const html = `<!doctype html><html lang="en"><head><title>Aluminum wallet - black</title></head><body><div class="product">
<h1>Aluminum wallet - black</h1>${body}
<div class="tabs"><h3>LOREM ISPUM DOLOR ET</h3>${filler}${filler}<h3>Lorem ipsum 2</h3>${filler}</div>
${body.replace(/<p>/g, '<p>In short: ')}</div></body></html>`;
    const text = extract(html).text;
    expect(text).toContain('machined from aerospace-grade aluminium');
    expect(text).not.toMatch(/lorem/i);
  });

  it('keeps it on a page about the filler', () => {
    const html = `<!doctype html><html lang="en"><head><title>What is Lorem Ipsum?</title></head><body><article><h1>What is Lorem Ipsum?</h1>${body}${filler}${body}</article></body></html>`;
    expect(extract(html).text).toContain('Lorem ipsum dolor sit amet');
  });
});
