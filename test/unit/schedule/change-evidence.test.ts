import { choGarciaMolinaRatePerHour } from '../../../src/schedule/change-estimator';
import { changeObservation, EMPTY_CHANGE_HISTORY, pageChangeRatePerHour, recordObservation, untimedChangeTimesMs } from '../../../src/schedule/change-evidence';

describe('change evidence for the estimator', () => {
  it('reads a 304 and an unchanged signature as "not changed", a new signature as "changed", errors as nothing', () => {
    expect(changeObservation(304, undefined)).toBe('not_modified');
    expect(changeObservation(200, 'unchanged')).toBe('unchanged');
    expect(changeObservation(200, 'changed')).toBe('changed');
    expect(changeObservation(200, 'new')).toBe('none');
    expect(changeObservation(503, 'changed')).toBe('none');
    expect(changeObservation(undefined, undefined)).toBe('none');
  });

  it('feeds the Cho & Garcia-Molina estimator; no observation leaves the history as it was', () => {
    let h = EMPTY_CHANGE_HISTORY;
    for (const o of ['not_modified', 'changed', 'unchanged', 'none', 'not_modified', 'changed'] as const) h = recordObservation(h, o, 6);
    expect(h).toEqual({ visits: 5, changes: 2, observedHours: 30 });
    expect(pageChangeRatePerHour(h, 0.1, 0)).toBeCloseTo(choGarciaMolinaRatePerHour(5, 2, 6), 12);
    expect(pageChangeRatePerHour(EMPTY_CHANGE_HISTORY, 0.1)).toBe(0.1);
    // With a prior of two visits, five visits weigh 5/7.
    expect(pageChangeRatePerHour(h, 0.1)).toBeCloseTo((5 / 7) * choGarciaMolinaRatePerHour(5, 2, 6) + (2 / 7) * 0.1, 12);
  });
});

describe('untimed text changes as Poisson evidence', () => {
  const H = 3_600_000;
  it('adds one change at the middle of the window when the text changed and the page gave no time of its own', () => {
    expect(untimedChangeTimesMs('changed', 10 * H, 14 * H, [])).toEqual([12 * H]);
    expect(untimedChangeTimesMs('changed', 10 * H + 1_001, 14 * H + 2_998, [])).toEqual([12 * H + 2_000]);
  });

  it('adds nothing for an unchanged text, a 304, a first visit, a page that gave its own time, or a window that is not one', () => {
    expect(untimedChangeTimesMs('unchanged', 10 * H, 14 * H, [])).toEqual([]);
    expect(untimedChangeTimesMs('not_modified', 10 * H, 14 * H, [])).toEqual([]);
    expect(untimedChangeTimesMs('none', 10 * H, 14 * H, [])).toEqual([]);
    expect(untimedChangeTimesMs('changed', undefined, 14 * H, [])).toEqual([]);
    expect(untimedChangeTimesMs('changed', 10 * H, 14 * H, [13 * H])).toEqual([]);
    expect(untimedChangeTimesMs('changed', 14 * H, 14 * H, [])).toEqual([]);
    expect(untimedChangeTimesMs('changed', 10 * H, Number.NaN, [])).toEqual([]);
  });
});
