import type { SubjectState } from '../../../src/core/envelope';
import { packValidators } from '../../../src/fetchers/conditional-get';
import { packSubject, unpackSubject } from '../../../src/sources/frontier/packed-state';
import { decodeSubjectName, encodeSubjectName, storedNameBytes } from '../../../src/sources/frontier/subject-name';
import { asStored } from '../../helpers/stored-state';

const stored = (name: string): Buffer => {
  const e = encodeSubjectName(name);
  return typeof e === 'string' ? Buffer.from(e, 'utf8') : e;
};
const roundTrip = (name: string): string => decodeSubjectName(stored(name));

/** The scale benchmark's web page (70 bytes as a name: past listpack's 64). */
const PAGE = 'web:page:https://www.harbourdaily.example.com/news/2026/11/100000.html';

describe('stored subject names', () => {
  it('round-trips web names of every kind and scheme, long URLs, digits, unicode and control bytes', () => {
    const names = [
      PAGE,
      'web:page:http://example.org/a',
      'web:page:https://www.',
      'web:feed:https://news.example.net/rss.xml',
      'web:sitemap:http://www.example.co.uk/sitemap-2026-11.xml.gz',
      'web:robots:https://example.com',
      `web:page:https://blog.example.com/${'very-long-path-segment/'.repeat(12)}index.php?id=12345678901234567890&x=0001&y=10000`,
      'web:page:https://例え.jp/ニュース/記事?q=für',
      'web:page:https://example.com/a\u0001b\u0011c\u001fd',
      'web:page:https://example.com/0000/1000/999999999999999/1234567890123456789',
      'web:page:https://example.com/.com/.html.htm.php/news//index/article/blog//tag//category/?id=',
      'weibo:user:1669879400',
      '',
      '\u0003starts-with-a-control-byte',
      'web:page:ftp://example.com/x',
    ];
    for (const n of names) expect(roundTrip(n)).toBe(n);
  });

  it('stores a web page name in far fewer bytes, within listpack values (64) for common URLs', () => {
    expect(Buffer.byteLength(PAGE)).toBe(70);
    expect(storedNameBytes(PAGE)).toBeLessThanOrEqual(44);
    expect(storedNameBytes('web:page:https://www.bbc.co.uk/news/articles/c9d8e7f6a5b4o')).toBeLessThanOrEqual(40);
  });

  it('leaves other names as they are (weibo subjects cost what they did), and old plain names read as themselves', () => {
    expect(encodeSubjectName('weibo:user:1669879400')).toBe('weibo:user:1669879400');
    expect(decodeSubjectName(Buffer.from(PAGE))).toBe(PAGE);
  });

  it('refuses a stored name with an unknown prefix code or cut short, rather than guessing', () => {
    expect(() => decodeSubjectName(Buffer.of(0x11, 0x41))).toThrow(/unknown prefix code 17/);
    expect(() => decodeSubjectName(Buffer.of(0x01, 0x11))).toThrow(/truncated/);
    expect(() => decodeSubjectName(Buffer.of(0x01, 0x00))).toThrow(/truncated/);
  });
});

describe('a web page state in the frontier (issue 20)', () => {
  const page: SubjectState = {
    firstSeenMs: 1_795_245_528_873, postsSeen: 0, visits: 4, failures: 0, status: 'active', depth: 2,
    via: 'web:page:https://www.harbourdaily.example.com/news/2026/11/index.html',
    meta: { v: packValidators({ etag: '"5f3a9c2e-bd41"', lastModifiedSecs: 1_795_240_000 }), b: (48_213).toString(36) },
    lastPostMs: 1_795_240_000_000, lastVisitMs: 1_795_245_528_969,
  };

  it('packs its validators into a listpack value (≤ 64 bytes with its due time), without the parent page (via is not stored)', () => {
    const v = packSubject(page, 1_795_249_000_000, PAGE);
    expect(unpackSubject(v, PAGE)).toEqual(asStored(page));
    expect(v.length).toBeLessThanOrEqual(36);
    expect(unpackSubject(packSubject(page, 5))).toEqual(asStored(page));
  });

  it('keeps weak ETags with Last-Modified, missing validators and unicode exact', () => {
    const states: SubjectState[] = [
      { ...page, meta: { v: packValidators({ etag: 'W/"t-1"', lastModifiedSecs: 1_795_240_000 }), b: '0' } },
      { ...page, meta: { v: packValidators({ etag: 'W/"5f3a9c2e-bd41"', lastModifiedSecs: 1_795_240_000 }), b: '0' } },
      { ...page, meta: { v: packValidators({ lastModifiedSecs: 1_795_240_000 }) } },
      { ...page, meta: { v: packValidators({ etag: '"ニュース"' }) } },
      { ...page, meta: {} },
      { ...page, meta: undefined },
    ];
    for (const s of states) {
      expect(unpackSubject(packSubject(s, 5))).toEqual(asStored(s));
      expect(unpackSubject(packSubject(s, 5, PAGE), PAGE)).toEqual(asStored(s));
    }
  });

  it('still reads a state packed before the coded via and the v/b key codes (flags B bit 4 unset)', () => {
    // Packed by the version before (4fa2ea2): via and the meta keys v, b as plain strings.
    const old = Buffer.from('00000000001388cc03a9aee3e79f34000400c001d1f4a20502787765623a706167653a68747470733a2f2f6578616d706c652e636f6d2f61020276286a33783973377c2278220262086f31', 'hex');
    const { via: _via, meta: _meta, ...rest } = page;
    expect(unpackSubject(old)).toEqual({ ...rest, via: 'web:page:https://example.com/a', meta: { v: 'j3x9s7|"x"', b: 'o1' } });
    expect(unpackSubject(old, PAGE)).toEqual(unpackSubject(old));
  });
});
