import { map, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import type { DocEnvelope } from '../core/envelope';
import type { Settled } from './elasticsearch';

/** Settles every document as indexed without sending it anywhere: for benchmarks and dry runs. */
export const nullSinkConfigSchema = z.strictObject({ type: z.literal('null') });
export type NullSinkConfig = z.infer<typeof nullSinkConfigSchema>;

export function nullSink(): OperatorFunction<DocEnvelope, Settled> {
  return map((env) => ({ env, how: 'indexed' as const }));
}
