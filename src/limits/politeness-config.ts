import { z } from 'zod';
import { timerMs } from '../core/timers';
import { selfTuningConfigSchema } from './self-tuning';

/** A pipeline's `politeness:`: per-origin limits kept in Redis, so they hold across every worker (OriginGate). */
export const politenessConfigSchema = z.strictObject({
  /** Minimum gap between two requests to one origin, across every worker (kept in Redis). */
  min_delay_ms: timerMs(0).default(0),
  /** A slot further away than this is not waited for: the subject is rescheduled instead. */
  max_wait_ms: timerMs(0).default(2_000),
  /** Requests in flight to one origin at once, across every worker (0: no limit beyond the fetcher's). */
  max_concurrency_per_origin: z.number().int().min(0).default(0),
  /**
   * Learn the rate each origin allows each identity when it never says (limits/self-tuning.ts):
   * the learned rate is a metric and caps the schedule's budget. Give it with an identity or
   * proxy pool (one attempt per request), so that every refusal reaches it.
   */
  self_tuning: selfTuningConfigSchema.optional(),
});

export type PolitenessConfig = z.infer<typeof politenessConfigSchema>;
