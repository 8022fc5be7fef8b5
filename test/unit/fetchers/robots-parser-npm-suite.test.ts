/**
 * The `robots-parser` npm package's test suite (v3.0.1), ported as data.
 *
 * Provenance: github.com/samclarke/robots-parser, commit fc27a0010e41bb87b138f8aa9b6e4aac87125ff7
 * (2026-08-07), file `test/Robots.js` (last changed in bc137a45e764ef3763f082fc26ab6ed767a13e7f).
 * MIT. Each `it` there is a row or a test here with the same name.
 *
 * robots-parser answers `undefined` for a URL on another origin than its robots.txt; freshet
 * never applies a file to another origin because the cache fetches robots.txt per origin, so
 * those rows are run through RobotsCache and check which origin it asked. Not ported, with the
 * reason: the `Host:` directive (not in RFC 9309; freshet ignores it), robots.txt given by a
 * relative or invalid URL (freshet always derives it from the page's origin), `null` contents,
 * and `isExplicitlyDisallowed` (freshet has no such mode).
 */
import { ManualClock } from '../../../src/core/clock';
import { RobotsCache } from '../../../src/fetchers/robots-cache';
import { groupFor, isPathAllowed, parseRobots, robotsPath } from '../../../src/fetchers/robots-parser';

interface Verdict {
  /** The origin whose robots.txt the cache asked for. */
  origin: string;
  allowed: boolean;
}

/** `url` checked by a RobotsCache whose only robots.txt is `contents`, served at `robotsUrl`. */
async function verdict(robotsUrl: string, contents: string, url: string, agent = 'freshet'): Promise<Verdict | undefined> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined; // not a URL: nothing is fetched, so nothing is asked
  }
  const robotsOrigin = new URL(robotsUrl).origin;
  const asked: string[] = [];
  const cache = new RobotsCache({
    clock: new ManualClock(0),
    userAgentToken: agent,
    ttlMs: 60_000,
    errorTtlMs: 60_000,
    maxOrigins: 10,
    fetchRobots: (origin) => {
      asked.push(origin);
      return Promise.resolve(origin === robotsOrigin ? { status: 200, text: contents } : { status: 404, text: '' });
    },
  });
  let allowed = true;
  try {
    await cache.check(target);
  } catch {
    allowed = false;
  }
  return { origin: asked[0] ?? '', allowed };
}

/** robots-parser's `testRobots`: `isAllowed` true for each allowed URL, `isDisallowed` true for each disallowed one. */
async function testRobots(robotsUrl: string, contents: string, allowed: string[], disallowed: string[]): Promise<void> {
  const robotsOrigin = new URL(robotsUrl).origin;
  for (const url of allowed) {
    const v = await verdict(robotsUrl, contents, url);
    expect({ url, origin: v?.origin, allowed: v?.allowed }).toEqual({ url, origin: robotsOrigin, allowed: true });
  }
  for (const url of disallowed) {
    const v = await verdict(robotsUrl, contents, url);
    // isDisallowed is !isAllowed: true when this file forbids it or does not apply to it.
    const notAllowedByThisFile = v === undefined || v.origin !== robotsOrigin || !v.allowed;
    expect({ url, notAllowedByThisFile }).toEqual({ url, notAllowedByThisFile: true });
  }
}

const pathAllowed = (contents: string, url: string, agent: string): boolean =>
  isPathAllowed(groupFor(parseRobots(contents), agent), robotsPath(new URL(url)));
const crawlDelaySecs = (contents: string, agent: string): number | undefined => {
  const ms = groupFor(parseRobots(contents), agent)?.crawlDelayMs;
  return ms === undefined ? undefined : ms / 1000;
};

const fishTest = ['User-agent: *', 'Disallow: /fish/', 'Disallow: /test.html'];
const fishAllowed = ['http://www.example.com/fish', 'http://www.example.com/Test.html'];
const fishDisallowed = ['http://www.example.com/fish/index.php', 'http://www.example.com/fish/', 'http://www.example.com/test.html'];

type Suite = [name: string, robotsUrl: string, contents: string, allowed: string[], disallowed: string[]];

const SUITES: Suite[] = [
  ['should parse the disallow directive', 'http://www.example.com/robots.txt', fishTest.join('\n'), fishAllowed, fishDisallowed],
  [
    'should parse the allow directive',
    'http://www.example.com/robots.txt',
    ['User-agent: *', 'Disallow: /fish/', 'Disallow: /test.html', 'Allow: /fish/test.html', 'Allow: /test.html'].join('\n'),
    ['http://www.example.com/fish', 'http://www.example.com/fish/test.html', 'http://www.example.com/Test.html', 'http://www.example.com/test.html'],
    ['http://www.example.com/fish/index.php', 'http://www.example.com/fish/'],
  ],
  [
    'should parse patterns',
    'http://www.example.com/robots.txt',
    ['User-agent: *', 'Disallow: /fish*.php', 'Disallow: /*.dext$', 'Disallow: /dir*'].join('\n'),
    ['http://www.example.com/Fish.PHP', 'http://www.example.com/Fish.dext1', 'http://www.example.com/folder/dir.html', 'http://www.example.com/folder/dir/test.html'],
    [
      'http://www.example.com/fish.php',
      'http://www.example.com/fishheads/catfish.php?parameters',
      'http://www.example.com/AnYthInG.dext',
      'http://www.example.com/Fish.dext.dext',
      'http://www.example.com/dir/test.html',
      'http://www.example.com/directory.html',
    ],
  ],
  [
    'should have the correct order precedence for allow and disallow',
    'http://www.example.com/robots.txt',
    ['User-agent: *', 'Disallow: /fish*.php', 'Allow: /fish/index.php', 'Disallow: /test', 'Allow: /test/', 'Disallow: /aa/', 'Allow: /aa/', 'Allow: /bb/', 'Disallow: /bb/'].join('\n'),
    [
      'http://www.example.com/test/index.html',
      'http://www.example.com/fish/index.php',
      'http://www.example.com/test/',
      'http://www.example.com/aa/',
      'http://www.example.com/bb/',
      'http://www.example.com/x/',
    ],
    ['http://www.example.com/fish.php', 'http://www.example.com/fishheads/catfish.php?parameters', 'http://www.example.com/test'],
  ],
  [
    'should have the correct order precedence for wildcards',
    'http://www.example.com/robots.txt',
    ['User-agent: *', 'Disallow: /*/', 'Allow: /x/'].join('\n'),
    ['http://www.example.com/x/', 'http://www.example.com/fish.php', 'http://www.example.com/test'],
    ['http://www.example.com/a/', 'http://www.example.com/xx/', 'http://www.example.com/test/index.html'],
  ],
  ['should parse lines delimitated by \\r', 'http://www.example.com/robots.txt', fishTest.join('\r'), fishAllowed, fishDisallowed],
  ['should parse lines delimitated by \\r\\n', 'http://www.example.com/robots.txt', fishTest.join('\r\n'), fishAllowed, fishDisallowed],
  [
    'should parse lines delimitated by mixed line endings',
    'http://www.example.com/robots.txt',
    ['User-agent: *\r', 'Disallow: /fish/\r\n', 'Disallow: /test.html\n\n'].join(''),
    fishAllowed,
    fishDisallowed,
  ],
  [
    'should ignore rules that are not in a group',
    'http://www.example.com/robots.txt',
    ['Disallow: /secret.html', 'Disallow: /test'].join('\n'),
    ['http://www.example.com/secret.html', 'http://www.example.com/test/index.html', 'http://www.example.com/test/'],
    [],
  ],
  [
    'should ignore comments',
    'http://www.example.com/robots.txt',
    ['#', '# This is a comment', '#', 'User-agent: *', '# This is a comment', 'Disallow: /fish/ # ignore', '# Disallow: fish', 'Disallow: /test.html'].join('\n'),
    fishAllowed,
    fishDisallowed,
  ],
  [
    'should ignore invalid lines',
    'http://www.example.com/robots.txt',
    ['invalid line', 'User-agent: *', 'Disallow: /fish/', ':::::another invalid line:::::', 'Disallow: /test.html', 'Unknown: tule'].join('\n'),
    fishAllowed,
    fishDisallowed,
  ],
  [
    'should ignore empty user-agent lines',
    'http://www.example.com/robots.txt',
    ['User-agent:', 'Disallow: /fish/', 'Disallow: /test.html'].join('\n'),
    [
      'http://www.example.com/fish',
      'http://www.example.com/Test.html',
      'http://www.example.com/fish/index.php',
      'http://www.example.com/fish/',
      'http://www.example.com/test.html',
    ],
    [],
  ],
  ...(['http://www.münich.com/robots.txt', 'http://www.xn--mnich-kva.com/robots.txt', 'http://www.m%C3%BCnich.com/robots.txt'].map(
    (robotsUrl): Suite => [
      `should handle Unicode, urlencoded and punycode URLs (${robotsUrl})`,
      robotsUrl,
      ['User-agent: *', 'Disallow: /secret.html', 'Disallow: /test'].join('\n'),
      ['http://www.münich.com/index.html', 'http://www.xn--mnich-kva.com/index.html', 'http://www.m%C3%BCnich.com/index.html'],
      ['http://www.münich.com/secret.html', 'http://www.xn--mnich-kva.com/secret.html', 'http://www.m%C3%BCnich.com/secret.html'],
    ],
  )),
  [
    'should handle Unicode and urlencoded paths',
    'http://www.example.com/robots.txt',
    [
      'User-agent: *',
      'Disallow: /%CF%80',
      'Disallow: /%e2%9d%83',
      'Disallow: /%a%a',
      'Disallow: /💩',
      'Disallow: /✼*t$',
      'Disallow: /%E2%9C%A4*t$',
      'Disallow: /✿%a',
      'Disallow: /http%3A%2F%2Fexample.org',
    ].join('\n'),
    [
      'http://www.example.com/✼testing',
      'http://www.example.com/%E2%9C%BCtesting',
      'http://www.example.com/✤testing',
      'http://www.example.com/%E2%9C%A4testing',
      'http://www.example.com/http://example.org',
      'http://www.example.com/http:%2F%2Fexample.org',
    ],
    [
      'http://www.example.com/%CF%80',
      'http://www.example.com/%CF%80/index.html',
      'http://www.example.com/π',
      'http://www.example.com/π/index.html',
      'http://www.example.com/%e2%9d%83',
      'http://www.example.com/%E2%9D%83/index.html',
      'http://www.example.com/❃',
      'http://www.example.com/❃/index.html',
      'http://www.example.com/%F0%9F%92%A9',
      'http://www.example.com/%F0%9F%92%A9/index.html',
      'http://www.example.com/💩',
      'http://www.example.com/💩/index.html',
      'http://www.example.com/%a%a',
      'http://www.example.com/%a%a/index.html',
      'http://www.example.com/✼test',
      'http://www.example.com/%E2%9C%BCtest',
      'http://www.example.com/✤test',
      'http://www.example.com/%E2%9C%A4testt',
      'http://www.example.com/✿%a',
      'http://www.example.com/%E2%9C%BF%atest',
      'http://www.example.com/http%3A%2F%2Fexample.org',
    ],
  ],
  [
    'should handle lone high / low surrogates',
    'http://www.example.com/robots.txt',
    ['User-agent: *', 'Disallow: /\uD800', 'Disallow: /\uDC00'].join('\n'),
    ['http://www.example.com/\uDC00', 'http://www.example.com/\uD800'],
    [],
  ],
  [
    'should ignore host case',
    'http://www.eXample.com/robots.txt',
    ['User-agent: *', 'Disallow: /secret.html', 'Disallow: /test'].join('\n'),
    ['http://www.example.com/index.html', 'http://www.ExAmPlE.com/index.html', 'http://www.EXAMPLE.com/index.html'],
    ['http://www.example.com/secret.html', 'http://www.ExAmPlE.com/secret.html', 'http://www.EXAMPLE.com/secret.html'],
  ],
  [
    'should handle large wildcards efficiently',
    'http://www.eXample.com/robots.txt',
    ['User-agent: *', `Disallow: /${'*'.repeat(2048)}.html`].join('\n'),
    [`http://www.example.com/${'sub'.repeat(2048)}folder/index.php`],
    ['http://www.example.com/secret.html'],
  ],
  [
    'should honor given port number',
    'http://www.example.com:8080/robots.txt',
    fishTest.join('\n'),
    ['http://www.example.com:8080/fish', 'http://www.example.com:8080/Test.html'],
    ['http://www.example.com/fish', 'http://www.example.com/Test.html', 'http://www.example.com:80/fish', 'http://www.example.com:80/Test.html'],
  ],
  [
    'should default to port 80 for http: if no port given',
    'http://www.example.com/robots.txt',
    fishTest.join('\n'),
    ['http://www.example.com:80/fish', 'http://www.example.com:80/Test.html'],
    [
      'http://www.example.com:443/fish',
      'http://www.example.com:443/Test.html',
      'http://www.example.com:80/fish/index.php',
      'http://www.example.com:80/fish/',
      'http://www.example.com:80/test.html',
    ],
  ],
  [
    'should default to port 443 for https: if no port given',
    'https://www.example.com/robots.txt',
    fishTest.join('\n'),
    ['https://www.example.com:443/fish', 'https://www.example.com:443/Test.html', 'https://www.example.com/fish', 'https://www.example.com/Test.html'],
    [
      'http://www.example.com:80/fish',
      'http://www.example.com:80/Test.html',
      'http://www.example.com:443/fish/index.php',
      'http://www.example.com:443/fish/',
      'http://www.example.com:443/test.html',
    ],
  ],
];

describe("robots-parser's suite (samclarke/robots-parser test/Robots.js)", () => {
  it.each(SUITES)('%s', async (_name, robotsUrl, contents, allowed, disallowed) => {
    await testRobots(robotsUrl, contents, allowed, disallowed);
  });

  it('should handle large wildcards efficiently: under 500 ms', async () => {
    const started = Date.now();
    const contents = ['User-agent: *', `Disallow: /${'*'.repeat(2048)}.html`].join('\n');
    await testRobots('http://www.eXample.com/robots.txt', contents, [`http://www.example.com/${'sub'.repeat(2048)}folder/index.php`], ['http://www.example.com/secret.html']);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('should support groups with multiple user agents (case insensitive)', () => {
    expect(pathAllowed(['User-agent: agenta', 'User-agent: agentb', 'Disallow: /fish'].join('\n'), 'http://www.example.com/fish', 'agenta')).toBe(false);
  });

  it('should return undefined for invalid urls: none of them is checked against this file', async () => {
    const contents = ['User-agent: *', 'Disallow: /secret.html', 'Disallow: /test'].join('\n');
    const invalidUrls = [
      'http://example.com/secret.html',
      'http://ex ample.com/secret.html',
      'http://www.example.net/test/index.html',
      'http://www.examsple.com/test/',
      'example.com/test/',
      ':::::;;`\\|/.example.com/test/',
    ];
    for (const url of invalidUrls) {
      const v = await verdict('http://www.example.com/robots.txt', contents, url);
      expect({ url, asked: v?.origin }).not.toEqual({ url, asked: 'http://www.example.com' });
    }
  });

  it('should allow all if empty robots.txt', async () => {
    await testRobots('http://www.example.com/robots.txt', '', ['http://www.example.com/secret.html', 'http://www.example.com/test/index.html', 'http://www.example.com/test/'], []);
  });

  it('should parse the crawl-delay directive', () => {
    const contents = ['user-agent: a', 'crawl-delay: 1', 'user-agent: b', 'disallow: /d', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10'].join('\n');
    expect(crawlDelaySecs(contents, 'a')).toBe(1);
    expect(crawlDelaySecs(contents, 'b')).toBeUndefined();
    expect(crawlDelaySecs(contents, 'c')).toBe(10);
    expect(crawlDelaySecs(contents, 'd')).toBe(10);
    expect(crawlDelaySecs(contents, '')).toBeUndefined();
  });

  it('should ignore invalid crawl-delay directives', () => {
    const contents = ['user-agent: a', 'crawl-delay: 1.2.1', 'user-agent: b', 'crawl-delay: 1.a0', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10a'].join('\n');
    for (const agent of ['a', 'b', 'c', 'd']) expect(crawlDelaySecs(contents, agent)).toBeUndefined();
  });

  it('should parse the sitemap directive', () => {
    const contents = [
      'user-agent: a',
      'crawl-delay: 1',
      'sitemap: http://example.com/test.xml',
      'user-agent: b',
      'disallow: /d',
      'sitemap: /sitemap.xml',
      'sitemap:     http://example.com/test/sitemap.xml     ',
    ].join('\n');
    expect(parseRobots(contents).sitemaps).toEqual(['http://example.com/test.xml', '/sitemap.xml', 'http://example.com/test/sitemap.xml']);
  });

  it('should parse empty and invalid directives', () => {
    const contents = [
      'user-agent:',
      'user-agent:::: a::',
      'crawl-delay:',
      'crawl-delay:::: 0:',
      'host:',
      'host:: example.com',
      'sitemap:',
      'sitemap:: site:map.xml',
      'disallow:',
      'disallow::: /:',
      'allow:',
      'allow::: /:',
    ].join('\n');
    expect(() => parseRobots(contents)).not.toThrow();
  });

  it('should fallback to * when a UA has no rules of its own', () => {
    const contents = ['user-agent: *', 'crawl-delay: 1', 'user-agent: b', 'crawl-delay: 12', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10'].join('\n');
    expect(crawlDelaySecs(contents, 'should-fall-back')).toBe(1);
    expect(crawlDelaySecs(contents, 'd')).toBe(10);
    expect(crawlDelaySecs(contents, 'dd')).toBe(1);
  });

  it('should not fallback to * when a UA has rules', () => {
    expect(crawlDelaySecs(['user-agent: *', 'crawl-delay: 1', 'user-agent: b', 'disallow:'].join('\n'), 'b')).toBeUndefined();
  });

  it('should handle UAs with object property names', () => {
    const contents = ['User-agent: *', 'Disallow: /fish'].join('\n');
    expect(pathAllowed(contents, 'http://www.example.com/fish', 'constructor')).toBe(false);
    expect(pathAllowed(contents, 'http://www.example.com/fish', '__proto__')).toBe(false);
  });

  it('should ignore version numbers in the UA string', () => {
    const contents = ['user-agent: *', 'crawl-delay: 1', 'user-agent: b', 'crawl-delay: 12', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10'].join('\n');
    expect(crawlDelaySecs(contents, 'should-fall-back/1.0.0')).toBe(1);
    expect(crawlDelaySecs(contents, 'd/12')).toBe(10);
    expect(crawlDelaySecs(contents, 'dd / 0-32-3')).toBe(1);
    expect(crawlDelaySecs(contents, 'b / 1.0')).toBe(12);
  });

  it('should return the line number of the matching directive: the decision of that line', () => {
    const lines = [
      '',
      'User-agent: *',
      '',
      'Disallow: /fish/',
      'Disallow: /test.html',
      'Allow: /fish/test.html',
      'Allow: /test.html',
      '',
      'User-agent: a',
      'allow: /',
      '',
      'User-agent: b',
      'disallow: /test',
      'disallow: /t*t',
      '',
      'User-agent: c',
      'Disallow: /fish*.php',
      'Allow: /fish/index.php',
    ];
    const rows: Array<[url: string, agent: string, line: number]> = [
      ['http://www.example.com/fish', '', -1],
      ['http://www.example.com/fish/test.html', '', 6],
      ['http://www.example.com/Test.html', '', -1],
      ['http://www.example.com/fish/index.php', '', 4],
      ['http://www.example.com/fish/', '', 4],
      ['http://www.example.com/test.html', '', 7],
      ['http://www.example.com/test.html', 'a', 10],
      ['http://www.example.com/fish.php', 'c', 17],
      ['http://www.example.com/fish/index.php', 'c', 18],
    ];
    // freshet does not keep line numbers; the matching line's kind is the decision (-1: none, allowed).
    for (const [url, agent, line] of rows) {
      const expected = line === -1 || /^allow/i.test(lines[line - 1]!);
      expect({ url, agent, allowed: pathAllowed(lines.join('\n'), url, agent) }).toEqual({ url, agent, allowed: expected });
    }
  });
});
