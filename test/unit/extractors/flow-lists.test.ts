import { extract } from '../../../src/extractors/text-density';

const para = (s: string): string => `<p>${s} The right tool saves an electrician an hour on every job, and a cheap one costs that hour back in callbacks, so we tested each of them on real sites.</p>`;

describe('link lists in the flow of the text (flow-lists.ts)', () => {
  it('keeps a list of linked names between two paragraphs of the article, and not the menu beside it', () => {
    const tools = ['Fluke 117 Multimeter', 'Klein Tools MM400', 'Knipex Lineman Pliers', 'Stanley FatMax Tape', 'Petzl Tikka Headlamp'];
    const page = extract(`<html><head><title>Must-have electrician tools</title></head><body>
      <nav><ul>${['Home', 'Blog', 'Pricing', 'Login'].map((m) => `<li><a href="/${m}">${m}</a></li>`).join('')}</ul></nav>
      <article><h1>Must-have electrician tools</h1>${para('Here is what we carry.')}${para('Start with testing gear.')}
      <ul>${tools.map((t, i) => `<li><a href="/go/${i}">${t}</a></li>`).join('')}</ul>
      ${para('Each of these earned its place.')}${para('Buy them once.')}</article></body></html>`);
    for (const t of tools) expect(page.text).toContain(t);
    expect(page.text).not.toContain('Pricing');
  });

  it('leaves out a list of other stories inside the article (headlines, not names)', () => {
    const stories = ['NASA picks three private companies to land on the Moon next year', 'Here is where the commercial landers will touch down on the Moon',
      'The space station is open for business in orbit, says the agency'];
    const page = extract(`<html><head><title>Moon landers</title></head><body><article><h1>Moon landers</h1>${para('The agency chose three landers.')}
      <ul>${stories.map((t, i) => `<li><a href="/story/${i}">${t}</a></li>`).join('')}</ul>${para('The first flight is planned for next year.')}</article></body></html>`);
    expect(page.text).toContain('The first flight is planned');
    for (const t of stories) expect(page.text).not.toContain(t);
  });
  it('keeps two picks under a tool\'s section, each a linked heading in a list item', () => {
    const picks = (a: string, b: string): string => `<h4>Top expert recommendations:</h4><ul><li><h2><a href="/go/a">${a}</a></h2></li><li><h2><a href="/go/b">${b}</a></h2></li></ul>`;
    const page = extract(`<html><head><title>Must-have electrician tools</title></head><body><article><h1>Must-have electrician tools</h1>
      <h3>1. Multimeter</h3>${para('A multimeter measures voltage, current and resistance.')}${picks('Fluke 117', 'Klein Tools MM400')}
      <h3>2. Wire strippers</h3>${para('Wire strippers remove the insulation from wires.')}${picks('Klein Tools 11061', 'IRWIN Vise-Grip')}
      <h3>3. Pliers</h3>${para('Lineman pliers grip, twist and cut.')}</article></body></html>`);
    for (const t of ['Fluke 117', 'Klein Tools MM400', 'Klein Tools 11061', 'IRWIN Vise-Grip']) expect(page.text).toContain(t);
  });
});
