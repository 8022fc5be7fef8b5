import { extract } from '../../../src/extractors/text-density';

const para = (topic: string, i: number): string =>
  `<p>${topic} ${i}: a well-architected data platform turns raw records into insight, so your teams can act on what happens today rather than last quarter.</p>`;

/**
 * A service page built from components: text blocks and call-to-action boxes alike in one grid,
 * the boxes styled `cmp-cta__banner` yet carrying a section of the text (a heading and a long
 * paragraph). A short call to action in such a box, and a hero banner heading the page, stay
 * left to the class word.
 */
function page(): string {
  const block = (t: string): string => `<div class="text-v2"><div class="cmp-text"><h3>${t}</h3>${[1, 2].map((i) => para(t, i)).join('')}</div></div>`;
  const band = (t: string): string => `<div class="cta cmp-cta__banner"><div class="cmp-cta__container-text"><div class="cmp-text"><h3>${t} heading</h3>
    <p>${t}: enterprises are moving to platforms that remove the need to buy, install and upgrade software, which frees budget for analytics and lets data teams scale with demand, whatever the season brings.</p></div></div></div>`;
  return `<html><head><title>Data and analytics platform</title></head><body><nav><a href="/">Home</a></nav>
    <main><h1>Data and analytics platform</h1><div class="grid">${block('Intro')}${band('Band one')}${block('Engineering')}${band('Band two')}${block('Governance')}
    <div class="cta cmp-cta__banner"><p>Contact us today.</p></div></div></main>
    <footer><p>© 2025 Consulting LLP</p></footer></body></html>`;
}

describe('text bands (text-bands.ts)', () => {
  it('keeps a banner box that carries a section of the text between two others, not a short call to action', () => {
    const out = extract(page());
    expect(out.text).toContain('Intro 1:');
    expect(out.text).toContain('Governance 2:');
    expect(out.text).toContain('Band one: enterprises');
    expect(out.text).toContain('Band two: enterprises');
    expect(out.text).not.toContain('Contact us today');
  });
});
