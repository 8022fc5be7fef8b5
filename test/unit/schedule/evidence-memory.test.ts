import { seededRng } from '../../../src/core/rng';
import { chooseMemory, memoryScore, subjectEvidence, typicalHistoryHours } from '../../../src/schedule/evidence-memory';
import { DEFAULT_POISSON_CONFIG, buildModel, observeOptions, subjectRatePerHour } from '../../../src/schedule/poisson';
import { fitRatePrior, flatRatePrior } from '../../../src/schedule/rate-model';
import { type SubjectState, newSubjectState, observe } from '../../../src/schedule/subject-state';

const H = 3_600_000;
const HISTORY_HOURS = 720;

/** Poisson times (ms) at `ratePerHour` over [fromMs, toMs). */
function poissonTimes(ratePerHour: number, fromMs: number, toMs: number, rng: { next(): number }): number[] {
  const out: number[] = [];
  if (!(ratePerHour > 0)) return out;
  for (let t = fromMs - (Math.log(1 - rng.next()) / ratePerHour) * H; t < toMs; t -= (Math.log(1 - rng.next()) / ratePerHour) * H) out.push(t);
  return out;
}

/**
 * A cold start as on a platform that does not say where histories start: histories begin
 * HISTORY_HOURS before discovery (time 0), the first visit reads the whole of it (no page limit),
 * then visits every `everyHours`. `rateAt(i, hour)` gives subject i's rate at a time.
 */
function crawl(n: number, rateAt: (i: number, hour: number) => number, everyHours: number, visits: number, seed: number, halfLifeHours = 336): SubjectState[] {
  const rng = seededRng(seed);
  const opts = { ...observeOptions(DEFAULT_POISSON_CONFIG), halfLifeHours };
  return Array.from({ length: n }, (_, i) => {
    const history = poissonTimes(rateAt(i, -HISTORY_HOURS), -HISTORY_HOURS * H, 0, rng);
    let s = observe(newSubjectState(0), { atMs: 0, postTimesMs: history, pageLimitHit: false }, opts);
    for (let v = 0; v < visits; v++) {
      const from = v * everyHours;
      s = observe(s, { atMs: (from + everyHours) * H, postTimesMs: poissonTimes(rateAt(i, from), from * H, (from + everyHours) * H, rng), pageLimitHit: false }, opts);
    }
    return s;
  });
}

describe('first windows without a history start', () => {
  it('a whole first timeline keeps its posts and the hours it covered; a cut-off one or one with a known start does not', () => {
    const open = observe(newSubjectState(0), { atMs: 100 * H, postTimesMs: [40 * H, 70 * H], pageLimitHit: false });
    expect(open.openPosts).toBe(2);
    expect(open.openHours).toBeCloseTo(60, 9);
    // The oldest post opens the counted window: one post over its 60 hours.
    expect(open.evidencePosts).toBe(1);
    const empty = observe(newSubjectState(10 * H), { atMs: 30 * H, postTimesMs: [], pageLimitHit: false });
    expect(empty.openPosts).toBe(0);
    expect(empty.openHours).toBeCloseTo(20, 9);
    const cut = observe(newSubjectState(0), { atMs: 100 * H, postTimesMs: [90 * H, 95 * H], pageLimitHit: true });
    expect(cut.openHours).toBe(-1);
    const known = observe(newSubjectState(0), { atMs: 100 * H, postTimesMs: [], pageLimitHit: false, historyStartMs: -50 * H });
    expect(known.openHours).toBe(-1);
    // Later visits leave the first window as it was and add to the unforgotten evidence.
    const later = observe(open, { atMs: 200 * H, postTimesMs: [150 * H], pageLimitHit: false }, { halfLifeHours: 50 });
    expect(later.openHours).toBeCloseTo(60, 9);
    expect(later.allPosts).toBe(2);
    expect(later.allHours).toBeCloseTo(160, 9);
    expect(later.evidenceHours).toBeLessThan(later.allHours);
  });

  it('the typical visible history is learned from the whole first timelines that had posts', () => {
    const rng = seededRng(5);
    const states = crawl(400, () => Math.exp(-4 + 2 * rng.next()) , 24, 0, 7);
    const h = typicalHistoryHours(states);
    expect(h).toBeGreaterThan(0.85 * HISTORY_HOURS);
    expect(h).toBeLessThan(1.15 * HISTORY_HOURS);
    expect(typicalHistoryHours(states.slice(0, 5))).toBe(0);
  });

  it('full memory extends a first window back to the typical history: an empty one as hours without posts, a non-empty one with its oldest post', () => {
    const empty = observe(newSubjectState(0), { atMs: 20 * H, postTimesMs: [], pageLimitHit: false });
    const e = subjectEvidence(empty, { full: true, historyHours: 700 });
    expect(e.posts).toBe(0);
    expect(e.hours).toBeCloseTo(700, 9);
    const two = observe(newSubjectState(0), { atMs: 100 * H, postTimesMs: [40 * H, 70 * H], pageLimitHit: false });
    const t = subjectEvidence(two, { full: true, historyHours: 700 });
    expect(t.posts).toBe(2);
    expect(t.hours).toBeCloseTo(700, 9);
    // Forgetting memory: the extension weighs as evidence of its age would (here ~ 2^(−(0 + 60 + 320)/336)).
    const f = subjectEvidence(two, { full: false, historyHours: 700, halfLifeHours: 336 });
    const keep = Math.pow(2, -(100 + 60 + 320) / 336);
    expect(f.hours).toBeCloseTo(two.evidenceHours + 640 * keep, 6);
    expect(f.posts).toBeCloseTo(two.evidencePosts + keep, 6);
    // Without a learned history, nothing changes.
    expect(subjectEvidence(empty, { full: true, historyHours: 0 }).hours).toBeCloseTo(20, 9);
  });

  it('silent subjects are estimated far quieter once histories are extended', () => {
    const rng = seededRng(3);
    const rates = Array.from({ length: 1000 }, (_, i) => (i % 5 === 0 ? 0.001 / 24 : (0.2 / 24) * Math.exp(1.5 * Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next()))));
    const states = crawl(rates.length, (i) => rates[i]!, 48, 3, 11);
    const silent = states.findIndex((s, i) => i % 5 === 0 && s.allPosts === 0 && s.openPosts === 0);
    const extended = buildModel(states, { ...DEFAULT_POISSON_CONFIG, forgetting: 'never' });
    const plain = buildModel(states, { ...DEFAULT_POISSON_CONFIG, forgetting: 'always' });
    expect(extended.rates.memory?.historyHours).toBeGreaterThan(0.8 * HISTORY_HOURS);
    const a = subjectRatePerHour(states[silent]!, extended) * 24;
    const b = subjectRatePerHour(states[silent]!, plain) * 24;
    expect(a).toBeLessThan(b / 2);
  });
});

describe('choosing whether to forget', () => {
  it('keeps everything when rates hold still, and forgets when they moved', () => {
    const rng = seededRng(9);
    const base = Array.from({ length: 1500 }, () => (0.5 / 24) * Math.exp(1.5 * Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next())));
    const still = crawl(base.length, (i) => base[i]!, 24, 20, 21, 72);
    const prior = fitRatePrior(still.map((s) => ({ posts: s.allPosts, hours: s.allHours })), flatRatePrior(), 30);
    expect(chooseMemory(still, prior, 'auto', 72).full).toBe(true);
    // Every rate moved by a factor of 6 (up or down) ten days into the watch.
    const moved = crawl(base.length, (i, hour) => (hour < 240 ? base[i]! : base[i]! * (i % 2 ? 6 : 1 / 6)), 24, 20, 21, 72);
    expect(chooseMemory(moved, prior, 'auto', 72).full).toBe(false);
    expect(memoryScore(moved, prior, { full: true, historyHours: 0 }, { full: false, historyHours: 0, halfLifeHours: 72 }).diff).toBeLessThan(0);
    expect(chooseMemory(still, prior, 'always', 72).full).toBe(false);
    expect(chooseMemory(moved, prior, 'never', 72).full).toBe(true);
  });
});
