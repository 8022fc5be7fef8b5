import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SubjectState } from '../../../src/core/envelope';
import { packValidators, unpackValidators } from '../../../src/fetchers/conditional-get';
import { DUE_BYTES, packSubject, packedDue, unpackSubject } from '../../../src/sources/frontier/packed-state';
import { scheduledStates } from '../../bench/scale/scheduled-states';
import { asStored } from '../../helpers/stored-state';

/** A weibo user after a few visits, as the runner stores it (the scale benchmark's state). */
const visited: SubjectState = {
  firstSeenMs: 1_795_245_528_873, postsSeen: 37, visits: 4, failures: 0, status: 'active',
  meta: { containerid: '1076031990539025' }, followers: 1234, watermark: '5012345678901234567',
  lastPostMs: 1_795_240_000_000, lastVisitMs: 1_795_245_528_969,
};
const USER = 'weibo:user:1990539025';

describe('packed subject state', () => {
  it('round-trips a visited subject to the second in ≤ 34 bytes with its due time and its name (listpack values hold 64; its JSON is 234)', () => {
    const v = packSubject(visited, 1_795_249_000_000, USER);
    expect(unpackSubject(v, USER)).toEqual(asStored(visited));
    expect(packedDue(v)).toBe(1_795_249_000_000);
    expect(v.length).toBeLessThanOrEqual(34);
    expect(Buffer.byteLength(JSON.stringify(visited))).toBe(234);
  });

  it('keeps times to the second (lastPostMs exact), counts, statuses and scheduler fields (millionths)', () => {
    const states: SubjectState[] = [
      { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' },
      { firstSeenMs: 1_000, postsSeen: 0, visits: 0, failures: 0, status: 'active', lastVisitMs: 999, lastPostMs: -5 },
      { ...visited, status: 'zombie', depth: 3 },
      { ...visited, status: 'gone', schedule: { ep: 12.5, eh: 250.000001, dn: 2, dc: -0.123456, ds: 0 } },
      { ...visited, status: 'dead', failures: 5, lastPostMs: 1_000, watermark: '18446744073709551616' },
      { ...visited, lastPostMs: 1_795_240_000_123, lastVisitMs: 1_795_000_000_999 },
      { ...visited, meta: { containerid: '0123', empty: '', text: 'héllo' }, watermark: 'abc' },
      { ...visited, firstSeenMs: 4_102_444_800_000, lastVisitMs: 4_102_444_800_500 },
      { ...visited, extra: 'kept' } as SubjectState,
    ];
    for (const s of states) {
      expect(unpackSubject(packSubject(s, 5))).toEqual(asStored(s));
      expect(unpackSubject(packSubject(s, 5, USER), USER)).toEqual(asStored(s));
    }
  });

  it('drops via (nothing reads it): the page or command that offered the subject', () => {
    for (const via of ['seed', 'weibo:user:1', 'web:page:https://www.harbourdaily.example.com/news/2026/11/index.html']) {
      const s = { ...visited, via };
      expect(unpackSubject(packSubject(s, 5, USER), USER)).not.toHaveProperty('via');
      expect(packSubject(s, 5, USER).length).toBe(packSubject(visited, 5, USER).length);
    }
  });

  it("stores a weibo user's timeline container as one flag when it is 107603 + the uid of its name, and any other verbatim", () => {
    const own = { ...visited, meta: { containerid: '1076031990539025', gone_checks: '1' } };
    const v = packSubject(own, 5, USER);
    expect(unpackSubject(v, USER)).toEqual(asStored(own));
    expect(v.length).toBeLessThanOrEqual(packSubject(own, 5).length - 9);
    expect(() => unpackSubject(v)).toThrow(/not given/);
    // Another user's container, a container without meta beside it, and a name without digits.
    for (const [s, name] of [[{ ...own, meta: { containerid: '1076031990539026' } }, USER], [{ ...visited, meta: { containerid: '1076031990539025' } }, USER], [own, 'web:feed:https://a.example/rss']] as const) {
      expect(unpackSubject(packSubject(s, 5, name), name)).toEqual(asStored(s));
    }
  });

  it('packs hex ETags (nginx, Apache) at half their length and sends every tag back verbatim', () => {
    const tags = ['"5f3a9c2e-bd41"', '"2c-5f3a9c2e"', 'W/"0a1-00f"', '"abc"', '"5F3A"', '"5f3a-gzip"', '"5f3a9c2e-bd41-"', '""', 'W/"t-1"', '"a"'];
    for (const etag of tags) {
      for (const lastModifiedSecs of [undefined, 1_795_240_000]) {
        const s = { ...visited, meta: { v: packValidators({ etag, ...(lastModifiedSecs ? { lastModifiedSecs } : {}) }), b: '1179' } };
        const back = unpackSubject(packSubject(s, 5));
        expect(back).toEqual(asStored(s));
        expect(unpackValidators(back.meta!['v'])?.etag).toBe(etag);
      }
    }
    const nginx = { ...visited, meta: { v: packValidators({ etag: '"5f3a9c2e-bd41"' }) } };
    const text = { ...visited, meta: { v: packValidators({ etag: '"5f3a9c2e-bd4x"' }) } };
    expect(packSubject(nginx, 5).length).toBeLessThanOrEqual(packSubject(text, 5).length - 7);
    // Last-Modified not in canonical base 36 stays text, exactly.
    const odd = { ...visited, meta: { v: '0abc|"12"' } };
    expect(unpackSubject(packSubject(odd, 5))).toEqual(asStored(odd));
  });

  it('falls back to JSON for values the compact fields cannot hold, losing nothing', () => {
    const odd = [
      { ...visited, postsSeen: 1.5 },
      { ...visited, firstSeenMs: -5 },
      { ...visited, status: 'paused' as SubjectState['status'] },
      { ...visited, via: 'seed', lastVisitMs: 0.5 },
    ];
    for (const s of odd) expect(unpackSubject(packSubject(s, 5))).toEqual(s);
    const generic = { ...visited, schedule: { x: Math.PI, nested: { a: [1, 2] }, flag: true, none: null } };
    expect(unpackSubject(packSubject(generic, 5))).toEqual(asStored(generic));
  });

  it('stores the due time in a fixed 7-byte prefix of microseconds; negative means not scheduled', () => {
    const never = packSubject(visited, -1);
    expect([...never.subarray(0, DUE_BYTES)]).toEqual([255, 255, 255, 255, 255, 255, 255]);
    expect(packedDue(never)).toBeUndefined();
    expect(packedDue(packSubject(visited, 0))).toBe(0);
    // Discovery levels a thousandth of a millisecond apart keep their order (breadth-first claims).
    const level = (d: number) => packSubject(visited, 1_795_245_528_873 - 1 + d / 1000);
    expect(packedDue(level(2))).toBe(1_795_245_528_872.002);
    expect(Buffer.compare(level(1).subarray(0, DUE_BYTES), level(2).subarray(0, DUE_BYTES))).toBe(-1);
    // Rewriting the prefix (as the Lua scripts do) leaves the state untouched.
    const moved = Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 1, 0]), never.subarray(DUE_BYTES)]);
    expect(packedDue(moved)).toBe(0.256);
    expect(unpackSubject(moved)).toEqual(asStored(visited));
  });

  it('keeps the status in the low bits of the first state byte (the Lua scripts read it there)', () => {
    (['active', 'zombie', 'gone', 'dead'] as const).forEach((status, i) => {
      expect(packSubject({ ...visited, status }, 5, USER)[DUE_BYTES]! % 4).toBe(i);
    });
  });

  it('refuses a truncated value instead of inventing fields', () => {
    const v = packSubject(visited, 1);
    expect(() => unpackSubject(v.subarray(0, v.length - 3))).toThrow(RangeError);
  });
});

describe('states stored in the first packed layout (migration)', () => {
  interface Case { name: string; subject: string; dueMs: number; hex: string; state: SubjectState }
  const cases = JSON.parse(readFileSync(join(__dirname, '../../fixtures/frontier-packed-v1.json'), 'utf8')) as Case[];

  it.each(cases.map((c) => [c.name, c]))('%s: reads as it was written, and its next write keeps it (via aside, times to the second)', (_n, c) => {
    const old = Buffer.from(c.hex, 'hex');
    expect(unpackSubject(old, c.subject)).toEqual(c.state);
    expect(packedDue(old)).toBe(c.dueMs < 0 ? undefined : c.dueMs);
    const again = packSubject(c.state, c.dueMs, c.subject);
    const compact = typeof c.state.postsSeen === 'number' && Number.isInteger(c.state.postsSeen);
    expect(unpackSubject(again, c.subject)).toEqual(compact ? asStored(c.state) : c.state);
    expect(again.length).toBeLessThanOrEqual(old.length);
  });
});

describe('poisson-scheduled states within listpack values', () => {
  it("packs weibo users and web pages after four poisson visits into ≤ 64 bytes with their due time (Redis's default hash-max-listpack-value)", () => {
    const weibo = scheduledStates({ pipeline: 'social.yaml', base: visited, subjects: 300, visits: 4, medianRatePerHour: 0.1, sigma: 1.5, historyHours: 720, firstVisitMaxPosts: 2000, visitMaxPosts: 100, seed: 3 });
    const page: SubjectState = {
      firstSeenMs: 1_795_245_528_873, postsSeen: 0, visits: 4, failures: 0, status: 'active', depth: 2,
      meta: { v: packValidators({ etag: '"5f3a9c2e-bd41"', lastModifiedSecs: 1_795_240_000 }), b: (48_213).toString(36) },
    };
    const web = scheduledStates({ pipeline: 'news-monitor.yaml', base: page, subjects: 300, visits: 4, medianRatePerHour: 0.02, sigma: 1.5, historyHours: 48, firstVisitMaxPosts: 1, visitMaxPosts: 1, latestOnly: true, seed: 3 });
    const sizes = [
      ...weibo.map((s) => packSubject(s, 1_795_249_000_000, USER).length),
      ...web.map((s) => packSubject(s, 1_795_249_000_000, 'web:page:https://www.harbourdaily.example.com/news/2026/11/100000.html').length),
    ];
    expect(sizes).toHaveLength(600);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64);
  });
});
