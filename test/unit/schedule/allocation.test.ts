import {
  type AllocationOptions, expectedPagesPerVisit, freshnessRatio, maxIntervalHours, pagesPerHour, planAllocation, predictedMeanDelayHours, sqrtRuleConstant,
  visitRatePerHour,
} from '../../../src/schedule/allocation';

const base: AllocationOptions = { objective: 'delay', budgetPerHour: 100, floorPerHour: 0, capPerHour: 60, pageSize: 20 };

function spend(rates: number[], opts: AllocationOptions): number {
  const plan = planAllocation(rates, opts);
  return rates.reduce((s, r) => s + pagesPerHour(visitRatePerHour(plan, r), r, opts.pageSize), 0);
}

/** Log-normal-ish spread of rates, deterministic. */
const rates = Array.from({ length: 1000 }, (_, i) => (1 / 24) * Math.exp(1.5 * Math.sin(i * 12.9898) * 1.7));

describe('planAllocation: delay objective', () => {
  it('spends the budget exactly', () => {
    for (const budgetPerHour of [10, 41.7, 125, 1000]) {
      expect(spend(rates, { ...base, budgetPerHour }) / budgetPerHour).toBeCloseTo(1, 9);
    }
  });

  it('gives one-page subjects visit rates proportional to √λ, i.e. next visit = c/√λ later', () => {
    const small = [0.01, 0.04, 0.09, 0.16];
    const plan = planAllocation(small, { ...base, budgetPerHour: 2 });
    const f = small.map((r) => visitRatePerHour(plan, r));
    expect(f[1]! / f[0]!).toBeCloseTo(2, 9);
    expect(f[3]! / f[0]!).toBeCloseTo(4, 9);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(2, 9);
    const c = sqrtRuleConstant(plan);
    small.forEach((r, i) => expect(1 / f[i]!).toBeCloseTo(c / Math.sqrt(r), 9));
  });

  it('beats proportional and uniform allocations of the same budget on predicted delay', () => {
    const plan = planAllocation(rates, { ...base, budgetPerHour: 30 });
    const total = rates.reduce((a, b) => a + b, 0);
    const waiting = (f: (r: number) => number): number => rates.reduce((s, r) => s + r / (2 * f(r)), 0) / total;
    const optimal = predictedMeanDelayHours(plan, rates);
    expect(optimal).toBeCloseTo(waiting((r) => visitRatePerHour(plan, r)), 9);
    expect(optimal).toBeLessThan(waiting(() => 30 / rates.length));
    expect(optimal).toBeLessThan(waiting((r) => (30 * r) / total));
  });

  it('raises every subject to the floor and still spends exactly the budget', () => {
    const withQuiet = [...rates, ...Array.from({ length: 200 }, () => 1e-6)];
    const opts = { ...base, budgetPerHour: 50, floorPerHour: 1 / 168 };
    const plan = planAllocation(withQuiet, opts);
    expect(plan.binding).toBe('budget');
    expect(visitRatePerHour(plan, 1e-6)).toBeCloseTo(1 / 168, 12);
    expect(visitRatePerHour(plan, 0)).toBeCloseTo(1 / 168, 12);
    expect(spend(withQuiet, opts) / 50).toBeCloseTo(1, 9);
  });

  it('scales the floors down when floors alone exceed the budget', () => {
    // 1000 subjects with a floor of one visit per 2 h would need 500 pages/h.
    const opts = { ...base, budgetPerHour: 20, floorPerHour: 1 / 2 };
    const plan = planAllocation(rates, opts);
    expect(plan.binding).toBe('floors');
    expect(plan.floorScale).toBeLessThan(1);
    expect(spend(rates, opts) / 20).toBeCloseTo(1, 9);
  });

  it('holds the politeness cap, and leaves budget unspent when every subject is capped', () => {
    const opts = { ...base, budgetPerHour: 500, capPerHour: 12 };
    const plan = planAllocation([100, 0.1, 0.01], opts);
    expect(visitRatePerHour(plan, 100)).toBeLessThanOrEqual(12);
    const capped = planAllocation([1, 1], { ...base, budgetPerHour: 500, capPerHour: 2 });
    expect(capped.binding).toBe('caps');
    expect(visitRatePerHour(capped, 1)).toBe(2);
    expect(capped.spentPerHour).toBeLessThan(500);
  });

  it('charges extra pages and lets the price decide between visiting earlier and paging further', () => {
    expect(expectedPagesPerVisit(5, 20)).toBe(1);
    expect(expectedPagesPerVisit(50, 20)).toBeCloseTo(3, 12);
    // A very busy subject pays for several pages per visit anyway, so a visit costs it only half a
    // page more: its optimum is √(λ/ν), √2 times the one-page rule √(λ/(2ν)).
    const plan = planAllocation([50, ...rates], { ...base, budgetPerHour: 60 });
    const f = visitRatePerHour(plan, 50);
    expect(50 / f).toBeGreaterThan(10);
    expect(f).toBeCloseTo(Math.sqrt(50 / plan.price), 9);
    // Between λ = P²/(8ν) and P²/(4ν) neither regime's optimum is valid: visits every half page.
    const kinkRate = 75 / plan.price;
    expect(visitRatePerHour(plan, kinkRate)).toBeCloseTo((2 * kinkRate) / 20, 9);
  });

  it('rejects nonsense options', () => {
    expect(() => planAllocation(rates, { ...base, budgetPerHour: 0 })).toThrow(RangeError);
    expect(() => planAllocation(rates, { ...base, floorPerHour: 2, capPerHour: 1 })).toThrow(RangeError);
  });
});

describe('freshnessRatio', () => {
  it('inverts 1 − (1 + r)e^{−r} over small, middle and large r', () => {
    for (const r of [1e-5, 0.003, 0.2, 1, 1.6, 4, 12, 30]) {
      const y = r < 1e-3 ? r * r * (0.5 - r / 3) : 1 - (1 + r) * Math.exp(-r);
      expect(freshnessRatio(y) / r).toBeCloseTo(1, 5);
    }
    expect(freshnessRatio(1 - 2 / Math.E)).toBeCloseTo(1, 6);
    expect(freshnessRatio(0)).toBe(0);
  });
});

describe('planAllocation: freshness objective', () => {
  it('spends the budget exactly and abandons the fastest subjects, unlike the delay objective', () => {
    const mixed = [0.05, 0.1, 0.2, 0.5, 1, 5, 20];
    const opts = { ...base, objective: 'freshness' as const, budgetPerHour: 1 };
    const plan = planAllocation(mixed, opts);
    expect(spend(mixed, opts)).toBeCloseTo(1, 9);
    expect(visitRatePerHour(plan, 20)).toBe(0);
    expect(visitRatePerHour(plan, 0.5)).toBeGreaterThan(0);
    const delay = planAllocation(mixed, { ...opts, objective: 'delay' });
    expect(visitRatePerHour(delay, 20)).toBeGreaterThan(visitRatePerHour(delay, 0.5));
  });

  it('keeps abandoned subjects at the exploration floor', () => {
    const plan = planAllocation([0.05, 0.1, 4], { ...base, objective: 'freshness', budgetPerHour: 0.5, floorPerHour: 0.01 });
    expect(plan.binding).toBe('budget');
    expect(visitRatePerHour(plan, 4)).toBeCloseTo(0.01, 12);
  });

  it('beats the delay objective on expected freshness', () => {
    const opts = { ...base, budgetPerHour: 30 };
    const fresh = planAllocation(rates, { ...opts, objective: 'freshness' });
    const delay = planAllocation(rates, opts);
    const freshness = (plan: typeof fresh): number => rates.reduce((s, r) => {
      const f = visitRatePerHour(plan, r);
      return s + (f > 0 ? (f / r) * (1 - Math.exp(-r / f)) : 0);
    }, 0);
    expect(freshness(fresh)).toBeGreaterThan(freshness(delay));
  });
});

describe('planAllocation: it cannot give up (issue 21)', () => {
  // The collapse: a first sweep read a few subjects at thousands of posts an hour, the floors looked
  // unaffordable and shrank ~1e-12, and everybody else was pushed ~1e14 hours away.
  const absurd = [...Array.from({ length: 50 }, () => 5000), ...Array.from({ length: 19_950 }, () => 1 / 24)];
  const opts: AllocationOptions = { ...base, budgetPerHour: 20_000 / 48, floorPerHour: 1 / 720, pageSize: 10, pageLimit: 10, capPerHour: 12 };

  it('keeps a finite price, bounded floors and every subject within its floor interval, however wrong the rates', () => {
    const plan = planAllocation(absurd, opts);
    expect(Number.isFinite(plan.price)).toBe(true);
    expect(plan.floorScale).toBeGreaterThan(0.05);
    expect(maxIntervalHours(plan)).toBeLessThan(720 / 0.05);
    for (const r of [0, 1e-9, 1 / 24, 5000]) {
      expect(visitRatePerHour(plan, r)).toBeGreaterThanOrEqual(1 / maxIntervalHours(plan) - 1e-15);
      expect(visitRatePerHour(plan, r)).toBeLessThanOrEqual(plan.maxSubjectShare * opts.budgetPerHour + 1e-12);
    }
    expect(plan.spentPerHour).toBeLessThanOrEqual(opts.budgetPerHour * (1 + 1e-9));
  });

  it('leaves most of the budget to the price: floors take at most their share of the visits', () => {
    const plan = planAllocation(Array.from({ length: 10_000 }, () => 1 / 24), { ...opts, floorPerHour: 1 });
    expect(plan.binding).toBe('floors');
    expect(plan.floorPerHour * plan.floorScale * 10_000).toBeCloseTo(0.2 * opts.budgetPerHour, 6);
    expect(plan.spentPerHour / opts.budgetPerHour).toBeCloseTo(1, 6);
  });

  it('visits busy subjects before a page limit of posts piles up, while the budget can read them', () => {
    const rates = [50, ...Array.from({ length: 1000 }, () => 0.01)];
    const plan = planAllocation(rates, { ...base, budgetPerHour: 8, pageSize: 10, pageLimit: 10 });
    expect(50 / visitRatePerHour(plan, 50)).toBeLessThanOrEqual(0.7 * 100 + 1e-9);
    const noLimit = planAllocation(rates, { ...base, budgetPerHour: 8, pageSize: 10 });
    expect(50 / visitRatePerHour(noLimit, 50)).toBeGreaterThan(100);
  });

  it('never charges a visit more than the page limit', () => {
    expect(expectedPagesPerVisit(10_000, 10, 10)).toBe(10);
    expect(pagesPerHour(2, 10_000, 10, 10)).toBe(20);
  });
});
