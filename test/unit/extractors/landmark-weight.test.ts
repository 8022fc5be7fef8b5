import { toBlocks, type Block } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { liftMainLandmark } from '../../../src/extractors/landmark-weight';

function linesOf(html: string): Block[] {
  return toBlocks(parseHtml(html), true, false, true, true);
}

const page = (mainClass: string, role = false): string => `<html><body>
<div class="x1"><p>Opening hours and directions to our office, with parking behind the building.</p></div>
${role ? `<div role="main" class="${mainClass}">` : `<main class="${mainClass}">`}
<div class="x2"><h2>Hiring</h2><p>Great hires are the foundation of successful teams, and we help you find them.</p></div>
<div class="x3"><h2>Payroll</h2><p>Run payroll in minutes, with taxes filed for you in every state you hire in.</p></div>
${role ? '</div>' : '</main>'}
<div class="x4"><p>Copyright 2025 Example Inc. All rights reserved by the company and its partners.</p></div>
</body></html>`;

const score = (blocks: Block[], text: string): number => blocks.find((b) => b.text.startsWith(text))!.classScore;

describe('liftMainLandmark: the <main> landmark where no class word names the content', () => {
  it('scores the lines inside <main> as content on a page whose class names say nothing', () => {
    const blocks = linesOf(page('x5'));
    expect(liftMainLandmark(blocks)).toBe(4);
    expect(score(blocks, 'Great hires')).toBe(1);
    expect(score(blocks, 'Run payroll')).toBe(1);
    expect(score(blocks, 'Opening hours')).toBe(0);
    expect(score(blocks, 'Copyright 2025')).toBe(0);
  });

  it('reads role="main" as the landmark too', () => {
    const blocks = linesOf(page('x5', true));
    liftMainLandmark(blocks);
    expect(score(blocks, 'Great hires')).toBe(1);
  });

  it('leaves a page alone whose class words name its content: they are the more specific', () => {
    const blocks = linesOf(page('x5').replace('class="x3"', 'class="post-content"'));
    expect(liftMainLandmark(blocks)).toBe(0);
    expect(score(blocks, 'Great hires')).toBe(0);
    expect(score(blocks, 'Run payroll')).toBe(1);
  });

  it('does not lift a line under a furniture word inside the landmark', () => {
    const blocks = linesOf(page('x5').replace('class="x2"', 'class="newsletter"'));
    liftMainLandmark(blocks);
    expect(score(blocks, 'Great hires')).toBe(-1);
    expect(score(blocks, 'Run payroll')).toBe(1);
  });
});
