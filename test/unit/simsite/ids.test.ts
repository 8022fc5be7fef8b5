import { bidToMid, makeMid, midToBid, parseMid } from '../../../src/simsite';

describe('simsite ids', () => {
  it('converts mid and bid like the real site (base62 in 7-digit groups)', () => {
    expect(bidToMid('z0JH2lOMb')).toBe('3501756485200075');
    expect(midToBid('3501756485200075')).toBe('z0JH2lOMb');
  });

  it('makes 16-digit mids below 2^53 that grow with time and encode the author', () => {
    const t = Date.UTC(2026, 10, 21, 10, 0, 0);
    const a = makeMid(t, 42, 7);
    const b = makeMid(t + 1000, 3, 0);
    expect(a).toMatch(/^\d{16}$/);
    expect(BigInt(b)).toBeGreaterThan(BigInt(a));
    expect(Number(a)).toBeLessThan(2 ** 53);
    expect(parseMid(a)).toEqual({ createdSec: t / 1000, userIndex: 42, seqDigit: 7 });
    expect(bidToMid(midToBid(a))).toBe(a);
    expect(parseMid('abc')).toBeNull();
  });
});
