/**
 * Google's reference robots.txt test suite, ported as data.
 *
 * Provenance: github.com/google/robotstxt, commit 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9
 * (2026-04-01), files `robots_test.cc` (last changed in a67394c800908229d21e58b0ae802830608c9a5e)
 * and `reporting_robots_test.cc` (19feaac85734d519df5d6543ae92b1dead2f5974). Apache-2.0.
 * Every `EXPECT_TRUE/EXPECT_FALSE(IsUserAgentAllowed(robotstxt, agent, url))` is one row below,
 * under the name of its `TEST`; tests that only count parse callbacks (`RobotsStatsReporter`,
 * `RobotsParsingReporter`) are ported as the rules and sitemaps those callbacks carried.
 *
 * Two rows are documented differences, not failures: Google matches a URL written with raw
 * UTF-8 (`/foo/bar/ツ`) byte for byte, and says the caller must percent-encode it first. freshet
 * always matches the path WHATWG URL gives, which percent-encodes it as RFC 9309 §2.2.2 requires,
 * so `/foo/bar/ツ` is the same path as `/foo/bar/%E3%83%84` here.
 */
import { httpFetchConfigSchema } from '../../../src/fetchers/http-fetch-config';
import { decodeRobotsBody, escapePattern, groupFor, isPathAllowed, parseRobots, robotsPath } from '../../../src/fetchers/robots-parser';

/** Google's `IsUserAgentAllowed`: one agent, one URL; an empty URL is the root path. */
function isUserAgentAllowed(robotstxt: string | Uint8Array, agent: string, url: string): boolean {
  const text = typeof robotstxt === 'string' ? robotstxt : decodeRobotsBody(robotstxt);
  return isPathAllowed(groupFor(parseRobots(text), agent), url === '' ? '/' : robotsPath(new URL(url)));
}

/** Bytes of a C string literal written with `\xNN` escapes (the BOM tests are about bytes). */
function bytes(s: string): Uint8Array {
  return Uint8Array.from([...s].map((c) => c.charCodeAt(0)));
}

type Row = [robotstxt: string, agent: string, url: string, allowed: boolean];

const rep = (s: string, n: number): string => s.repeat(n);

// GoogleOnly_LineTooLong builds its lines in a loop; kMaxLineLen = 2083 * 8, kEOLLen = 1.
const kMaxLineLen = 2083 * 8;
const longDisallow = `/x/${rep('a', kMaxLineLen - 3 - 'disallow: '.length + 1 - 3)}`;
const longAllowA = `/x/${rep('a', kMaxLineLen - 3 - 'allow: '.length + 1 - 3)}`;
const longAllowB = `/x/${rep('b', kMaxLineLen - 3 - 'allow: '.length + 1 - 3)}`;
const lineTooLong1 = `user-agent: FooBot\ndisallow: ${longDisallow}/qux\n`;
const lineTooLong2 = `user-agent: FooBot\ndisallow: /\nallow: ${longAllowA}/qux\nallow: ${longAllowB}/qux\n`;

const groups =
  'allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\n' +
  'user-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n';
const upperLine = 'USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n';
const lowerLine = 'user-agent: FooBot\nallow: /x/\ndisallow: /\n';
const camelLine = 'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n';
const upperAgent = 'User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n';
const lowerAgent = 'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n';
const camelAgent = 'User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n';
const fish = (allow: string): string => `user-agent: FooBot\ndisallow: /\nallow: ${allow}\n`;

const CASES: Record<string, Row[]> = {
  GoogleOnly_SystemTest: [
    ['', 'FooBot', '', true],
    ['user-agent: FooBot\ndisallow: /\n', '', '', true],
    ['user-agent: FooBot\ndisallow: /\n', 'FooBot', '', false],
    ['', '', '', true],
  ],
  ID_LineSyntax_Line: [
    ['user-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/x/y', false],
    ['foo: FooBot\nbar: /\n', 'FooBot', 'http://foo.bar/x/y', true],
    ['user-agent FooBot\ndisallow /\n', 'FooBot', 'http://foo.bar/x/y', false],
  ],
  ID_LineSyntax_Groups: [
    [groups, 'FooBot', 'http://foo.bar/x/b', true],
    [groups, 'FooBot', 'http://foo.bar/z/d', true],
    [groups, 'FooBot', 'http://foo.bar/y/c', false],
    [groups, 'BarBot', 'http://foo.bar/y/c', true],
    [groups, 'BarBot', 'http://foo.bar/w/a', true],
    [groups, 'BarBot', 'http://foo.bar/z/d', false],
    [groups, 'BazBot', 'http://foo.bar/z/d', true],
    [groups, 'FooBot', 'http://foo.bar/foo/bar/', false],
    [groups, 'BarBot', 'http://foo.bar/foo/bar/', false],
    [groups, 'BazBot', 'http://foo.bar/foo/bar/', false],
  ],
  ID_LineSyntax_Groups_OtherRules: [
    ['User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n', 'FooBot', 'http://foo.bar/', false],
    ['User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n', 'BarBot', 'http://foo.bar/', false],
    ['User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n', 'FooBot', 'http://foo.bar/', false],
    ['User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n', 'BarBot', 'http://foo.bar/', false],
  ],
  ID_REPLineNamesCaseInsensitive: [
    [upperLine, 'FooBot', 'http://foo.bar/x/y', true],
    [lowerLine, 'FooBot', 'http://foo.bar/x/y', true],
    [camelLine, 'FooBot', 'http://foo.bar/x/y', true],
    [upperLine, 'FooBot', 'http://foo.bar/a/b', false],
    [lowerLine, 'FooBot', 'http://foo.bar/a/b', false],
    [camelLine, 'FooBot', 'http://foo.bar/a/b', false],
  ],
  ID_UserAgentValueCaseInsensitive: [
    [upperAgent, 'Foo', 'http://foo.bar/x/y', true],
    [lowerAgent, 'Foo', 'http://foo.bar/x/y', true],
    [camelAgent, 'Foo', 'http://foo.bar/x/y', true],
    [upperAgent, 'Foo', 'http://foo.bar/a/b', false],
    [lowerAgent, 'Foo', 'http://foo.bar/a/b', false],
    [camelAgent, 'Foo', 'http://foo.bar/a/b', false],
    [upperAgent, 'foo', 'http://foo.bar/x/y', true],
    [lowerAgent, 'foo', 'http://foo.bar/x/y', true],
    [camelAgent, 'foo', 'http://foo.bar/x/y', true],
    [upperAgent, 'foo', 'http://foo.bar/a/b', false],
    [lowerAgent, 'foo', 'http://foo.bar/a/b', false],
    [camelAgent, 'foo', 'http://foo.bar/a/b', false],
  ],
  GoogleOnly_AcceptUserAgentUpToFirstSpace: [
    ['User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n', 'Foo', 'http://foo.bar/x/y', true],
    // Google's matcher compares "Foo Bar" whole and finds no group; freshet configures only a
    // valid product token (see ID_VerifyValidUserAgentsToObey), so that call cannot happen.
  ],
  ID_GlobalGroups_Secondary: [
    ['', 'FooBot', 'http://foo.bar/x/y', true],
    ['user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/x/y', false],
    ['user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n', 'BarBot', 'http://foo.bar/x/y', true],
    ['user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n', 'QuxBot', 'http://foo.bar/x/y', true],
  ],
  ID_AllowDisallow_Value_CaseSensitive: [
    ['user-agent: FooBot\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/y', false],
    ['user-agent: FooBot\ndisallow: /X/\n', 'FooBot', 'http://foo.bar/x/y', true],
  ],
  ID_LongestMatch: [
    ['user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', 'FooBot', 'http://foo.bar/x/page.html', false],
    ['user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/', false],
    ['user-agent: FooBot\ndisallow: \nallow: \n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['user-agent: FooBot\ndisallow: /\nallow: /\n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['user-agent: FooBot\ndisallow: /x\nallow: /x/\n', 'FooBot', 'http://foo.bar/x', false],
    ['user-agent: FooBot\ndisallow: /x\nallow: /x/\n', 'FooBot', 'http://foo.bar/x/', true],
    ['user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page.html', false],
    ['user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page', true],
    ['user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/x/y.html', false],
    ['User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n', 'FooBot', 'http://foo.bar/x/page', true],
    ['User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n', 'FooBot', 'http://foo.bar/y/page', false],
  ],
  ID_Encoding: [
    ['User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n', 'FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par', true],
    ['User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n', 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true],
    // Google: false (the raw URL is not encoded). Documented difference, see the file comment.
    ['User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n', 'FooBot', 'http://foo.bar/foo/bar/ツ', true],
    ['User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n', 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true],
    // Google: false (the raw URL is not encoded). Documented difference, see the file comment.
    ['User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n', 'FooBot', 'http://foo.bar/foo/bar/ツ', true],
    ['User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', 'FooBot', 'http://foo.bar/foo/bar/baz', false],
    ['User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', 'FooBot', 'http://foo.bar/foo/bar/%62%61%7A', true],
  ],
  ID_SpecialCharacters: [
    ['User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', 'FooBot', 'http://foo.bar/foo/bar/quz', false],
    ['User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', 'FooBot', 'http://foo.bar/foo/quz', true],
    ['User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', 'FooBot', 'http://foo.bar/foo//quz', true],
    ['User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', 'FooBot', 'http://foo.bar/foo/bax/quz', true],
    ['User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', 'FooBot', 'http://foo.bar/foo/bar', false],
    ['User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', 'FooBot', 'http://foo.bar/foo/bar/qux', true],
    ['User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', 'FooBot', 'http://foo.bar/foo/bar/', true],
    ['User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', 'FooBot', 'http://foo.bar/foo/bar/baz', true],
    ['User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n', 'FooBot', 'http://foo.bar/foo/bar', true],
    ['User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n', 'FooBot', 'http://foo.bar/foo/quz', false],
  ],
  GoogleOnly_IndexHTMLisDirectory: [
    ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', 'http://foo.com/allowed-slash/', true],
    ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', 'http://foo.com/allowed-slash/index.htm', false],
    ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', 'http://foo.com/allowed-slash/index.html', true],
    ['User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', 'http://foo.com/anyother-url', false],
  ],
  GoogleOnly_LineTooLong: [
    [lineTooLong1, 'FooBot', 'http://foo.bar/fux', true],
    [lineTooLong1, 'FooBot', `http://foo.bar${longDisallow}/fux`, false],
    [lineTooLong2, 'FooBot', 'http://foo.bar/', false],
    [lineTooLong2, 'FooBot', `http://foo.bar${longAllowA}/qux`, true],
    [lineTooLong2, 'FooBot', `http://foo.bar${longAllowB}/fux`, true],
  ],
  GoogleOnly_DocumentationChecks: [
    [fish('/fish'), 'FooBot', 'http://foo.bar/bar', false],
    [fish('/fish'), 'FooBot', 'http://foo.bar/fish', true],
    [fish('/fish'), 'FooBot', 'http://foo.bar/fish.html', true],
    [fish('/fish'), 'FooBot', 'http://foo.bar/fish/salmon.html', true],
    [fish('/fish'), 'FooBot', 'http://foo.bar/fishheads', true],
    [fish('/fish'), 'FooBot', 'http://foo.bar/fishheads/yummy.html', true],
    [fish('/fish'), 'FooBot', 'http://foo.bar/fish.html?id=anything', true],
    [fish('/fish'), 'FooBot', 'http://foo.bar/Fish.asp', false],
    [fish('/fish'), 'FooBot', 'http://foo.bar/catfish', false],
    [fish('/fish'), 'FooBot', 'http://foo.bar/?id=fish', false],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/bar', false],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/fish', true],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/fish.html', true],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/fish/salmon.html', true],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/fishheads', true],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/fishheads/yummy.html', true],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/fish.html?id=anything', true],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/Fish.bar', false],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/catfish', false],
    [fish('/fish*'), 'FooBot', 'http://foo.bar/?id=fish', false],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/bar', false],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/fish/', true],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/fish/salmon', true],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/fish/?salmon', true],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/fish/salmon.html', true],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/fish/?id=anything', true],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/fish', false],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/fish.html', false],
    [fish('/fish/'), 'FooBot', 'http://foo.bar/Fish/Salmon.html', false],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/bar', false],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/filename.php', true],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/folder/filename.php', true],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/folder/filename.php?parameters', true],
    [fish('/*.php'), 'FooBot', 'http://foo.bar//folder/any.php.file.html', true],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/filename.php/', true],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/index?f=filename.php/', true],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/php/', false],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/index?php', false],
    [fish('/*.php'), 'FooBot', 'http://foo.bar/windows.PHP', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/bar', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/filename.php', true],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/folder/filename.php', true],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/filename.php?parameters', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/filename.php/', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/filename.php5', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/php/', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/filename?php', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar/aaaphpaaa', false],
    [fish('/*.php$'), 'FooBot', 'http://foo.bar//windows.PHP', false],
    [fish('/fish*.php'), 'FooBot', 'http://foo.bar/bar', false],
    [fish('/fish*.php'), 'FooBot', 'http://foo.bar/fish.php', true],
    [fish('/fish*.php'), 'FooBot', 'http://foo.bar/fishheads/catfish.php?parameters', true],
    [fish('/fish*.php'), 'FooBot', 'http://foo.bar/Fish.PHP', false],
    ['user-agent: FooBot\nallow: /p\ndisallow: /\n', 'FooBot', 'http://example.com/page', true],
    ['user-agent: FooBot\nallow: /folder\ndisallow: /folder\n', 'FooBot', 'http://example.com/folder/page', true],
    ['user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n', 'FooBot', 'http://example.com/page.htm', false],
    ['user-agent: FooBot\nallow: /$\ndisallow: /\n', 'FooBot', 'http://example.com/', true],
    ['user-agent: FooBot\nallow: /$\ndisallow: /\n', 'FooBot', 'http://example.com/page.html', false],
  ],
};

describe("Google's robots.txt reference suite (google/robotstxt robots_test.cc)", () => {
  for (const [name, rows] of Object.entries(CASES)) {
    describe(name, () => {
      it.each(rows.map((r, i) => [i + 1, r[1], r[2].length > 80 ? `${r[2].slice(0, 60)}…` : r[2], r] as const))(
        '#%i %s %s',
        (_i, _agent, _shown, [robotstxt, agent, url, allowed]) => {
          expect(isUserAgentAllowed(robotstxt, agent, url)).toBe(allowed);
        },
      );
    });
  }

  it('ID_VerifyValidUserAgentsToObey: only [a-zA-Z_-]+ is accepted as our product token', () => {
    const valid = (token: string | undefined): boolean => httpFetchConfigSchema.safeParse({ robots_user_agent: token }).success;
    for (const ok of ['Foobot', 'Foobot-Bar', 'Foo_Bar']) expect(valid(ok)).toBe(true);
    for (const bad of ['', 'ツ', 'Foobot*', ' Foobot ', 'Foobot/2.1', 'Foobot Bar']) expect(valid(bad)).toBe(false);
  });

  const unixFile = 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n';
  it.each([
    ['kUnixFile', unixFile],
    ['kDosFile', 'User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n'],
    ['kMacFile', 'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r'],
    ['kNoFinalNewline', 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /'],
    ['kMixedFile', 'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /'],
  ])('ID_LinesNumbersAreCountedCorrectly %s: all four directives are read', (_name, file) => {
    const parsed = parseRobots(file);
    expect(parsed.groups.get('foo')!.rules.map((r) => [r.allow, r.pattern])).toEqual([[true, '/some/path']]);
    expect(parsed.groups.get('bar')!.rules.map((r) => [r.allow, r.pattern])).toEqual([[false, '/']]);
  });

  it.each([
    ['kUtf8FileFullBOM', '\xEF\xBB\xBF', true],
    ['kUtf8FilePartial2BOM', '\xEF\xBB', true],
    ['kUtf8FilePartial1BOM', '\xEF', true],
    // The wrong sequence leaves garbage ("\x11\xBFUser-Agent") before the key: the line is lost.
    ['kUtf8FileBrokenBOM', '\xEF\x11\xBF', false],
  ])('ID_UTF8ByteOrderMarkIsSkipped %s', (_name, prefix, keepsUserAgent) => {
    const parsed = parseRobots(decodeRobotsBody(bytes(`${prefix}User-Agent: foo\nAllow: /AnyValue\n`)));
    expect(parsed.groups.has('foo')).toBe(keepsUserAgent);
    if (keepsUserAgent) expect(parsed.groups.get('foo')!.rules.map((r) => r.pattern)).toEqual(['/AnyValue']);
  });

  it('ID_UTF8ByteOrderMarkIsSkipped kUtf8BOMSomewhereInMiddleOfFile: only a leading BOM is skipped', () => {
    const parsed = parseRobots(decodeRobotsBody(bytes('User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n')));
    expect(parsed.groups.get('foo')!.rules).toEqual([]);
  });

  it('ID_NonStandardLineExample_Sitemap: a sitemap line is read anywhere in the file', () => {
    const groupsText = 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n';
    expect(parseRobots(`${groupsText}Sitemap: http://foo.bar/sitemap.xml\n`).sitemaps).toEqual(['http://foo.bar/sitemap.xml']);
    expect(parseRobots(`Sitemap: http://foo.bar/sitemap.xml\n${groupsText}`).sitemaps).toEqual(['http://foo.bar/sitemap.xml']);
  });

  it.each([
    ['http://www.example.com', '/'],
    ['http://www.example.com/', '/'],
    ['http://www.example.com/a', '/a'],
    ['http://www.example.com/a/', '/a/'],
    ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
    ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
    // Google's scheme-less forms ("example.com/a", "a/b", "//a/b/c") name no URL freshet fetches;
    // the absolute ones among them:
    ['http://example.com?a', '/?a'],
    ['http://example.com/a;b#c', '/a;b'],
  ])('TestGetPathParamsQuery %s → %s', (url, path) => {
    expect(robotsPath(new URL(url))).toBe(path);
  });

  it.each([
    ['http://www.example.com', 'http://www.example.com'],
    ['/a/b/c', '/a/b/c'],
    ['á', '%C3%A1'],
    ['%aa', '%AA'],
  ])('TestMaybeEscapePattern %s → %s', (pattern, escaped) => {
    expect(escapePattern(pattern)).toBe(escaped);
  });
});

describe("Google's parse reporting suite (google/robotstxt reporting_robots_test.cc)", () => {
  it('LinesNumbersAreCountedCorrectly: missing colons and accepted typos are read, the rest ignored', () => {
    const file =
      'User-Agent: foo\nAllow: /some/path\nUser-Agent bar # no\nabsolutely random line\n#so comment, much wow\n\n' +
      'unicorns: /extinct\nnoarchive: /some\nDisallow: /\nError #and comment\nuseragent: baz\ndisallaw: /some\n' +
      'site-map: https://e/s.xml #comment\nsitemap: https://e/t.xml\nNoarchive: /someCapital\n';
    const parsed = parseRobots(file);
    // 8 valid directives: user-agent foo, allow, user-agent bar (no colon), disallow, useragent baz
    // (typo), disallaw (typo), site-map (typo), sitemap.
    const rules = (agent: string): Array<[boolean, string]> => parsed.groups.get(agent)!.rules.map((r) => [r.allow, r.pattern]);
    expect(rules('foo')).toEqual([[true, '/some/path']]);
    expect(rules('bar')).toEqual([[false, '/']]);
    expect(rules('baz')).toEqual([[false, '/some']]);
    expect([...parsed.groups.keys()].sort()).toEqual(['bar', 'baz', 'foo']);
    expect(parsed.sitemaps).toEqual(['https://e/s.xml', 'https://e/t.xml']);
  });

  it('LinesTooLongReportedCorrectly: a line past the limit is still read, cut to its start', () => {
    const longline = `/x/${rep('a', 2084 * 8 - 3)}`;
    const parsed = parseRobots(`user-agent: foo\ndisallow: ${longline}\nallow: /\n`);
    const rules = parsed.groups.get('foo')!.rules;
    expect(rules.map((r) => r.allow)).toEqual([false, true]);
    expect(rules[0]!.pattern).toBe(longline.slice(0, 2083 * 8 - 1 - 'disallow: '.length));
  });
});
