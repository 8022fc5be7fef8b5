import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { startGaugePoller } from '../../../src/runner/gauges';
import type { FrontierStats } from '../../../src/sources/contract';

async function gauge(m: ReturnType<typeof createMetrics>, name: string): Promise<number | undefined> {
  return (await m.registry.getMetricsAsJSON()).find((x) => x.name === name)?.values[0]?.value;
}

const stats = (subjects: number): FrontierStats => ({ subjects, due: subjects - 1, dueNow: 3, leased: 2, deadLetters: 1, visitsPerMin: 12, docsPerMin: 40 });

describe('startGaugePoller', () => {
  it('sets the frontier and schedule gauges from their status calls, and polls a last time on stop', async () => {
    const m = createMetrics();
    let subjects = 10;
    let failNext = false;
    const frontier = {
      stats: async () => {
        if (failNext) throw new Error('redis away');
        return stats(subjects);
      },
    };
    const poller = startGaugePoller(
      { frontier, schedule: () => ({ budgetPagesPerHour: 600, plannedPagesPerHour: 450, predictedMeanDelayHours: 0.5 }) },
      m, { intervalMs: 60_000, logger: silentLogger },
    );
    await poller.poll();
    expect(await gauge(m, 'freshet_frontier_subjects')).toBe(10);
    expect(await gauge(m, 'freshet_frontier_scheduled')).toBe(9);
    expect(await gauge(m, 'freshet_frontier_due_now')).toBe(3);
    expect(await gauge(m, 'freshet_frontier_leased')).toBe(2);
    expect(await gauge(m, 'freshet_frontier_dead_letters')).toBe(1);
    expect(await gauge(m, 'freshet_frontier_visits_per_minute')).toBe(12);
    expect(await gauge(m, 'freshet_frontier_documents_per_minute')).toBe(40);
    expect(await gauge(m, 'freshet_schedule_budget_pages_per_hour')).toBe(600);
    expect(await gauge(m, 'freshet_schedule_planned_pages_per_hour')).toBe(450);
    expect(await gauge(m, 'freshet_schedule_predicted_delay_seconds')).toBe(1800);

    // A failed poll keeps the last values.
    failNext = true;
    subjects = 99;
    await poller.poll();
    expect(await gauge(m, 'freshet_frontier_subjects')).toBe(10);

    failNext = false;
    await poller.stop();
    expect(await gauge(m, 'freshet_frontier_subjects')).toBe(99);
  });

  it('leaves the schedule gauges unset without a schedule plan', async () => {
    const m = createMetrics();
    const poller = startGaugePoller({ frontier: { stats: async () => stats(1) } }, m, { intervalMs: 60_000, logger: silentLogger });
    await poller.stop();
    expect(await gauge(m, 'freshet_frontier_subjects')).toBe(1);
    expect(await gauge(m, 'freshet_schedule_budget_pages_per_hour')).toBe(0);
  });
});
