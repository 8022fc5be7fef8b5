import { parseCount } from '../../../../src/parsers/weibo/counts';
import { parseWeiboDateMs } from '../../../../src/parsers/weibo/dates';
import { absoluteDate, relativeDate } from '../../../../src/simsite';
import { classicCount, modernCount } from '../../../../src/simsite/format';
import { expectedCount, expectedCreatedMs } from '../../../helpers/weibo-truth';

// 2026-11-21 10:00:00 China time.
const NOW = Date.UTC(2026, 10, 21, 2, 0, 0);

/** Publication times that land in every relative form, including the day and year edges. */
const AGES_MS = [
  0, 59_000, 60_000, 61_000, 59 * 60_000, 3_599_000, 3_600_000, 5 * 3_600_000 + 59 * 60_000, 6 * 3_600_000, 9 * 3_600_000,
  10 * 3_600_000 - 1000, 10 * 3_600_000, 30 * 3_600_000, 34 * 3_600_000 - 1000, 34 * 3_600_000, 3 * 86_400_000, 200 * 86_400_000,
  320 * 86_400_000, 400 * 86_400_000, 3000 * 86_400_000,
];

describe('every created_at form simsite writes reads back to the truth, at its precision', () => {
  it.each(AGES_MS.map((a) => [a]))('age %p ms', (ageMs) => {
    const createdMs = Math.floor((NOW - ageMs) / 1000) * 1000;
    const relative = relativeDate(createdMs, NOW);
    expect(parseWeiboDateMs(relative, NOW)).toBe(expectedCreatedMs('classic2019', createdMs, NOW));
    expect(parseWeiboDateMs(absoluteDate(createdMs), NOW)).toBe(createdMs);
  });

  it('covers each relative form', () => {
    const forms = new Set(AGES_MS.map((a) => relativeDate(NOW - a, NOW).replace(/\d+/g, 'N')));
    expect([...forms].sort()).toEqual(['N-N', 'N-N-N', 'N分钟前', 'N小时前', '今天 N:N', '刚刚', '昨天 N:N'].sort());
  });
});

describe('every count form reads back', () => {
  it.each([0, 7, 9_999, 10_000, 12_345, 434_999, 999_999, 1_000_000, 12_345_678, 99_999_999, 100_000_000, 123_456_789, 2_500_000_000].map((n) => [n]))('%p', (n) => {
    expect(parseCount(modernCount(n))).toBe(expectedCount('modern2022', n));
    expect(parseCount(classicCount(n))).toBe(expectedCount('classic2019', n));
    expect(parseCount(String(modernCount(n)))).toBe(expectedCount('modern2022', n));
    expect(parseCount(n)).toBe(n);
  });
});
