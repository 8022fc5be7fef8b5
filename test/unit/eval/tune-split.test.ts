import { isCheck, tuneHalf } from '../../bench/extraction/split';

/** Page ids shaped as the dataset's (WCXB's four digits). */
const ids = Array.from({ length: 2000 }, (_, i) => String(i).padStart(4, '0'));

describe('tuneHalf', () => {
  it('gives a page the same half every time', () => {
    for (const id of ids.slice(0, 50)) expect(tuneHalf(id)).toBe(tuneHalf(id));
  });

  it('cuts the tune part in two halves of about equal size', () => {
    const tune = ids.filter((id) => !isCheck(id));
    const a = tune.filter((id) => tuneHalf(id) === 'A').length;
    expect(a / tune.length).toBeGreaterThan(0.45);
    expect(a / tune.length).toBeLessThan(0.55);
  });

  it('is independent of the check quarter (its pages fall in both halves alike)', () => {
    const check = ids.filter((id) => isCheck(id));
    const a = check.filter((id) => tuneHalf(id) === 'A').length;
    expect(a / check.length).toBeGreaterThan(0.4);
    expect(a / check.length).toBeLessThan(0.6);
  });
});
