import { recordingLogger } from '../../../src/core/logger';
import { RepeatedWarnings } from '../../../src/core/repeated-warnings';

describe('RepeatedWarnings', () => {
  it('logs the first warning of a message and code in full, then one count per flush', () => {
    const out = recordingLogger();
    const agg = new RepeatedWarnings();
    const log = agg.wrap(out).child({ pipeline: 'p' });
    for (let i = 0; i < 500; i++) log.warn({ code: 'E_QUOTA_EXHAUSTED', subject: `weibo:user:${i}` }, 'visit failed');
    log.warn({ code: 'E_FETCH_TIMEOUT', subject: 'weibo:user:9' }, 'visit failed');
    log.warn({ subject: 'x' }, 'no code: passes through');
    log.info({ subject: 'y' }, 'info without a code passes through');
    log.debug({ code: 'E_QUOTA_EXHAUSTED' }, 'debug passes through');
    log.debug({ code: 'E_QUOTA_EXHAUSTED' }, 'debug passes through');
    expect(out.records).toHaveLength(6);
    agg.flush(15);
    expect(out.records).toHaveLength(7);
    const summary = out.records[6]!;
    expect(summary.msg).toBe('visit failed (×499 in the last 15 s)');
    expect(summary.fields).toMatchObject({ pipeline: 'p', code: 'E_QUOTA_EXHAUSTED', count: 499, last: { subject: 'weibo:user:499' } });
    agg.flush(15);
    expect(out.records).toHaveLength(7);
    log.warn({ code: 'E_FETCH_TIMEOUT' }, 'visit failed');
    log.info({ code: 'E_QUOTA_EXHAUSTED' }, 'visit paused');
    log.info({ code: 'E_QUOTA_EXHAUSTED' }, 'visit paused');
    log.info({ code: 'E_QUOTA_EXHAUSTED' }, 'visit paused');
    agg.flush(15);
    expect(out.records.slice(7).map((r) => [r.level, r.msg])).toEqual([
      ['info', 'visit paused'], ['warn', 'visit failed (×1 in the last 15 s)'], ['info', 'visit paused (×2 in the last 15 s)'],
    ]);
  });
});
