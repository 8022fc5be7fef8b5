import { DEFAULT_PRIOR } from '../../../src/schedule/gamma-posterior';
import {
  DELAY_HALF_LIFE_HOURS, estimatedRatePerHour, newSubjectState, observe, parseState, serializeState, subjectPosterior,
} from '../../../src/schedule/subject-state';

const H = 3_600_000;

describe('observe', () => {
  it('counts the posts since the last visit over the hours since the last visit', () => {
    let s = newSubjectState(0);
    s = observe(s, { atMs: 10 * H, postTimesMs: [], pageLimitHit: false, historyStartMs: -90 * H });
    expect(s.evidenceHours).toBeCloseTo(100, 9);
    s = observe(s, { atMs: 20 * H, postTimesMs: [11 * H, 15 * H, 19 * H], pageLimitHit: false, watermark: '4567890123456789012' });
    expect(s).toMatchObject({ lastVisitMs: 20 * H, lastPostMs: 19 * H, postsSeen: 3, visits: 2, evidencePosts: 3, watermark: '4567890123456789012' });
    expect(s.evidenceHours).toBeCloseTo(110, 9);
    expect(subjectPosterior(s, { alpha: 1, betaHours: 10 })).toEqual({ alpha: 4, betaHours: 120 });
  });

  it('after a visit cut short by the page limit, counts only the window it saw completely', () => {
    let s = observe(newSubjectState(0), { atMs: 0, postTimesMs: [], pageLimitHit: false, historyStartMs: 0 });
    // 20 posts in the last 5 h of a 10 h gap, more before them unseen: reading stopped at the 20th
    // newest post, so the likelihood is λ^20 e^{−5λ}: 20 posts over 5 h (issue 21; it was 19).
    const times = Array.from({ length: 20 }, (_, i) => 5 * H + (i * 5 * H) / 19);
    s = observe(s, { atMs: 10 * H, postTimesMs: times, pageLimitHit: true });
    expect(s.evidencePosts).toBe(20);
    expect(s.evidenceHours).toBeCloseTo(5, 9);
    expect(s.postsSeen).toBe(20);
  });

  it('on a first visit without a known history start, starts the window at the oldest post', () => {
    const s = observe(newSubjectState(50 * H), { atMs: 50 * H, postTimesMs: [10 * H, 30 * H, 40 * H], pageLimitHit: false });
    expect(s.evidencePosts).toBe(2);
    expect(s.evidenceHours).toBeCloseTo(40, 9);
  });

  it('forgets with the half-life and keeps time-of-day sums when asked', () => {
    let s = newSubjectState(0, { timeOfDay: true });
    s = observe(s, { atMs: 0, postTimesMs: [], pageLimitHit: false, historyStartMs: -100 * H }, { halfLifeHours: 100, timeOfDay: true });
    s = observe(s, { atMs: 100 * H, postTimesMs: [50 * H], pageLimitHit: false }, { halfLifeHours: 100, timeOfDay: true });
    expect(s.evidenceHours).toBeCloseTo(150, 9);
    expect(s.evidencePosts).toBe(1);
    expect(s.diurnal?.n).toBe(1);
  });

  it('moves the estimate from the prior towards the observed rate', () => {
    let s = newSubjectState(0);
    expect(estimatedRatePerHour(s, DEFAULT_PRIOR)).toBeCloseTo(1 / 24, 12);
    s = observe(s, { atMs: 240 * H, postTimesMs: Array.from({ length: 100 }, (_, i) => i * H), pageLimitHit: false, historyStartMs: 0 });
    expect(estimatedRatePerHour(s, DEFAULT_PRIOR)).toBeGreaterThan(0.38);
  });
});

describe('serializeState / parseState', () => {
  it('round-trips in a short string', () => {
    let s = newSubjectState(1_700_000_000_000, { timeOfDay: true });
    s = observe(s, { atMs: 1_700_000_360_000, postTimesMs: [1_700_000_100_000], pageLimitHit: false, watermark: '5012345678901234567' },
      { timeOfDay: true });
    const text = serializeState(s);
    expect(text.length).toBeLessThan(170);
    const back = parseState(text);
    expect(back.watermark).toBe('5012345678901234567');
    expect(back.lastVisitMs).toBe(s.lastVisitMs);
    expect(back.evidenceHours).toBeCloseTo(s.evidenceHours, 5);
    expect(back.diurnal?.cos).toBeCloseTo(s.diurnal!.cos, 5);
    expect(back.lastHours).toBeCloseTo(s.lastHours, 5);
    expect(back.lastPosts).toBe(s.lastPosts);
    const plain = newSubjectState(5);
    expect(parseState(serializeState(plain))).toEqual(plain);
  });

  it('keeps the unforgotten evidence and the open first window (v4), and reads a v3 state with the forgetting evidence standing in', () => {
    const s = observe(newSubjectState(0), { atMs: 100 * H, postTimesMs: [40 * H, 70 * H], pageLimitHit: false }, { halfLifeHours: 50 });
    const back = parseState(serializeState(s));
    expect(back.allHours).toBeCloseTo(s.allHours, 5);
    expect(back.openPosts).toBe(2);
    expect(back.openHours).toBeCloseTo(60, 5);
    const v3 = parseState('[3,0,3600000,null,null,4,2,3,10,1,2.5,0.5,1.5]');
    expect(v3.allPosts).toBe(3);
    expect(v3.allHours).toBe(10);
    expect(v3.openHours).toBe(-1);
  });

  it('counts how the posts of each window of a day or more split between its halves (v5), leaving out the first visit, and reads a v4 state as none seen', () => {
    let s = observe(newSubjectState(0), { atMs: 10 * H, postTimesMs: [2 * H, 3 * H], pageLimitHit: false, historyStartMs: 0 });
    expect(s.splitPosts).toBe(0);
    // Window [10 h, 40 h]: two posts in its first half, one in its second.
    s = observe(s, { atMs: 40 * H, postTimesMs: [11 * H, 12 * H, 30 * H], pageLimitHit: false });
    expect(s.splitSquares).toBe(1);
    expect(s.splitPosts).toBe(3);
    // Window [40 h, 64 h]: a burst of three in its first half.
    s = observe(s, { atMs: 64 * H, postTimesMs: [41 * H, 41.2 * H, 41.3 * H], pageLimitHit: false });
    expect(s.splitSquares).toBe(10);
    expect(s.splitPosts).toBe(6);
    // A window shorter than a day is left out: a burst would straddle its halves.
    s = observe(s, { atMs: 70 * H, postTimesMs: [65 * H, 65.1 * H], pageLimitHit: false });
    expect(s.splitPosts).toBe(6);
    const back = parseState(serializeState(s));
    expect(back.splitSquares).toBe(10);
    expect(back.splitPosts).toBe(6);
    const v4 = parseState('[4,0,3600000,null,null,4,2,3,10,1,2.5,0.5,1.5,3,10,0,-1]');
    expect(v4.splitSquares).toBe(0);
    expect(v4.splitPosts).toBe(0);
  });

  it('keeps the delays later visits found (v6), fading with DELAY_HALF_LIFE_HOURS, leaving out the first visit, and reads a v5 state as none seen', () => {
    let s = observe(newSubjectState(0), { atMs: 10 * H, postTimesMs: [2 * H, 3 * H], pageLimitHit: false, historyStartMs: 0 });
    expect(s.delayPosts).toBe(0);
    // Two posts waited 4 h and 1 h; a gap post filled now (older than the last visit) waited 12 h.
    s = observe(s, { atMs: 14 * H, postTimesMs: [10 * H, 13 * H, 2 * H], pageLimitHit: false });
    expect(s.delayPosts).toBe(3);
    expect(s.delayHours).toBeCloseTo(4 + 1 + 12, 9);
    s = observe(s, { atMs: (14 + DELAY_HALF_LIFE_HOURS) * H, postTimesMs: [(13 + DELAY_HALF_LIFE_HOURS) * H], pageLimitHit: false });
    expect(s.delayPosts).toBeCloseTo(1.5 + 1, 9);
    expect(s.delayHours).toBeCloseTo(8.5 + 1, 9);
    const back = parseState(serializeState(s));
    expect(back.delayPosts).toBeCloseTo(2.5, 5);
    expect(back.delayHours).toBeCloseTo(9.5, 5);
    const v5 = parseState('[5,0,3600000,null,null,4,2,3,10,1,2.5,0.5,1.5,3,10,0,-1,1,3]');
    expect(v5.splitPosts).toBe(3);
    expect(v5.delayPosts).toBe(0);
    expect(v5.delayHours).toBe(0);
  });

  it('reads a v2 state (no last window) as one without it', () => {
    const v2 = parseState('[2,0,3600000,null,null,4,2,3,10,1,2.5,0.5,0.1,0.2]');
    expect(v2.recentHours).toBe(2.5);
    expect(v2.lastPosts).toBe(0);
    expect(v2.lastHours).toBe(0);
    expect(v2.diurnal).toEqual({ n: 0.5, cos: 0.1, sin: 0.2 });
  });

  it('keeps the last visit\'s window apart from the evidence before it', () => {
    let s = observe(newSubjectState(0), { atMs: 10 * H, postTimesMs: [], pageLimitHit: false, historyStartMs: 0 }, { halfLifeHours: 100 });
    s = observe(s, { atMs: 14 * H, postTimesMs: [11 * H, 12 * H, 13 * H], pageLimitHit: false }, { halfLifeHours: 100 });
    expect(s.lastPosts).toBe(3);
    expect(s.lastHours).toBeCloseTo(4, 9);
    // The evidence before the last visit, forgotten as it was when the last visit was added.
    expect(s.evidenceHours - s.lastHours).toBeCloseTo(10 * Math.pow(2, -4 / 100), 9);
    expect(s.evidencePosts - s.lastPosts).toBe(0);
  });

  it('rejects what it did not write', () => {
    expect(() => parseState('{"a":1}')).toThrow(/subject state/);
    expect(() => parseState('[2,0,null,null,null,0,0,0,0]')).toThrow(/v1/);
    expect(() => parseState('[3,0,null,null,null,0,0,0,0,0,0]')).toThrow(/v6/);
    expect(() => parseState('[1,"x",null,null,null,0,0,0,0]')).toThrow(/field 1/);
    expect(() => parseState('[1,0,null,null,7,0,0,0,0]')).toThrow(/watermark/);
  });
});
