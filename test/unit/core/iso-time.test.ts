import { isoTime } from '../../../src/core/iso-time';
import { seededRng } from '../../../src/core/rng';

describe('isoTime', () => {
  it('equals Date#toISOString at the edges of days, months, leap years and its range', () => {
    const edges = [0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_400_000,
      1_798_761_599_999, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -1, -86_400_001, 1.5, 1e12 + 0.999];
    for (const ms of edges) expect([ms, isoTime(ms)]).toEqual([ms, new Date(ms).toISOString()]);
  });

  it('equals Date#toISOString on random instants from 1970 to 9999', () => {
    const rng = seededRng(11);
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor(rng.next() * 253_402_300_800_000);
      expect([ms, isoTime(ms)]).toEqual([ms, new Date(ms).toISOString()]);
    }
  });

  it('throws for NaN as Date does', () => {
    expect(() => isoTime(NaN)).toThrow(RangeError);
  });
});
