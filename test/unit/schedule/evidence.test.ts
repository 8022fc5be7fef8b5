import { seededRng } from '../../../src/core/rng';
import { newSubjectState, observe, visitEvidence } from '../../../src/schedule/subject-state';

const H = 3_600_000;

describe('visitEvidence', () => {
  it('reads a full first page without a history start as the span its posts cover, not the minutes since discovery', () => {
    // Issue 21: discovered at 0, visited at 0.1 h; the page holds 10 posts spanning 73 h before that.
    const times = Array.from({ length: 10 }, (_, i) => -73 * H + (i * 73 * H) / 9);
    const s = observe(newSubjectState(0), { atMs: 0.1 * H, postTimesMs: times, pageLimitHit: true });
    expect(s.evidencePosts).toBe(10);
    expect(s.evidenceHours).toBeCloseTo(73.1, 9);
  });

  it('counts gap posts older than the previous visit (filled after a cut-off) as indexed but not as evidence', () => {
    let s = observe(newSubjectState(0), { atMs: 10 * H, postTimesMs: [], pageLimitHit: false, historyStartMs: 0 });
    s = observe(s, { atMs: 20 * H, postTimesMs: [2 * H, 3 * H, 12 * H, 18 * H], pageLimitHit: false });
    expect(s.evidencePosts).toBe(2);
    expect(s.evidenceHours).toBeCloseTo(20, 9);
    expect(s.postsSeen).toBe(4);
  });

  it('a first visit that finds nothing counts from the history start, or from the discovery when unknown', () => {
    expect(visitEvidence(newSubjectState(5 * H), { atMs: 6 * H, postTimesMs: [], pageLimitHit: false, historyStartMs: -H }))
      .toEqual({ windowStartMs: -H, posts: 0 });
    expect(visitEvidence(newSubjectState(5 * H), { atMs: 6 * H, postTimesMs: [], pageLimitHit: false }))
      .toEqual({ windowStartMs: 5 * H, posts: 0 });
  });

  /**
   * Property: over random worlds (rate, history start, discovery time, page size and limits, visit
   * intervals), the pooled evidence Σ posts / Σ hours is an unbiased rate, whatever cuts the pages
   * made. The old window (discovery time on a cut first visit) fails this by orders of magnitude.
   */
  it('gives an unbiased pooled rate over random worlds with cut-offs', () => {
    const rng = seededRng(2026);
    const exp = (rate: number): number => -Math.log(1 - rng.next()) / rate;
    for (let world = 0; world < 25; world++) {
      const ratePerHour = Math.exp(Math.log(0.002) + rng.next() * Math.log(20 / 0.002));
      const pageSize = 1 + Math.floor(rng.next() * 20);
      const firstPages = 1 + Math.floor(rng.next() * 3);
      const laterPages = 1 + Math.floor(rng.next() * 5);
      const historyKnown = rng.next() < 0.3;
      let posts = 0;
      let hours = 0;
      for (let subject = 0; subject < 150; subject++) {
        const historyStart = -24 * H * (5 + rng.next() * 60);
        const times: number[] = [];
        for (let t = historyStart + exp(ratePerHour) * H; t < 300 * H; t += exp(ratePerHour) * H) times.push(t);
        const discovered = rng.next() * 48 * H;
        let s = newSubjectState(discovered);
        let cursor = 0;
        for (let at = discovered + rng.next() * H, first = true; at < 300 * H; at += exp(1 / (1 + rng.next() * 30)) * H, first = false) {
          let end = cursor;
          while (end < times.length && times[end]! <= at) end++;
          const limit = (first ? firstPages : laterPages) * pageSize;
          const start = Math.max(cursor, end - limit);
          s = observe(s, {
            atMs: at, postTimesMs: times.slice(start, end), pageLimitHit: end - cursor > limit,
            ...(first && historyKnown ? { historyStartMs: historyStart } : {}),
          });
          cursor = end;
        }
        posts += s.evidencePosts;
        hours += s.evidenceHours;
      }
      const estimate = posts / hours;
      // ~300 subjects × hundreds of hours: a few percent of noise, except for the quietest worlds.
      const tolerance = 0.12 + 3 / Math.sqrt(Math.max(1, posts));
      expect(Math.abs(estimate / ratePerHour - 1)).toBeLessThan(tolerance);
    }
  });
});
