import { extract } from '../../../src/extractors/text-density';

// A Chinese news page of the 2010s: a header box (headline, date, print and font buttons) above
// the body's box, class names that say nothing (a template's hashes), a list of links beside.
const para = (n: number): string =>
  `<p>发改委公告称，预计今年煤炭供需将保持基本平衡，但受各种不利因素影响，局部地区、个别时段还会出现电煤供需失衡现象，第${n}段。</p>`;
const page = (head: string, channel = '', title = '发改委：今年可能出现部分地区电煤供需失衡-新闻中心'): string => `<!doctype html><html><head><meta charset="utf-8">
<title>${title}</title></head><body>
<div class="x9k2"><a href="/">首页</a> &gt; <a href="/news">新闻</a></div>
<div class="x7q1">${channel}
<div class="x3v8">${head}<div class="x2m5"><span>2012/01/15 11:45</span><span onclick="window.print()">打印</span><span>字号</span></div></div>
<div class="x5c0">${[1, 2, 3, 4].map(para).join('')}</div></div>
<div class="x8r4"><ul>${['油价上调', '股市收盘', '楼市成交'].map((t) => `<li><a href="/a/${t}">${t}消息一则</a></li>`).join('')}</ul></div>
</body></html>`;

describe('withCjkHeadline: a Chinese story begins with its headline, however it is styled', () => {
  it('takes a classed headline from the header box above the body', () => {
    const text = extract(page('<h1 class="x4h1">发改委：今年可能出现部分地区电煤供需失衡</h1>')).text;
    expect(text.split('\n')[0]).toBe('发改委：今年可能出现部分地区电煤供需失衡');
    expect(text).toContain('第4段');
    expect(text).not.toContain('打印');
  });

  it('takes a headline styled as a <div>', () => {
    const text = extract(page('<div class="x4h1">发改委称今年可能出现部分地区电煤供需失衡</div>', '', '发改委称今年可能出现部分地区电煤供需失衡_新闻中心')).text;
    expect(text.split('\n')[0]).toBe('发改委称今年可能出现部分地区电煤供需失衡');
  });

  it('takes the story\'s own headline, not a channel heading the <title> names too', () => {
    const html = page('<h1>发改委：今年可能出现部分地区电煤供需失衡</h1>', '<div class="x1c1"><h1>国企红筹</h1></div>', '发改委：今年可能出现部分地区电煤供需失衡-国企红筹-经济通');
    const text = extract(html).text;
    expect(text).not.toContain('国企红筹');
    expect(text.split('\n')[0]).toBe('发改委：今年可能出现部分地区电煤供需失衡');
  });

  it('keeps an English page\'s classed headline out of the text', () => {
    const en = `<!doctype html><html><head><title>Coal supply may fall short in some regions this year</title></head><body>
<div class="x3v8"><h1 class="x4h1">Coal supply may fall short in some regions this year</h1><div class="x2m5"><span>Jan 15, 2012</span><span>Print</span></div></div>
<div class="x5c0">${[1, 2, 3, 4].map((n) => `<p>The planning commission said coal supply and demand would stay broadly balanced this year, though some regions may see shortages at times, part ${n}.</p>`).join('')}</div>
</body></html>`;
    const text = extract(en).text;
    expect(text).not.toContain('Coal supply may fall short');
    expect(text).toContain('part 4');
  });
});
