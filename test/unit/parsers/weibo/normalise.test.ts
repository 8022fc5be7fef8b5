import { parseCount } from '../../../../src/parsers/weibo/counts';
import { parseWeiboDateMs } from '../../../../src/parsers/weibo/dates';
import { postDoc } from '../../../../src/parsers/weibo/docs';
import { compareIds, parseRegion, postHtmlToText } from '../../../../src/parsers/weibo/text';

describe('parseCount', () => {
  it.each([
    [12, 12], ['43.4万', 434000], ['100万+', 1000000], ['1.2亿', 120000000], ['1,234', 1234], ['0', 0], ['3k', 3000],
  ])('%p → %p', (input, expected) => expect(parseCount(input)).toBe(expected));

  it('refuses what it cannot read', () => {
    for (const bad of ['', 'abc', '-3', null, undefined, {}, NaN]) expect(parseCount(bad)).toBeUndefined();
  });
});

describe('parseWeiboDateMs', () => {
  // 2026-11-21 10:00:00 in China = 02:00:00 UTC
  const now = Date.UTC(2026, 10, 21, 2, 0, 0);
  const iso = (v: string) => new Date(parseWeiboDateMs(v, now)!).toISOString();

  it('parses the absolute form with its offset', () => {
    expect(iso('Wed Aug 24 22:03:13 +0800 2022')).toBe('2022-08-24T14:03:13.000Z');
    expect(iso('Thu Nov 09 10:30:00 -0500 2025')).toBe('2025-11-09T15:30:00.000Z');
  });

  it('parses relative forms against the response time, in China time', () => {
    expect(iso('刚刚')).toBe('2026-11-21T02:00:00.000Z');
    expect(iso('30秒前')).toBe('2026-11-21T01:59:30.000Z');
    expect(iso('5分钟前')).toBe('2026-11-21T01:55:00.000Z');
    expect(iso('3小时前')).toBe('2026-11-20T23:00:00.000Z');
    expect(iso('今天 08:15')).toBe('2026-11-21T00:15:00.000Z');
    expect(iso('昨天 12:30')).toBe('2026-11-20T04:30:00.000Z');
    expect(iso('06-14')).toBe('2026-06-13T16:00:00.000Z');
    expect(iso('12-25')).toBe('2025-12-24T16:00:00.000Z'); // later than today: last year
    expect(iso('2018-06-14')).toBe('2018-06-13T16:00:00.000Z');
  });

  it('parses month-day with a time (China time), this year unless that is more than a day ahead', () => {
    expect(iso('06-19 19:32')).toBe('2026-06-19T11:32:00.000Z');
    expect(iso('6月19日 19:32')).toBe('2026-06-19T11:32:00.000Z');
    expect(iso('11-21 23:59')).toBe('2026-11-21T15:59:00.000Z'); // later today in China: clock skew, still this year
    expect(iso('12-25 08:00')).toBe('2025-12-25T00:00:00.000Z'); // weeks ahead: last year
    expect(iso('01-01 00:05')).toBe('2025-12-31T16:05:00.000Z'); // China New Year's Day, in UTC the evening before
    expect(iso('2019-06-19 19:32:05')).toBe('2019-06-19T11:32:05.000Z');
    expect(iso('2019年6月19日 19:32')).toBe('2019-06-19T11:32:00.000Z');
    expect(iso('3天前')).toBe('2026-11-18T02:00:00.000Z');
    expect(iso('Wed Oct 26 17: 29: 30 +0800 2022')).toBe('2022-10-26T09:29:30.000Z');
  });

  it('refuses month-days that are no dates', () => {
    for (const bad of ['13-01 10:00', '00-10', '06-32', '2019-13-01']) expect(parseWeiboDateMs(bad, now)).toBeUndefined();
  });

  it('returns undefined for unknown forms', () => {
    expect(parseWeiboDateMs('someday', now)).toBeUndefined();
    expect(parseWeiboDateMs(12, now)).toBeUndefined();
  });

  it('reads the absolute form by position exactly as its regex does, near misses included', () => {
    // The regex reading of the absolute form, as it was before the positional fast path.
    const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };
    const byRegex = (v: string): number | undefined | 'other' => {
      const m = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/.exec(v.trim());
      if (!m) return 'other';
      const month = MONTHS[m[1]!];
      if (month === undefined) return undefined;
      const offsetMs = (m[6] === '-' ? -1 : 1) * (Number(m[7]) * 60 + Number(m[8])) * 60_000;
      return Date.UTC(Number(m[9]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) - offsetMs;
    };
    const base = 'Wed Aug 24 22:03:13 +0800 2022';
    const swaps = ['A', 'z', 'Z', '0', '9', ' ', ':', '+', '-', '/', '\u0660', 'x'];
    let compared = 0;
    for (const v of [base, ` ${base} `, 'Wed Xyz 24 22:03:13 +0800 2022', 'Sat Feb 30 25:61:61 -1259 9999', 'Mon Jan 01 00:00:00 +0000 1970']) {
      expect([v, parseWeiboDateMs(v, now)]).toEqual([v, byRegex(v)]);
      compared += 1;
    }
    for (let i = 0; i < base.length; i++) {
      for (const c of swaps) {
        const v = base.slice(0, i) + c + base.slice(i + 1);
        const expected = byRegex(v);
        // Strings the absolute regex refuses go on to the other forms, none of which they are.
        if (expected !== 'other') expect([v, parseWeiboDateMs(v, now)]).toEqual([v, expected]);
        else expect([v, parseWeiboDateMs(v, now)]).toEqual([v, undefined]);
        compared += 1;
      }
    }
    expect(compared).toBe(5 + base.length * swaps.length);
  });
});

describe('postHtmlToText', () => {
  it('keeps emoji alt text, hashtags, mentions and links, and drops markup', () => {
    const html = '今天好开心<span class="url-icon"><img alt=[哈哈] src="//h5.sinaimg.cn/d_haha.png" style="width:1em; height:1em;" /></span><br />'
      + '<a  href="https://m.weibo.cn/search?containerid=231522type%3D1%26q%3D%23%E8%AF%9D%E9%A2%98%23" data-hide=""><span class="surl-text">#话题#</span></a> '
      + "<a href='/n/张三'>@张三</a> <a href='http://t.cn/A6abc' data-hide=''><span class='surl-text'>网页链接</span></a> &amp; 更多\u200b";
    const out = postHtmlToText(html);
    expect(out.text).toBe('今天好开心[哈哈]\n#话题# @张三 网页链接 & 更多');
    expect(out.hashtags).toEqual(['话题']);
    expect(out.mentions).toEqual(['张三']);
    expect(out.links).toEqual(['http://t.cn/A6abc']);
  });
});

describe('postHtmlToText without markup', () => {
  it('passes plain text through, and decodes entities or collapses blank lines when there are some', () => {
    expect(postHtmlToText('  今天 #话题# 和 @李四 说好了  ')).toEqual({ text: '今天 #话题# 和 @李四 说好了', hashtags: ['话题'], mentions: ['李四'], links: [] });
    expect(postHtmlToText('a &lt;b&gt; &amp;amp; &#x41;\u200b').text).toBe('a <b> &amp; A');
    expect(postHtmlToText('x \t\n\n\n\ny').text).toBe('x\n\ny');
    expect(postHtmlToText('no tags, no tokens').hashtags).toEqual([]);
  });
});

describe('postDoc', () => {
  it('stamps each post with its own crawl time', () => {
    const m = { id: 1, created_at: '刚刚' };
    const a = postDoc('1', m, 'x', '9', Date.UTC(2024, 0, 1), 'http://b', 's');
    const b = postDoc('2', m, 'y', '9', Date.UTC(2024, 0, 2), 'http://b', 's');
    expect([a.body['crawled_at'], b.body['crawled_at']]).toEqual(['2024-01-01T00:00:00.000Z', '2024-01-02T00:00:00.000Z']);
    expect(b.body['created_at']).toBe('2024-01-02T00:00:00.000Z');
  });
});

describe('helpers', () => {
  it('strips the region prefix and compares long ids numerically', () => {
    expect(parseRegion('发布于 浙江')).toBe('浙江');
    expect(parseRegion('')).toBeUndefined();
    expect(compareIds('4806111732961615', '999')).toBeGreaterThan(0);
    expect(compareIds('4806111732961615', '4806111732961616')).toBeLessThan(0);
    expect(compareIds('5', '5')).toBe(0);
  });
});
