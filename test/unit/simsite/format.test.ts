import { absoluteDate, countString, relativeDate } from '../../../src/simsite';

// 2026-11-21 18:00:00 China time.
const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('simsite date and count formats', () => {
  it('writes absolute dates in China time, C locale', () => {
    expect(absoluteDate(Date.UTC(2022, 7, 24, 14, 3, 13))).toBe('Wed Aug 24 22:03:13 +0800 2022');
  });

  it('writes the relative strings of the old era against the server now', () => {
    expect(relativeDate(NOW - 30_000, NOW)).toBe('刚刚');
    expect(relativeDate(NOW - 5 * MIN, NOW)).toBe('5分钟前');
    expect(relativeDate(NOW - 3 * HOUR, NOW)).toBe('3小时前');
    expect(relativeDate(NOW - 9 * HOUR, NOW)).toBe('今天 09:00');
    expect(relativeDate(NOW - 24 * HOUR + 30 * MIN, NOW)).toBe('昨天 18:30');
    expect(relativeDate(Date.UTC(2026, 5, 14, 4, 0, 0), NOW)).toBe('06-14');
    expect(relativeDate(Date.UTC(2018, 5, 14, 4, 0, 0), NOW)).toBe('2018-06-14');
  });

  it('writes big counts as 万/亿 strings with one decimal', () => {
    expect(countString(434_000)).toBe('43.4万');
    expect(countString(10_000)).toBe('1万');
    expect(countString(9_999)).toBe('9999');
    expect(countString(123_000_000)).toBe('1.2亿');
  });
});
