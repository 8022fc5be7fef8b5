import { z } from 'zod';
import { timerMs } from '../core/timers';

/**
 * A pool of identities (tokens or cookies) that every request of a pipeline is sent as, each within
 * its own request quota per window, kept in Redis across workers. The secrets never appear in a
 * pipeline file: the CLI reads them from `FRESHET_TOKENS_<POOL>` (comma-separated) or from the file
 * named by `FRESHET_TOKENS_<POOL>_FILE` (one per line).
 */
export const identitiesConfigSchema = z.strictObject({
  /** Names the pool in Redis and in the environment variable (upper-cased). */
  pool: z.string().regex(/^[a-z0-9_]{1,40}$/, 'lower-case letters, digits and _'),
  /** How a token is presented: the microblog's `SUB` cookie, or an `Authorization: Bearer` header. */
  send_as: z.enum(['cookie_sub', 'bearer']).default('cookie_sub'),
  /** Requests each identity may send per window (the API seeds describe 150 per hour per token). */
  requests_per_window: z.number().int().min(1).default(150),
  window_secs: z.number().int().min(1).default(3600),
  /** How long an identity answered with 418/403/429 (or a soft block) sits out, at most. */
  bench_secs: z.number().int().min(1).default(7200),
  /**
   * With this set, the sit-out escalates: min_bench_secs after the first refusal, doubling with each
   * refusal in a row up to bench_secs; an answered request ends the run. Absent: always bench_secs.
   */
  min_bench_secs: z.number().int().min(1).optional(),
  /** Longer waits for a free identity reschedule the subject instead of holding its slot. */
  max_wait_ms: timerMs(0).default(2000),
});

export type IdentitiesConfig = z.infer<typeof identitiesConfigSchema>;

export function identityHeaders(sendAs: IdentitiesConfig['send_as']): (token: string) => Record<string, string> {
  return sendAs === 'bearer' ? (t) => ({ authorization: `Bearer ${t}` }) : (t) => ({ cookie: `SUB=${t}` });
}
