/**
 * Budgeted allocation of visit rates f_i (visits per hour) across subjects with rates λ_i.
 *
 * `delay` objective (default). With Poisson arrivals and visits every 1/f, a post waits 1/(2f) on
 * average, so subject i holds λ_i/(2 f_i) posts waiting at a random time and the total
 * publication-to-index delay per hour is Σ λ_i/(2 f_i). Minimising it under the budget Σ f_i = B
 * (Lagrangian λ_i/(2 f_i) + ν f_i, derivative −λ_i/(2 f_i²) + ν = 0) gives f_i = √(λ_i/(2ν)): the
 * square-root rule f_i ∝ √λ_i, i.e. a next visit c/√λ_i after the last one with c = √(2ν) chosen so
 * that Σ f_i = B. Busy subjects are visited more often, but less than proportionally, because a
 * visit to a quiet subject catches its rare post just as late as a busy one's would.
 *
 * Timeline pages. A visit reads pages of `pageSize` posts until the watermark, so a subject with
 * m = λ/f posts waiting costs p(m) ≈ max(1, m/P + ½) pages (the ½ is the partly filled last page).
 * Its cost per hour is then max(f, λ/P + f/2): beyond half a page per visit, extra visits cost
 * only half a page each, because the posts have to be paged through anyway. The optimum per
 * regime is √(λ/(2ν)) (one page) or √(λ/ν) (several pages), or the kink m = P/2 between them;
 * the convex Lagrangian picks among them, so "visit earlier or pay extra pages" is decided by the
 * same price ν rather than by a separate rule.
 *
 * `freshness` objective (Cho & Garcia-Molina, "Synchronizing a database to improve freshness",
 * 2000). A subject visited every 1/f is fresh a fraction F = (f/λ)(1 − e^{−λ/f}) of the time;
 * maximising Σ F_i under Σ f_i = B gives F'(f_i) = ν with F'(f) = (1 − (1 + r)e^{−r})/λ, r = λ/f.
 * When νλ ≥ 1 the subject is abandoned (it changes too fast to be kept fresh at this price).
 * Their model has no pages, so the condition prices a visit at one page; the extra pages a visit
 * actually costs are still counted when ν is solved against the budget.
 *
 * Floors keep every active subject visited now and then, so that its estimate stays honest;
 * caps are politeness limits. With box constraints on a convex separable problem the optimum is
 * the unconstrained one clamped, with ν re-solved so that the budget is spent exactly.
 */

export type Objective = 'delay' | 'freshness';

export interface AllocationOptions {
  objective: Objective;
  /** Pages per hour the fetcher may spend on this population. */
  budgetPerHour: number;
  /** Minimum visits per hour of every active subject (exploration). */
  floorPerHour: number;
  /** Maximum visits per hour of any subject (politeness). */
  capPerHour: number;
  /** Posts per timeline page. */
  pageSize: number;
}

export interface AllocationPlan extends AllocationOptions {
  /** Lagrange multiplier ν: the objective's value of one page per hour. */
  price: number;
  /** Floors scaled by this (< 1) when floors alone would exceed the budget. */
  floorScale: number;
  /** What limits the allocation: the budget (normal), the floors, or the caps. */
  binding: 'budget' | 'floors' | 'caps';
  /** Pages per hour the plan spends: the budget unless caps bind. */
  spentPerHour: number;
  subjects: number;
}

export function expectedPagesPerVisit(postsPerVisit: number, pageSize: number): number {
  return Math.max(1, postsPerVisit / pageSize + 0.5);
}

/** Pages per hour a subject with `ratePerHour` costs when visited `visitsPerHour`. */
export function pagesPerHour(visitsPerHour: number, ratePerHour: number, pageSize: number): number {
  if (visitsPerHour <= 0) return 0;
  return visitsPerHour * expectedPagesPerVisit(ratePerHour / visitsPerHour, pageSize);
}

// The inverse of h(r) = 1 − (1 + r)e^{−r}, tabulated once on a grid uniform in log y (so that a
// lookup is an index computation, not a search), for the freshness first-order condition.
const H_R_MIN = 1e-4;
const H_R_MAX = 60;
function hOf(r: number): number {
  return r < 1e-2 ? r * r * (0.5 - r / 3 + (r * r) / 8) : 1 - (1 + r) * Math.exp(-r);
}
const H_TABLE_N = 4096;
const H_LOG_Y_MIN = Math.log(hOf(H_R_MIN));
const H_LOG_Y_MAX = Math.log(hOf(H_R_MAX));
const H_LOG_Y_STEP = (H_LOG_Y_MAX - H_LOG_Y_MIN) / (H_TABLE_N - 1);
const H_INV_LOG_R: Float64Array = (() => {
  const table = new Float64Array(H_TABLE_N);
  let lo = Math.log(H_R_MIN);
  for (let i = 0; i < H_TABLE_N; i++) {
    const logY = H_LOG_Y_MIN + i * H_LOG_Y_STEP;
    // h is increasing, so each entry's root lies above the previous one: bisect from there.
    let a = lo;
    let b = Math.log(H_R_MAX);
    for (let k = 0; k < 60; k++) {
      const mid = (a + b) / 2;
      if (Math.log(hOf(Math.exp(mid))) < logY) a = mid;
      else b = mid;
    }
    table[i] = (a + b) / 2;
    lo = a;
  }
  return table;
})();

/** r such that 1 − (1 + r)e^{−r} = y, for y in (0, 1). */
export function freshnessRatio(y: number): number {
  if (y <= 0) return 0;
  const logY = Math.log(y);
  if (logY <= H_LOG_Y_MIN) return Math.sqrt(2 * y);
  if (y >= 1) return Number.POSITIVE_INFINITY;
  if (y > 0.5) {
    // Near 1 a grid in log y is too coarse: solve log(1 + r) − r = log(1 − y) by Newton instead.
    const target = Math.log1p(-y);
    let r = Math.max(1.7, -target);
    for (let k = 0; k < 30; k++) {
      const step = (Math.log1p(r) - r - target) / (1 / (1 + r) - 1);
      r -= step;
      if (Math.abs(step) < 1e-12 * r) break;
    }
    return r;
  }
  const x = (logY - H_LOG_Y_MIN) / H_LOG_Y_STEP;
  const i = Math.min(H_TABLE_N - 2, Math.floor(x));
  const w = x - i;
  return Math.exp(H_INV_LOG_R[i]! + w * (H_INV_LOG_R[i + 1]! - H_INV_LOG_R[i]!));
}

function unconstrainedRate(objective: Objective, ratePerHour: number, price: number, pageSize: number): number {
  if (!(ratePerHour > 0)) return 0;
  if (price === 0) return Number.POSITIVE_INFINITY;
  if (!Number.isFinite(price)) return 0;
  if (objective === 'delay') {
    const kink = (2 * ratePerHour) / pageSize;
    const onePage = Math.sqrt(ratePerHour / (2 * price));
    if (onePage >= kink) return onePage;
    const severalPages = Math.sqrt(ratePerHour / price);
    return severalPages <= kink ? severalPages : kink;
  }
  const y = price * ratePerHour;
  if (y >= 1) return 0;
  return ratePerHour / freshnessRatio(y);
}

/** The visit rate the plan gives a subject whose (estimated) rate is `ratePerHour`. */
export function visitRatePerHour(plan: AllocationPlan, ratePerHour: number): number {
  const f = unconstrainedRate(plan.objective, ratePerHour, plan.price, plan.pageSize);
  return Math.min(plan.capPerHour, Math.max(plan.floorPerHour * plan.floorScale, f));
}

function totalCost(rates: ArrayLike<number>, plan: AllocationPlan): number {
  let sum = 0;
  for (let i = 0; i < rates.length; i++) {
    const lambda = rates[i]!;
    sum += pagesPerHour(visitRatePerHour(plan, lambda), lambda, plan.pageSize);
  }
  return sum;
}

/**
 * Finds x in (lo, hi) where the monotone g crosses `target`, by false position (Illinois) on
 * log x and log g: costs behave like a power of the price, so a few steps usually suffice, and
 * the bracket guarantees convergence when they do not.
 */
function solveLog(g: (x: number) => number, target: number, lo: number, hi: number): number {
  let a = Math.log(lo);
  let b = Math.log(hi);
  let fa = Math.log(g(lo) / target);
  let fb = Math.log(g(hi) / target);
  if (fa === 0) return lo;
  if (fb === 0) return hi;
  let side = 0;
  for (let i = 0; i < 200; i++) {
    let c = (a * fb - b * fa) / (fb - fa);
    if (!(c > Math.min(a, b) && c < Math.max(a, b))) c = (a + b) / 2;
    const fc = Math.log(g(Math.exp(c)) / target);
    if (Math.abs(fc) < 1e-14 || Math.abs(b - a) < 1e-15) return Math.exp(c);
    if ((fc > 0) === (fb > 0)) {
      b = c;
      fb = fc;
      if (side === -1) fa /= 2;
      side = -1;
    } else {
      a = c;
      fa = fc;
      if (side === 1) fb /= 2;
      side = 1;
    }
  }
  return Math.exp((a + b) / 2);
}

export function planAllocation(ratesPerHour: ArrayLike<number>, opts: AllocationOptions): AllocationPlan {
  const { budgetPerHour, floorPerHour, capPerHour, pageSize } = opts;
  if (!(budgetPerHour > 0)) throw new RangeError(`budgetPerHour must be positive, got ${budgetPerHour}`);
  if (!(floorPerHour >= 0 && capPerHour > 0 && floorPerHour <= capPerHour)) {
    throw new RangeError(`need 0 <= floorPerHour <= capPerHour, got ${floorPerHour} and ${capPerHour}`);
  }
  if (!(pageSize >= 1)) throw new RangeError(`pageSize must be at least 1, got ${pageSize}`);
  const base: AllocationPlan = {
    ...opts, price: Number.POSITIVE_INFINITY, floorScale: 1, binding: 'budget', spentPerHour: 0, subjects: ratesPerHour.length,
  };
  if (ratesPerHour.length === 0) return base;
  const at = (price: number, floorScale = 1): AllocationPlan => ({ ...base, price, floorScale });

  const floorsCost = totalCost(ratesPerHour, at(Number.POSITIVE_INFINITY));
  if (floorsCost >= budgetPerHour) {
    // Floors alone exceed the budget: the budget wins, every subject gets the same share of it.
    if (floorPerHour === 0) return { ...base, binding: 'floors', floorScale: 0 };
    const s = solveLog((x) => totalCost(ratesPerHour, at(Number.POSITIVE_INFINITY, x)), budgetPerHour, 1e-12, 1);
    const plan = at(Number.POSITIVE_INFINITY, s);
    return { ...plan, binding: 'floors', spentPerHour: totalCost(ratesPerHour, plan) };
  }
  const capsCost = totalCost(ratesPerHour, at(0));
  if (capsCost <= budgetPerHour) return { ...at(0), binding: 'caps', spentPerHour: capsCost };

  // Start from the square-root rule's closed form, which is exact when no floor, cap or page binds.
  let sumSqrt = 0;
  for (let i = 0; i < ratesPerHour.length; i++) sumSqrt += Math.sqrt(Math.max(0, ratesPerHour[i]!) / 2);
  const guess = sumSqrt > 0 ? (sumSqrt / budgetPerHour) ** 2 : 1;
  let lo = guess / 2;
  let hi = guess * 2;
  const cost = (price: number): number => totalCost(ratesPerHour, at(price));
  while (cost(lo) <= budgetPerHour && lo > 1e-300) lo /= 16;
  while (cost(hi) > budgetPerHour && hi < 1e300) hi *= 16;
  const price = solveLog(cost, budgetPerHour, lo, hi);
  const plan = at(price);
  return { ...plan, spentPerHour: totalCost(ratesPerHour, plan) };
}

/**
 * The plan's predicted mean publication-to-index delay, Σ λ_i/(2 f_i) / Σ λ_i: what `freshet
 * status` shows and what a live crawl's measured delay is compared with.
 */
export function predictedMeanDelayHours(plan: AllocationPlan, ratesPerHour: ArrayLike<number>): number {
  let waiting = 0;
  let total = 0;
  for (let i = 0; i < ratesPerHour.length; i++) {
    const lambda = ratesPerHour[i]!;
    if (!(lambda > 0)) continue;
    total += lambda;
    const f = visitRatePerHour(plan, lambda);
    waiting += f > 0 ? lambda / (2 * f) : Number.POSITIVE_INFINITY;
  }
  return total > 0 ? waiting / total : 0;
}

/** The c of "next visit = last visit + c/√λ" for one-page subjects under the delay objective. */
export function sqrtRuleConstant(plan: AllocationPlan): number {
  return Math.sqrt(2 * plan.price);
}
