import { isBoilerplateLine, isDateline } from '../../../src/extractors/boilerplate-lines';
import { scanLine, toBlocks } from '../../../src/extractors/blocks';
import { classWeight } from '../../../src/extractors/clean';
import { parseHtml, textContent } from '../../../src/extractors/dom';
import { DEFAULT_SCORING, lineValue, nodeValues } from '../../../src/extractors/scoring';

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

describe('section anchors (blocks.ts)', () => {
  // MDN's section headings (<h2 id><a href="#id">) and Sphinx's toc-backref links.
  const doc = '<h2 id="description"><a href="#description">Description</a></h2><p>A Promise is a proxy for a value.</p>'
    + '<h3><a class="toc-backref" href="#id3">Workers</a></h3><h2><a href="/docs/other">Another page</a></h2>'
    + '<h3><a href="#">Card title</a></h3><ul><li><a href="#description">Description</a></li></ul>';

  it("reads a heading's link to a place on the page as its text, not as a link", () => {
    const blocks = toBlocks(parseHtml(doc), false, false, true);
    const links = Object.fromEntries(blocks.map((b) => [b.text, b.linkChars]));
    expect(blocks[0]!.linkChars).toBe(0);
    expect(links.Workers).toBe(0);
    // A link to another page, a bare "#" (a script's button) and a table of contents' entry stay links.
    expect(links['Another page']).toBe(11);
    expect(links['Card title']).toBe(9);
    expect(blocks[blocks.length - 1]!.linkChars).toBe(11);
  });

  it('counts them as links where asked not to (forum threads: "Re: …" linking to the reply)', () => {
    expect(toBlocks(parseHtml(doc))[0]!.linkChars).toBe(11);
  });
});

describe('parseHtml', () => {
  it('reads a CDATA section as text (htmlparser2 would swallow it up to ]]> as a comment) and leaves a bare CDATA[ alone', () => {
    expect(textContent(parseHtml('<p>a<![CDATA[b]]>c</p><p>d</p>'))).toBe('ab]]>cd');
    expect(textContent(parseHtml('<p>a CDATA[ b</p>'))).toBe('a CDATA[ b');
  });
});

describe('scanLine text', () => {
  const collapseSpace = (s: string): string => scanLine(s, { chars: 0, cjk: 0, punct: 0 });
  const reference = (s: string): string => s.replace(/[\s\u00a0\u200b\u3000]+/g, ' ').trim();

  it('treats exactly the regex space class as space, unit by unit', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      expect([c, collapseSpace(`a${ch}b`)]).toEqual([c, reference(`a${ch}b`)]);
    }
  });

  it('equals replace-and-trim on random mixes of words and spaces', () => {
    const pieces = ['', ' ', '  ', '\n', '\t ', '\u00a0', '\u3000', '\u200b', '\ufeff', 'a', 'word', '中文', '😀', '.', ' x '];
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 5000; n++) {
      let s = '';
      for (let k = next() % 9; k > 0; k--) s += pieces[next() % pieces.length];
      expect(collapseSpace(s)).toBe(reference(s));
    }
  });

  it('counts the collapsed line as a separate count over it would', () => {
    // The definition: counts over the collapsed line, a run of 3+ equal marks once.
    const countLine = (text: string): { chars: number; cjk: number; punct: number } => {
      const punctSet = new Set([...'.,;:!?，。、；：？！…'].map((c) => c.charCodeAt(0)));
      const isCjk = (c: number): boolean => (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x3040 && c <= 0x30ff);
      let chars = 0;
      let cjk = 0;
      let punct = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 32) continue;
        chars++;
        if (isCjk(c)) cjk++;
        else if (punctSet.has(c)) {
          let j = i;
          while (j + 1 < text.length && text.charCodeAt(j + 1) === c) j++;
          punct += j - i >= 2 ? 1 : j - i + 1;
          chars += j - i;
          i = j;
        }
      }
      return { chars, cjk, punct };
    };
    for (let c = 0; c < 0x10000; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      const counts = { chars: -1, cjk: -1, punct: -1 };
      scanLine(s, counts);
      expect([c, counts]).toEqual([c, countLine(reference(s))]);
    }
    const pieces = ['', ' ', '  ', '\n', '\u00a0', '\u3000', 'a', 'Word', '中文', 'カナ', '😀', '.', '..', '...', '!!!!', '，', '。。', '…', '?', ' x ', '\u0001', '"', '@'];
    let seed = 3;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 5000; n++) {
      let s = '';
      for (let k = next() % 10; k > 0; k--) s += pieces[next() % pieces.length];
      const counts = { chars: -1, cjk: -1, punct: -1 };
      const line = scanLine(s, counts);
      expect([s, line, counts]).toEqual([s, reference(s), countLine(reference(s))]);
    }
  });
});

describe('node values', () => {
  it('scores the <br> lines of one paragraph together (a schedule), each line alone being too short', () => {
    const blocks = toBlocks(parseHtml('<div><p>12月10日 代表注册<br>地点：南开大学校内明珠园<br>时间：晚上七点<br>主持人：海闻教授<br>会议室：办公楼一楼</p></div>'));
    expect(blocks).toHaveLength(5);
    for (const b of blocks) expect(lineValue(b, DEFAULT_SCORING)).toBeLessThan(0);
    const values = nodeValues(blocks, DEFAULT_SCORING);
    for (const v of values) expect(v).toBeGreaterThan(0);
  });

  it('never pools lines with links (a <br> menu stays negative), nor lines of different elements', () => {
    const menu = toBlocks(parseHtml('<td><a href="/1">国内新闻</a><br><a href="/2">国际新闻</a><br><a href="/3">财经频道</a><br><a href="/4">体育频道</a></td>'));
    expect(nodeValues(menu, DEFAULT_SCORING)).toEqual(menu.map((b) => lineValue(b, DEFAULT_SCORING)));
    const separate = toBlocks(parseHtml('<div><p>地点：南开大学</p><p>时间：7:00－9:30</p></div>'));
    expect(nodeValues(separate, DEFAULT_SCORING)).toEqual(separate.map((b) => lineValue(b, DEFAULT_SCORING)));
  });

  it('scores the cells of a table row and the bullets of a list together, but not a list of links', () => {
    const row = toBlocks(parseHtml('<table><tr><td>Chicago Booth School of Business</td><td>1</td><td>37% / 40%</td><td>3.6</td><td>729</td><td>$175,000</td></tr></table>'));
    expect(row).toHaveLength(6);
    for (const b of row) expect(lineValue(b, DEFAULT_SCORING)).toBeLessThan(0);
    for (const v of nodeValues(row, DEFAULT_SCORING)) expect(v).toBeGreaterThan(0);
    const bullets = toBlocks(parseHtml('<ul><li>Measure first with EXPLAIN ANALYZE</li><li>Add indexes for columns in WHERE</li><li>Keep statistics fresh, run ANALYZE</li></ul>'));
    for (const v of nodeValues(bullets, DEFAULT_SCORING)) expect(v).toBeGreaterThan(0);
    const menu = toBlocks(parseHtml('<ul><li><a href="/a">Pricing and plans</a></li><li><a href="/b">Documentation home</a></li><li><a href="/c">Customer stories</a></li></ul>'));
    for (const v of nodeValues(menu, DEFAULT_SCORING)) expect(v).toBeLessThan(0);
  });
});

describe('class words', () => {
  const el = (cls: string): Parameters<typeof classWeight>[0] => ({ type: 'tag', name: 'div', attribs: { class: cls }, children: [], parent: null });
  it('reads pinyin furniture and content class names of Chinese sites, and breadcrumbs', () => {
    for (const cls of ['fenxiang', 'xiangguan', 'remen-list', 'banquan', 'crumbs', 'subnav']) expect([cls, classWeight(el(cls))]).toEqual([cls, -1]);
    for (const cls of ['zhengwen', 'neirong_box']) expect([cls, classWeight(el(cls))]).toEqual([cls, 1]);
    // A pinyin word inside an English one is no signal.
    expect(classWeight(el('h-requirements-and-market'))).toBe(0);
  });
});

describe('captions and comment forms', () => {
  it('marks the line after an image and the line repeating its alt text', () => {
    const blocks = toBlocks(parseHtml('<div><p>正文第一段。</p><p align="center"><img src="a.jpg" alt="大会现场全景"></p>'
      + '<p align="center">大会现场</p><p>正文第二段。</p><div><img src="b.jpg" alt="资料图：志愿者在舱内组建乐队"><span>资料图：志愿者在舱内组建乐队</span></div></div>'));
    expect(blocks.map((b) => [b.text, b.afterImage, b.repeatsAlt])).toEqual([
      ['正文第一段。', false, false], ['大会现场', true, true], ['正文第二段。', false, false], ['资料图：志愿者在舱内组建乐队', true, true],
    ]);
  });

  it('drops a comment form (text area, name box, posting rules) and a poll, but not a page-wide form', () => {
    const rules = '【1】留言限140字以內。'.repeat(3);
    const form = toBlocks(parseHtml(`<div><p>正文。</p><form><label>姓名</label><input name="n"><textarea></textarea><p>${rules}</p></form></div>`));
    expect(form.map((b) => b.text)).toEqual(['正文。']);
    const poll = toBlocks(parseHtml('<div><p>正文。</p><form><h3>你如何看待这件事？</h3><input type="radio" name="q"> 炒作<input type="radio" name="q"> 民意</form></div>'));
    expect(poll.map((b) => b.text)).toEqual(['正文。']);
    const long = '这是正文的一句话，内容很长。'.repeat(120);
    const page = toBlocks(parseHtml(`<form><p>${long}</p><textarea></textarea></form>`));
    expect(page.map((b) => b.text)).toEqual([long]);
  });

  it('drops a lead form (several typed fields and their labels, a drop-down of choices however long), but not a search box', () => {
    const options = Array.from({ length: 200 }, (_, i) => `<option>Industry number ${i}</option>`).join('');
    const lead = toBlocks(parseHtml(`<div><p>Best practices for vehicle rentals.</p><form method="post"><h3>Request our free ebook</h3>
      <label>First Name*</label><input type="text" name="f"><label>Email*</label><input type="email" name="e"><label>Phone*</label><input type="tel" name="p">
      <label>Industry*</label><select>${options}</select><div>This field is hidden when viewing the form</div><input type="submit" value="Send"></form></div>`));
    expect(lead.map((b) => b.text)).toEqual(['Best practices for vehicle rentals.']);
    const search = toBlocks(parseHtml('<div><p>Best practices.</p><form><label>Search the guides</label><input type="text" name="q"></form></div>'));
    expect(search.map((b) => b.text)).toEqual(['Best practices.', 'Search the guides']);
  });
});

describe('boilerplate lines', () => {
  it('recognises datelines, credits, prompts and Chinese source/editor lines', () => {
    for (const line of ['Updated Nov 19, 6:55 AM;', '4:00 am CST, Wednesday, November 20, 2019', 'ADVERTISEMENT',
      'Sanjeev Verma/Hindustan Times/Getty Images', 'Image 1 of / 23', 'Related articles', '4 min Read', '12 minute read', 'In this article', 'About the author', '[责任编辑：王芳]',
      '2012年01月12日 16:30 来源：江城日报', '分享到： 新浪微博 腾讯微博', '4,726']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, true]);
    }
  });

  it('recognises Chinese furniture: reprint notices, follow-us and tip-off calls, counters, editor credits, related-link headers', () => {
    for (const line of ['(內容由新浪北京提供。未經授權，不得轉載。)', '版权所有 © 2012 新民网', '上海滩微博#爆料#或短信爆料15900430043 一经采用最高奖励500元',
      '新闻热线：024-22690000 手机报料：请发送短信彩信至15002446668 在线报料', '扫描二维码关注我们', '阅读 ()', '发表于 2004年12月27日 12:40 - (阅读:3727;评论:63)',
      '（ 责任编辑：魏喆 ）', '(嵇南涛 编辑)', '(李艳 撰稿)', '南方网编辑：谢晓', '相关资讯', '相關報導', '热门推荐', '上一篇：春运首日客流创新高', '版权声明：',
      '(金羊网)', '——《北京之春》1996年6月号', '(摘自《上海社会科学院学术季刊》2000年第2期)', '最后更新 14.12.2011 19:00', '作者： 责任编辑：易清', '原创版权禁止商业转载 授权>>', '转载申请事宜以及报告非法侵权行为，请联系我们：010-56807194']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, true]);
    }
  });

  it('recognises a byline run into its dateline, not a sentence that opens with "By"', () => {
    expect(isBoilerplateLine('By Justine Coleman - 11/18/19 11:04 PM EST')).toBe(true);
    expect(isBoilerplateLine('By Ana Ruiz | March 5, 2024')).toBe(true);
    expect(isBoilerplateLine('By Tuesday - the deadline - most of the 2019 entries were in.')).toBe(false);
  });

  it('keeps article sentences that merely mention reprints, tip-offs or comments', () => {
    for (const line of ['中評社北京1月9日電／8日10時許，有網友在微博上爆料：“看病送火車票，沒病都要去裝病啊！”該網友在這條微博下配了一幅圖。',
      '奎特拉还说：“未经授权使用我们的技术，却没有作出适当的补偿，这会阻碍我们继续创新。”', '这一口号立即引发网友关注和评论。', '扫描仪的价格下降了三成。',
      '（一）', '他在《人民日报》发表文章，回顾了改革的历程。']) {
      expect([line, isBoilerplateLine(line)]).toEqual([line, false]);
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
