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
  /** Pages a visit reads at most; posts beyond are lost. Default: no limit. */
  pageLimit?: number;
  /** Most of the budget the exploration floors may take (they are scaled down to fit). Default 0.2. */
  floorShare?: number;
  /** Most of the budget's visits one subject may take. Default max(0.05, 20 / subjects). */
  maxSubjectShare?: number;
}

export interface AllocationPlan extends Required<AllocationOptions> {
  /** Lagrange multiplier ν: the objective's value of one page per hour. Always finite. */
  price: number;
  /** Floors scaled by this (< 1) when the floors would take more than `floorShare` of the budget. */
  floorScale: number;
  /**
   * The page-limit floor (visit before a page limit's worth of posts piles up) scaled by this (< 1)
   * when the budget cannot even read every post: then some are lost whatever the schedule.
   */
  lossScale: number;
  /** What limits the allocation: the budget (normal), the floors (scaled down), or the caps. */
  binding: 'budget' | 'floors' | 'caps';
  /** Pages per hour the plan spends: the budget unless caps bind. */
  spentPerHour: number;
  subjects: number;
}

/**
 * Posts expected per visit are kept below this share of what a visit can read: Poisson noise and
 * bursts would otherwise overflow the page limit, and an overflowing visit loses posts for good.
 */
const LOSS_MARGIN = 0.7;
/** Floors of both kinds together take at most this share of the budget; the rest follows the price. */
const LOWER_SHARE = 0.9;

export function expectedPagesPerVisit(postsPerVisit: number, pageSize: number, pageLimit = Number.POSITIVE_INFINITY): number {
  return Math.min(pageLimit, Math.max(1, postsPerVisit / pageSize + 0.5));
}

/** Pages per hour a subject with `ratePerHour` costs when visited `visitsPerHour`. */
export function pagesPerHour(visitsPerHour: number, ratePerHour: number, pageSize: number, pageLimit = Number.POSITIVE_INFINITY): number {
  if (visitsPerHour <= 0) return 0;
  return visitsPerHour * expectedPagesPerVisit(ratePerHour / visitsPerHour, pageSize, pageLimit);
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

function lossFloorPerHour(plan: AllocationPlan, ratePerHour: number): number {
  return Number.isFinite(plan.pageLimit) && ratePerHour > 0 ? (plan.lossScale * ratePerHour) / (LOSS_MARGIN * plan.pageLimit * plan.pageSize) : 0;
}

/**
 * The most visits per hour the plan allows a subject: politeness, and no more than its share of the
 * budget's visits unless its posts need more to stay within the page limit (the page-limit floor is
 * itself scaled down when the budget cannot read every post, so estimates cannot inflate it at will).
 */
export function maxVisitRatePerHour(plan: AllocationPlan, ratePerHour: number): number {
  return Math.min(plan.capPerHour, Math.max(plan.maxSubjectShare * plan.budgetPerHour, lossFloorPerHour(plan, ratePerHour)));
}

/** The fewest visits per hour the plan allows a subject: the exploration floor, and enough to keep within the page limit. */
export function minVisitRatePerHour(plan: AllocationPlan, ratePerHour: number): number {
  return Math.min(maxVisitRatePerHour(plan, ratePerHour), Math.max(plan.floorPerHour * plan.floorScale, lossFloorPerHour(plan, ratePerHour)));
}

/** The visit rate the plan gives a subject whose (estimated) rate is `ratePerHour`. */
export function visitRatePerHour(plan: AllocationPlan, ratePerHour: number): number {
  const f = unconstrainedRate(plan.objective, ratePerHour, plan.price, plan.pageSize);
  return Math.min(maxVisitRatePerHour(plan, ratePerHour), Math.max(minVisitRatePerHour(plan, ratePerHour), f));
}

/** The longest interval the plan allows any subject (its scaled exploration floor), in hours. */
export function maxIntervalHours(plan: AllocationPlan): number {
  const f = plan.floorPerHour * plan.floorScale;
  return f > 0 ? 1 / f : Number.POSITIVE_INFINITY;
}

function totalCost(rates: ArrayLike<number>, plan: AllocationPlan, visits: (plan: AllocationPlan, rate: number) => number = visitRatePerHour): number {
  let sum = 0;
  for (let i = 0; i < rates.length; i++) {
    const lambda = rates[i]!;
    sum += pagesPerHour(visits(plan, lambda), lambda, plan.pageSize, plan.pageLimit);
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

/**
 * Solves the allocation. It cannot give up on anyone, however wrong the estimates: the floors are
 * scaled to take at most `floorShare` of the budget (so every subject keeps a finite interval and
 * the rest of the budget still follows the price), a visit never costs more than the page limit,
 * no subject takes more than its share, and the price is always finite.
 */
export function planAllocation(ratesPerHour: ArrayLike<number>, opts: AllocationOptions): AllocationPlan {
  const { budgetPerHour, floorPerHour, capPerHour, pageSize } = opts;
  if (!(budgetPerHour > 0)) throw new RangeError(`budgetPerHour must be positive, got ${budgetPerHour}`);
  if (!(floorPerHour >= 0 && capPerHour > 0 && floorPerHour <= capPerHour)) {
    throw new RangeError(`need 0 <= floorPerHour <= capPerHour, got ${floorPerHour} and ${capPerHour}`);
  }
  if (!(pageSize >= 1)) throw new RangeError(`pageSize must be at least 1, got ${pageSize}`);
  const pageLimit = opts.pageLimit ?? Number.POSITIVE_INFINITY;
  if (!(pageLimit >= 1)) throw new RangeError(`pageLimit must be at least 1, got ${pageLimit}`);
  const floorShare = opts.floorShare ?? 0.2;
  if (!(floorShare > 0 && floorShare < LOWER_SHARE)) throw new RangeError(`floorShare must be in (0, ${LOWER_SHARE}), got ${floorShare}`);
  const n = ratesPerHour.length;
  const maxSubjectShare = opts.maxSubjectShare ?? Math.min(1, Math.max(0.05, 20 / Math.max(1, n)));
  const base: AllocationPlan = {
    ...opts, pageLimit, floorShare, maxSubjectShare, price: Number.POSITIVE_INFINITY, floorScale: 1, lossScale: 1,
    binding: 'budget', spentPerHour: 0, subjects: n,
  };
  if (n === 0) return base;
  let plan = base;
  const lowerCost = (p: AllocationPlan): number => totalCost(ratesPerHour, p, minVisitRatePerHour);

  // Exploration floors first: their visits take at most `floorShare` of the budget. Should the
  // pages those visits read (posts of subjects estimated busy) push the floors past LOWER_SHARE,
  // they shrink further; a visit costs at most the page limit, so the scale stays above
  // LOWER_SHARE·B / (f·N·L) > 0: every subject keeps a finite interval.
  if (floorPerHour > 0) {
    const visitsShare = Math.min(1, (floorShare * budgetPerHour) / (floorPerHour * n));
    if (visitsShare < 1) plan = { ...plan, floorScale: visitsShare, binding: 'floors' };
    const floorsOnly = (x: number): number => lowerCost({ ...plan, floorScale: x, lossScale: 0 });
    if (floorsOnly(plan.floorScale) > LOWER_SHARE * budgetPerHour) {
      plan = { ...plan, floorScale: solveLog(floorsOnly, LOWER_SHARE * budgetPerHour, 1e-15, plan.floorScale), binding: 'floors' };
    }
  }
  // Then the page-limit floors, scaled only when the budget cannot even read every post.
  if (lowerCost(plan) > LOWER_SHARE * budgetPerHour) {
    const withLoss = (x: number): number => lowerCost({ ...plan, lossScale: x });
    plan = { ...plan, lossScale: withLoss(1e-9) >= LOWER_SHARE * budgetPerHour ? 0 : solveLog(withLoss, LOWER_SHARE * budgetPerHour, 1e-9, 1) };
  }
  const capsCost = totalCost(ratesPerHour, { ...plan, price: 0 });
  if (capsCost <= budgetPerHour) return { ...plan, price: 0, binding: 'caps', spentPerHour: capsCost };

  // Start from the square-root rule's closed form, which is exact when no floor, cap or page binds.
  let sumSqrt = 0;
  for (let i = 0; i < n; i++) sumSqrt += Math.sqrt(Math.max(0, ratesPerHour[i]!) / 2);
  const guess = sumSqrt > 0 ? (sumSqrt / budgetPerHour) ** 2 : 1;
  let lo = guess / 2;
  let hi = guess * 2;
  const cost = (price: number): number => totalCost(ratesPerHour, { ...plan, price });
  while (cost(lo) <= budgetPerHour && lo > 1e-300) lo /= 16;
  while (cost(hi) > budgetPerHour && hi < 1e300) hi *= 16;
  const solved = { ...plan, price: solveLog(cost, budgetPerHour, lo, hi) };
  return { ...solved, spentPerHour: totalCost(ratesPerHour, solved) };
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
    waiting += lambda / (2 * Math.max(f, 1 / maxIntervalHours(plan)));
  }
  return total > 0 ? waiting / total : 0;
}

/** The c of "next visit = last visit + c/√λ" for one-page subjects under the delay objective. */
export function sqrtRuleConstant(plan: AllocationPlan): number {
  return Math.sqrt(2 * plan.price);
}
