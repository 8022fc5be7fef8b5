import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of a news home page (theverge.com): a stream of short teasers and, in the same HTML, a
 * consent platform's privacy centre (div#onetrust-pc-sdk) of long, well-punctuated purposes that
 * outweighs them. The page has no headline of its own.
 */
function homePage(): string {
  const purpose = (i: number): string => `<section class="ot-sdk-row ot-cat-grp"><h4>Purpose ${i} 57 partners can use this purpose</h4>
    <p class="ot-category-desc">Purpose ${i}: your data can be used to monitor for and prevent unusual and possibly fraudulent activity, for example regarding advertising, ad clicks by bots, and to ensure systems and processes work properly and securely, which is why these cookies cannot be switched off in our systems.</p></section>`;
  const teaser = (i: number): string => `<div class="duet--content-cards"><a href="/news/${i}">Story ${i} of the day</a>
    <p>Teaser ${i}: the agency fed short summaries into a chatbot to decide which grants to cancel, and the answers came back in seconds.</p></div>`;
  return `<html><head><title>The Example</title></head><body>
    <div id="onetrust-consent-sdk"><div id="onetrust-pc-sdk" class="otPcPanel ot-hide ot-fade-in"><h3>Privacy Center</h3>
    <div id="ot-pc-content">${Array.from({ length: 14 }, (_, i) => purpose(i + 1)).join('')}</div></div></div>
    <main><div class="stream">${Array.from({ length: 8 }, (_, i) => teaser(i + 1)).join('')}</div></main></body></html>`;
}

describe('consent platforms are never the layout (layout.ts)', () => {
  it('reads the teasers of a home page, not the privacy centre that outweighs them', () => {
    const page = extract(homePage(), { url: 'https://www.example.com/' });
    expect(page.text).toContain('Teaser 1:');
    expect(page.text).toContain('Teaser 8:');
    expect(page.text).not.toContain('Purpose 3:');
  });
});
