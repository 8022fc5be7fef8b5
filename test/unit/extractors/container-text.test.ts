import { extract } from '../../../src/extractors/text-density';

const long = (topic: string, i: number): string =>
  `<p>Paragraph ${i} on ${topic}: a reliable one saves an hour on every job, lasts for years with basic care, and is worth buying from a brand with a real warranty and spare parts.</p>`;

/** A tool of a round-up: a numbered heading, a short paragraph, then a box of two linked products. */
const tool = (i: number): string => `<h3>${i}. Tool number ${i}</h3>
  <p>Tool ${i} keeps cuts clean and connections tight, which matters on every job site.</p>
  <h4>Top Expert Recommendations:</h4>
  <ul><li><h2><a href="/go/a${i}">Brand A Professional Tool ${i} Model 1625-20 Heavy Duty Edition</a></h2></li>
  <li><h2><a href="/go/b${i}">Brand B Contractor Grade Tool ${i} Model 438-5 Long Reach Edition</a></h2></li></ul>`;

describe('the main container\'s own text around its runs of dense lines (content.ts)', () => {
  it('keeps every section of a round-up whose product boxes cut the run of text short', () => {
    const tools = Array.from({ length: 24 }, (_, i) => tool(i + 1)).join('\n');
    const page = extract(`<html><head><title>51 must-have electrician tools</title></head><body>
      <section class="single-post"><div class="single-post--content"><article class="cms-content">
      <h1>51 must-have electrician tools</h1>${long('tools', 1)}${long('tools', 2)}${long('tools', 3)}${tools}
      <h2>Bonus: the software every electrician business needs</h2>${long('software', 4)}</article></div></section>
      <footer><p>© FieldCo</p></footer></body></html>`);
    const tools24 = page.paragraphs.filter((p) => /^Tool \d+ keeps/.test(p));
    expect(tools24).toHaveLength(24);
    expect(page.text).toContain('Paragraph 4 on software');
  });

  it('keeps the short opening lines of the container above the first run of dense lines', () => {
    const page = extract(`<html><head><title>Creating types from types</title></head><body><div class="sidebar"><a href="/a">Handbook</a></div>
      <article class="markdown"><h1>Creating types from types</h1>
      <p>TypeScript's type system is very powerful</p><p>It lets you express types in terms of others</p>
      <p>The simplest form of this idea is generics</p><p>We also have a wide variety of operators</p>
      ${long('generics', 1)}${long('generics', 2)}${long('generics', 3)}${long('generics', 4)}</article>
      <div class="footer"><a href="/">Home</a></div></body></html>`);
    expect(page.paragraphs).toContain("TypeScript's type system is very powerful");
    expect(page.paragraphs).toContain('The simplest form of this idea is generics');
    expect(page.text).not.toContain('Handbook');
  });

  it('keeps the container\'s short lines after the run when the run holds little of its text', () => {
    const steps = Array.from({ length: 30 }, (_, i) => `<p>Step ${i + 1}: turn valve ${i + 1} a quarter</p>`).join('');
    const page = extract(`<html><head><title>Bleeding a radiator</title></head><body>
      <div class="entry-content"><h1>Bleeding a radiator</h1>${long('radiators', 1)}${long('radiators', 2)}${long('radiators', 3)}${long('radiators', 4)}
      <h2>Step by step</h2>${steps}</div></body></html>`);
    expect(page.paragraphs.filter((p) => /^Step \d+:/.test(p))).toHaveLength(30);
  });

  it('leaves out what the template appends after a long article', () => {
    const paras = Array.from({ length: 8 }, (_, i) => long('the harbour plan', i + 1)).join('');
    const page = extract(`<html><head><title>Harbour plan approved</title></head><body><article class="post">
      <h1>Harbour plan approved</h1>${paras}
      <div class="post-tail"><p>Filed under planning</p><p>Get the morning briefing</p><p>Read the council report</p></div>
      </article></body></html>`);
    expect(page.paragraphs.filter((p) => p.startsWith('Paragraph'))).toHaveLength(8);
    expect(page.text).not.toContain('morning briefing');
  });
});
