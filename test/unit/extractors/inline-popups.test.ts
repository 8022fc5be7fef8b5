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
  it('leaves out a card whose classes name nothing, by its shape: photo and links naming the link before it again', () => {
    const html = '<p><span>Rep. <span class="x1a"><a class="x2b" href="/people/ilhan-omar">Ilhan Omar</a><span class="x3c"><span>'
      + '<img src="/omar.jpg" alt=""><a href="/people/ilhan-omar">Ilhan Omar</a>'
      + '<a href="/policy/471175-hillicon-valley">Hillicon Valley: Progressives oppose funding bill</a></span></span></span>'
      + ' (D-Minn.) said. See <a href="/a">the ruling</a><span><a href="/b">the appeal</a> and <a href="/c">the ruling</a></span>.</span></p>';
    expect(toBlocks(parseHtml(html)).map((b) => b.text)).toEqual(['Rep. Ilhan Omar (D-Minn.) said. See the rulingthe appeal and the ruling.']);
  });

  it('leaves out a card that spells the name out, by the link it shares with its trigger', () => {
    // The card's name link reads "Kristi Lynn Noem" behind "Kristi Noem"; both lead to the person's page.
    const html = '<p>South Dakota Gov. <span class="x1a"><a class="x2b" href="/people/kristi-noem">Kristi Noem</a><span class="x3c"><span>'
      + '<img src="/noem.jpg" alt=""><a href="/people/kristi-noem">Kristi Lynn Noem</a>'
      + '<a href="/policy/467325-pipeline-protest">South Dakota drops pipeline protest laws after lawsuit</a></span></span></span>'
      + ' (R) is defending the campaign.</p>';
    expect(toBlocks(parseHtml(html)).map((b) => b.text)).toEqual(['South Dakota Gov. Kristi Noem (R) is defending the campaign.']);
  });
  it("leaves out a tooltip's body, by its ARIA role or its class, and keeps its label (clean.ts isDropped)", () => {
    // A shop's spec field: the label, an icon, and the note the template attaches to it on every product.
    const html = '<h4>Cup style <tool-tip class="tool-tip"><svg></svg><div class="tool-tip__content">Open-back designs leak sound; closed-back designs isolate it.</div></tool-tip></h4>'
      + '<p>Open-back</p><span class="has-tooltip">Final sale<span role="tooltip">Final sale items are not returnable but come with a full warranty.</span></span>';
    expect(toBlocks(parseHtml(html)).map((b) => b.text)).toEqual(['Cup style', 'Open-back', 'Final sale']);
  });
});
