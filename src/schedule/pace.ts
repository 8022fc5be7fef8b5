/**
 * Keeps the due queue from drifting behind (or ahead of) the budget.
 *
 * The plan makes Σ f_i · pages_i equal the budget in expectation, so the queue of due subjects
 * runs at exactly full utilisation: its backlog then has no restoring force and wanders like a
 * random walk (a queue at utilisation 1 is null-recurrent). Lateness is harmful in a specific
 * way: every subject is visited late by the same amount, an *additive* delay that pushes the
 * allocation towards round-robin; visits pulled forward to spend idle budget distort it the
 * other way. So a slow feedback multiplies every visit rate by a `pace`: below 1 while visits run
 * late (intervals stretch in proportion, keeping the √λ shape, and the backlog drains), above 1
 * while the queue runs dry and visits are pulled forward. It is a PI controller on the mean
 * lateness of revisits (visit time − due time, negative when early), measured in the intervals the
 * visits were planned for, and with time counted in those intervals too. In hours, one gain could
 * not serve every budget: a change of pace moves every due time by a share of its interval, so the
 * lateness it causes grows with the intervals; at 0.25× (intervals of days) a gain of 0.05 an hour
 * turned each hour's lateness into the next hour's opposite one, and the pace swung between its
 * bounds at every replan (±30 h of lateness, both for freshet and the oracle), while at 1× and 2×
 * it held within 1 %. The live crawler measures the same thing when it claims from the due ZSET.
 * Callers hold it still while never-visited subjects are being swept in: their backlog says
 * nothing about the revisit plan.
 */
export interface PaceState {
  /** The integral part: corrects a persistent bias of the plan (page-cost or estimate errors). */
  integral: number;
  /** The rate multiplier now in force. */
  pace: number;
}

export interface PaceOptions {
  /** Proportional gain on log(pace), per planned interval of lateness. */
  proportionalGain: number;
  /** Integral gain, per planned interval of lateness per planned interval of time. */
  integralGain: number;
  minPace: number;
  maxPace: number;
}

export const DEFAULT_PACE: PaceOptions = {
  proportionalGain: 0.5, integralGain: 1, minPace: 0.5, maxPace: 1.5,
};

export const INITIAL_PACE: PaceState = { integral: 0, pace: 1 };

/**
 * One step: `lateness` is the mean lateness of the visits taken since the last step, each in the
 * interval it was planned for (0.1: a tenth of its interval late), and `intervalHours` the mean of
 * those intervals, the unit time is counted in; without an interval (none taken) the proportional
 * part lapses and the integral holds. Each visit in its own interval, not the mean lateness over the
 * mean interval: when a cohort of subjects with long intervals comes due at once, every visit in the
 * queue runs hours late, which is little against their days but much against the short intervals of
 * the busy subjects behind them (where the posts are), and the mean over the mean hid it.
 */
export function updatePace(state: PaceState, lateness: number, elapsedHours: number, intervalHours: number, opts: PaceOptions = DEFAULT_PACE): PaceState {
  if (!(intervalHours > 0 && Number.isFinite(intervalHours))) return piStep(state, 0, 0, opts);
  // Late visits (positive error) must slow the pace: the controller acts on the negated error.
  return piStep(state, -lateness, elapsedHours / intervalHours, opts);
}

/** One PI step on log(pace), the integral and the result both clamped to [minPace, maxPace]. */
function piStep(state: PaceState, error: number, elapsed: number, opts: SpendPaceOptions): PaceState {
  const limit = Math.log(opts.maxPace);
  const floor = Math.log(opts.minPace);
  const integral = Math.min(limit, Math.max(floor, state.integral + opts.integralGain * error * elapsed));
  const logPace = Math.min(limit, Math.max(floor, integral + opts.proportionalGain * error));
  return { integral, pace: Math.exp(logPace) };
}

/**
 * The live crawler's pace. It has no per-tick budget to run late against: it visits whatever is
 * due, so a plan that under-spends shows up as budget left unused, not as lateness. What it can
 * see at every refit is the spend its due queue holds: Σ pages_i / interval_i over the intervals
 * actually written (stale ones written by earlier models, visits timed from the fetch, caps). A PI
 * controller on log(scheduled / planned spend) moves the pace until the queue holds the plan's
 * spend. The response lags by about one visit interval (only rescheduled subjects pick the pace
 * up), hence the slow integral.
 */
export interface SpendPaceOptions {
  /** Proportional gain on log(planned / scheduled). */
  proportionalGain: number;
  /** Integral gain, per hour. */
  integralGain: number;
  minPace: number;
  maxPace: number;
}

export const DEFAULT_SPEND_PACE: SpendPaceOptions = { proportionalGain: 0.5, integralGain: 0.04, minPace: 0.5, maxPace: 2 };

export function updateSpendPace(
  state: PaceState, scheduledPerHour: number, plannedPerHour: number, elapsedHours: number, opts: SpendPaceOptions = DEFAULT_SPEND_PACE,
): PaceState {
  if (!(scheduledPerHour > 0 && plannedPerHour > 0 && elapsedHours >= 0)) return state;
  return piStep(state, Math.log(plannedPerHour / scheduledPerHour), elapsedHours, opts);
}
