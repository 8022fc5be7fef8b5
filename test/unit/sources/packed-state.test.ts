import type { SubjectState } from '../../../src/core/envelope';
import { DUE_BYTES, packSubject, packedDue, unpackSubject } from '../../../src/sources/frontier/packed-state';

/** A weibo user after a few visits, as the runner stores it (the scale benchmark's state). */
const visited: SubjectState = {
  firstSeenMs: 1_795_245_528_873, postsSeen: 37, visits: 4, failures: 0, status: 'active', via: 'seed',
  meta: { containerid: '1076031990539025' }, followers: 1234, watermark: '5012345678901234567',
  lastPostMs: 1_795_240_000_000, lastVisitMs: 1_795_245_528_969,
};

describe('packed subject state', () => {
  it('round-trips a visited subject in ≤ 52 bytes with its due time (listpack values hold 64; its JSON is 247)', () => {
    const v = packSubject(visited, 1_795_249_000_000);
    expect(unpackSubject(v)).toEqual(visited);
    expect(packedDue(v)).toBe(1_795_249_000_000);
    expect(v.length).toBeLessThanOrEqual(52);
    expect(Buffer.byteLength(JSON.stringify(visited))).toBe(247);
  });

  it('keeps scheduler fields (millionths), new subjects and every status exact', () => {
    const states: SubjectState[] = [
      { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' },
      { ...visited, status: 'zombie', depth: 3, via: 'weibo:user:1669879400' },
      { ...visited, status: 'gone', schedule: { ep: 12.5, eh: 250.000001, dn: 2, dc: -0.123456, ds: 0 } },
      { ...visited, status: 'dead', failures: 5, lastPostMs: 1_000, watermark: '18446744073709551616' },
      { ...visited, meta: { containerid: '0123', empty: '', text: 'héllo' }, watermark: 'abc' },
    ];
    for (const s of states) expect(unpackSubject(packSubject(s, 5))).toEqual(s);
  });

  it('falls back to JSON for values the compact fields cannot hold, losing nothing', () => {
    const odd = [
      { ...visited, postsSeen: 1.5 },
      { ...visited, firstSeenMs: -5 },
      { ...visited, status: 'paused' as SubjectState['status'] },
      { ...visited, schedule: { x: Math.PI, nested: { a: [1, 2] }, flag: true, none: null } },
      { ...visited, extra: 'kept' } as SubjectState,
    ];
    for (const s of odd) expect(unpackSubject(packSubject(s, 5))).toEqual(s);
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
    expect(unpackSubject(moved)).toEqual(visited);
  });

  it('refuses a truncated value instead of inventing fields', () => {
    const v = packSubject(visited, 1);
    expect(() => unpackSubject(v.subarray(0, v.length - 3))).toThrow(RangeError);
  });
});
