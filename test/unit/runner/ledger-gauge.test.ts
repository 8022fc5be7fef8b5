import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { ledgerEntry } from '../../../src/monitor/ledger';
import { startLedgerGauge } from '../../../src/runner/ledger';

describe('startLedgerGauge', () => {
  it('makes the last writes searchable before its closing poll, so the closing figure counts them', async () => {
    const metrics = createMetrics();
    // The "index": 9 of 10 declared posts are searchable until a refresh makes the 10th visible.
    let searchable = 9;
    const events: string[] = [];
    const read = async () => {
      events.push(`read ${searchable}`);
      return [ledgerEntry({ subject: 'weibo:user:1', declared: 10, active: searchable, tombstoned: 0, status: 'active' })];
    };
    const gauge = startLedgerGauge(read, metrics, {
      intervalMs: 60_000, logger: silentLogger,
      beforeLastPoll: async () => { events.push('refresh'); searchable = 10; },
    });
    await gauge.stop();
    expect(events).toEqual(['read 9', 'refresh', 'read 10']);
    expect((await metrics.completeness.get()).values[0]?.value).toBe(1);
  });

  it('still takes its closing poll when the refresh fails', async () => {
    const metrics = createMetrics();
    const read = async () => [ledgerEntry({ subject: 'weibo:user:1', declared: 4, active: 3, tombstoned: 0, status: 'active' })];
    const gauge = startLedgerGauge(read, metrics, {
      intervalMs: 60_000, logger: silentLogger,
      beforeLastPoll: () => Promise.reject(new Error('search node went away')),
    });
    await gauge.stop();
    expect((await metrics.completeness.get()).values[0]?.value).toBe(0.75);
  });
});
