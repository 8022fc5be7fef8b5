import { isHiddenByClass } from '../../../src/extractors/clean';
import { parseHtml } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';
import { findElement } from '../../helpers/find-element';

/**
 * The shape of a utility-class (Tailwind) service page's FAQ (neoteric.eu): each question a
 * <button>, its answer in the next <div class="… hidden">, items alike in a column; no class
 * word names an accordion. A chat widget's lone button and hidden card is no such series.
 */
const faqItem = (i: number): string => `<div class="flex flex-col gap-2 py-6">
  <button class="flex flex-row items-center justify-between" type="button"><h5 class="text-left font-medium">Question ${i}: how long does a progressive web app take to build?</h5></button>
  <div class="font-poppins text-sm text-text-dark-secondary lg:text-base hidden"><p>Answer ${i}: a simple first version takes two to three months, and a product with offline sync, payments and many integrations takes longer, depending on the team.</p></div></div>`;

function page(): string {
  const intro = [1, 2, 3].map((i) => `<p>Intro ${i}: we help you build an application your customers will love, with the native feel of a mobile app, and we stay with you after launch.</p>`).join('');
  return `<html><head><title>Progressive web app development</title></head><body><nav><a href="/">Home</a> <a href="/services">Services</a></nav>
    <main><h1>Progressive web app development</h1>${intro}
    <h2>Frequently asked questions</h2><div class="col-span-12 border-t-2">${[1, 2, 3, 4, 5].map(faqItem).join('')}</div></main>
    <button class="floating-button" id="help-button"><span>Need help?</span></button>
    <div class="card help-card hidden" id="help-card"><p>Meet Evie, your trusty assistant for planning: ask anything, any time, and get an answer within seconds from our team.</p></div>
    </body></html>`;
}

const find = findElement;

describe('collapsed panels opened by a button (clean.ts)', () => {
  it('reads the hidden answer after a question button in a run of items alike, not a lone widget', () => {
    const root = parseHtml(page());
    const answer = find(root, (el) => (el.attribs.class ?? '').endsWith('lg:text-base hidden'))!;
    expect(isHiddenByClass(answer)).toBe(false);
    const widget = find(root, (el) => el.attribs.id === 'help-card')!;
    expect(isHiddenByClass(widget)).toBe(true);
  });

  it('keeps every answer of such a FAQ in the text', () => {
    const out = extract(page());
    // (The questions are button labels, left out like every control's label.)
    for (const i of [1, 3, 5]) expect(out.text).toContain(`Answer ${i}:`);
    expect(out.text).not.toContain('Meet Evie');
  });
});
