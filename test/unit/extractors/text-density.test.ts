import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { extract } from '../../../src/extractors/text-density';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'extraction');
const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

describe('text_density extract() on a news article', () => {
  const page = extract(fixture('article-en.html'));

  it('keeps every body paragraph and the subheading, in order', () => {
    expect(page.paragraphs[0]).toMatch(/^The city council voted seven to two/);
    expect(page.paragraphs).toContain('How it will be paid for');
    expect(page.paragraphs.at(-1)).toMatch(/^Residents can comment/);
    expect(page.paragraphs).toHaveLength(6);
  });

  it('leaves out navigation, share bar, caption, ad, related links, comments and footer', () => {
    for (const noise of ['Home', 'Share on Twitter', 'Photo: Gazette archive', 'Advertisement', 'Rail yard sale put on hold',
      'I have walked past that fence', 'All rights reserved', 'By Dana Whitfield']) {
      expect(page.text).not.toContain(noise);
    }
  });

  it('returns the headline as title (not in text) and the metadata', () => {
    expect(page.title).toBe('City council approves new river park');
    expect(page.text).not.toContain(page.title);
    expect(page.author).toBe('Dana Whitfield');
    expect(page.published_at).toBe('2024-05-14T09:30:00Z');
    expect(page.lang).toBe('en');
  });
});

describe('text_density extract() on a Chinese page', () => {
  const html = fixture('news-zh.html').toString('utf8');

  it('extracts a GBK page that declares no charset (bytes in, detection inside)', () => {
    const page = extract(iconv.encode(html, 'gbk'));
    expect(page.title).toBe('长江大桥夜间实施交通管制');
    // The plain <h1> heads the article's own table cell: part of the text (inArticleFlow), then the four paragraphs.
    expect(page.paragraphs).toHaveLength(5);
    expect(page.paragraphs[0]).toBe('长江大桥夜间实施交通管制');
    expect(page.text).toContain('每晚22时至次日5时对长江大桥实施交通管制');
    expect(page.lang).toBe('zh');
  });

  it('drops the editor and share lines and the sidebar, and finds the dateline date', () => {
    const page = extract(html);
    for (const noise of ['责任编辑', '分享到', '春运首日火车站客流平稳', '版权所有', '首页']) expect(page.text).not.toContain(noise);
    expect(page.published_at).toBe('2012-01-12T16:30:00');
  });

  it('finds a headline styled as a <div> (not a heading) and reads the date under it, below a long menu', () => {
    const menu = Array.from({ length: 20 }, (_, i) => `<li><a href="/c${i}">频道${i}</a></li>`).join('');
    const body = '<p>本报讯 昨日，市交通部门宣布，长江大桥将于下月起每晚实施交通管制，以便进行桥面维修，预计工期三个月。</p>'.repeat(4);
    const page = extract(`<html><head><title>长江大桥夜间实施交通管制_新闻中心</title></head><body><ul>${menu}</ul>`
      + `<div class="bt">长江大桥夜间实施交通管制</div><div class="sj">2012年01月12日 16:30</div><div class="zw">${body}</div></body></html>`);
    expect(page.title).toBe('长江大桥夜间实施交通管制');
    // A Chinese story begins with its headline, the <div> one too (cjk-headline.ts).
    expect(page.paragraphs).toHaveLength(5);
    expect(page.paragraphs[0]).toBe('长江大桥夜间实施交通管制');
    expect(page.published_at).toBe('2012-01-12T16:30:00');
  });
});

describe('text_density extract(): the headline in text only when it is part of the article block', () => {
  // Shaped like a 2011 Chinese news page (xinmin.cn): the headline and its dateline sit in the
  // article block, right above the body, with no markup of their own.
  const nav = Array.from({ length: 12 }, (_, i) => `<li><a href="/c${i}">频道${i}</a></li>`).join('');
  const body = [
    '“科斯塔-康科迪亚”号大型游轮于当地时间13日晚在意大利附近海域触礁搁浅，造成船体渗水，并出现倾斜，多人死亡，数十人失踪。',
    '意大利海岸警卫队16日公布了游轮触礁后水下部分的景象，船体左侧有一道长约70米的裂口，岩石仍嵌在船体之中。',
    '救援人员表示，搜救工作仍在继续，但由于船体不断移动，潜水员进入船舱的难度越来越大，救援一度被迫暂停。',
  ].map((t) => `<p>${t}</p>`).join('');
  const page = (headline: string): string => '<html><head><title>实拍意大利触礁油轮裂口水下景象-新民网</title></head><body>'
    + `<ul class="nav">${nav}</ul><div class="content"><div class="contentLeft"><div class="newsContent" id="about">`
    + `<div class="title" id="title">${headline}<div>2012-01-17 18:10 来源：中国新闻网</div></div>`
    + `<div id="article_info">${body}</div></div></div></div><div class="footer">版权所有 新民网</div></body></html>`;

  it('begins the text with a plain <h1> that the article block holds', () => {
    const out = extract(page('<h1>实拍意大利触礁油轮裂口水下景象</h1>'));
    expect(out.title).toBe('实拍意大利触礁油轮裂口水下景象');
    expect(out.paragraphs[0]).toBe('实拍意大利触礁油轮裂口水下景象');
    expect(out.paragraphs).toHaveLength(4);
  });

  it('begins a Chinese text with its headline however the template styles it (class, id or <header>)', () => {
    for (const headline of ['<h1 class="headline">实拍意大利触礁油轮裂口水下景象</h1>', '<h1 id="artibodyTitle">实拍意大利触礁油轮裂口水下景象</h1>',
      '<header><h1>实拍意大利触礁油轮裂口水下景象</h1></header>']) {
      const out = extract(page(headline));
      expect(out.title).toBe('实拍意大利触礁油轮裂口水下景象');
      expect(out.paragraphs[0]).toBe('实拍意大利触礁油轮裂口水下景象');
      expect(out.paragraphs).toHaveLength(4);
    }
  });

  it('leaves out an English headline the template styles as its own component (class, id or <header>)', () => {
    const en = (headline: string): string => '<html><head><title>Cruise ship hull breach seen underwater - Daily</title></head><body>'
      + `<ul class="nav">${nav}</ul><div class="content"><div class="newsContent">`
      + `<div class="title">${headline}<div>January 17, 2012 18:10</div></div>`
      + `<div id="article_info">${['The cruise ship ran aground off the coast on Friday night, and the hull took on water and listed as passengers were taken off.',
        'The coast guard released pictures of the hull below the waterline on Monday, showing a breach some seventy metres long.',
        'Rescuers said the search would go on, though the ship kept shifting and divers found it ever harder to reach the cabins.'].map((t) => `<p>${t}</p>`).join('')}</div>`
      + '</div></div><div class="footer">All rights reserved</div></body></html>';
    for (const headline of ['<h1 class="headline">Cruise ship hull breach seen underwater</h1>', '<h1 id="artibodyTitle">Cruise ship hull breach seen underwater</h1>',
      '<header><h1>Cruise ship hull breach seen underwater</h1></header>']) {
      const out = extract(en(headline));
      expect(out.title).toBe('Cruise ship hull breach seen underwater');
      expect(out.text).not.toContain('Cruise ship hull breach seen underwater');
      expect(out.paragraphs).toHaveLength(3);
    }
  });

  it('keepTitle keeps any headline the content holds', () => {
    const out = extract(page('<h1 class="headline">实拍意大利触礁油轮裂口水下景象</h1>'), { keepTitle: true });
    expect(out.paragraphs[0]).toBe('实拍意大利触礁油轮裂口水下景象');
  });
});

describe('text_density extract() on a forum thread', () => {
  const page = extract(fixture('forum-phpbb.html'));

  it('keeps every post of the thread', () => {
    expect(page.text).toContain('lost three panes in last year');
    expect(page.text).toContain('Horticultural bubble wrap on the inside');
    expect(page.text).toContain('ordered a bag of fifty');
  });

  it('keeps each post header: the poster name and the post date', () => {
    expect(page.paragraphs.filter((p) => p === 'tomatotom' || p === 'marrowmary')).toEqual(['tomatotom', 'marrowmary', 'tomatotom']);
    expect(page.text).toContain('Sat Nov 02, 2024 7:40 pm');
  });

  it('leaves out poster boxes, signatures and board navigation', () => {
    for (const noise of ['Posts: 412', 'Joined: Mar 2019', 'Growing since 1987', 'Board index', 'Post Reply', 'Powered by phpBB']) {
      expect(page.text).not.toContain(noise);
    }
  });
});

describe('text_density extract() edge cases', () => {
  it('returns empty text, not an error, for a page without content', () => {
    const page = extract('<html><head><title>Nothing</title></head><body><nav><a href="/">Home</a></nav></body></html>');
    expect(page.text).toBe('');
    expect(page.title).toBe('Nothing');
  });

  it('survives unclosed tags nested thousands deep (no recursion on the DOM)', () => {
    const para = '<p>Officials said on Monday that the bridge would reopen in June, after repairs to the deck and the rails.</p>';
    const html = `<body>${'<div><font>'.repeat(10000)}${para.repeat(3)}</body>`;
    expect(extract(html).paragraphs).toHaveLength(3);
  });

  it('is not fooled by escaped markup shown as text', () => {
    const page = extract(`<body><noscript>&lt;img height="1" width="1" src="https://pixel.example/p?x=1"/&gt;</noscript>${
      '<p>Plain sentence of the article, long enough to count as content for the extractor here.</p>'.repeat(3)}</body>`);
    expect(page.text).not.toContain('pixel.example');
    expect(page.paragraphs).toHaveLength(3);
  });
});

describe('text_density extract(): the dateline under the headline', () => {
  it('is not displaced by a related article teaser whose time is labelled further down the page', () => {
    const para = (k: number) => `<p>第${k}段：本报讯 市交管部门决定对长江大桥实施交通管制，施工期间过往车辆请绕行二桥和隧道，公交线路同步调整，具体安排以公告为准。</p>`;
    const teaser = (k: number) => `<li><a class="headline" href="/news/${k}.html">相关新闻${k}</a><p class="summary">发布时间</p><span class="time">2026-11-01 1${k}:28</span></li>`;
    const html = `<html lang="zh-CN"><head><title>长江大桥实施交通管制</title><meta property="article:published_time" content="2026-11-01T04:18:01Z"></head><body>
<article><h1>长江大桥实施交通管制</h1><div class="article-meta"><span class="pubtime">2026-11-01 12:18</span></div>${[1, 2, 3].map(para).join('')}
<ul class="related">${[4, 5, 6].map(teaser).join('')}</ul>${[4, 5, 6].map(para).join('')}</article></body></html>`;
    expect(Date.parse(extract(html, { url: 'https://news.example/news/4.html' }).published_at!)).toBe(Date.parse('2026-11-01T04:18:01Z'));
  });
});

describe('text_density extract() on a documentation page whose section headings are anchors', () => {
  const para = (i: number): string => `<p>Paragraph ${i} of the reference: a promise settles once, and the handlers attached with then() run in the order they were added, even after it settled.</p>`;
  const section = (id: string, title: string): string => `<section class="content-section"><h2 class="heading" id="${id}"><a href="#${id}">${title}</a></h2>${[1, 2, 3].map(para).join('')}</section>`;
  const html = `<html><head><title>Promise - Reference</title></head><body>
    <nav><a href="/">Home</a> <a href="/docs">Docs</a> <a href="/blog">Blog</a></nav>
    <main><h1>Promise</h1>${section('description', 'Description')}${section('chained_promises', 'Chained Promises')}${section('thenables', 'Thenables')}</main>
    <footer><a href="/about">About</a></footer></body></html>`;

  it("keeps the section headings (each a link to its own anchor) as the text's headings", () => {
    const lines = extract(html).paragraphs;
    for (const h of ['Description', 'Chained Promises', 'Thenables']) expect(lines).toContain(h);
    expect(lines.indexOf('Chained Promises')).toBeLessThan(lines.indexOf('Thenables'));
  });
});
