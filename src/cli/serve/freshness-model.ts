import type { SubjectState as FrontierState } from '../../core/envelope';
import { buildModelFromFrontier, frontierFreshness, type FrontierFreshness } from '../../schedule/core-bridge';
import type { PoissonScheduleConfig, ScheduleModel } from '../../schedule/poisson';

/** Refit when the subjects drift by more than this share since the last fit. */
const MODEL_DRIFT = 0.1;

/** One ask for a pipeline's freshness figures. */
export interface FreshnessAsk {
  pipeline: string;
  states: FrontierState[];
  config: PoissonScheduleConfig;
  nowMs: number;
  refitEverySecs: number;
}

/** Where the prior's refit and the meter run: in this thread (tests, small crawls) or off it. */
export interface FreshnessComputer {
  compute(ask: FreshnessAsk): Promise<FrontierFreshness>;
  close(): Promise<void>;
}

/**
 * The figures with the model kept per pipeline. The refit (the prior's fit over every subject)
 * costs several times the meter: like the workers, refit every refit_interval_secs or when the
 * subjects drift by more than 10 %.
 */
export class FreshnessModels {
  private readonly models = new Map<string, { atMs: number; subjects: number; model: ScheduleModel }>();

  figures(ask: FreshnessAsk): FrontierFreshness {
    const fitted = this.models.get(ask.pipeline);
    let model = fitted?.model;
    const n = ask.states.length;
    if (!fitted || !model || ask.nowMs - fitted.atMs >= ask.refitEverySecs * 1000 || Math.abs(n - fitted.subjects) > MODEL_DRIFT * fitted.subjects) {
      model = buildModelFromFrontier(ask.states, ask.config);
      this.models.set(ask.pipeline, { atMs: ask.nowMs, subjects: n, model });
    }
    return frontierFreshness(ask.states, model, ask.nowMs);
  }
}

/** In this thread: what the unit tests use; blocks the event loop for the refit's duration. */
export class InlineFreshness implements FreshnessComputer {
  private readonly models = new FreshnessModels();
  compute(ask: FreshnessAsk): Promise<FrontierFreshness> {
    try {
      return Promise.resolve(this.models.figures(ask));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
