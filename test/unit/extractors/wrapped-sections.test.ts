import { sectionStyle } from '../../../src/extractors/section-style';
import { parseHtml, type DomElement } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';

const para = (topic: string, i: number): string =>
  `<p>${topic} ${i}: your personal auto insurance covers you while you are offline, and the policy the platform keeps applies once you accept a trip.</p>`;
const links = (n: number): string => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/city/${i}">Drive in city number ${i}</a></li>`).join('')}</ul>`;

/**
 * A component framework's page: each section a bare <div> around a styled box (`div.css-cenKGv`,
 * generated names), the text nested many levels inside; the longest section (a FAQ) wins the
 * run of dense lines, the others are its siblings through their bare wrappers.
 */
function page(): string {
  const deep = (inner: string): string => `<div class="css-ofGld"><div class="container-inner"><div class="css-bVFrLX"><div class="css-HXvWP"><div class="css-fMiFup">${inner}</div></div></div></div></div>`;
  const wrap = (cls: string, inner: string): string => `<div><div class="css-cenKGv"><section class="${cls}">${deep(inner)}</section></div></div>`;
  const short = (t: string): string => wrap(`css-${t}`, `<h2>${t} section</h2>${[1, 2].map((i) => para(t, i)).join('')}`);
  const faq = wrap('css-faq', `<h2>Frequently asked questions</h2>${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `<h3>Question ${i}?</h3>${para('Answer', i)}`).join('')}`);
  return `<html><head><title>Insurance for drivers</title></head><body><main id="main">
    ${short('Coverage')}<div><div class="css-cenKGv">${links(12)}</div></div>${short('Accident')}<div><div class="css-cenKGv">${links(12)}</div></div>${faq}
    </main><footer><p>© 2025 Rides Inc.</p></footer></body></html>`;
}

describe('sections behind bare wrappers (section-style.ts)', () => {
  it('styles a bare wrapper by its only child, and no bare element without one', () => {
    const root = parseHtml('<div><div class="css-cenKGv"><p>x</p></div></div><div><p>y</p></div>');
    const [a, b] = root.children as DomElement[];
    expect(sectionStyle(a!)).toEqual({ style: 'div>div.css-cenKGv', cls: 'css-cenKGv', wrapped: true });
    expect(sectionStyle(b!)).toBeUndefined();
  });

  it('keeps the sibling sections of the longest one', () => {
    const out = extract(page());
    expect(out.text).toContain('Answer 8:');
    expect(out.text).toContain('Coverage 2:');
    expect(out.text).toContain('Accident 1:');
    expect(out.text).not.toContain('Drive in city number 3');
  });
});
