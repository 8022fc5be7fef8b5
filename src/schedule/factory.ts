import type { SubjectState } from '../core/envelope';
import type { Logger } from '../core/logger';
import type { NextVisitPolicy, ScheduleGaugeValues } from './contract';
import { frontierScheduleStatus, schedulerState } from './core-bridge';
import { fixedInterval, type FixedIntervalConfig } from './fixed-interval';
import { ModelRefresher, type PoissonScheduleStage } from './refit';
import { subjectRatePerHour } from './poisson';

export type ScheduleConfig = FixedIntervalConfig | PoissonScheduleStage;

/** What a schedule needs of the frontier: the population it fits its model on. */
export interface ScheduleSources {
  allStates(): Promise<SubjectState[]>;
  countSubjects(): Promise<number>;
  logger: Logger;
  /** Pages per hour the sites allow, as learned (self-tuning politeness); undefined until known. Caps the poisson budget. */
  allowedPagesPerHour?: () => number | undefined;
}

/**
 * The stage with its budget capped by what the sites allow: read at every refit (the refresher
 * copies the stage's fields then), so the plan follows the learned rate.
 */
function cappedBudget(config: PoissonScheduleStage, allowed: (() => number | undefined) | undefined): PoissonScheduleStage {
  if (!allowed) return config;
  const capped = { ...config };
  Object.defineProperty(capped, 'budget_per_hour', {
    enumerable: true,
    get: () => {
      const a = allowed();
      return a !== undefined && a > 0 ? Math.min(config.budget_per_hour, a) : config.budget_per_hour;
    },
  });
  return capped;
}

export interface BuiltSchedule {
  policy: NextVisitPolicy;
  stop(): void;
  /** The plan's figures for the gauges (poisson only); cheap, cached per refit. */
  gauges?: () => ScheduleGaugeValues;
  /** The estimated posts per hour of a subject (poisson only), for its profile document. */
  rateOf?: (state: SubjectState) => number;
}

/** The schedule of a pipeline; the poisson schedule fits its model on the frontier first. */
export async function buildSchedule(config: ScheduleConfig, sources: ScheduleSources): Promise<BuiltSchedule> {
  switch (config.type) {
    case 'fixed_interval':
      return { policy: fixedInterval(config), stop: () => undefined };
    case 'poisson': {
      // The gauges reuse the states of the last refit: the predicted delay costs O(N) once per refit, no extra Redis scan.
      let fittedStates: SubjectState[] = [];
      const refresher = new ModelRefresher(cappedBudget(config, sources.allowedPagesPerHour), async () => (fittedStates = await sources.allStates()), () => sources.countSubjects(), sources.logger);
      await refresher.start();
      let cached: { model: unknown; values: ScheduleGaugeValues } | undefined;
      const gauges = (): ScheduleGaugeValues => {
        const model = refresher.current();
        if (cached?.model !== model) {
          const st = frontierScheduleStatus(fittedStates, model);
          cached = { model, values: { budgetPagesPerHour: st.budgetPerHour, plannedPagesPerHour: st.plannedPagesPerHour, predictedMeanDelayHours: st.predictedMeanDelayHours } };
        }
        return cached.values;
      };
      const rateOf = (state: SubjectState): number => subjectRatePerHour(schedulerState(state), refresher.current());
      return { policy: refresher.policy(), stop: () => refresher.stop(), gauges, rateOf };
    }
  }
}
