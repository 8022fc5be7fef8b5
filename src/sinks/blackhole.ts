import { map } from 'rxjs';
import { z } from 'zod';
import type { Sink } from './contract';

/** Settles every document as indexed without sending it anywhere: for benchmarks and dry runs. */
export const blackholeSinkConfigSchema = z.strictObject({ type: z.literal('blackhole') });
export type BlackholeSinkConfig = z.infer<typeof blackholeSinkConfigSchema>;

export function blackholeSink(): Sink {
  return map((env) => ({ env, how: 'indexed' as const }));
}
