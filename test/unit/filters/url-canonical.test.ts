import { canonicalConfigSchema, canonicalizer, normalizeEscapes, pageCanonical, pageDocId } from '../../../src/filters/url-canonical';

const c = canonicalizer();
const canon = (href: string, base?: string): string | undefined => c.canonical(href, base);

describe('canonical URLs', () => {
  it('lower-cases scheme and host, drops default ports, fragments, credentials and a trailing host dot', () => {
    expect(canon('HTTP://News.Example.COM:80/a/B.html#top')).toBe('http://news.example.com/a/B.html');
    expect(canon('https://example.com:443/')).toBe('https://example.com/');
    expect(canon('https://example.com:8443/x')).toBe('https://example.com:8443/x');
    expect(canon('http://user:pw@example.com./x')).toBe('http://example.com/x');
    expect(canon('http://example.com')).toBe('http://example.com/');
  });

  it('removes dot segments and normalises escapes (unreserved decoded, others upper-case hex)', () => {
    expect(canon('http://example.com/news/./a/../123.html')).toBe('http://example.com/news/123.html');
    expect(canon('http://example.com/%7Euser/%e4%b8%ad?q=%41%2f')).toBe('http://example.com/~user/%E4%B8%AD?q=A%2F');
    expect(canon('http://example.com/新闻/?q=中文')).toBe('http://example.com/%E6%96%B0%E9%97%BB/?q=%E4%B8%AD%E6%96%87');
    expect(normalizeEscapes('a%2db%5Fc%7e%3a')).toBe('a-b_c~%3A');
  });

  it('sorts the query and removes tracking parameters (utm_*, spm, from, click ids)', () => {
    expect(canon('https://news.example.cn/a/123.html?utm_source=weibo&utm_medium=social&b=2&a=1&spm=a2c4.1234.0.0&from=timeline')).toBe('https://news.example.cn/a/123.html?a=1&b=2');
    expect(canon('https://example.com/p?gclid=abc&fbclid=IwAR0x&id=9')).toBe('https://example.com/p?id=9');
    // Empty pieces and a query left empty vanish; names without values stay.
    expect(canon('https://example.com/p?&&utm_campaign=x&')).toBe('https://example.com/p');
    expect(canon('https://example.com/p?print&id=2')).toBe('https://example.com/p?id=2&print');
  });

  it('removes session ids in the path and in the query, but keeps values that are not session ids', () => {
    expect(canon('http://shop.example.com/item.jsp;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9?id=3')).toBe('http://shop.example.com/item.jsp?id=3');
    expect(canon('http://example.com/(S(lit3py55t21z5v55vlm25s55))/default.aspx')).toBe('http://example.com/default.aspx');
    // phpBB without cookies appends sid; vBulletin s= with 32 hex digits.
    expect(canon('https://forum.example.org/viewtopic.php?f=2&t=4567&sid=0123456789abcdef0123456789abcdef')).toBe('https://forum.example.org/viewtopic.php?f=2&t=4567');
    expect(canon('https://forum.example.org/showthread.php?s=0123456789abcdef0123456789abcdef&t=99')).toBe('https://forum.example.org/showthread.php?t=99');
    // `s` as a search term and a short sid are data, not sessions.
    expect(canon('https://blog.example.com/?s=crawler')).toBe('https://blog.example.com/?s=crawler');
    expect(canon('https://example.com/list?sid=7')).toBe('https://example.com/list?sid=7');
  });

  it('handles real-world shapes: WeChat articles, Sina with spm, Discuz dynamic URLs', () => {
    expect(canon('https://mp.weixin.qq.com/s?__biz=MzA3MDM3NjE5NQ==&mid=2650931234&idx=1&sn=5f1f4ea3f5f2a7a1e1b9c0a0d5c3e2b1&chksm=84d1a2b3c4d5&scene=21#wechat_redirect'))
      .toBe('https://mp.weixin.qq.com/s?__biz=MzA3MDM3NjE5NQ==&idx=1&mid=2650931234&sn=5f1f4ea3f5f2a7a1e1b9c0a0d5c3e2b1');
    expect(canon('https://news.sina.com.cn/c/2026-11-20/doc-inaxyzab1234567.shtml?spm=C5.0.0.0&from=news'))
      .toBe('https://news.sina.com.cn/c/2026-11-20/doc-inaxyzab1234567.shtml');
    expect(canon('https://bbs.example.cn/forum.php?mod=viewthread&tid=123&extra=page%3D1&page=2'))
      .toBe('https://bbs.example.cn/forum.php?extra=page%3D1&mod=viewthread&page=2&tid=123');
  });

  it('resolves relative links against the page, and refuses what is not http(s)', () => {
    expect(canon('../b/./c.html?utm_source=x', 'http://Example.com/a/x/y.html')).toBe('http://example.com/a/b/c.html');
    expect(canon('news/', 'http://example.com/news/')).toBe('http://example.com/news/news/');
    expect(canon('mailto:a@example.com')).toBeUndefined();
    expect(canon('javascript:void(0)', 'http://example.com/')).toBeUndefined();
    expect(canon('http://')).toBeUndefined();
  });

  it('is idempotent and gives one document id for every variant of a page', () => {
    const variants = [
      'http://Example.com:80/news/./123.html?utm_source=rss&utm_medium=rss#comments',
      'http://example.com/news/123.html;jsessionid=ABCDEF0123456789ABCDEF0123456789',
      'http://example.com/news/123.html?spm=a2c0.12345.list.3',
      'http://example.com/news/%31%32%33.html',
    ];
    const ids = new Set(variants.map((v) => pageDocId(canon(v)!)));
    expect(ids.size).toBe(1);
    for (const v of variants) expect(canon(canon(v)!)).toBe(canon(v));
  });

  it('answers plain links without parsing exactly as the full parse does', () => {
    const plain = ['http://127.0.0.1:38123/news/12.html', 'https://e.com/a/b/', 'https://e.com/', 'http://e.com:80/x', 'https://e.com:443/x', 'http://e.com/a/./b',
      'http://e.com/a/..', 'http://e.com:080/x', 'http://sub.e-x.com/~u/x_y.z', 'http://e.com/a//b', 'http://e.com./x'];
    for (const u of plain) expect(c.canonical(u)).toBe(c.canonical(u, 'http://base.example/'));
  });

  it('takes its lists from the pipeline config: removed and session parameters, query order', () => {
    const custom = canonicalizer(canonicalConfigSchema.parse({ remove_params: ['ref', 'trk*'], keep_query_order: true }));
    expect(custom.canonical('https://example.com/p?z=1&ref=home&trk_id=2&a=3&utm_source=x')).toBe('https://example.com/p?z=1&a=3&utm_source=x');
    expect(() => canonicalConfigSchema.parse({ remove: ['x'] })).toThrow();
  });
});

describe('rel=canonical', () => {
  it('is honoured within scope, ignored across hosts, to the root, or when switched off', () => {
    expect(pageCanonical(c, 'http://example.com/news/amp/5.html?from=x', '/news/5.html')).toBe('http://example.com/news/5.html');
    expect(pageCanonical(c, 'http://example.com/news/5.html', 'http://other.example.net/5.html')).toBe('http://example.com/news/5.html');
    expect(pageCanonical(c, 'http://example.com/news/5.html', 'http://other.example.net/5.html', () => true)).toBe('http://other.example.net/5.html');
    expect(pageCanonical(c, 'http://example.com/news/5.html', 'http://example.com/')).toBe('http://example.com/news/5.html');
    expect(pageCanonical(c, 'http://example.com/news/5.html', undefined)).toBe('http://example.com/news/5.html');
    const off = canonicalizer(canonicalConfigSchema.parse({ honour_rel_canonical: false }));
    expect(pageCanonical(off, 'http://example.com/news/amp/5.html', '/news/5.html')).toBe('http://example.com/news/amp/5.html');
  });
});
