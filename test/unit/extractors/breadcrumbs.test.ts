import { isBoilerplate, toBlocks } from '../../../src/extractors/blocks';
import { parseHtml } from '../../../src/extractors/dom';
import { extract } from '../../../src/extractors/text-density';

const PARA = '国家统计局17日发布数据显示，2011年国内生产总值比上年增长9.2%，其中第四季度增长8.9%，增速比三季度回落0.2个百分点。';

describe('breadcrumb trails (breadcrumbs.ts)', () => {
  it('drops a trail the template leaves unclassed inside the article box', () => {
    // A Chinese portal's trail: linked channels joined by "&gt;", ending with "正文".
    const html = `<html><body><div class="nav"><a href="/">首页</a></div><div id="news">`
      + '<div><a href="/">经济</a>&gt;&nbsp;正文</div>'
      + '<div>您当前的位置 ：<a href="/">文娱频道</a>&nbsp;&gt;&nbsp;<a href="/yw/">要闻</a>&nbsp;正文</div>'
      + `<p>${PARA}</p><p>${PARA}</p><p>${PARA}</p></div></body></html>`;
    const page = extract(html);
    expect(page.text).not.toContain('正文');
    expect(page.text).toContain('国家统计局17日发布数据显示');
  });

  it("keeps an arrow in code, in a sentence, in unlinked words and in a post's header", () => {
    const blocks = toBlocks(parseHtml('<p><a href="/a">Run</a>fn t(a: &amp;i32) -&gt; i32 { *a }</p>'
      + '<p>Open <a href="/s">Settings</a>, then choose Privacy &gt; Cookies to clear them.</p>'
      + '<p>Settings &gt; Privacy</p><p><a href="/">Home</a> › <a href="/news">News</a> › World</p>'
      // A forum post's header: the poster's link, then the post's date.
      + '<p class="author">by <strong><a href="./memberlist.php?u=9">marrowmary</a></strong> &raquo; Sat Nov 02, 2024 7:40 pm</p>'));
    expect(blocks.map((b) => isBoilerplate(b))).toEqual([false, false, false, true, false]);
  });
});
