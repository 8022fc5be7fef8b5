/** The parts of a pipeline that decide whether every request is charged to a quota. */
interface QuotaCharged {
  fetch: { retry: { max_attempts: number } };
  identities?: unknown;
  proxies?: unknown;
}

/**
 * Every request of an identity or proxy pool is charged to a quota, so the fetcher makes one
 * attempt and the runner reschedules instead of retrying uncounted. The pipeline schema applies
 * it to every file; the factory again to configs built in code.
 */
export function oneAttemptPerQuota<T extends QuotaCharged>(c: T): T {
  return c.identities || c.proxies ? { ...c, fetch: { ...c.fetch, retry: { ...c.fetch.retry, max_attempts: 1 } } } : c;
}
