import { recordingLogger } from '../../../src/core/logger';
import { RepeatedWarnings } from '../../../src/core/repeated-warnings';
import { formatProgress, progressRecord, startProgress, type ProgressReading } from '../../../src/cli/progress';
import type { RunProgress } from '../../../src/runner/types';

const run: RunProgress = {
  jobs: 40, jobsFailed: 2, jobsPaused: 0, jobsRequeued: 0, leasesLost: 0, failureCodes: { E_QUOTA_EXHAUSTED: 30, E_FETCH_TIMEOUT: 2 }, deadLettered: 1,
  requests: 450, refused: { quota: 31, politeness: 4, robots: 0 }, documents: { indexed: 2917, dropped: 3, dead_lettered: 0 }, inFlight: 7, claimed: 47, paused: false,
};
const reading: ProgressReading = {
  pipeline: 'social', elapsedSecs: 75, run, pagesPerSec: 12.34,
  frontier: { subjects: 900, due: 800, dueNow: 85, leased: 7, deadLetters: 1, visitsPerMin: 0, docsPerMin: 0 },
  identities: [
    { index: 0, used: 150, limit: 150, state: 'at_quota' }, { index: 1, used: 3, limit: 150, state: 'available' },
    { index: 2, used: 0, limit: 150, state: 'benched', benchedUntilMs: 1 },
  ],
};

describe('progress', () => {
  it('a terminal line names sent and refused requests, indexed documents, backlog, leases, identities and errors by code', () => {
    expect(formatProgress(reading)).toBe('[social 01:15] sent 450 (12.3/s) · refused 35 (quota 31, politeness 4) · indexed 2917 · due 85 · leased 7'
      + ' · identities 1/3 available, 1 benched · errors E_QUOTA_EXHAUSTED 30, E_FETCH_TIMEOUT 2 · dead-lettered 1');
    const { frontier: _f, identities: _i, ...bare } = reading;
    expect(formatProgress({ ...bare, run: { ...run, failureCodes: {}, deadLettered: 0, refused: { quota: 0, politeness: 0, robots: 0 } } }))
      .toBe('[social 01:15] sent 450 (12.3/s) · indexed 2917 · in flight 7 · errors 0');
  });

  it('the structured record carries the same figures', () => {
    expect(progressRecord(reading)).toMatchObject({
      requests_sent: 450, refused: { quota: 31, politeness: 4, robots: 0 }, due_now: 85, leased: 7,
      identities: { size: 3, available: 1, at_quota: 1, benched: 1 }, failure_codes: { E_QUOTA_EXHAUSTED: 30 },
    });
  });

  it('writes a record per interval, then the interval\'s repeated warnings as counts', async () => {
    const out = recordingLogger();
    const warnings = new RepeatedWarnings();
    const log = warnings.wrap(out);
    for (let i = 0; i < 3; i++) log.warn({ code: 'E_X' }, 'visit failed');
    let sent = 0;
    const p = startProgress({ pipeline: 'p', run: () => ({ ...run, requests: (sent += 10) }), frontier: () => Promise.reject(new Error('Redis away')) }, {
      intervalMs: 20, tty: false, write: () => undefined, logger: out, warnings, nowMs: () => Date.now(),
    });
    // Until two intervals have passed, however slow the machine (a fixed 70 ms saw one under load).
    const progressRecords = (): number => out.records.filter((r) => r.msg === 'progress').length;
    for (const endMs = Date.now() + 5000; progressRecords() < 2 && Date.now() < endMs;) await new Promise((r) => setTimeout(r, 10));
    p.stop();
    const msgs = out.records.map((r) => r.msg);
    expect(msgs[0]).toBe('visit failed');
    expect(msgs[1]).toBe('progress');
    expect(msgs[2]).toMatch(/^visit failed \(×2 in the last/);
    expect(msgs.filter((m) => m === 'progress').length).toBeGreaterThanOrEqual(2);
    expect(out.records[1]!.fields).not.toHaveProperty('progress.due_now');
  });
});
