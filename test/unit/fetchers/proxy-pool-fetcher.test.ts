import type { Dispatcher } from 'undici';
import { ManualClock } from '../../../src/core/clock';
import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import { recordingLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import type { FetchRequest, FetchResponse } from '../../../src/fetchers/contract';
import { ProxyPoolFetcher, type ViaFetcher } from '../../../src/fetchers/proxy-pool-fetcher';
import type { TokenQuota } from '../../../src/limits/token-quota';

const URLS = ['http://ua:first-secret@127.0.0.1:1', 'http://ub:second-secret@127.0.0.1:2'];

/** The quota's contract without Redis (its script is tested against Redis in the integration tests). */
function fakeQuota() {
  const benched: { index: number; forMs: number }[] = [];
  const quota = {
    take: async (order?: readonly number[]) => ({ kind: 'taken' as const, index: order![0]! }),
    bench: async (index: number, forMs: number) => void benched.push({ index, forMs }),
  };
  return { quota: quota as unknown as TokenQuota, benched };
}

function pool(inner: ViaFetcher, quota: TokenQuota, logger = recordingLogger()) {
  const dispatchers = URLS.map((_, i) => ({ id: i, close: async () => undefined }) as unknown as Dispatcher);
  return new ProxyPoolFetcher(inner, {
    urls: URLS, dispatchers, quota, benchMs: 1000, maxBenchMs: 4000, maxConsecutiveFailures: 2, failureBenchMs: 500,
    slowMs: 1000, maxWaitMs: 0, clock: new ManualClock(0), rng: seededRng(1), logger, sleep: async () => undefined,
  });
}

const ok = (url: string): FetchResponse => ({ requestUrl: url, url, status: 200, headers: {}, body: new Uint8Array(), text: '', charset: 'utf-8', redirects: [], attempts: 1, fetchedAtMs: 0, elapsedMs: 0 });

describe('ProxyPoolFetcher', () => {
  it('hands the chosen proxy dispatcher to the inner fetcher', async () => {
    const seen: unknown[] = [];
    const { quota } = fakeQuota();
    const f = pool({ fetch: async (req: FetchRequest, _s?: AbortSignal, via?: Dispatcher) => (seen.push((via as unknown as { id: number }).id), ok(req.url)) }, quota);
    for (let i = 0; i < 20; i++) await f.fetch({ url: 'http://t/' });
    expect(new Set(seen)).toEqual(new Set([0, 1]));
  });

  it('benches a refused proxy with doubling backoff and defers the subject (throttled, not failed)', async () => {
    const { quota, benched } = fakeQuota();
    const logger = recordingLogger();
    const f = pool({ fetch: async () => { throw new FreshetError(ErrorCodes.fetchHttpStatus, 'non_retryable', 'HTTP 403', { status: 403 }); } }, quota, logger);
    const errs: FreshetError[] = [];
    for (let i = 0; i < 6; i++) errs.push(await f.fetch({ url: 'http://t/' }).then(() => { throw new Error('expected a failure'); }, (e: FreshetError) => e));
    expect(errs.every((e) => e.code === ErrorCodes.identityBenched && e.kind === 'throttled')).toBe(true);
    for (const i of [0, 1]) {
      const mine = benched.filter((b) => b.index === i).map((b) => b.forMs);
      expect(mine.slice(0, 3)).toEqual([1000, 2000, 4000].slice(0, mine.length));
    }
    expect(logger.records.every((r) => !JSON.stringify(r).includes('secret'))).toBe(true);
    expect(logger.records.some((r) => String((r.fields as Record<string, unknown>)['proxy_url']).includes('[redacted]@127.0.0.1'))).toBe(true);
  });

  it('benches a proxy after failures in a row; a target 404 says nothing about the proxy', async () => {
    const { quota, benched } = fakeQuota();
    let status: number | undefined;
    const f = pool({
      fetch: async () => {
        if (status === undefined) throw new FreshetError(ErrorCodes.fetchConnection, 'retryable', 'connection failed: ECONNRESET', {});
        throw new FreshetError(ErrorCodes.fetchHttpStatus, 'non_retryable', `HTTP ${status}`, { status });
      },
    }, quota);
    status = 404;
    for (let i = 0; i < 10; i++) await f.fetch({ url: 'http://t/' }).catch(() => undefined);
    expect(benched).toEqual([]);
    expect(f.healthOf(0)).toBeGreaterThan(0.9);
    status = undefined;
    for (let i = 0; i < 10; i++) await f.fetch({ url: 'http://t/' }).catch(() => undefined);
    expect(benched.length).toBeGreaterThan(0);
    expect(benched.every((b) => b.forMs === 500)).toBe(true);
    expect(f.healthOf(0)).toBeLessThan(0.9);
  });

  it('an error quoting a credential of the proxy comes out without it (message, fields, cause)', async () => {
    const { quota } = fakeQuota();
    const basic = Buffer.from('ua:first-secret').toString('base64');
    const f = pool({
      fetch: async () => {
        throw new FreshetError(ErrorCodes.fetchConnection, 'retryable', 'proxy http://ua:first-secret@127.0.0.1:1 said no', { header: `Basic ${basic}` }, new Error('first-secret'));
      },
    }, quota);
    const errs: FreshetError[] = [];
    for (let i = 0; i < 4; i++) errs.push(await f.fetch({ url: 'http://t/' }).then(() => { throw new Error('expected a failure'); }, (e: FreshetError) => e));
    for (const e of errs) {
      const text = `${e.message} ${JSON.stringify(e.fields)} ${String((e.cause as Error | undefined)?.message)}`;
      expect(text).not.toContain('first-secret');
      expect(text).not.toContain(basic);
      expect(e.code).toBe(ErrorCodes.fetchConnection);
    }
  });
});
