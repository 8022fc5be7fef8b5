import { extract } from '../../../src/extractors/text-density';

/**
 * The shape of an old table-layout news page (news.syd.com.cn, 2012): <body> holds a header
 * table of channel menus, the article's table.main and a footer table of menus and the
 * publisher's address, the header and footer tables alike (table, no class). Page bands, not a
 * list of cards: their links are navigation.
 */
function tablePage(): string {
  const menu = (labels: string[]): string => labels.map((l, i) => `<a href="/c/${i}">${l}</a>`).join(' - ');
  const channels = ['首页', '新闻', '滚动', '原创', '体育', '娱乐', '财经', '汽车', '女性', '宽频', '房产', '健康', '食街', '教育', '婚嫁'];
  const band = (extra: string): string => `<table width="970" border="0" align="center"><tr><td><div class="menu">${menu(channels)}</div>
    <div class="subnews">${menu(['沈阳新闻', '国内新闻', '辽宁新闻', '国际新闻', '娱乐新闻', '体育新闻', '社会新闻', '财经新闻', '科教新闻', '房产新闻'])}</div>${extra}</td></tr></table>`;
  return `<html><head><meta charset="utf-8"><title>武广高铁广州长沙站客流高峰将取消刷身份证-沈阳网</title></head><body>
    ${band('<div>新闻中心&gt;&gt;<a href="/gn">国内</a></div>')}
    <table width="970" border="0" align="center" class="main"><tr><td><div id="content">
    <p>南方日报讯 (记者/钟啸 通讯员/王海军)广铁集团日前公布，为加强实名制验证，确保客流高峰期旅客的出行安全和乘车秩序良好，武广高铁广州南站1月18日至22日、长沙南站1月28日至2月1日将取消旅客持二代身份证直接刷证过闸功能，所有旅客必须换取车票后乘车。</p>
    <p>请持二代身份证购票的旅客提前到自动售票机或车站售票窗口办理换票手续后再进站乘车。旅客进站时，铁路工作人员将核对票、证、人三者是否一致，确定三者一致方可进站乘车。铁路部门建议旅客要预留一个小时以上的换票时间，以免耽误行程。</p>
    </div></td></tr></table>
    ${band('<div>沈阳日报报业集团版权所有 沈阳网技术中心制作 本站地址：沈阳市沈河区北三经街67号（110014）</div><div>热线电话:（024）22690000 集团总机:（024）22690114</div>')}
    ${band('<div>设为首页 | 加入收藏 | 网站介绍 | 关于我们 | 服务条款 | 广告服务</div>')}
    </body></html>`;
}

describe('page bands are no repeated items (items.ts)', () => {
  it('reads the article of a table-layout page, not its header and footer tables', () => {
    const page = extract(tablePage(), { url: 'http://news.syd.com.cn/content/2012-01/17/content_1.htm' });
    expect(page.text).toContain('南方日报讯');
    expect(page.text).toContain('以免耽误行程');
    expect(page.text).not.toContain('沈阳新闻');
    expect(page.text).not.toContain('首页');
  });
});
