import { performance } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Observable, type OperatorFunction } from 'rxjs';

/** Per-item latencies of in-process stages are microseconds; fetches and bulk requests are not. */
const STAGE_BUCKETS = [0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];
/** fetchCounts index of fetches that failed without an HTTP status (label `error`); 0..9 are status classes. */
const FETCH_ERROR = 10;
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The pipeline's metrics, on a registry the caller owns (never prom-client's global one). The
 * proxy pool and the render fetcher add their own to the same registry; docs/architecture.md lists
 * every metric (a unit test keeps that list complete).
 * Names follow Prometheus conventions; labels never carry URLs or hosts (unbounded cardinality).
 */
export function createMetrics(registry: Registry = new Registry()) {
  // Hot-path stage counts are plain numbers, added to the counters when Prometheus scrapes:
  // a labelled prom-client inc costs ~300 ns, about as much as a whole enricher step.
  const tallies = new Map<string, StageTally>();
  /** Moves the tallies' `field` counts into `counter` (on scrape). */
  const drain = (counter: Counter<'stage'>, field: keyof StageTally): void => {
    for (const [stage, t] of tallies) {
      if (t[field] > 0) {
        counter.inc({ stage }, t[field]);
        t[field] = 0;
      }
    }
  };
  // Fetches by status class, likewise: index status / 100 (1xx..9xx), FETCH_ERROR for no status.
  const fetchCounts = new Array<number>(FETCH_ERROR + 1).fill(0);
  // The fetcher's HTTP exchanges (every redirect hop one) by `<status class>\u0000<outcome>`, and bytes received.
  const exchangeCounts = new Map<string, number>();
  let receivedBytes = 0;
  const m = {
    registry,
    jobsClaimed: new Counter({ name: 'freshet_jobs_claimed_total', help: 'Subjects claimed from the frontier', registers: [registry] }),
    jobsAcked: new Counter({ name: 'freshet_jobs_acked_total', help: 'Subjects acknowledged, by outcome', labelNames: ['outcome'], registers: [registry] }),
    jobsInFlight: new Gauge({ name: 'freshet_jobs_in_flight', help: 'Claimed subjects not yet acknowledged', registers: [registry] }),
    fetches: new Counter({
      name: 'freshet_fetch_requests_total', help: 'HTTP fetches, by status class', labelNames: ['status_class'], registers: [registry],
      collect() {
        for (let i = 0; i < fetchCounts.length; i++) {
          if (fetchCounts[i]! > 0) {
            this.inc({ status_class: i === FETCH_ERROR ? 'error' : `${i}xx` }, fetchCounts[i]);
            fetchCounts[i] = 0;
          }
        }
      },
    }),
    httpExchanges: new Counter({
      name: 'freshet_http_exchanges_total', help: 'HTTP exchanges of the fetcher (each redirect hop one), by status class and outcome (ok, redirect or an error code)',
      labelNames: ['status_class', 'outcome'], registers: [registry],
      collect() {
        for (const [key, n] of exchangeCounts) {
          if (n === 0) continue;
          const [statusClass, outcome] = key.split('\u0000');
          this.inc({ status_class: statusClass!, outcome: outcome! }, n);
          exchangeCounts.set(key, 0);
        }
      },
    }),
    httpReceivedBytes: new Counter({
      name: 'freshet_http_received_bytes_total', help: 'Response body bytes the fetcher received on the wire', registers: [registry],
      collect() {
        if (receivedBytes > 0) this.inc(receivedBytes);
        receivedBytes = 0;
      },
    }),
    httpExchangeSeconds: new Histogram({ name: 'freshet_http_exchange_duration_seconds', help: 'Latency of one HTTP exchange (a redirect hop, or the final response and its body)', registers: [registry], buckets: REQUEST_BUCKETS }),
    fetchRetries: new Counter({ name: 'freshet_fetch_retries_total', help: 'Fetch retries the retry policy granted, by the error code that caused them', labelNames: ['code'], registers: [registry] }),
    fetchSeconds: new Histogram({
      name: 'freshet_fetch_duration_seconds', help: 'Fetch latency', registers: [registry],
      buckets: REQUEST_BUCKETS,
    }),
    docs: new Counter({ name: 'freshet_documents_total', help: 'Documents settled, by index and outcome', labelNames: ['index', 'outcome'], registers: [registry] }),
    notModified: new Counter({ name: 'freshet_not_modified_total', help: 'Revisits answered 304 Not Modified (a request that carried no body)', registers: [registry] }),
    notModifiedBytes: new Counter({ name: 'freshet_not_modified_bytes_saved_total', help: 'Body bytes revisits answered 304 did not fetch again (the size of the last 200)', registers: [registry] }),
    drops: new Counter({ name: 'freshet_dropped_total', help: 'Items intentionally dropped, by stage and reason', labelNames: ['stage', 'reason'], registers: [registry] }),
    errors: new Counter({ name: 'freshet_errors_total', help: 'Errors handled, by stage and code', labelNames: ['stage', 'code'], registers: [registry] }),
    deadLetters: new Counter({ name: 'freshet_dead_letters_total', help: 'Items written to the dead-letter stream, by code', labelNames: ['code'], registers: [registry] }),
    bulkRequests: new Counter({ name: 'freshet_bulk_requests_total', help: 'Bulk requests to the search node, by outcome', labelNames: ['outcome'], registers: [registry] }),
    bulkBytes: new Counter({ name: 'freshet_bulk_bytes_total', help: 'Bytes sent in bulk requests', registers: [registry] }),
    softBlocks: new Counter({ name: 'freshet_soft_blocks_total', help: 'Answers that refused the client in a 200 body (captcha, too frequent) or with HTTP 432, by reason', labelNames: ['reason'], registers: [registry] }),
    sustainableRate: new Gauge({ name: 'freshet_politeness_sustainable_requests_per_second', help: 'Requests per second the sites allow this worker, as learned by self-tuning politeness (summed over origins and identities in use)', registers: [registry] }),
    completeness: new Gauge({ name: 'freshet_completeness_ratio', help: 'Share of the declared posts of the watched subjects that are indexed (completeness ledger, posts platforms)', registers: [registry] }),
    incompleteSubjects: new Gauge({ name: 'freshet_completeness_open_subjects', help: 'Watched subjects whose ledger has an open gap or missing posts', registers: [registry] }),
    discovered: new Counter({ name: 'freshet_subjects_discovered_total', help: 'Subjects offered to the frontier, by result', labelNames: ['result'], registers: [registry] }),
    // Every stage between the frontier and the index: what went in, what came out, how long it took.
    stageReceived: new Counter({
      name: 'freshet_stage_received_total', help: 'Items a stage received (parser: visits; document stages and sink: documents)', labelNames: ['stage'], registers: [registry],
      collect() {
        drain(this, 'received');
      },
    }),
    stageSent: new Counter({
      name: 'freshet_stage_sent_total', help: 'Items a stage passed on (parser: documents; sink: documents settled)', labelNames: ['stage'], registers: [registry],
      collect() {
        drain(this, 'sent');
      },
    }),
    stageSeconds: new Histogram({
      name: 'freshet_stage_duration_seconds', help: 'Time from an item entering a stage to its leaving, for every 8th item of a document stage or sink (parser: every visit)', labelNames: ['stage'], registers: [registry],
      buckets: STAGE_BUCKETS,
    }),
    bulkSeconds: new Histogram({ name: 'freshet_bulk_duration_seconds', help: 'Bulk request latency', registers: [registry], buckets: REQUEST_BUCKETS }),
    visitsPaused: new Counter({ name: 'freshet_visits_paused_total', help: 'Visits a limit (quota, benched identity, throttling) stopped after some pages, by error code: the rest is due as soon as the limit allows', labelNames: ['code'], registers: [registry] }),
    leasesLost: new Counter({ name: 'freshet_leases_lost_total', help: 'Leases that expired and were reclaimed before this worker acknowledged', registers: [registry] }),
    // Frontier gauges, polled from RedisFrontier.stats(): every worker reports the same crawl-wide values (aggregate with max).
    frontierSubjects: new Gauge({ name: 'freshet_frontier_subjects', help: 'Subjects in the frontier', registers: [registry] }),
    frontierScheduled: new Gauge({ name: 'freshet_frontier_scheduled', help: 'Subjects with a next visit scheduled (due ZSET size)', registers: [registry] }),
    frontierDueNow: new Gauge({ name: 'freshet_frontier_due_now', help: 'Subjects due now and not claimed: the backlog', registers: [registry] }),
    frontierLeased: new Gauge({ name: 'freshet_frontier_leased', help: 'Subjects leased by any worker', registers: [registry] }),
    frontierDeadLetters: new Gauge({ name: 'freshet_frontier_dead_letters', help: 'Entries in the dead-letter stream', registers: [registry] }),
    frontierVisitsPerMin: new Gauge({ name: 'freshet_frontier_visits_per_minute', help: 'Acknowledged visits per minute, all workers, last 5 complete minutes', registers: [registry] }),
    frontierDocsPerMin: new Gauge({ name: 'freshet_frontier_documents_per_minute', help: 'Documents settled per minute, all workers, last 5 complete minutes', registers: [registry] }),
    // The schedule's plan (poisson schedule only), set after each refit.
    scheduleBudget: new Gauge({ name: 'freshet_schedule_budget_pages_per_hour', help: 'The schedule\'s page budget per hour', registers: [registry] }),
    schedulePlanned: new Gauge({ name: 'freshet_schedule_planned_pages_per_hour', help: 'Pages per hour the current allocation spends (the budget unless caps bind)', registers: [registry] }),
    schedulePredictedDelay: new Gauge({ name: 'freshet_schedule_predicted_delay_seconds', help: 'Predicted mean publication-to-index delay of the current allocation', registers: [registry] }),
    /** Counts one fetch by its HTTP status (undefined: failed without one), reported as freshet_fetch_requests_total on scrape. */
    countFetch(status: number | undefined): void {
      const i = status === undefined ? FETCH_ERROR : Math.floor(status / 100);
      if (status === undefined || (i >= 0 && i < FETCH_ERROR)) fetchCounts[i]! += 1;
      // A status outside 0..999 (not HTTP) keeps its own label, counted at once.
      else m.fetches.inc({ status_class: `${i}xx` });
    },
    /** Counts one HTTP exchange, reported as freshet_http_exchanges_total on scrape. */
    countExchange(statusClass: string, outcome: string): void {
      const key = `${statusClass}\u0000${outcome}`;
      exchangeCounts.set(key, (exchangeCounts.get(key) ?? 0) + 1);
    },
    countReceivedBytes(n: number): void {
      receivedBytes += n;
    },
    /** A stage's running counts, reported as freshet_stage_{received,sent}_total on scrape. */
    stageTally(stage: string): StageTally {
      let t = tallies.get(stage);
      if (!t) tallies.set(stage, (t = { received: 0, sent: 0 }));
      return t;
    },
  };
  return m;
}

export type Metrics = ReturnType<typeof createMetrics>;

export interface StageTally {
  received: number;
  sent: number;
}

/** Where a metered stage counts its items and records its sampled durations. */
export interface StageMeter {
  tally: StageTally;
  seconds: { observe(seconds: number): void };
  /**
   * Items seen, for the every-`sampleEvery`th choice, shared by every subscription of the operator
   * (a page worker subscribes once per page: its own count would time each page's first document).
   * Without it each subscription counts from 0.
   */
  sampled?: { seen: number };
}

/**
 * Wraps a stage's operator with its received/sent counts and per-item duration, timed on every
 * `sampleEvery`th item (a sample keeps the hot path cheap; quantiles stay honest). Duration needs
 * the item to come out as the same object it went in as (`keyOf` maps an output back to it, e.g. a
 * sink's settlement to its envelope); items dropped or replaced are counted but not timed.
 */
export function meteredStage<T extends object, R>(
  metrics: Metrics, stage: string, op: OperatorFunction<T, R>,
  keyOf: (out: R) => unknown = (out) => out, nowMs: () => number = () => performance.now(), sampleEvery = 8,
): OperatorFunction<T, R> {
  return meterStage({ tally: metrics.stageTally(stage), seconds: metrics.stageSeconds.labels(stage) }, op, keyOf, nowMs, sampleEvery);
}

/** `meteredStage` into any meter (a page worker thread's, sent to the pipeline's metrics with each page). */
export function meterStage<T extends object, R>(
  meter: StageMeter, op: OperatorFunction<T, R>,
  keyOf: (out: R) => unknown = (out) => out, nowMs: () => number = () => performance.now(), sampleEvery = 8,
): OperatorFunction<T, R> {
  const { tally, seconds } = meter;
  return (source) => new Observable<R>((sub) => {
    const entered = new WeakMap<object, number>();
    const sampled = meter.sampled ?? { seen: 0 };
    const counted = new Observable<T>((inner) => source.subscribe({
      next: (item) => {
        tally.received += 1;
        if (sampled.seen++ % sampleEvery === 0) entered.set(item, nowMs());
        inner.next(item);
      },
      error: (err: unknown) => inner.error(err),
      complete: () => inner.complete(),
    }));
    return op(counted).subscribe({
      next: (out) => {
        tally.sent += 1;
        const key = keyOf(out);
        const t0 = typeof key === 'object' && key !== null ? entered.get(key) : undefined;
        if (t0 !== undefined) {
          seconds.observe((nowMs() - t0) / 1000);
          entered.delete(key as object);
        }
        sub.next(out);
      },
      error: (err: unknown) => sub.error(err),
      complete: () => sub.complete(),
    });
  });
}
