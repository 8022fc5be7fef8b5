import type { SubjectState as FrontierState } from '../core/envelope';
import type { Logger } from '../core/logger';
import { buildModelFromFrontier, poissonNextVisitPolicy } from './core-bridge';
import type { NextVisitPolicy } from './fixed-interval';
import { configFromStage, poissonStageSchema, type ScheduleModel } from './poisson';
import { z } from 'zod';

/** The `poisson` schedule in a pipeline file: the scheduler's own options plus how often to refit. */
export const poissonScheduleSchema = poissonStageSchema.extend({
  /** How often the population prior and the allocation are refitted from the frontier (O(N)). */
  refit_interval_secs: z.number().min(1).default(300),
});

export type PoissonScheduleStage = z.infer<typeof poissonScheduleSchema>;

/**
 * Keeps a fitted model current: fits once at start, then every `refit_interval_secs` from the
 * frontier's states. Next-visit times always use the latest fit; a failed refit keeps the last one.
 */
export class ModelRefresher {
  private model: ScheduleModel | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stage: PoissonScheduleStage,
    private readonly loadStates: () => Promise<FrontierState[]>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.refit();
    this.timer = setInterval(() => void this.refit(), this.stage.refit_interval_secs * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  current(): ScheduleModel {
    if (!this.model) throw new Error('the schedule model is used before its first fit');
    return this.model;
  }

  policy(): NextVisitPolicy {
    return poissonNextVisitPolicy(() => this.current());
  }

  private async refit(): Promise<void> {
    try {
      const { refit_interval_secs: _every, ...options } = this.stage;
      const states = await this.loadStates();
      this.model = buildModelFromFrontier(states, configFromStage(options));
      this.logger.debug({ subjects: states.length, prior: this.model.prior }, 'schedule model refitted');
    } catch (err) {
      if (!this.model) throw err;
      this.logger.warn({ err: (err as Error).message }, 'schedule refit failed; keeping the previous model');
    }
  }
}
