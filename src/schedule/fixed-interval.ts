import { z } from 'zod';
import type { NextVisitPolicy } from './contract';

/** The simplest schedule: every subject again after a fixed interval. A baseline and a fallback. */
export const fixedIntervalConfigSchema = z.strictObject({
  type: z.literal('fixed_interval'),
  interval_secs: z.number().min(1).default(3600),
});

export type FixedIntervalConfig = z.infer<typeof fixedIntervalConfigSchema>;

export function fixedInterval(config: FixedIntervalConfig): NextVisitPolicy {
  return {
    nextVisit: (_before, outcome, nowMs) => ({
      nextDueMs: outcome.state.status === 'gone' ? -1 : nowMs + config.interval_secs * 1000,
      state: outcome.state,
    }),
  };
}
