import { isBoilerplateLine, isDateline } from '../../../src/extractors/boilerplate-lines';
import { toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { DEFAULT_SCORING, lineValue } from '../../../src/extractors/scoring';

describe('DOM to lines', () => {
  it('cuts lines at block elements and <br>, counts link text and drops scripts', () => {
    const blocks = toBlocks(parseHtml('<div>Intro text <a href="/x">a link</a><br>second line<script>var x = 1;</script><p>para</p></div>'));
    expect(blocks.map((b) => b.text)).toEqual(['Intro text a link', 'second line', 'para']);
    expect(blocks[0]!.linkChars).toBe(5);
  });

  it('counts Chinese punctuation like Latin punctuation', () => {
    const [zh, en] = toBlocks(parseHtml('<p>一，二。三、四；五：六？七！</p><p>a, b. c, d; e: f? g! h</p>'));
    expect(zh!.punct).toBe(7);
    expect(en!.punct).toBe(7);
  });

  it('gives a link list a negative value and a punctuated paragraph a positive one', () => {
    const [nav, para] = toBlocks(parseHtml('<div><a href="/a">Home</a> <a href="/b">World news</a></div>'
      + '<p>Officials said on Monday that the bridge would reopen in June, after repairs to the deck.</p>'));
    expect(lineValue(nav!, DEFAULT_SCORING)).toBeLessThan(0);
    expect(lineValue(para!, DEFAULT_SCORING)).toBeGreaterThan(0);
  });
});

describe('boilerplate lines', () => {
  it('recognises datelines, credits, prompts and Chinese source/editor lines', () => {
    for (const line of ['Updated Nov 19, 6:55 AM;', '4:00 am CST, Wednesday, November 20, 2019', 'ADVERTISEMENT',
      'Sanjeev Verma/Hindustan Times/Getty Images', 'Image 1 of / 23', 'Related articles', '[责任编辑：王芳]',
      '2012年01月12日 16:30 来源：江城日报', '分享到： 新浪微博 腾讯微博', '4,726']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, true]);
    }
  });

  it('leaves sentences and numbers in running text alone', () => {
    for (const line of ['Published in 1998, the report was updated twice.', 'By the end of 2019 the plant had closed.',
      '会议于2012年1月12日在北京举行，来自全国的代表参加了会议并就改革方案进行了讨论。', '85%']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, line === '85%']);
    }
    expect(isDateline('Nov 20 2019, 11:06am ist')).toBe(true);
    expect(isDateline('63')).toBe(false);
  });
});
