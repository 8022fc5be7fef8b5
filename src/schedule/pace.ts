/**
 * Keeps the due queue from drifting behind (or ahead of) the budget.
 *
 * The plan makes Σ f_i · pages_i equal the budget in expectation, so the queue of due subjects
 * runs at exactly full utilisation: its backlog then has no restoring force and wanders like a
 * random walk (a queue at utilisation 1 is null-recurrent). A backlog is harmful in a specific
 * way: every subject is visited late by the same amount, an *additive* delay that pushes the
 * allocation towards round-robin. So a slow feedback multiplies every visit rate by a `pace`:
 * below 1 while subjects are overdue (intervals stretch in proportion, keeping the √λ shape, and
 * the backlog drains), back towards 1 when it is gone. It is a PI controller on the backlog,
 * measured in hours of budget; the live crawler measures it as the due ZSET's count below now.
 */
export interface PaceState {
  /** The integral part: corrects a persistent bias of the plan (page-cost or estimate errors). */
  integral: number;
  /** The rate multiplier now in force. */
  pace: number;
}

export interface PaceOptions {
  /** Backlog to hold, in hours of budget: a little, so that a due subject is always waiting. */
  targetBacklogHours: number;
  /** Proportional gain, per hour of backlog. */
  proportionalGain: number;
  /** Integral gain, per hour of backlog per hour. */
  integralGain: number;
  minPace: number;
  maxPace: number;
}

export const DEFAULT_PACE: PaceOptions = {
  targetBacklogHours: 0.1, proportionalGain: 0.05, integralGain: 0.01, minPace: 0.5, maxPace: 1.5,
};

export const INITIAL_PACE: PaceState = { integral: 0, pace: 1 };

export function updatePace(state: PaceState, backlogHours: number, elapsedHours: number, opts: PaceOptions = DEFAULT_PACE): PaceState {
  const error = backlogHours - opts.targetBacklogHours;
  const limit = Math.log(opts.maxPace);
  const floor = Math.log(opts.minPace);
  const integral = Math.min(limit, Math.max(floor, state.integral - opts.integralGain * error * elapsedHours));
  const logPace = Math.min(limit, Math.max(floor, integral - opts.proportionalGain * error));
  return { integral, pace: Math.exp(logPace) };
}
