import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { decodeHtml } from '../../../src/core/charset';
import { applyRules, selectRuleSet } from '../../../src/extractors/rules/apply';
import { forumRuleSets } from '../../../src/extractors/rules/forums';
import { parseRuleSets } from '../../../src/extractors/rules/schema';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'forums');
const page = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

describe('html_rules rule-set schema', () => {
  const minimal = { name: 'news', match: { prefix: ['https://news.example.com/'] }, fields: { title: { selector: 'h1' } } };

  it('fills defaults of a minimal rule set', () => {
    const [rs] = parseRuleSets([minimal]);
    expect(rs!.fields.title).toEqual([expect.objectContaining({ selector: 'h1', type: 'text', all: false, exclude: [], date: false })]);
    expect(rs!.match.regex).toEqual([]);
  });

  it('rejects unknown keys, bad regexes, attr without a name and rule sets that match nothing', () => {
    expect(() => parseRuleSets([{ ...minimal, extra: 1 }])).toThrow(/Unrecognized key/);
    expect(() => parseRuleSets([{ ...minimal, fields: { title: { selector: 'h1', regex: '(' } } }])).toThrow(/fields.title.0.regex: invalid regular expression/);
    expect(() => parseRuleSets([{ ...minimal, fields: { link: { selector: 'a', type: 'attr' } } }])).toThrow(/needs "attr"/);
    expect(() => parseRuleSets([{ ...minimal, match: {} }])).toThrow(/match needs a prefix or a regex/);
    expect(() => parseRuleSets([{ ...minimal, fields: { title: { selector: 'h1', type: 'markdown' } } }])).toThrow(/fields.title.0.type/);
  });

  it('selects the first rule set whose prefix or regex matches the URL', () => {
    const sets = parseRuleSets([minimal, ...forumRuleSets()]);
    expect(selectRuleSet('https://news.example.com/a/1', sets)?.name).toBe('news');
    expect(selectRuleSet('https://bbs.example.cn/forum/thread-1-2-1.html', sets)?.name).toBe('discuz');
    expect(selectRuleSet('https://bbs.example.cn/forum.php?mod=viewthread&tid=9', sets)?.name).toBe('discuz');
    expect(selectRuleSet('https://x.example.org/phpbb/viewtopic.php?f=1&t=2', sets)?.name).toBe('phpbb');
    expect(applyRules('<p>x</p>', 'https://elsewhere.example/', sets)).toBeUndefined();
  });

  it('reads attributes, all matches, regex groups, replacements and URLs', () => {
    const [rs] = parseRuleSets([{
      name: 'shop', match: { regex: ['^https://shop\\.example/item/\\d+$'] },
      fields: {
        price: { selector: '.price', regex: '([\\d.]+)' },
        tags: { selector: '.tag', all: true, replace: [{ pattern: '^#', with: '' }] },
        image: { selector: 'img.main', type: 'attr', attr: 'src', url: true },
        missing: [{ selector: '.nope' }, { selector: 'h1' }],
      },
    }]);
    const out = applyRules('<h1>Kettle</h1><span class="price">Price: 24.90 EUR</span><a class="tag">#home</a><a class="tag">#kitchen</a><img class="main" src="/i/k.jpg">',
      'https://shop.example/item/7', [rs!]);
    expect(out?.fields).toEqual({ price: '24.90', tags: ['home', 'kitchen'], image: 'https://shop.example/i/k.jpg', missing: 'Kettle' });
  });
});

describe('Discuz rule set', () => {
  const sets = forumRuleSets();

  it('extracts every post of a thread page with floor, author, China-time date and own text (quotes removed)', () => {
    const out = applyRules(page('discuz-thread.html'), 'https://bbs.example.cn/forum/thread-3051-1-1.html', sets)!;
    expect(out.ruleSet).toBe('discuz');
    expect(out.fields.title).toBe('周末骑行路线推荐');
    expect(out.items).toEqual([
      { pid: '88101', floor: '1', author: '骑行老王', published_at: '2024-03-09T08:15:00+08:00',
        text: '天气转暖了，推荐一条适合新手的环湖路线，全程约四十公里。\n沿途有三个补给点，建议早上七点前出发，避开中午的车流。' },
      // "3 天前" is read from the absolute time in the span's title.
      { pid: '88107', floor: '2', author: '小林同学', published_at: '2024-03-09T10:02:45+08:00', text: '谢谢分享！请问补给点周末开门吗？' },
    ]);
    expect(out.next).toBe('https://bbs.example.cn/forum/thread-3051-2-1.html');
  });

  it('works on the GBK bytes a Discuz board serves, once decoded', () => {
    const bytes = iconv.encode(page('discuz-thread.html'), 'gbk');
    const out = applyRules(decodeHtml(bytes).text, 'https://bbs.example.cn/forum/thread-3051-1-1.html', sets)!;
    expect(out.items.map((i) => i.author)).toEqual(['骑行老王', '小林同学']);
  });

  it('lists thread links and the next page of a board page', () => {
    const out = applyRules(page('discuz-board.html'), 'https://bbs.example.cn/forum/forum-12-1.html', sets)!;
    expect(out.items).toEqual([]);
    expect(out.links).toEqual(['https://bbs.example.cn/forum/thread-3051-1-1.html', 'https://bbs.example.cn/forum/thread-3049-1-1.html']);
    expect(out.next).toBe('https://bbs.example.cn/forum/forum-12-2.html');
  });
});

describe('phpBB rule set', () => {
  const sets = forumRuleSets();

  it('extracts every post with author (plain or coloured), ISO time and text without the quoted post', () => {
    const out = applyRules(page('phpbb-topic.html'), 'https://cycling.example.org/phpbb/viewtopic.php?f=4&t=917', sets)!;
    expect(out.fields.title).toBe('Chain lube in wet weather');
    expect(out.items).toEqual([
      { pid: '5501', author: 'grit_and_gears', published_at: '2025-01-06T07:45:10+00:00',
        text: 'Dry lube washes off after one wet commute.\nWhat do you use through the winter?' },
      { pid: '5509', author: 'spokesperson', published_at: '2025-01-06T09:02:00+00:00',
        text: 'A wax-based wet lube, reapplied every two weeks, and wipe the chain after each ride.' },
    ]);
    expect(out.next).toBe('https://cycling.example.org/phpbb/viewtopic.php?f=4&t=917&start=10');
  });

  it('lists each topic of a forum page once and has no next page on the last page', () => {
    const out = applyRules(page('phpbb-forum.html'), 'https://cycling.example.org/phpbb/viewforum.php?f=4', sets)!;
    expect(out.links).toEqual(['https://cycling.example.org/phpbb/viewtopic.php?f=4&t=917', 'https://cycling.example.org/phpbb/viewtopic.php?f=4&t=902']);
    expect(out.next).toBeUndefined();
  });
});

describe('plain tag[attr] selectors', () => {
  const linksWith = (selector: string, html: string, url: string): string[] => {
    const [rs] = parseRuleSets([{ name: 'all-links', match: { prefix: ['https://'] }, links: { selector } }]);
    return applyRules(html, url, [rs!])!.links;
  };

  it.each([
    ['discuz-thread.html', 'https://bbs.example.cn/forum/thread-3051-1-1.html'],
    ['phpbb-topic.html', 'https://cycling.example.org/phpbb/viewtopic.php?f=4&t=917'],
  ])('find the same links in %s as the generic selector engine, in the same order', (name, url) => {
    const html = page(name);
    // `:not(x-none)` sends the same selection through css-select, which the walk stands in for.
    const generic = linksWith('a[href]:not(x-none)', html, url);
    expect(generic.length).toBeGreaterThan(5);
    expect(linksWith('a[href]', html, url)).toEqual(generic);
    expect(linksWith(' A[HREF] ', html, url)).toEqual(generic);
    expect(linksWith('[href]', html, url)).toEqual(linksWith('[href]:not(x-none)', html, url));
  });

  it('match an attribute present but empty, and skip the element without it', () => {
    const html = '<p><a href="">here</a><a name="x">anchor</a><a href="/b">b<a href="/c">c</a></a></p>';
    expect(linksWith('a[href]', html, 'https://site.example/a')).toEqual(['https://site.example/b', 'https://site.example/c']);
    expect(linksWith('a[href]', html, 'https://site.example/a')).toEqual(linksWith('a[href]:not(x-none)', html, 'https://site.example/a'));
  });
});
