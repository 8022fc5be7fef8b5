import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupFor, isPathAllowed, parseRobots, wildcardMatch } from '../../../src/fetchers/robots-parser';

const ROBOTS = `
# a comment
User-agent: *
Disallow: /private
Allow: /private/open
Disallow: /*.pdf$
Disallow: /search?*q=
Crawl-delay: 1.5

User-agent: Freshet
User-agent: otherbot
Disallow: /only-for-freshet   # trailing comment
Allow: /only-for-freshet/but-this
Crawl-delay: 3

User-agent: googlebot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`;

describe('robots.txt parser', () => {
  const parsed = parseRobots(ROBOTS);

  it('picks our group by product token, case-insensitively, and falls back to *', () => {
    const ours = groupFor(parsed, 'freshet')!;
    expect(ours.crawlDelayMs).toBe(3000);
    expect(ours.rules.map((r) => r.pattern)).toEqual(['/only-for-freshet', '/only-for-freshet/but-this']);
    expect(groupFor(parsed, 'unknownbot')!.crawlDelayMs).toBe(1500);
    expect(groupFor(parseRobots('User-agent: x\nDisallow: /'), 'freshet')).toBeUndefined();
    expect(parsed.sitemaps).toEqual(['https://example.com/sitemap.xml']);
  });

  it.each([
    ['/', true],
    ['/private', false],
    ['/private/x', false],
    ['/private/open/page', true], // longer Allow wins
    ['/docs/a.pdf', false],
    ['/docs/a.pdf?x=1', true], // $ anchors the end
    ['/search?lang=en&q=x', false],
    ['/search?lang=en', true],
    ['/robots.txt', true],
  ])('* group: %s → allowed=%s', (path, allowed) => {
    expect(isPathAllowed(groupFor(parsed, 'somebot'), path)).toBe(allowed);
  });

  it('applies only the most specific group (ours ignores the * rules)', () => {
    const ours = groupFor(parsed, 'freshet');
    expect(isPathAllowed(ours, '/private')).toBe(true);
    expect(isPathAllowed(ours, '/only-for-freshet/x')).toBe(false);
    expect(isPathAllowed(ours, '/only-for-freshet/but-this/x')).toBe(true);
  });

  it('lets Allow win a tie of equal length', () => {
    const g = groupFor(parseRobots('User-agent: *\nDisallow: /page\nAllow: /page'), 'x');
    expect(isPathAllowed(g, '/page')).toBe(true);
  });

  it('treats an empty Disallow as allow-all and merges groups naming the same agent', () => {
    const g = groupFor(parseRobots('User-agent: a\nDisallow:\n\nUser-agent: a\nDisallow: /x'), 'a');
    expect(isPathAllowed(g, '/y')).toBe(true);
    expect(isPathAllowed(g, '/x/1')).toBe(false);
  });

  it('matches non-ASCII paths written raw in robots.txt against percent-encoded URLs', () => {
    const g = groupFor(parseRobots('User-agent: *\nDisallow: /论坛/私密'), 'x');
    expect(isPathAllowed(g, new URL('https://e.com/论坛/私密/1').pathname)).toBe(false);
    expect(isPathAllowed(g, '/%e8%ae%ba%e5%9d%9b/%E7%A7%81%E5%AF%86')).toBe(false); // hex case is irrelevant
    expect(isPathAllowed(g, new URL('https://e.com/论坛/公开').pathname)).toBe(true);
  });

  it('handles CRLF, a BOM, unknown keys, lines without colons and common misspellings', () => {
    const g = groupFor(parseRobots('\ufeffUser-agent: *\r\nnonsense line\r\nHost: e.com\r\nDissallow: /typo\r\n'), 'x');
    expect(isPathAllowed(g, '/typo/a')).toBe(false);
  });

  it('applies a group whose User-agent value has more words or a version to its product token', () => {
    const parsed = parseRobots('User-agent: *\nDisallow: /a\n\nUser-agent: freshet bot\nDisallow: /b\n\nUser-agent: otherbot/2.1\nDisallow: /c');
    expect(isPathAllowed(groupFor(parsed, 'freshet'), '/b/1')).toBe(false);
    expect(isPathAllowed(groupFor(parsed, 'freshet'), '/a/1')).toBe(true);
    expect(isPathAllowed(groupFor(parsed, 'otherbot'), '/c')).toBe(false);
  });

  it('keeps agents named around a Crawl-delay in one group for rules, as Google does, but gives the delay only to those above it', () => {
    const parsed = parseRobots('User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /x');
    expect(isPathAllowed(groupFor(parsed, 'a'), '/x')).toBe(false);
    expect(isPathAllowed(groupFor(parsed, 'b'), '/x')).toBe(false);
    expect(groupFor(parsed, 'a')!.crawlDelayMs).toBe(1000);
    expect(groupFor(parsed, 'b')!.crawlDelayMs).toBeUndefined();
  });

  it('never throws, whatever string it is given (lone surrogates, controls, huge lines)', () => {
    // A fixed-seed generator of lines made of the keys and characters that matter to the grammar.
    const keys = ['user-agent: ', 'disallow: /', 'allow: ', 'crawl-delay: ', 'sitemap: ', '', ':', '#'];
    const chars = ['\ud800', '\udc00', '\ud83d\udca9', '\ufeff', '\ufffd', '\u0000', '\r', ':', '#', '*', '$', '%', '%a', ' ', '\t', '/', 'a', 'Z', 'é', '1.5'];
    let seed = 42;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const word = (): string => {
      let w = '';
      for (let k = next(6); k > 0; k--) w += chars[next(chars.length)];
      return w;
    };
    for (let i = 0; i < 2000; i++) {
      let text = '';
      for (let j = next(8); j > 0; j--) text += `${keys[next(keys.length)]}${word()}\n`;
      const path = `/${word()}`;
      expect(() => isPathAllowed(groupFor(parseRobots(text), 'freshet'), path)).not.toThrow();
      expect(() => isPathAllowed(groupFor(parseRobots(text), word()), new URL(path, 'https://e.com').pathname)).not.toThrow();
    }
    expect(() => parseRobots('User-agent: *\nDisallow: /\ud800')).not.toThrow();
    expect(() => parseRobots(`User-agent: *\nDisallow: /${'\ud800'.repeat(20_000)}`)).not.toThrow();
  });

  it('ignores rules that come before any User-agent line', () => {
    expect(groupFor(parseRobots('Disallow: /\n'), 'x')).toBeUndefined();
  });

  it('matches hostile wildcard patterns in linear-ish time', () => {
    const pattern = `/${'*a'.repeat(40)}b`;
    const text = `/${'a'.repeat(5000)}`;
    const started = Date.now();
    expect(wildcardMatch(pattern, text, true)).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it.each([
    ['/a*c', '/abc', false, true],
    ['/a*c', '/abcd', false, true], // unanchored: a prefix match is enough
    ['/a*c', '/abcd', true, false],
    ['/a*', '/a', true, true],
    ['*', '/anything', true, true],
    ['/a*b*c', '/axxbyyc', true, true],
    ['/a*b*c', '/axxbyy', true, false],
  ])('wildcardMatch(%s, %s, anchored=%s) = %s', (pattern, text, anchored, expected) => {
    expect(wildcardMatch(pattern, text, anchored)).toBe(expected);
  });

  describe('a Discuz! forum robots.txt (fixture)', () => {
    const text = readFileSync(join(__dirname, '../../fixtures/fetchers/discuz-robots.txt'), 'utf8');
    const discuz = parseRobots(text);
    const path = (u: string): string => {
      const url = new URL(u, 'https://bbs.example.cn');
      return url.pathname + url.search;
    };
    it.each([
      ['/forum.php?mod=viewthread&tid=123&page=2', true],
      ['/thread-123-1-1.html', true],
      ['/forum-2-1.html', true],
      ['/forum.php?mod=post&action=reply&tid=123', false],
      ['/forum.php?mod=redirect&goto=lastpost', false],
      ['/forum.php?mod=attachment&aid=MTIz', false],
      ['/plugin.php?mod=misc&x=1', false],
      ['/forum.php?mod=viewthread&tid=1&mobile=yes', false],
      ['/search.php?mod=forum&srchtxt=论坛', false],
      ['/static/image/logo.png', false],
      ['/home.php?mod=space&uid=1', true],
    ])('%s → allowed=%s', (u, allowed) => {
      expect(isPathAllowed(groupFor(discuz, 'freshet'), path(u))).toBe(allowed);
    });

    it('gives Baiduspider its own group with its Crawl-delay, and keeps the sitemap', () => {
      expect(groupFor(discuz, 'baiduspider')!.crawlDelayMs).toBe(5000);
      expect(isPathAllowed(groupFor(discuz, 'baiduspider'), '/home.php?mod=space')).toBe(false);
      expect(groupFor(discuz, 'freshet')!.crawlDelayMs).toBeUndefined();
      expect(discuz.sitemaps).toEqual(['https://bbs.example.cn/sitemap.xml']);
    });
  });
});
