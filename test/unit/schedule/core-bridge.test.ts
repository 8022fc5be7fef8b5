import { newSubjectState } from '../../../src/core/envelope';
import type { VisitOutcome } from '../../../src/parsers/adapter';
import { buildModelFromFrontier, poissonNextVisitPolicy, schedulerFields, schedulerState } from '../../../src/schedule/core-bridge';
import { DEFAULT_POISSON_CONFIG } from '../../../src/schedule/poisson';

const H = 3_600_000;

describe('core bridge (the runner\'s NextVisitPolicy)', () => {
  const config = { ...DEFAULT_POISSON_CONFIG, budgetPerHour: 10, timeOfDay: true };
  const population = Array.from({ length: 20 }, (_, i) => newSubjectState(0, {
    lastVisitMs: 240 * H, visits: 3, postsSeen: 10 + i, schedule: { ep: 10 + i, eh: 240 },
  }));
  const model = buildModelFromFrontier(population, config);
  const policy = poissonNextVisitPolicy(() => model);

  it('folds the visit into the scheduler fields of the persisted state and returns a later due time', () => {
    const before = population[0]!;
    const outcome: VisitOutcome = {
      state: { ...before, lastVisitMs: 250 * H, visits: 4 }, newPostTimesMs: [245 * H, 248 * H], pageLimitHit: false, requests: 1,
    };
    const next = policy.nextVisit(before, outcome, 250 * H);
    expect(next.nextDueMs).toBeGreaterThan(250 * H);
    expect(next.state.schedule).toMatchObject({ ep: 12, eh: 250, dn: 2 });
    expect(outcome.state.schedule).toEqual(before.schedule); // the outcome itself is not mutated
    const back = schedulerState(next.state);
    expect(back.evidencePosts).toBe(12);
    expect(schedulerFields(back)).toEqual(next.state.schedule);
  });

  it('visits a busier subject sooner and never schedules a gone one', () => {
    const quiet = population[0]!;
    const busy = { ...population[0]!, schedule: { ep: 200, eh: 240 } };
    const out = (s: typeof quiet): VisitOutcome => ({ state: { ...s }, newPostTimesMs: [], pageLimitHit: false, requests: 1 });
    expect(policy.nextVisit(busy, out(busy), 250 * H).nextDueMs).toBeLessThan(policy.nextVisit(quiet, out(quiet), 250 * H).nextDueMs);
    const gone: VisitOutcome = { state: { ...quiet, status: 'gone' }, newPostTimesMs: [], pageLimitHit: false, requests: 1 };
    expect(policy.nextVisit(quiet, gone, 250 * H).nextDueMs).toBe(-1);
  });

  it('reads records without scheduler fields as no evidence yet', () => {
    const s = schedulerState(newSubjectState(5));
    expect(s).toMatchObject({ evidencePosts: 0, evidenceHours: 0, lastVisitMs: null, diurnal: null });
  });
});
