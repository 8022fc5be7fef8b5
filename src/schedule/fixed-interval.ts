import { z } from 'zod';
import type { SubjectState } from '../core/envelope';
import type { VisitOutcome } from '../parsers/adapter';

/** The simplest schedule: every subject again after a fixed interval. A baseline and a fallback. */
export const fixedIntervalConfigSchema = z.strictObject({
  type: z.literal('fixed_interval'),
  interval_secs: z.number().min(1).default(3600),
});

export type FixedIntervalConfig = z.infer<typeof fixedIntervalConfigSchema>;

/** Decides when a subject is visited again, after a successful visit. */
export interface NextVisitPolicy {
  nextVisitMs(state: SubjectState, outcome: VisitOutcome, nowMs: number): number;
}

export function fixedInterval(config: FixedIntervalConfig): NextVisitPolicy {
  return { nextVisitMs: (_state, outcome, nowMs) => (outcome.state.status === 'gone' ? -1 : nowMs + config.interval_secs * 1000) };
}
