import { parseHtml } from '../../../src/extractors/dom';
import { toBlocks } from '../../../src/extractors/blocks';
import { paragraphContainer, preferSecond } from '../../../src/extractors/second-opinion';
import { extract } from '../../../src/extractors/text-density';

describe('second opinion: the paragraph container (second-opinion.ts)', () => {
  const article = '<div class="entry"><p>Personal training, with a certified coach, builds a plan around your goals, your schedule and your fitness level.</p>'
    + '<p>Sessions last an hour, take place in the main gym, and can be shared with a friend, which lowers the cost per person.</p>'
    + '<p>Packages of five, ten or twenty sessions are sold at the front desk, and unused sessions expire after a year.</p>'
    + '<p>Members get a free first session, a body composition scan, and a written plan they can take home and follow.</p></div>';

  it('finds the container of the paragraphs, not the menu', () => {
    const blocks = toBlocks(parseHtml(`<body><ul class="menu"><li><a href="/a">Fitness classes and schedules</a></li><li><a href="/b">Memberships and prices</a></li></ul>${article}</body>`));
    const found = paragraphContainer(blocks);
    expect(found?.lines.map((b) => b.text)).toHaveLength(4);
    expect(found?.lines[0]?.text).toMatch(/^Personal training/);
  });

  it('stands only where the segment model found next to nothing', () => {
    const blocks = toBlocks(parseHtml(`<body>${article}</body>`));
    expect(preferSecond([], blocks)).toBe(true);
    expect(preferSecond(blocks.slice(0, 2), blocks)).toBe(false);
  });

  it('gives extract() the paragraphs when the segment model finds nothing', () => {
    // A line bar no line can reach stands in for the pages where every line falls below it.
    const page = extract(`<html><head><title>Personal training</title></head><body><ul class="menu"><li><a href="/a">Classes</a></li></ul>${article}</body></html>`,
      { scoring: { threshold: 10_000 } });
    expect(page.text).toContain('Personal training, with a certified coach');
    expect(page.text).not.toContain('Classes');
  });
});
