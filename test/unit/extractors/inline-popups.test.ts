import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';

describe('hover cards inside a sentence (inline-popups.ts)', () => {
  it("leaves out the card behind a name's link, keeping the name", () => {
    // A news site's person card: photo, name and latest headlines, shown on hover over the name.
    const html = '<p><span>A New York man pleaded guilty to threatening Rep. <span class="rollover-people">'
      + '<a class="rollover-people-link" href="/people/ilhan-omar">Ilhan Omar</a><span class="rollover-people-block"><span class="rollover-block">'
      + '<span><img src="/omar.jpg" alt=""><a class="name" href="/people/ilhan-omar">Ilhan Omar</a>'
      + '<a class="people-articles" href="/policy/471175-hillicon-valley">Hillicon Valley: Progressives oppose funding bill</a></span></span></span></span>'
      + ' (D-Minn.), prosecutors said.</span></p>';
    expect(toBlocks(parseHtml(html)).map((b) => b.text)).toEqual(['A New York man pleaded guilty to threatening Rep. Ilhan Omar (D-Minn.), prosecutors said.']);
  });

  it("keeps a glossary term's link and a tooltip of plain words", () => {
    const html = '<p>A Pod is a group of one or more <a class="glossary-tooltip" href="/docs/containers/">containers</a>, with shared storage.</p>'
      + '<div class="icon-tooltip"><span class="icon-tooltip-text">Gluten free</span></div>';
    expect(toBlocks(parseHtml(html)).map((b) => b.text)).toEqual(['A Pod is a group of one or more containers, with shared storage.', 'Gluten free']);
  });
});
