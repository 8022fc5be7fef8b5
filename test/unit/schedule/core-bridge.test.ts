import { newSubjectState } from '../../../src/core/envelope';
import type { VisitOutcome } from '../../../src/core/visit';
import { expectedPagesPerVisit } from '../../../src/schedule/allocation';
import {
  RECHECK_HOURS, buildModelFromFrontier, frontierScheduleStatus, poissonNextVisitPolicy, scheduledIntervalHours, scheduledPagesPerHour, schedulerFields, schedulerState,
} from '../../../src/schedule/core-bridge';
import { DEFAULT_POISSON_CONFIG, allocationRatePerHour, scheduleStatus } from '../../../src/schedule/poisson';

const H = 3_600_000;

describe('core bridge (the runner\'s NextVisitPolicy)', () => {
  // No forgetting here, so that the folded evidence reads as plain sums (forgetting is tested in subject-state.test.ts).
  const config = { ...DEFAULT_POISSON_CONFIG, budgetPerHour: 10, timeOfDay: true, halfLifeHours: Number.POSITIVE_INFINITY };
  const population = Array.from({ length: 20 }, (_, i) => newSubjectState(0, {
    lastVisitMs: 240 * H, visits: 3, postsSeen: 10 + i, schedule: { ep: 10 + i, eh: 240 },
  }));
  const model = buildModelFromFrontier(population, config);
  const policy = poissonNextVisitPolicy(() => model);

  it('computes the schedule status (gauges and freshet status alike) over the active subjects only', () => {
    const zombie = newSubjectState(0, { status: 'zombie', postsSeen: 900, schedule: { ep: 900, eh: 1 } });
    const withZombie = frontierScheduleStatus([...population, zombie], model);
    expect(withZombie).toEqual(scheduleStatus(population.map(schedulerState), model));
    expect(withZombie.subjects).toBe(20);
  });

  it('folds the visit into the scheduler fields of the persisted state and returns a later due time', () => {
    const before = population[0]!;
    const outcome: VisitOutcome = {
      state: { ...before, lastVisitMs: 250 * H, visits: 4 }, newPostTimesMs: [245 * H, 248 * H], pageLimitHit: false, requests: 1,
    };
    const next = policy.nextVisit(before, outcome, 250 * H);
    expect(next.nextDueMs).toBeGreaterThan(250 * H);
    // The two posts waited 5 h and 2 h: the realized delays the planner is calibrated by.
    expect(next.state.schedule).toMatchObject({ ep: 12, eh: 250, dn: 2, dp: 2, dh: 7 });
    expect(outcome.state.schedule).toEqual(before.schedule); // the outcome itself is not mutated
    const back = schedulerState(next.state);
    expect(back.evidencePosts).toBe(12);
    // The visit's own window (its 2 posts since the last visit) is kept apart, for `prior: auto`.
    expect(back.lastPosts).toBe(2);
    expect(back.lastHours).toBeGreaterThan(0);
    const { iv, ...fields } = next.state.schedule!;
    expect(schedulerFields(back)).toEqual(fields);
    expect(iv).toBeCloseTo((next.nextDueMs - 250 * H) / H, 3);
    expect(scheduledIntervalHours(next.state)).toBe(iv);
  });

  it('keeps the newest change it saw as lastPostMs where the adapter keeps none (a page), never moving it back', () => {
    const before = population[0]!;
    const page: VisitOutcome = { state: { ...before, lastVisitMs: 250 * H, visits: 4 }, newPostTimesMs: [245 * H, 248 * H], pageLimitHit: false, requests: 1 };
    expect(policy.nextVisit(before, page, 250 * H).state.lastPostMs).toBe(248 * H);
    const timeline: VisitOutcome = { ...page, state: { ...page.state, lastPostMs: 249 * H } };
    expect(policy.nextVisit(before, timeline, 250 * H).state.lastPostMs).toBe(249 * H);
    const quiet: VisitOutcome = { ...page, newPostTimesMs: [] };
    expect(policy.nextVisit(before, quiet, 250 * H).state).not.toHaveProperty('lastPostMs');
  });

  it('times the visit from the timeline read, not from the later ack', () => {
    const before = population[0]!;
    const outcome: VisitOutcome = {
      state: { ...before, lastVisitMs: 250 * H, visits: 4 }, newPostTimesMs: [245 * H], pageLimitHit: false, requests: 1,
    };
    const acked = policy.nextVisit(before, outcome, 253 * H);
    const onTime = policy.nextVisit(before, outcome, 250 * H);
    expect(acked.nextDueMs).toBe(onTime.nextDueMs);
    expect(acked.state.schedule).toEqual(onTime.state.schedule); // exposure ends at the read: 10 h, not 13 h
    expect(acked.state.schedule).toMatchObject({ eh: 250 });
    expect(acked.state.lastVisitMs).toBe(250 * H);
  });

  it('visits a busier subject sooner and never schedules a gone one', () => {
    const quiet = population[0]!;
    const busy = { ...population[0]!, schedule: { ep: 200, eh: 240 } };
    const out = (s: typeof quiet): VisitOutcome => ({ state: { ...s }, newPostTimesMs: [], pageLimitHit: false, requests: 1 });
    expect(policy.nextVisit(busy, out(busy), 250 * H).nextDueMs).toBeLessThan(policy.nextVisit(quiet, out(quiet), 250 * H).nextDueMs);
    const gone: VisitOutcome = { state: { ...quiet, status: 'gone' }, newPostTimesMs: [], pageLimitHit: false, requests: 1 };
    expect(policy.nextVisit(quiet, gone, 250 * H).nextDueMs).toBe(-1);
  });

  it('sums the spend the written intervals hold, at the rates estimated now', () => {
    const written = population.map((s, i) => ({ ...s, schedule: { ...s.schedule, iv: 10 + i } }));
    const got = scheduledPagesPerHour([...written, newSubjectState(0), { ...written[0]!, status: 'gone' as const }], model);
    expect(got.counted).toBe(20);
    expect(got.uncounted).toBe(1);
    let want = 0;
    written.forEach((s, i) => {
      const rate = allocationRatePerHour(schedulerState(s), model);
      want += expectedPagesPerVisit(rate * (10 + i), config.pageSize) / (10 + i);
    });
    expect(got.pagesPerHour).toBeCloseTo(want, 12);
    // Intervals twice as long hold (about) half the spend.
    const doubled = scheduledPagesPerHour(population.map((s, i) => ({ ...s, schedule: { ...s.schedule, iv: 2 * (10 + i) } })), model);
    expect(doubled.pagesPerHour).toBeLessThan(0.6 * got.pagesPerHour);
  });

  describe('recheck (due times written by an older model)', () => {
    // A lean budget: some 50 h between visits, beyond the cap on written due times.
    const leanModel = buildModelFromFrontier(population, { ...config, budgetPerHour: 0.4 });
    const policy = poissonNextVisitPolicy(() => leanModel);
    const quiet = { ...population[0]!, schedule: { ...population[0]!.schedule } };
    const out: VisitOutcome = { state: { ...quiet, lastVisitMs: 250 * H, visits: 4 }, newPostTimesMs: [], pageLimitHit: false, requests: 1 };
    const written = policy.nextVisit(quiet, out, 250 * H);
    const plannedH = written.state.schedule!['iv'] as number;

    it('writes due times at most RECHECK_HOURS out and keeps the planned interval', () => {
      expect(plannedH).toBeGreaterThan(RECHECK_HOURS); // a quiet subject: the cap applies
      expect(written.nextDueMs).toBe(250 * H + RECHECK_HOURS * H);
    });

    it('defers a capped visit until the planned time, unfetched, and visits once it is due', () => {
      const atCap = policy.recheck!(written.state, written.nextDueMs)!;
      expect(atCap).toBeDefined();
      expect(atCap.nextDueMs).toBe(Math.min(250 * H + plannedH * H, written.nextDueMs + RECHECK_HOURS * H));
      expect(atCap.state.lastVisitMs).toBe(250 * H); // no visit happened
      expect(atCap.state.visits).toBe(written.state.visits);
      expect(policy.recheck!(written.state, 250 * H + plannedH * H)).toBeUndefined();
    });

    it('re-derives the due time from the current model, sooner or later than written', () => {
      const busierModel = buildModelFromFrontier(population, { ...config, budgetPerHour: 1.6 });
      const busier = poissonNextVisitPolicy(() => busierModel);
      const atCap = written.nextDueMs;
      const rewritten = busier.recheck!(written.state, atCap);
      // Four times the budget: the planned interval halves, below the cap already passed, so visit now.
      expect(rewritten).toBeUndefined();
      const leanerModel = buildModelFromFrontier(population, { ...config, budgetPerHour: 0.1 });
      const leaner = poissonNextVisitPolicy(() => leanerModel).recheck!(written.state, atCap)!;
      expect(leaner.state.schedule!['iv']).toBeGreaterThan(1.5 * plannedH);
    });

    it('lets retries and first visits through', () => {
      expect(policy.recheck!({ ...written.state, failures: 1 }, written.nextDueMs)).toBeUndefined();
      // A throttled attempt moved lastVisitMs and is retried a minute later.
      expect(policy.recheck!({ ...written.state, lastVisitMs: 300 * H }, 300 * H + 60_000)).toBeUndefined();
      expect(policy.recheck!(newSubjectState(0), 5 * H)).toBeUndefined();
      expect(policy.recheck!(quiet, 300 * H)).toBeUndefined(); // written before intervals were stored
    });
  });

  it('reads records without scheduler fields as no evidence yet', () => {
    const s = schedulerState(newSubjectState(5));
    expect(s).toMatchObject({ evidencePosts: 0, evidenceHours: 0, lastVisitMs: null, diurnal: null });
  });
});
