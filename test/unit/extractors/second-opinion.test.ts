import { parseHtml } from '../../../src/extractors/dom';
import { toBlocks } from '../../../src/extractors/blocks';
import { isRunningText, lastResort, neverEmpty, paragraphContainer, preferSecond } from '../../../src/extractors/second-opinion';
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

  it('does not stand for one long link: a featured comment teaser card is the text of another page', () => {
    // A listing home page (Product Hunt's shape): short product lines, and one founder's comment
    // of many commas, all of it inside a link to the comment.
    const products = ['Song Sweeper', 'Vibe Marketplace', 'Pulldog', 'GetMimic', 'Claude Marketplace'].map((n, i) => `<section class="post-item"><a href="/p/${i}">${n}</a><span>A tagline for ${n}, short and sweet</span></section>`).join('');
    const comment = 'Hey Product Hunt, I am Tanay, co-founder of Flow, a dictation app that lets you speak naturally, writes in your style, in every application, with auto-edits, command mode, and over 100 languages. '.repeat(6);
    const blocks = toBlocks(parseHtml(`<body><h1>Top Products Launching Today</h1>${products}<div class="featured"><a class="mt-1 flex" href="/products/flow?comment=1"><div>${comment}</div></a></div></body>`));
    const second = paragraphContainer(blocks);
    expect(second?.lines).toHaveLength(1);
    expect(preferSecond(blocks.filter((b) => b.text.includes('tagline')), second!.lines)).toBe(false);
  });

  it('does not stand for one card of the list the segment model found (the card with the longest run of commas)', () => {
    // arXiv's listing shape: a definition list of entries, each a title, an author list and subjects.
    const entry = (i: number, authors: string): string => `<dt><a href="/abs/${i}">arXiv:2603.0${i}</a> [<a href="/pdf/${i}">pdf</a>]</dt>
      <dd><div class="meta"><div class="list-title">Title: Entry ${i} on sparse attention and the sinks of large language models in long contexts</div>
      <div class="list-authors">${authors}</div><div class="list-subjects">Subjects: Artificial Intelligence (cs.AI); Machine Learning (cs.LG)</div></div></dd>`;
    const many = Array.from({ length: 40 }, (_, i) => `<a href="/a/${i}">Author${i} Name${i}</a>`).join(', ');
    const entries = Array.from({ length: 20 }, (_, i) => entry(i + 1, i === 9 ? `${many}, et al.` : '<a href="/a/1">Ana Ruiz</a>, <a href="/a/2">Li Wei</a>')).join('');
    const page = extract(`<html><head><title>Artificial Intelligence</title></head><body><div class="flex-wrap-footer">
      <h1>Artificial Intelligence</h1><h3>Fri, 6 Mar 2026 (showing first 20 of 212 entries)</h3><dl id="articles">${entries}</dl></div></body></html>`);
    expect(page.text).toContain('Title: Entry 1 on sparse attention');
    expect(page.text).toContain('Title: Entry 20 on sparse attention');
  });

  it('stands only where the segment model found next to nothing', () => {
    const blocks = toBlocks(parseHtml(`<body>${article}</body>`));
    expect(preferSecond([], blocks)).toBe(true);
    expect(preferSecond(blocks.slice(0, 2), blocks)).toBe(false);
  });

  it('stands where the two share no line and it holds over twice the first one\'s prose (a featured box above the article list)', () => {
    const featured = '<div class="featured"><p>Featured: the CTO of a robotics company chats about self-driving bulldozers, and why simulation matters now.</p>'
      + '<p>Listen to the episode on any podcast app, or read the full transcript of the conversation on the blog, with links to the papers.</p></div>';
    const more = '<p>Trainers hold national certificates, and each one keeps a weekly hour for questions, plans and progress checks with members.</p>'
      + '<p>Group sessions of three or four people are possible too, and they suit friends who train together and want to share the cost.</p>';
    const blocks = toBlocks(parseHtml(`<body>${featured}${article.replace('</div>', `${more}</div>`)}</body>`));
    const box = blocks.filter((b) => /^(Featured|Listen)/.test(b.text));
    const body = blocks.filter((b) => !box.includes(b));
    const chars = (ls: typeof blocks): number => ls.reduce((a, b) => a + b.chars, 0);
    // Not next to nothing: the share rule alone keeps the first.
    expect(chars(box)).toBeGreaterThan(0.25 * chars(body));
    expect(chars(body)).toBeGreaterThan(2 * chars(box));
    expect(preferSecond(box, body)).toBe(true);
    // Sharing one line, the two models agree in part: the first stands.
    expect(preferSecond([...box, body[0]!], body)).toBe(false);
    // Less than twice the prose: the first stands.
    expect(preferSecond(box, body.slice(0, 4))).toBe(false);
  });

  it('gives extract() the paragraphs when the segment model finds nothing', () => {
    // A line bar no line can reach stands in for the pages where every line falls below it.
    const page = extract(`<html><head><title>Personal training</title></head><body><ul class="menu"><li><a href="/a">Classes</a></li></ul>${article}</body></html>`,
      { scoring: { threshold: 10_000 } });
    expect(page.text).toContain('Personal training, with a certified coach');
    expect(page.text).not.toContain('Classes');
  });

  it('stands where the first holds a table of figures and no prose beside the page\'s own text', () => {
    // The shape of a product-category page: a comparison table of specs outweighs the short intro.
    const cells = ['11.5" / 29 cm', 'CONFIG 1T', '24.5" / 62 cm', '6.9" / 18 cm', '2–10 lbs', '.9–4.6 kg', '10 years', 'Rotation-stop protects back wall',
      '13" / 33 cm', '22.2" / 56 cm', '4.5" / 11 cm', '7–20 lbs', '3.2–9.1 kg', 'Outer screens can turn in/out independently'];
    const html = `<body><table class="compare">${cells.map((c) => `<tr><td>${c}</td><td>${c}</td></tr>`).join('')}</table>${article}</body>`;
    const blocks = toBlocks(parseHtml(html));
    const table = blocks.filter((b) => !/^(Personal|Sessions|Packages|Members)/.test(b.text));
    const prose = blocks.filter((b) => !table.includes(b));
    expect(table.reduce((a, b) => a + b.chars, 0)).toBeGreaterThan(prose.reduce((a, b) => a + b.chars, 0) * 0.25);
    expect(preferSecond(table, prose)).toBe(true);
    // …but not where the first holds prose of its own.
    expect(preferSecond([...table, prose[0]!, prose[1]!], prose)).toBe(false);
  });

  it('takes a listing of link-wrapped cards whole: the list that holds the cards, their teasers kept', () => {
    // The shape of a programme listing: each card is one link around a heading and a teaser paragraph.
    const topics = ['Chief Digital Officer', 'Design and Manufacturing', 'Innovation and Technology', 'Professional Certificate in Coding', 'Sustainability', 'Biotechnology and Life Sciences'];
    const cards = topics.map((t, i) => `<div class="item"><a class="card-link" href="/programs/p${i}"><div class="card"><div class="title">${t}</div>`
      + `<div class="field"><p>Acquire advanced strategies and frameworks for ${t.toLowerCase()}, with faculty who lead the field, and apply them to the problems of your own organisation, team and industry.</p></div></div></a></div>`).join('');
    const html = `<html><head><title>Certificate programs</title></head><body><nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></nav>
      <main><h1>Certificate programs</h1><div class="intro"><p>Award-winning faculty. Transformative tools and technologies.</p></div>
      <div class="list">${cards}</div></main><footer><p>700 Technology Square, Cambridge, MA 02139</p></footer></body></html>`;
    const found = paragraphContainer(toBlocks(parseHtml(html)));
    expect(found?.lines.filter((b) => b.text.startsWith('Acquire'))).toHaveLength(topics.length);
    const page = extract(html);
    for (const t of topics) expect(page.text).toContain(`frameworks for ${t.toLowerCase()}`);
    expect(page.text).not.toContain('Technology Square');
  });

  describe('last resort: the page\'s own lines where both models found next to nothing', () => {
    const entries = ['Memorial Park Loop: 3 miles of rooty singletrack', 'Terry Hershey Trail: paved and dirt, along the bayou', 'Anthony Brodie Trail: fast and flowy',
      'Cullen Park: beginner loops by the reservoir', 'Jack Brooks Park: technical climbs', 'Spring Creek Greenway: 40 miles of greenway', 'Double Lake Loop: sandy, in the forest', 'Huntsville State Park: hills and pines', 'Brazos Bend: flat, with alligators', 'Jesse Jones Park: short and twisty'];
    const html = `<body><ul class="menu"><li><a href="/a">Maps</a></li><li><a href="/b">Trails</a></li><li><a href="/c">Forum</a></li></ul>
      <h1>Houston trails</h1>${entries.map((e) => `<div class="row">${e}</div>`).join('')}
      <div class="sidebar"><p>Sign up for our newsletter and get weekly trail reports in your inbox</p></div><p>Share this story</p></body>`;
    const blocks = toBlocks(parseHtml(html));

    it('takes every line that is not a link list, furniture or boilerplate when what was found is tiny', () => {
      const found = lastResort(blocks, blocks.filter((b) => b.text === 'Maps'), 0.5).map((b) => b.text);
      expect(found).toEqual(['Houston trails', ...entries]);
    });

    it('keeps what was found when it is a real text, or when the page holds no more', () => {
      const some = blocks.filter((b) => entries.includes(b.text));
      expect(lastResort(blocks, some, 0.5)).toBe(some);
      const bare = toBlocks(parseHtml('<body><h1>Houston trails</h1><p>Coming soon.</p></body>'));
      expect(lastResort(bare, [], 0.5)).toEqual([]);
    });

    it('takes the page\'s lines where the winner is one line holding a sliver of a long page\'s text', () => {
      // A developer platform's home page: a hero blurb, then sections of a heading and a short line each.
      const hero = 'Use the workflow API and thousands of integrations to power a built-in automation experience, an integration marketplace, or AI workflows for your users. The platform handles auth, infrastructure, retries and upkeep for every app, so your team can ship the features your customers keep asking for.';
      const parts = Array.from({ length: 60 }, (_, i) => `<section><h3>Feature ${i + 1}</h3><div>Connect part ${i + 1} of your product to the apps your customers already use, with auth handled for you.</div></section>`).join('');
      const page = toBlocks(parseHtml(`<body><div class="hero"><p>${hero}</p></div>${parts}</body>`));
      const winner = page.filter((b) => b.text === hero);
      expect(winner).toHaveLength(1);
      const found = lastResort(page, winner, 0.5).map((b) => b.text);
      expect(found).toContain(hero);
      expect(found).toContain('Feature 60');
      // Three lines or more are a text of their own, however short beside the page.
      const three = page.slice(0, 3);
      expect(lastResort(page, three, 0.5)).toBe(three);
    });

    it('counts a CJK character as a short word: 60 Han characters are no tiny text', () => {
      const zh = toBlocks(parseHtml(`<body><p>${'本报讯市交管部门决定对长江大桥实施交通管制'.repeat(3)}</p>${entries.map((e) => `<div>${e}</div>`).join('')}</body>`));
      expect(lastResort(zh, zh.slice(0, 1), 0.5)).toHaveLength(1);
    });
  });

  it('counts Chinese running text as prose (no spaces between words), so a short article outweighs a longer list of headlines', () => {
    // A news page's shape: a short article, and beside it a longer box of dated headline links
    // with a promotion line or two; the segment model took the box.
    const article = ['國際中心／綜合報導',
      '雖然新年才過了短短十五天，但已經有不少人放棄新年立下的減肥健身計畫，但美國有項最新研究顯示，運動不只有雕塑身材線條的功能，甚至還可能達成加薪的願望。',
      '美國俄亥俄州一所州立大學針對一萬兩千人的運動習慣及薪水成長幅度進行研究。研究結果顯示，一週進行三次慢跑、游泳或是舉重的受訪者，薪水會增加百分之六至九，即使是一個月運動一至三次的受訪者，薪水成長幅度也達百分之五。',
      '此現象可能是老闆把規律進行運動的行為視為有決心和努力付出的象徵，且常健身的員工因為生理和心理經過鍛鍊，所以在工作上會比較努力，因此達到薪水成長的目的。',
      '主持這項研究的博士也表示，運動不但可以改善心臟健康、體重或是其他身體健康問題，還可以改善心理功能，心理狀況，然而這些都可以轉化成較高的收入'];
    const heads = ['阿根廷八十五歲老婦遭天降飛貓砸中命危', '巨石訪台超嗨秀才藝玩自拍', '龐德電影五十年車展秀經典超跑', '奇！菲律賓下魚雨百條泥鰍從天降', '日本漫畫家心目中坂本龍馬變軍曹？',
      '走路戴耳機易發生重大傷亡', '反網路盜版立法維基百科關閉一天', '印度智庫：馬連任印度面臨兩難', '超重遭譏英婦女減肥成功', '丟臉！逾八成老美不挺美國國會',
      '東京車展女郎蠻腰長腿超吸睛', '超強手指功夫加國樂團秀絕技', '最牛舞后巴西肥妞奪冠', '企鵝家族惡搞版化身突變怪物', '祕戀曝光三毛生命中最後一位情人'];
    const box = heads.map((h, i) => `<li><a href="/n/${i}">${h}</a> (01/17 ${10 + (i % 12)}:${10 + i})</li>`).join('');
    const blocks = toBlocks(parseHtml(`<body><div>${article.map((t) => `<p>${t}</p>`).join('')}</div><div><h3>更多國際</h3><ul>${box}</ul></div></body>`));
    expect(blocks.filter((b) => isRunningText(b))).toHaveLength(4);
    // A tag cloud is words between enumeration commas, not running text.
    const tags = toBlocks(parseHtml('<body><p>蔡英文 、 民進黨 、 國民黨 、 馬英九 、 宋楚瑜 、 親民黨 、 總統大選 、 衛生署 、 立法院 、 吳敦義 、 春節 、 台東縣</p></body>'));
    expect(isRunningText(tags[0]!)).toBe(false);
    const list = blocks.filter((b) => /\(01\/17/.test(b.text));
    const second = paragraphContainer(blocks);
    expect(second?.lines[0]?.text).toBe('國際中心／綜合報導');
    expect(preferSecond(list, second!.lines)).toBe(true);
  });
});

describe('never empty (second-opinion.ts neverEmpty)', () => {
  // A news aggregator's front page without class names: linked titles, each with a row of linked
  // stamps (poster, age, comments) under it, laid out in table rows. No line is running text and
  // every line is mostly links, so every other rule had kept nothing.
  const rows = Array.from({ length: 30 }, (_, i) => `<tr><td>${i + 1}.</td><td><a href="https://example${i}.com/story">Show HN: A small tool number ${i} that turns spreadsheets into dashboards</a> (<a href="/from?site=example${i}.com">example${i}.com</a>)</td></tr>`
    + `<tr><td></td><td><a href="/user?id=u${i}">user${i}</a> <a href="/item?id=${i}">${i + 2} hours ago</a> | <a href="/hide?id=${i}">hide</a> | <a href="/item?id=${i}">${i * 3} comments</a></td></tr>`).join('');

  it('reads a page of linked items as its lines rather than as nothing', () => {
    const page = extract(`<html><head><title>New Links</title></head><body><table><tr><td><a href="/">Hacker News</a> <a href="/newest">new</a></td></tr><tr><td><table>${rows}</table></td></tr></table></body></html>`);
    expect(page.text).toContain('Show HN: A small tool number 0 that turns spreadsheets into dashboards');
    expect(page.text).toContain('Show HN: A small tool number 29 that turns spreadsheets into dashboards');
  });

  it('leaves a shell that shows next to nothing empty, and keeps any line that was chosen', () => {
    const shell = toBlocks(parseHtml('<body><div><a href="/">Home</a> <a href="/login">Log in</a></div><p>Loading…</p></body>'));
    expect(neverEmpty(shell, [])).toEqual([]);
    const blocks = toBlocks(parseHtml(`<body><table>${rows}</table></body>`));
    expect(neverEmpty(blocks, blocks.slice(0, 1))).toEqual(blocks.slice(0, 1));
    expect(neverEmpty(blocks, []).length).toBeGreaterThan(30);
  });
});
