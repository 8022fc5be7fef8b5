import { seededRng } from '../../../../src/core/rng';
import { stripTags, stripTagsInPasses } from '../../../../src/parsers/weibo/text';

/** The one-scan stripTags must give what the passes give: text and links, in order. */
function both(html: string): { scan: [string, string[]]; passes: [string, string[]] } {
  const scanLinks: string[] = [];
  const passLinks: string[] = [];
  return { scan: [stripTags(html, scanLinks), scanLinks], passes: [stripTagsInPasses(html, passLinks), passLinks] };
}

describe('stripTags (one scan) against the passes that define it', () => {
  it.each([
    'plain text, no tags',
    '快递丢了<span class="url-icon"><img alt="[生病]" src="//h5.sinaimg.cn/d.png" style="width:1em;" /></span>',
    `<a href='http://t.cn/vddFepx' data-hide=''><span class='url-icon'><img style='width: 1rem' src='//x/y.png'></span><span class='surl-text'>网页链接</span></a>`,
    '<a  href="https://m.weibo.cn/search?containerid=1&amp;q=%23x%23"><span class="surl-text">#话题#</span></a>正文<br />第二行<BR>第三行<br/>',
    '<a href="/n/元气面包1093">@元气面包1093</a> <IMG ALT=[哈哈] SRC=x> <img src=x alt=\'[嘻嘻]\'>',
    '<img src="noalt.png"><a name="x">anchor without href</a><brx><br >',
    'a < b and c > d', 'a < b, no closing', 'trailing <', '<', '<>', '<<>>', 'x<y<z>',
    '<img alt="<br>" src=x>', '<img alt="a>b" src=x>end', '<a href="http://x/<br>">l</a>', '<span title="<img alt=x>">t</span>',
    '<b<br>>', '<img <br> alt=x>', '<a <img alt=q> href="http://u">z</a>', '<a title="<img alt=x>" href="http://u">', 'a < b <img alt=">">',
    '<img alt="<a href=\'http://in.alt\'>">', '<br', '<br/', '<img alt=', '<a href="http://unterminated',
  ])('%p', (html) => {
    const { scan, passes } = both(html);
    expect(scan).toEqual(passes);
  });

  it('agrees on random soups of tag fragments', () => {
    const parts = ['<', '>', '<br>', '<BR />', '<img ', 'alt=', '"', "'", 'x', ' ', '<a ', 'href=', 'http://h/p', '/n/u', '</a>', '<span>', '文', '&amp;', 'alt="[e]"', '\n'];
    const rng = seededRng(7);
    let checked = 0;
    for (let i = 0; i < 5000; i++) {
      let html = '';
      const n = 1 + Math.floor(rng.next() * 14);
      for (let j = 0; j < n; j++) html += parts[Math.floor(rng.next() * parts.length)];
      const { scan, passes } = both(html);
      expect([html, scan]).toEqual([html, passes]);
      checked += 1;
    }
    expect(checked).toBe(5000);
  });
});
