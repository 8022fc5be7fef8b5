import { map, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import type { DocEnvelope } from '../core/envelope';
import type { Settled } from './elasticsearch';

/** Settles every document as indexed without sending it anywhere: for benchmarks and dry runs. */
export const blackholeSinkConfigSchema = z.strictObject({ type: z.literal('blackhole') });
export type BlackholeSinkConfig = z.infer<typeof blackholeSinkConfigSchema>;

export function blackholeSink(): OperatorFunction<DocEnvelope, Settled> {
  return map((env) => ({ env, how: 'indexed' as const }));
}
