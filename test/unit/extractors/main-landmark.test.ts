import { toBlocks, type Block } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { columnSections, mainLandmark, withMainLandmark } from '../../../src/extractors/main-landmark';
import { DEFAULT_SELECTION } from '../../../src/extractors/selection';
import { extract } from '../../../src/extractors/text-density';

const prose = (topic: string): string =>
  `<p>Our ${topic} team works with you from the first call to the launch, and every plan we write is measured against the goals you set.</p>`;

// A landing page: a column of sections in <main> (hero, features, testimonial, pricing grid, call to action).
const landing = (wrap: (s: string) => string = (s) => s): string => `<html><head><title>Acme Analytics</title></head><body>
<header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav></header>
<main>${wrap(`
<section class="hero"><h1>Analytics for growing teams</h1>${prose('onboarding')}</section>
<section class="features"><h2>Features</h2><h3>Dashboards</h3>${prose('dashboard')}<h3>Reports</h3>${prose('reporting')}</section>
<section class="quotes"><h2>What customers say</h2><blockquote>We replaced three tools with this one, and our weekly numbers are ready an hour earlier than before.</blockquote></section>
<section class="plans"><h2>Plans</h2><div>Starter</div><div>$9 / month</div><div>Growth</div><div>$19 / month</div><div>Business</div><div>$49 / month</div></section>
<section class="closing"><h2>Ready to start?</h2><p>Create an account today and see your first dashboard within ten minutes of signing up.</p></section>`)}
</main>
<footer><p>Copyright 2025 Acme Inc. All rights reserved.</p></footer></body></html>`;

function linesOf(html: string): Block[] {
  return toBlocks(parseHtml(html), true, false, true, true);
}

const take = (blocks: Block[], from: string, to: string): Block[] => {
  const a = blocks.findIndex((b) => b.text.includes(from));
  const z = blocks.findIndex((b) => b.text.includes(to));
  return blocks.slice(a, z + 1);
};

describe('withMainLandmark: a landing page read as the column of sections in its <main>', () => {
  it('keeps the sections of running text the segment model stopped short of, not a grid of short lines', () => {
    const blocks = linesOf(landing());
    const chosen = take(blocks, 'Analytics for growing teams', 'Our reporting team');
    const text = withMainLandmark(blocks, chosen, DEFAULT_SELECTION, new Set()).map((b) => b.text).join('\n');
    expect(text).toContain('We replaced three tools with this one');
    expect(text).toContain('Create an account today');
    expect(text).not.toContain('$19 / month');
    expect(text).not.toContain('Copyright 2025');
  });

  it("keeps a card's linked teaser sentence in a section of running text, not its link list", () => {
    const cards = `<section class="stories"><h2>Customer stories</h2>${prose('success')}
<div class="card"><a href="/s/1">Read how a regional grocer cut its reporting time in half and moved every store onto one dashboard.</a></div>
<ul class="more"><li><a href="/s/2">Grocer</a></li><li><a href="/s/3">Bank</a></li><li><a href="/s/4">Airline</a></li></ul></section>`;
    const blocks = linesOf(landing().replace('<section class="quotes">', `${cards}<section class="quotes">`));
    const chosen = take(blocks, 'Analytics for growing teams', 'Our reporting team');
    const text = withMainLandmark(blocks, chosen, DEFAULT_SELECTION, new Set()).map((b) => b.text).join('\n');
    expect(text).toContain('Read how a regional grocer cut its reporting time');
    expect(text).not.toContain('Airline');
  });

  it('looks through wrappers around the column', () => {
    const blocks = linesOf(landing((s) => `<div class="page"><div class="inner">${s}</div></div>`));
    const chosen = take(blocks, 'Analytics for growing teams', 'Our reporting team');
    const text = withMainLandmark(blocks, chosen, DEFAULT_SELECTION, new Set()).map((b) => b.text).join('\n');
    expect(text).toContain('Create an account today');
  });

  it('leaves content inside one section as it is: an article block framed by the page', () => {
    const blocks = linesOf(landing());
    const chosen = take(blocks, 'Features', 'Our reporting team');
    expect(withMainLandmark(blocks, chosen, DEFAULT_SELECTION, new Set())).toBe(chosen);
  });

  it('leaves content outside a <main> landmark as it is', () => {
    const blocks = linesOf(landing().replace('<main>', '<div>').replace('</main>', '</div>'));
    const chosen = take(blocks, 'Analytics for growing teams', 'Our reporting team');
    expect(withMainLandmark(blocks, chosen, DEFAULT_SELECTION, new Set())).toBe(chosen);
  });

  it('finds the landmark by role too, and the column under it', () => {
    const blocks = linesOf(landing().replace('<main>', '<div role="main">').replace('</main>', '</div>'));
    const first = blocks.find((b) => b.text.includes('Our dashboard team'))!;
    const main = mainLandmark(first.owner);
    expect(main?.attribs.role).toBe('main');
    expect(columnSections(main!, blocks.filter((b) => b.index >= first.index - 3 && b.index < first.index + 20)).length).toBeGreaterThanOrEqual(3);
  });
});

// Regression guards of the wiring in text-density.ts (the segment model already reads these small pages whole).
describe('extract: a landing page that is no single piece', () => {
  it('reads every section of running text', () => {
    const text = extract(landing()).text;
    expect(text).toContain('Our dashboard team works with you');
    expect(text).toContain('Create an account today');
  });

  it('reads a story (JSON-LD Article) as the segment model chose it', () => {
    const ld = '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Acme Analytics"}</script>';
    const story = landing().replace('</head>', `${ld}</head>`);
    expect(extract(story).text).toBe(extract(story.replace('<main>', '<div>').replace('</main>', '</div>')).text);
  });
});
