import { delay, filter, mergeMap, of, tap, type OperatorFunction } from 'rxjs';
import { ManualClock } from '../../../src/core/clock';
import { newSubjectState, type DocEnvelope, type Job } from '../../../src/core/envelope';
import { FreshetError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import type { VisitOutcome } from '../../../src/core/visit';
import type { Fetcher, FetchRequest, FetchResponse, PolitenessGate } from '../../../src/fetchers/contract';
import type { Adapter, Emitted, VisitContext } from '../../../src/parsers/adapter';
import { parsePipeline } from '../../../src/pipeline/load';
import { PipelineRunner } from '../../../src/runner/run';
import type { RunDeps } from '../../../src/runner/types';
import type { NextVisitPolicy } from '../../../src/schedule/contract';
import { fixedInterval } from '../../../src/schedule/fixed-interval';
import { LIMIT_TIE_SPREAD_MS } from '../../../src/runner/job-outcome';
import { blackholeSink } from '../../../src/sinks/blackhole';
import type { Settled, Sink } from '../../../src/sinks/contract';
import { MemoryFrontier } from '../../helpers/memory-frontier';

const NOW = 1_000_000;
/** Real time passes (the acker batches on a timer) but no test waits long for a poll. */
const shortSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.min(ms, 5)));
const HOUR_MS = 3_600_000;

function config(source = '', seeds: string[] = ['t:user:1', 't:user:2', 't:user:3']) {
  return parsePipeline(`name: unit
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, max_in_flight: 2, claim_batch: 2, poll_interval_ms: 10, max_failures: 2, park_secs: 3600${source} }
fetch: { type: http_fetch, retry: { base_delay_ms: 1000, jitter: none } }
parse: { type: weibo_api, base_url: 'http://site.test' }
sink: { type: blackhole }
schedule: { type: fixed_interval, interval_secs: 3600 }
`, 'unit.yaml');
}

/** Answers every URL with its own path; `fail` decides which subjects' requests throw. */
class FakeFetcher implements Fetcher {
  readonly urls: string[] = [];
  constructor(private readonly fail: (url: string) => FreshetError | undefined = () => undefined) {}
  async fetch(req: FetchRequest): Promise<FetchResponse> {
    this.urls.push(req.url);
    const err = this.fail(req.url);
    if (err) throw err;
    return { requestUrl: req.url, url: req.url, status: 200, headers: {}, body: new Uint8Array(), text: new URL(req.url).pathname, charset: 'utf-8', redirects: [], attempts: 1, fetchedAtMs: NOW, elapsedMs: 3 };
  }
}

/** Fetches one URL per subject and emits `docs` posts; `discover` lists the subjects a visit finds. */
class FakeAdapter implements Adapter {
  readonly type = 'fake_api';
  constructor(private readonly docs = 2, private readonly discover: (subject: string) => string[] = () => []) {}
  async *visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
    const res = await ctx.fetchText(`http://site.test/${job.subject}`, 'json');
    for (let i = 0; i < this.docs; i++) yield { kind: 'doc', doc: { index: 'posts', id: `${job.subject}#${i}`, body: { text: res.text } } };
    for (const subject of this.discover(job.subject)) yield { kind: 'discovered', subject, state: { depth: 1 } };
    return { state: { ...job.state, visits: job.state.visits + 1, lastVisitMs: ctx.nowMs() }, newPostTimesMs: [], pageLimitHit: false, requests: 1 };
  }
}

function runner(opts: { config?: ReturnType<typeof config>; fetcher?: Fetcher; adapter?: Adapter; sink?: Sink; schedule?: NextVisitPolicy; gate?: PolitenessGate; stages?: RunDeps['stages'] } = {}) {
  const clock = new ManualClock(NOW);
  const frontier = new MemoryFrontier(clock);
  const cfg = opts.config ?? config();
  const metrics = createMetrics();
  const deps: RunDeps = {
    frontier, readings: frontier, throughput: frontier, deadLetters: frontier,
    fetcher: opts.fetcher ?? new FakeFetcher(), adapter: opts.adapter ?? new FakeAdapter(), sink: opts.sink ?? blackholeSink(),
    schedule: opts.schedule ?? fixedInterval({ type: 'fixed_interval', interval_secs: 3600 }),
    clock, rng: seededRng(1), logger: silentLogger, metrics, sleep: shortSleep,
    ...(opts.gate ? { gate: opts.gate } : {}), ...(opts.stages ? { stages: opts.stages } : {}),
  };
  return { runner: new PipelineRunner(cfg, deps), frontier, clock, metrics };
}

describe('PipelineRunner', () => {
  it('visits each due subject, settles its documents, acks it with the next visit and stops when idle', async () => {
    const r = runner();
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary).toMatchObject({ jobs: 3, jobsFailed: 0, leasesLost: 0, requests: 3, documents: { indexed: 6, dropped: 0, dead_lettered: 0 }, stoppedBy: 'idle' });
    expect(r.frontier.acks.map((a) => [a.job.subject, a.nextDueMs, a.state.visits, a.docs]).sort()).toEqual([
      ['t:user:1', NOW + HOUR_MS, 1, 2], ['t:user:2', NOW + HOUR_MS, 1, 2], ['t:user:3', NOW + HOUR_MS, 1, 2],
    ]);
    expect(r.frontier.leased.size).toBe(0);
    expect(r.frontier.throughput).toEqual({ visits: 3, docs: 6 });
    expect(r.frontier.subjects.get('t:user:1')!.state).not.toHaveProperty('via');
  });

  it.each([[0, 2], [2, 4]])('with max_settling %d never holds more than %d jobs (fetch + settling credits), and acks a job only once every document of it is settled', async (settling, most) => {
    const settledIds = new Set<string>();
    // A slow sink: each document settles 5 ms after it arrives.
    const slowSink: Sink = (docs) => docs.pipe(
      mergeMap((env: DocEnvelope) => of<Settled>({ env, how: 'indexed' }).pipe(delay(5)), 64),
      tap((s) => settledIds.add(s.env.doc.id)),
    );
    const seeds = Array.from({ length: 7 }, (_, i) => `t:user:${i}`);
    const r = runner({ config: config(`, max_settling: ${settling}`, seeds), adapter: new FakeAdapter(3), sink: slowSink });
    const ack = r.frontier.ack.bind(r.frontier);
    const unsettledAtAck: string[] = [];
    r.frontier.ack = async (items) => {
      for (const item of items) for (let i = 0; i < 3; i++) if (!settledIds.has(`${item.job.subject}#${i}`)) unsettledAtAck.push(`${item.job.subject}#${i}`);
      return ack(items);
    };
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary.documents.indexed).toBe(21);
    expect(r.frontier.acks).toHaveLength(7);
    expect(r.frontier.maxLeased).toBeLessThanOrEqual(most);
    expect(unsettledAtAck).toEqual([]);
  });

  it('with max_settling claims once a quarter of the fetch credits is free, not one job per round trip as visits end one by one', async () => {
    const seeds = Array.from({ length: 40 }, (_, i) => `t:user:${i}`);
    const base = config('', seeds);
    // Visits end one at a time: each subject's fetch takes its own number of milliseconds.
    const fetcher = new FakeFetcher();
    const staggered: Fetcher = { fetch: async (req) => {
      await new Promise((resolve) => setTimeout(resolve, 1 + (Number(/(\d+)$/.exec(req.url)![1]) % 8) * 3));
      return fetcher.fetch(req);
    } };
    const r = runner({ config: { ...base, source: { ...base.source, max_in_flight: 8, claim_batch: 8, max_settling: 8 } }, fetcher: staggered });
    const asked: number[] = [];
    const claim = r.frontier.claim.bind(r.frontier);
    r.frontier.claim = (n) => {
      asked.push(n);
      return claim(n);
    };
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary.jobs).toBe(40);
    expect(asked.length).toBeGreaterThan(0);
    expect(Math.min(...asked)).toBeGreaterThanOrEqual(2);
  });

  it('fetches the next subjects while the sink holds the documents before them, up to max_settling more, and acks those only once indexed', async () => {
    // A sink that holds every document until the test lets it go (a bulk flush that has not answered).
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const heldSink: Sink = (docs) => docs.pipe(mergeMap(async (env: DocEnvelope): Promise<Settled> => {
      await opened;
      return { env, how: 'indexed' };
    }, 1000));
    const seeds = Array.from({ length: 10 }, (_, i) => `t:user:${i}`);
    const fetched = async (settling: number) => {
      const fetcher = new FakeFetcher();
      const r = runner({ config: config(`, max_settling: ${settling}`, seeds), fetcher, sink: heldSink });
      const run = r.runner.run({ untilIdle: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { urls: fetcher.urls.length, acks: r.frontier.acks.length, inFlight: r.runner.inFlightJobs, leased: r.frontier.leased.size, r, run };
    };
    // Without settling credits the two fetch credits wait on the sink: two visits, then nothing.
    const held = await fetched(0);
    expect(held).toMatchObject({ urls: 2, acks: 0, inFlight: 2, leased: 2 });
    // With three, three more visits fetch while the sink holds (two credits, each taken again once
    // its visit settles), then the claims wait: bounded at 2 + 3 jobs, none acknowledged unindexed.
    const going = await fetched(3);
    expect(going).toMatchObject({ urls: 5, acks: 0, inFlight: 5, leased: 5 });
    open();
    for (const x of [held, going]) {
      const summary = await x.run;
      expect(summary).toMatchObject({ jobs: 10, documents: { indexed: 20, dead_lettered: 0 } });
      expect(x.r.frontier.acks).toHaveLength(10);
    }
  });

  it('offers what a visit discovers one level deeper and counts it new or known', async () => {
    const r = runner({ config: config('', ['t:user:1']), adapter: new FakeAdapter(1, (s) => (s === 't:user:1' ? ['t:user:1', 't:user:9'] : [])) });
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary.jobs).toBe(2);
    expect(r.frontier.subjects.get('t:user:9')!.state).toMatchObject({ depth: 1, visits: 1 });
    const discovered = await r.metrics.registry.getSingleMetric('freshet_subjects_discovered_total')!.get();
    expect(discovered.values.map((v) => [v.labels['result'], v.value]).sort()).toEqual([['known', 1], ['new', 1]]);
  });

  it('backs a failed visit off, then dead-letters and parks the subject at max_failures', async () => {
    const fetcher = new FakeFetcher(() => new FreshetError('E_FETCH_TIMEOUT', 'retryable', 'timed out'));
    const r = runner({ config: config('', ['t:user:1']), fetcher });
    let summary = await r.runner.run({ untilIdle: true });
    expect(summary).toMatchObject({ jobs: 1, jobsFailed: 1, documents: { indexed: 0 } });
    expect(r.frontier.acks[0]).toMatchObject({ nextDueMs: NOW + 2000, state: { failures: 1, lastVisitMs: NOW } });
    expect(r.frontier.deadLetters).toEqual([]);
    r.clock.advanceMs(2000);
    summary = await runnerAgain(r).run({ untilIdle: true });
    expect(r.frontier.acks[1]).toMatchObject({ nextDueMs: NOW + 2000 + 3_600_000, state: { failures: 2 } });
    expect(r.frontier.deadLetters).toEqual([{ code: 'E_FETCH_TIMEOUT', stage: 'fake_api', subject: 't:user:1', message: 'timed out' }]);
  });

  it('makes the rest of a visit a limit paused due as soon as the limit allows, not at the next scheduled visit, and counts it', async () => {
    // The visit read some pages, then the quota refused one (retry after 90 s); the schedule says a day.
    class PausingAdapter extends FakeAdapter {
      override async *visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
        const outcome = yield* super.visit(job, ctx);
        return job.subject === 't:user:1' ? { ...outcome, pageLimitHit: true, paused: { code: 'E_QUOTA_EXHAUSTED', retryAfterMs: 90_000 } } : outcome;
      }
    }
    const r = runner({ adapter: new PausingAdapter(), schedule: fixedInterval({ type: 'fixed_interval', interval_secs: 86_400 }) });
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary).toMatchObject({ jobs: 3, jobsFailed: 0, jobsPaused: 1, documents: { indexed: 6 } });
    const due = new Map(r.frontier.acks.map((a) => [a.job.subject, a.nextDueMs]));
    // Plus the tie-break that puts it, just served, behind the subjects the limit refused outright.
    expect(due.get('t:user:1')).toBe(NOW + 90_000 + LIMIT_TIE_SPREAD_MS);
    expect(due.get('t:user:2')).toBe(NOW + 86_400_000);
    const paused = await r.metrics.registry.getSingleMetric('freshet_visits_paused_total')!.get();
    expect(paused.values.map((v) => [v.labels['code'], v.value])).toEqual([['E_QUOTA_EXHAUSTED', 1]]);
    const acked = await r.metrics.registry.getSingleMetric('freshet_jobs_acked_total')!.get();
    expect(acked.values.find((v) => v.labels['outcome'] === 'paused')?.value).toBe(1);
  });

  it('settles a document a stage drops, so its job is acknowledged, and counts why', async () => {
    const dropAll: RunDeps['stages'] = (drop) => [
      filter((env: DocEnvelope) => {
        drop(env, 'match', 'off_topic');
        return false;
      }) as OperatorFunction<DocEnvelope, DocEnvelope>,
    ];
    const r = runner({ stages: dropAll });
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary).toMatchObject({ jobs: 3, documents: { indexed: 0, dropped: 6 } });
    expect(r.frontier.acks).toHaveLength(3);
    const drops = await r.metrics.registry.getSingleMetric('freshet_dropped_total')!.get();
    expect(drops.values).toEqual([expect.objectContaining({ labels: { stage: 'match', reason: 'off_topic' }, value: 6 })]);
  });

  it('counts a lease lost before the ack and does not store the visit', async () => {
    const r = runner({ config: config('', ['t:user:1', 't:user:2']) });
    r.frontier.loseLease.add('t:user:2');
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary).toMatchObject({ jobs: 2, leasesLost: 1 });
    expect(r.frontier.acks.map((a) => a.job.subject)).toEqual(['t:user:1']);
  });

  it('stops claiming on a critical error, drains what is in flight, and throws the error', async () => {
    const fetcher = new FakeFetcher((url) => (url.endsWith('t:user:1') ? new FreshetError('E_CONFIG_INVALID', 'critical', 'credentials revoked') : undefined));
    const r = runner({ config: config('', ['t:user:1', 't:user:2', 't:user:3', 't:user:4']), fetcher });
    await expect(r.runner.run({ untilIdle: true })).rejects.toMatchObject({ code: 'E_CONFIG_INVALID' });
    // Claimed in batches of two: the first batch is acked (the failed job too), the rest never claimed.
    expect(r.frontier.acks.map((a) => a.job.subject).sort()).toEqual(['t:user:1', 't:user:2']);
    expect(r.frontier.leased.size).toBe(0);
  });

  it('feeds a page text change the sink settled (a new version, no time given) to the schedule as one change between the visits', async () => {
    const base = fixedInterval({ type: 'fixed_interval', interval_secs: 3600 });
    const outcomes = new Map<number, VisitOutcome>();
    const schedule: NextVisitPolicy = { ...base, nextVisit: (before, outcome, nowMs) => {
      outcomes.set(before.firstSeenMs, outcome);
      return base.nextVisit(before, outcome, nowMs);
    } };
    const versions: Record<string, Settled['version']> = { 't:user:1': 'changed', 't:user:2': 'unchanged', 't:user:3': 'created' };
    const sink: Sink = (source) => source.pipe(mergeMap((env) => of<Settled>({ env, how: 'indexed', version: versions[env.job.subject] }), 4));
    const r = runner({ config: config('', []), sink, schedule });
    await r.frontier.offer([1, 2, 3].map((i) => ({ subject: `t:user:${i}`, state: { ...newSubjectState(i), visits: 2, lastVisitMs: NOW - 2 * HOUR_MS } })));
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary.jobs).toBe(3);
    expect(outcomes.get(1)!.newPostTimesMs).toEqual([NOW - HOUR_MS]);
    expect(outcomes.get(2)!.newPostTimesMs).toEqual([]);
    expect(outcomes.get(3)!.newPostTimesMs).toEqual([]);
  });

  it('stores a due time the schedule moved later without fetching the subject', async () => {
    const base = fixedInterval({ type: 'fixed_interval', interval_secs: 3600 });
    const schedule: NextVisitPolicy = { ...base, recheck: (state, nowMs) => (state.visits === 0 ? { state, nextDueMs: nowMs + 60_000 } : undefined) };
    const r = runner({ schedule });
    const summary = await r.runner.run({ untilIdle: true });
    expect(summary).toMatchObject({ jobs: 0, requests: 0 });
    expect(r.frontier.acks.map((a) => a.nextDueMs)).toEqual([NOW + 60_000, NOW + 60_000, NOW + 60_000]);
  });

  it('sends each request through its origin\'s politeness gate and releases it after', async () => {
    const events: string[] = [];
    const gate: PolitenessGate = {
      acquire: (origin) => {
        events.push(`acquire ${origin}`);
        return Promise.resolve(() => {
          events.push('release');
        });
      },
    };
    const fetcher = new FakeFetcher();
    const spy: Fetcher = { fetch: async (req) => {
      events.push(`fetch ${req.url}`);
      return fetcher.fetch(req);
    } };
    const r = runner({ config: config('', ['t:user:1']), fetcher: spy, gate });
    await r.runner.run({ untilIdle: true });
    expect(events).toEqual(['acquire http://site.test', 'fetch http://site.test/t:user:1', 'release']);
  });

  it('reads bodies under max_bytes_in_flight: a visit holds its body until it ends, the next waits for room', async () => {
    const weigh = async (source: string) => {
      const fetcher = new FakeFetcher();
      let inBody = 0;
      let maxInBody = 0;
      const heavy: Fetcher = { fetch: async (req) => {
        const wait = req.allowance?.cover(800);
        if (wait) await wait;
        maxInBody = Math.max(maxInBody, ++inBody);
        await new Promise((r) => setTimeout(r, 10));
        inBody -= 1;
        return fetcher.fetch(req);
      } };
      const r = runner({ config: config(source), fetcher: heavy });
      const summary = await r.runner.run({ untilIdle: true });
      return { jobs: summary.jobs, maxInBody, peak: r.runner.bytes.peak, inUse: r.runner.bytes.inUse };
    };
    expect(await weigh(', max_bytes_in_flight: 1000')).toEqual({ jobs: 3, maxInBody: 1, peak: 800, inUse: 0 });
    // Without a limit both credits read at once.
    expect(await weigh(', max_bytes_in_flight: 0')).toEqual({ jobs: 3, maxInBody: 2, peak: 1600, inUse: 0 });
  });

  it('stops claiming at max_fetches', async () => {
    const r = runner({ config: config('', Array.from({ length: 10 }, (_, i) => `t:user:${i}`)) });
    const summary = await r.runner.run({ maxFetches: 2 });
    expect(summary.stoppedBy).toBe('max_fetches');
    expect(summary.requests).toBeGreaterThanOrEqual(2);
    expect(summary.requests).toBeLessThan(10);
    expect(r.frontier.leased.size).toBe(0);
  });
});

/** A second run over the same frontier and clock (a restarted worker). */
function runnerAgain(r: ReturnType<typeof runner>): PipelineRunner {
  return new PipelineRunner(config('', []), {
    frontier: r.frontier, readings: r.frontier, throughput: r.frontier, deadLetters: r.frontier,
    fetcher: new FakeFetcher(() => new FreshetError('E_FETCH_TIMEOUT', 'retryable', 'timed out')), adapter: new FakeAdapter(),
    sink: blackholeSink(), schedule: fixedInterval({ type: 'fixed_interval', interval_secs: 3600 }),
    clock: r.clock, rng: seededRng(1), logger: silentLogger, metrics: r.metrics, sleep: shortSleep,
  });
}

