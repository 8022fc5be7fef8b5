import { isBoilerplateLine } from '../../../src/extractors/boilerplate-lines';
import { extract } from '../../../src/extractors/text-density';

describe('meta rows and counted buttons (boilerplate-lines.ts)', () => {
  it('reads a row of dateline, byline, counter and buttons between bars as boilerplate', () => {
    for (const line of ['2011-12-16 01:06:38 | 我来说两句 (0)', '記者： dave｜ 時間： Jan 17, 2012 | 留言 | Tweet', '我来说两句 (0)', 'Comments (12)', '字体大小 - +']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, true]);
    }
  });

  it('keeps bars between addresses, in code and in a sentence', () => {
    for (const line of ['GOPROXY="https://proxy.example.com|https://proxy2.example.com"', 'Revenue rose 4% | costs fell 2% in the quarter', 'Print 3 copies of the form']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, false]);
    }
  });

  it("reads a related box's header, a ticker's label, a network's share button and a follow prompt as boilerplate", () => {
    for (const line of ["DON'T MISS", 'BREAKING NEWS', 'Pinterest', '• 2 min read',
      'Email Tariq Malik at tmalik@space.com or follow him @tariqjmalik. Follow us on Twitter @Spacedotcom and on Facebook.']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, true]);
    }
    // A text-message subscription offer: send a code to a short number.
    expect(isBoilerplateLine('订制《广州日报》手机报：发送AA到106585772')).toBe(true);
    // A reprint condition in brackets, a writer named alone.
    expect(isBoilerplateLine('(聲明：刊用《中國新聞周刊》稿件務經書面授權)')).toBe(true);
    expect(isBoilerplateLine('作者：林晖')).toBe(true);
    expect(isBoilerplateLine('作者：林晖认为，改革的关键在于落实。')).toBe(false);
    // A sentence naming a network stays.
    expect(isBoilerplateLine('Facebook said on Monday it would appeal the ruling.')).toBe(false);
  });

  it("leaves a portal's meta row out of the article", () => {
    const para = '中国人民银行今日宣布下调存款准备金率0.5个百分点，这是央行三年来首次下调存款准备金率，市场普遍认为货币政策将进一步放松。';
    const html = `<html><body><div class="article"><div>2011-12-16 01:06:38 | <a href="#c">我来说两句 (0)</a></div>`
      + `<p>${para}</p><p>${para}</p><p>${para}</p></div></body></html>`;
    const page = extract(html);
    expect(page.text).not.toContain('我来说两句');
    expect(page.text).toContain('中国人民银行今日宣布');
  });
});
