import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { ScheduleGaugeValues } from '../schedule/contract';
import type { FrontierReadings } from '../sources/contract';

export interface GaugeSources {
  frontier: Pick<FrontierReadings, 'stats'>;
  /** Called on every poll; cheap (the caller caches its O(N) work per refit). */
  schedule?: () => ScheduleGaugeValues | undefined;
  /** What self-tuning politeness learned the sites allow (requests per second). */
  sustainableRequestsPerSec?: () => number;
}

export interface GaugePoller {
  /** One poll now (also the last one on close, so a finished crawl exports its final state). */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Sets the frontier and schedule gauges from their public status calls every `intervalMs`: gauges
 * of Redis-wide state are read, never kept in step by the hot path. A failed poll (Redis away)
 * keeps the last values; the runner already logs Redis outages.
 */
export function startGaugePoller(sources: GaugeSources, metrics: Metrics, opts: { intervalMs: number; logger: Logger }): GaugePoller {
  let running: Promise<void> | undefined;
  let failures = 0;
  const pollOnce = async (): Promise<void> => {
    try {
      const s = await sources.frontier.stats();
      metrics.frontierSubjects.set(s.subjects);
      metrics.frontierScheduled.set(s.due);
      metrics.frontierDueNow.set(s.dueNow);
      metrics.frontierLeased.set(s.leased);
      metrics.frontierDeadLetters.set(s.deadLetters);
      metrics.frontierVisitsPerMin.set(s.visitsPerMin);
      metrics.frontierDocsPerMin.set(s.docsPerMin);
      failures = 0;
    } catch (err) {
      if (failures++ === 0) opts.logger.debug({ err: (err as Error).message }, 'frontier stats poll failed; gauges keep their last values');
    }
    if (sources.sustainableRequestsPerSec) metrics.sustainableRate.set(sources.sustainableRequestsPerSec());
    const plan = sources.schedule?.();
    if (plan) {
      metrics.scheduleBudget.set(plan.budgetPagesPerHour);
      metrics.schedulePlanned.set(plan.plannedPagesPerHour);
      metrics.schedulePredictedDelay.set(plan.predictedMeanDelayHours * 3600);
    }
  };
  // One poll at a time: a slow Redis never stacks polls up.
  const poll = (): Promise<void> => {
    running ??= pollOnce().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void poll(), opts.intervalMs);
  timer.unref();
  void poll();
  return {
    poll,
    stop: async () => {
      clearInterval(timer);
      await running;
      await poll();
    },
  };
}
