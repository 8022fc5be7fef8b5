import { extract } from '../../../src/extractors/text-density';

/** Paragraphs of real article length, numbered so every one can be looked for. */
const paras = (n: number, topic: string): string => Array.from({ length: n }, (_, i) =>
  `<p>Paragraph ${i + 1} about ${topic}: the council met on Tuesday, heard from residents, and agreed that the plan would go ahead with a review in spring.</p>`).join('\n');

describe('furniture words judged by what the element holds (layout.ts)', () => {
  it('keeps the main column inside a sticky-sidebar wrapper and still drops the real sidebar', () => {
    // Paragraphs of middling length: discounted as furniture, each would fall below the bar.
    const short = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1}: the council met on Tuesday and agreed the plan would go ahead, with a review.</p>`).join('');
    const page = extract(`<html><head><title>River park approved | Gazette</title></head><body>
      <div class="theiaStickySidebar sidebar-wrapper">
        <div class="col-8"><h1>River park approved</h1>${short}</div>
        <div class="sidebar widget-area"><h3>Popular</h3><p>A short teaser about an unrelated story that was popular this week, with some words.</p></div>
      </div></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Paragraph'))).toHaveLength(6);
    expect(page.text).not.toContain('unrelated story');
  });

  it('reads a page whose whole body sits in a class-hidden root that a script reveals', () => {
    const page = extract(`<html><head><title>Unnest in databases</title></head><body><div class="root hide">
      <h1>Unnest in databases</h1>${paras(5, 'unnesting')}</div>
      <div class="modal hidden"><p>Sign up for our newsletter to get every post in your inbox, once a week, no spam ever.</p></div></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Paragraph'))).toHaveLength(5);
    expect(page.text).not.toContain('newsletter');
  });

  it('does not take a long cookie notice for the page on a short page', () => {
    const notice = Array.from({ length: 6 }, () => '<p>These technologies are necessary for the website to function and cannot be switched off, such as setting your privacy preferences, logging in or filling in forms.</p>').join('');
    const page = extract(`<html><head><title>New case fans</title></head><body class="cookies-not-set">
      <h1>New case fans</h1><p>Not sure if this is the right place, but does anyone know when the new case fans ship? The old ones rattle.</p>
      <div id="onetrust-consent-sdk" class="cookie-banner">${notice}</div></body></html>`);
    expect(page.text).toContain('does anyone know when the new case fans ship');
    expect(page.text).not.toContain('These technologies');
  });

  it('walks content that a stray tag left inside <head>', () => {
    // htmlparser2 keeps everything after the unknown element inside <head>; a browser would not.
    const page = extract(`<html><head><title>Six kinds of outsourcing</title><meta charset="utf-8"><custom-tracker></custom-tracker>
      <div class="post"><h1>Six kinds of outsourcing</h1>${paras(5, 'outsourcing')}</div></head><body></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Paragraph'))).toHaveLength(5);
  });

  it('judges sibling sections that share a furniture word together (every section of a guide)', () => {
    const section = (i: number): string => `<div id="topic${i}" class="skip-item"><h2>Part ${i}</h2>
      <p>Part ${i}: a mesh system uses several units, and each one relays the signal so that every room gets coverage.</p></div>`;
    const page = extract(`<html><head><title>What is mesh wifi</title></head><body><div class="blog"><h1>What is mesh wifi</h1>
      ${[1, 2, 3, 4, 5].map(section).join('')}</div><div class="skip-links"><a href="#a">Skip to content</a></div></body></html>`);
    for (let i = 1; i <= 5; i++) expect(page.text).toContain(`Part ${i}: a mesh system`);
  });

  it('reads a page streamed into a hidden element that a script moves into place (React Suspense)', () => {
    const page = extract(`<html><head><title>SEO tutorials</title></head><body><div id="app"><template id="B:0"></template>
      <p>Loading…</p></div><div hidden id="S:0"><main><h1>SEO tutorials</h1>${paras(5, 'search engine optimisation')}</main></div></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Paragraph'))).toHaveLength(5);
  });

  it('leaves a long list of footnotes furniture when its items share the furniture word (a product tour\'s disclaimers)', () => {
    // A feature tour: short sections that never make a long run, then the footnotes, longer than all of them together.
    const feature = (i: number): string => `<section class="feature"><h2>Feature ${i}</h2><p>Feature ${i} makes the phone last a full day with room to spare.</p></section>`;
    const words = ['carrier', 'country', 'network', 'region', 'settings', 'usage', 'model', 'storage', 'battery', 'display', 'camera', 'charger'];
    const note = (w: string, i: number): string => `<li class="bottom-disclaimer__item">Note ${i}: the ${w} figure depends on the ${w} in use, and on conditions of our internal lab tests with pre-release units, so results for your ${w} vary.</li>`;
    const page = extract(`<html><head><title>Features and highlights of the new handset</title></head><body><main>
      <div class="hero"><h1>Phone X</h1></div>${[1, 2, 3, 4, 5, 6].map(feature).join('')}</main>
      <div class="bottom-disclaimer"><ol class="bottom-disclaimer__list">${words.map(note).join('')}</ol></div></body></html>`);
    expect(page.text).toContain('Feature 3 makes the phone last');
    expect(page.text).not.toContain('Note 4: the settings figure');
  });
});
