import { seededRng } from '../../../src/core/rng';
import {
  changeHistoryRatePerHour, choGarciaMolinaRatePerHour, naiveChangeRatePerHour, recordCheck,
} from '../../../src/schedule/change-estimator';

describe('Cho & Garcia-Molina estimator', () => {
  it('matches the formula on known answers', () => {
    expect(choGarciaMolinaRatePerHour(10, 0, 1)).toBe(0);
    expect(choGarciaMolinaRatePerHour(10, 10, 1)).toBeCloseTo(Math.log(21), 12);
    expect(choGarciaMolinaRatePerHour(4, 2, 2)).toBeCloseTo(-Math.log(2.5 / 4.5) / 2, 12);
    expect(choGarciaMolinaRatePerHour(100, 50, 0.5)).toBeCloseTo(-Math.log(50.5 / 100.5) / 0.5, 12);
  });

  it('stays finite when every visit saw a change, where inverting e^{−λI} directly would not', () => {
    expect(Number.isFinite(choGarciaMolinaRatePerHour(5, 5, 1))).toBe(true);
  });

  it('recovers a rate the naive ratio underestimates because it cannot see several changes per interval', () => {
    const rng = seededRng(5);
    const lambda = 1.5;
    const n = 2000;
    let changed = 0;
    // P(at least one change in an interval of 1 h) = 1 − e^{−λ}.
    for (let i = 0; i < n; i++) if (rng.next() < 1 - Math.exp(-lambda)) changed++;
    const cgm = choGarciaMolinaRatePerHour(n, changed, 1);
    expect(Math.abs(cgm - lambda)).toBeLessThan(0.1);
    expect(naiveChangeRatePerHour(n, changed, 1)).toBeLessThan(0.85);
  });

  it('rejects impossible inputs', () => {
    expect(() => choGarciaMolinaRatePerHour(3, 4, 1)).toThrow(RangeError);
    expect(() => choGarciaMolinaRatePerHour(3, 1, 0)).toThrow(RangeError);
    expect(() => choGarciaMolinaRatePerHour(2.5, 1, 1)).toThrow(RangeError);
  });

  it('accumulates a history and applies the estimator with the mean interval', () => {
    let h = { visits: 0, changes: 0, observedHours: 0 };
    expect(changeHistoryRatePerHour(h)).toBe(0);
    for (const changed of [true, false, true, true]) h = recordCheck(h, changed, 2);
    expect(h).toEqual({ visits: 4, changes: 3, observedHours: 8 });
    expect(changeHistoryRatePerHour(h)).toBeCloseTo(-Math.log(1.5 / 4.5) / 2, 12);
  });
});
