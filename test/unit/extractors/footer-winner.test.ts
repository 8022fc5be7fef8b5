import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { isFooterWinner, valuesAbove } from '../../../src/extractors/footer-winner';

describe('a footer winner (footer-winner.ts)', () => {
  // An insurance broker's resource page whose footer markup is plain divs: a menu, a short
  // ebook teaser, and a footer of addresses, two long disclaimers and the copyright notice.
  // The header's mega menu: some forty links, as such a site has.
  const menu = ['Employee Benefits', 'HR Consulting', 'Commercial Insurance', 'Cyber Insurance and Risk Management', 'Personal Insurance', 'About PSA', 'Careers', 'Blog', 'Contact Us']
    .flatMap((t) => [t, `${t} Services`, `${t} Resources`, `${t} Team`, `${t} FAQ`]).map((t, i) => `<li><a href="/m/${i}">${t}</a></li>`).join('');
  const article = '<div><h2>Best Practices for Vehicle Rentals</h2><div>Request our free ebook</div>'
    + '<p>A good risk management safety program requires proper screening of prospective renters to ensure that only qualified drivers operate your vehicles. Implementing clear procedures helps protect your business.</p>'
    + '<div>Key topics discussed in the guide include:</div><ul><li>General procedures at the rental counter</li><li>For-hire vehicle rental steps</li>'
    + '<li>Rental practices for international drivers</li><li>Reporting losses</li><li>Renting vehicles with hand controls</li></ul></div>';
  const footer = '<div><div>(800) 677-7887</div><div>LinkedIn</div><div>Facebook</div><div>YouTube</div><div>Locations</div>'
    + '<div>Baltimore, MD</div><div>11311 McCormick Rd., Suite 500</div><div>Hunt Valley, MD 21031</div><div>Snow Hill, MD</div><div>301 N. Washington St.</div><div>Snow Hill, MD 21863</div>'
    + `<p>This material is not intended to replace the advice of a qualified advisor. ${'Information has been obtained from sources believed to be reliable, but it is for informational purposes only, and no warranty is given. '.repeat(3)}</p>`
    + `<p>Products and services referenced are for general information only. ${'Always consult a qualified advisor prior to purchasing, and review the manufacturer\'s instructions, terms, conditions and exclusions. '.repeat(5)}</p>`
    + '<div>Copyright © 2023 PSA Financial Advisors, Inc. All Rights Reserved.</div></div>';
  const page = `<html><body><div><ul>${menu}</ul></div>${article}${footer}</body></html>`;

  it('tells a winner at the page\'s end holding the copyright notice from the article above it', () => {
    const blocks = toBlocks(parseHtml(page));
    const at = (t: string): number => blocks.findIndex((b) => b.text.startsWith(t));
    // The segment model's pick on this page once its footer markup is gone: from the social links
    // to the second disclaimer; the notice just after it was left out as boilerplate.
    const footerPick = blocks.slice(at('LinkedIn'), at('Products and services') + 1);
    expect(isFooterWinner(blocks, footerPick)).toBe(true);
    const articlePick = blocks.slice(at('Best Practices'), at('Renting vehicles') + 1);
    expect(isFooterWinner(blocks, articlePick)).toBe(false);
    // The second pass cannot reach the footer.
    const values = valuesAbove(blocks.map(() => 1), footerPick[0]!);
    expect(values[at('Renting vehicles')]).toBe(1);
    expect(values[at('Hunt Valley')]).toBeLessThan(-1000);
  });

  it('keeps a winner that holds no copyright notice, wherever it stands', () => {
    const noNotice = toBlocks(parseHtml(page.replace('Copyright © 2023 PSA Financial Advisors, Inc. All Rights Reserved.', 'Stay in touch.')));
    const at = (t: string): number => noNotice.findIndex((b) => b.text.startsWith(t));
    expect(isFooterWinner(noNotice, noNotice.slice(at('LinkedIn'), at('Products and services') + 1))).toBe(false);
  });
});
