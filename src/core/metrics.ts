import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric freshet exports, on a registry the caller owns (never prom-client's global one).
 * Names follow Prometheus conventions; labels never carry URLs or hosts (unbounded cardinality).
 */
export function createMetrics(registry: Registry = new Registry()) {
  const m = {
    registry,
    jobsClaimed: new Counter({ name: 'freshet_jobs_claimed_total', help: 'Subjects claimed from the frontier', registers: [registry] }),
    jobsAcked: new Counter({ name: 'freshet_jobs_acked_total', help: 'Subjects acknowledged, by outcome', labelNames: ['outcome'], registers: [registry] }),
    jobsInFlight: new Gauge({ name: 'freshet_jobs_in_flight', help: 'Claimed subjects not yet acknowledged', registers: [registry] }),
    fetches: new Counter({ name: 'freshet_fetch_requests_total', help: 'HTTP fetches, by status class', labelNames: ['status_class'], registers: [registry] }),
    fetchSeconds: new Histogram({
      name: 'freshet_fetch_duration_seconds', help: 'Fetch latency', registers: [registry],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
    docs: new Counter({ name: 'freshet_documents_total', help: 'Documents settled, by index and outcome', labelNames: ['index', 'outcome'], registers: [registry] }),
    drops: new Counter({ name: 'freshet_dropped_total', help: 'Items intentionally dropped, by stage and reason', labelNames: ['stage', 'reason'], registers: [registry] }),
    errors: new Counter({ name: 'freshet_errors_total', help: 'Errors handled, by stage and code', labelNames: ['stage', 'code'], registers: [registry] }),
    deadLetters: new Counter({ name: 'freshet_dead_letters_total', help: 'Items written to the dead-letter stream, by code', labelNames: ['code'], registers: [registry] }),
    bulkRequests: new Counter({ name: 'freshet_bulk_requests_total', help: 'Bulk requests to the search node, by outcome', labelNames: ['outcome'], registers: [registry] }),
    bulkBytes: new Counter({ name: 'freshet_bulk_bytes_total', help: 'Bytes sent in bulk requests', registers: [registry] }),
    discovered: new Counter({ name: 'freshet_subjects_discovered_total', help: 'Subjects offered to the frontier, by result', labelNames: ['result'], registers: [registry] }),
  };
  return m;
}

export type Metrics = ReturnType<typeof createMetrics>;
