import type { OperatorFunction } from 'rxjs';
import type { z } from 'zod';
import type { Clock } from './clock';
import type { DocEnvelope } from './envelope';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { Rng } from './rng';

export type StageKind = 'filter' | 'enricher' | 'extractor';

/** What a stage's `build` gets: everything injected, nothing global. */
export interface StageContext {
  pipeline: string;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  metrics: Metrics;
  /** Settles a document the stage decided not to pass on; counted with its reason. */
  drop(env: DocEnvelope, stage: string, reason: string): void;
}

/**
 * The stage contract: a pipeline `type`, a strict config schema (unknown keys are errors), and
 * `build(config, ctx)` returning an operator over documents. A stage handles per-item errors
 * itself; only a critical error may end the pipeline.
 */
export interface StageDefinition<S extends z.ZodType = z.ZodType> {
  type: string;
  kind: StageKind;
  schema: S;
  /**
   * The output depends on the document and the config only (no state across documents, no
   * clients): the stage may run on page worker threads, one copy per thread.
   */
  stateless?: boolean;
  build(config: z.infer<S>, ctx: StageContext): OperatorFunction<DocEnvelope, DocEnvelope>;
}

export function defineStage<S extends z.ZodType>(def: StageDefinition<S>): StageDefinition<S> {
  return def;
}
