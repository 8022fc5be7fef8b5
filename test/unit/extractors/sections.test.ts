import { extract } from '../../../src/extractors/text-density';

const para = (topic: string, i: number): string =>
  `<p>${topic} ${i}: this plan meets the recommended guide, with five portions of fruit and vegetables a day, and costs little to make at home.</p>`;

describe('multi-section articles', () => {
  it('keeps what lies between two parts of the article (a table of short cells), not only the parts', () => {
    const rows = ['Carrots|80g|160g|320g', 'Porridge oats|40g|80g|160g', 'Semi-skimmed milk|1 pint|2 pints|4 pints', 'Red lentils|50g|100g|200g',
      'Wholemeal bread|1 loaf|2 loaves|3 loaves', 'Tinned tuna|1 tin|2 tins|4 tins', 'Frozen peas|100g|200g|400g', 'Bananas|3|6|12',
      'Eggs|6|12|24', 'Spinach|100g|200g|400g', 'Yogurt|500g|1kg|2kg', 'Rice|200g|400g|800g']
      .map((r) => `<tr>${r.split('|').map((c) => `<td>${c}</td>`).join('')}</tr>`).join('');
    const page = extract(`<html><head><title>A week of budget meals</title></head><body><nav><a href="/">Home</a></nav>
      <section class="text-layout"><h1>A week of budget meals</h1>${[1, 2, 3, 4, 5].map((i) => para('Intro', i)).join('')}
      <h2>Weekly shopping list</h2><table><tbody>${rows}</tbody></table><table><tbody>${rows}</tbody></table>
      ${[1, 2, 3, 4].map((i) => para('Monday', i)).join('')}</section>
      <footer><p>© 2025 Heart charity. All rights reserved.</p></footer></body></html>`);
    expect(page.text).toContain('Intro 1: this plan');
    expect(page.text).toContain('Monday 4: this plan');
    expect(page.paragraphs).toContain('Semi-skimmed milk');
    expect(page.paragraphs).toContain('Wholemeal bread');
  });

  it('leaves out a comment thread that outweighs the story it follows', () => {
    const comment = (i: number): string => `<li class="comment"><div class="commentBody"><p>Comment ${i}: I have worked in this field for twenty years, and the market has changed, but not in the way the story says; hiring comes in waves.</p></div></li>`;
    const page = extract(`<html><head><title>Graduates find fewer jobs</title></head><body><article class="story"><h1>Graduates find fewer jobs</h1>
      <p>Elite computer science degrees are no longer a guaranteed on-ramp to the industry, recent graduates and their teachers say.</p>
      <p>"There is a dreary mood on campus," said a recent graduate, who applied to more than a hundred jobs before getting an offer.</p></article>
      <ul class="links">${Array.from({ length: 12 }, (_, i) => `<li><a href="/s/${i}">Another story number ${i} on the front page</a></li>`).join('')}</ul>
      <div id="comments"><ul class="commentlisting">${Array.from({ length: 30 }, (_, i) => comment(i + 1)).join('')}</ul></div></body></html>`);
    expect(page.text).toContain('Elite computer science degrees');
    expect(page.text).not.toContain('Comment 1:');
  });
});

describe('sibling sections', () => {
  const links = (n: number): string => `<ul class="toc">${Array.from({ length: n }, (_, i) => `<li><a href="#s${i}">Section number ${i} of this report</a></li>`).join('')}</ul>`;
  const section = (title: string, body: string): string => `<div class="sect1"><h2>${title}</h2><div class="sectionbody">${body}</div></div>`;

  it('takes every section the template styles alike, not only the densest one', () => {
    const dense = [1, 2, 3, 4, 5, 6].map((i) => para('Progress', i)).join('');
    const shortItems = (topic: string): string => `<ul>${['The first patch', 'A second patch', 'The third one', 'And a fourth'].map((s) => `<li>${topic}: ${s} was merged</li>`).join('')}</ul>`;
    const page = extract(`<html><head><title>Progress report 39</title></head><body><h1>Progress report 39</h1>
      <div id="content">${section('What is new?', dense)}${links(14)}
      ${section('GCC patches status', `<p>Several patches went upstream.</p>${shortItems('Upstream')}`)}${links(14)}
      ${section('How to contribute', `<p>Pick an issue.</p>${shortItems('Issue')}`)}</div>
      <footer><p>© 2025 The author. All rights reserved.</p></footer></body></html>`);
    expect(page.text).toContain('Progress 1: this plan');
    expect(page.text).toContain('Upstream: The first patch was merged');
    expect(page.text).toContain('Issue: And a fourth was merged');
    expect(page.text).not.toContain('Section number 3 of this report');
  });

  it('leaves out a box of other stories or a newsletter sign-up under its heading, inside the article or after it, and keeps the article around it', () => {
    const teaser = (i: number): string => `<div class="teaser"><p>Teaser ${i}: navigating the disability benefits system can be overwhelming when you are already dealing with an injury.</p></div>`;
    const html = `<html><head><title>A week of budget meals</title></head><body>
      <article><h1>A week of budget meals</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => para('Intro', i)).join('')}
      <div class="inline-box"><h3>Related articles</h3>${teaser(1)}${teaser(2)}</div>
      ${[1, 2, 3].map((i) => para('Monday', i)).join('')}
      <div class="nl"><h3>Subscribe to Budget Bites</h3><p>Every Friday we send the best meal plans, shopping lists and recipes for families on a budget, free of charge.</p></div>
      <div class="more"><h2>Latest News</h2>${teaser(3)}${teaser(4)}${teaser(5)}</div></article></body></html>`;
    const page = extract(html);
    const more = extract(html.replace('Latest News', 'More from Budget Bites'));
    expect(more.text).toContain('Monday 3:');
    expect(more.text).not.toContain('Teaser 3');
    expect(page.text).toContain('Intro 8:');
    expect(page.text).toContain('Monday 3:');
    expect(page.text).not.toContain('Teaser');
    expect(page.text).not.toContain('Every Friday we send');
  });

  it('reads a short unlinked line styled as a heading (utility classes on a <p>) as the heading of a box of other stories', () => {
    const teaser = (i: number): string => `<div><p class="text-sm">Teaser ${i}: the cheapest places to fly this winter include Florida, a hub of affordable domestic destinations.</p></div>`;
    const html = `<html><head><title>A week of budget meals</title></head><body>
      <article><h1>A week of budget meals</h1>${[1, 2, 3, 4, 5, 6].map((i) => para('Intro', i)).join('')}</article>
      <div class="p-10 flex flex-col"><p class="text-[15px] font-semibold uppercase"> Popular posts </p><div class="flex flex-col">${[1, 2, 3, 4].map(teaser).join('')}</div></div>
      <div class="p-10 flex"><p class="font-semibold uppercase">Read more articles</p>${[5, 6, 7].map(teaser).join('')}</div></body></html>`;
    const page = extract(html);
    expect(page.text).toContain('Intro 6:');
    expect(page.text).not.toContain('Teaser');
  });
});
