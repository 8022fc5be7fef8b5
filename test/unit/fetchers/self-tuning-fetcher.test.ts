import { ManualClock } from '../../../src/core/clock';
import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import type { Fetcher, FetchRequest, FetchResponse } from '../../../src/fetchers/contract';
import { errorFromStatus } from '../../../src/fetchers/fetch-errors';
import { SelfTuningFetcher } from '../../../src/fetchers/self-tuning-fetcher';
import { TokenPoolFetcher } from '../../../src/fetchers/token-pool-fetcher';
import { SelfTuning } from '../../../src/limits/self-tuning';
import type { TokenQuota } from '../../../src/limits/token-quota';
import { WeiboApiAdapter, weiboApiConfigSchema } from '../../../src/parsers/weibo-api';

const weibo = new WeiboApiAdapter(weiboApiConfigSchema.parse({ type: 'weibo_api', base_url: 'http://sim.test' }));
const softBlockOf = (res: { url: string; status: number; text: string }) => weibo.softBlockOf(res);

const response = (req: FetchRequest, text: string, nowMs: number): FetchResponse => ({
  requestUrl: req.url, url: req.url, status: 200, headers: {}, body: Buffer.from(text), text, charset: 'utf-8', redirects: [], attempts: 1, fetchedAtMs: nowMs, elapsedMs: 20,
});

/** A site that answers each request with the next of `answers` (a body, or an HTTP status to refuse with). */
function site(clock: ManualClock, answers: (string | number)[], seen: FetchRequest[] = []): Fetcher {
  return {
    fetch: async (req) => {
      seen.push(req);
      const a = answers.shift() ?? '{"ok":1,"data":{"cards":[]}}';
      if (typeof a === 'number') throw errorFromStatus(a, undefined, req.url, clock.nowMs());
      return response(req, a, clock.nowMs());
    },
  };
}

function tuned(clock: ManualClock, inner: Fetcher, counted: string[], maxWaitMs = 60_000) {
  const tuning = new SelfTuning({ initialRatePerSec: 2, baseBackoffMs: 10_000, jitterShare: 0 }, () => 0.5);
  const f = new SelfTuningFetcher(inner, {
    tuning, maxWaitMs, clock, sleep: async (ms) => clock.advanceMs(ms), metrics: { requests: () => undefined, bytes: () => undefined, latencyMs: () => undefined, softBlocks: (r) => counted.push(r) },
  });
  return { f, tuning };
}

/** A site with an unannounced capacity: a token bucket refusing with 418 and no Retry-After; every request logged. */
function tokenBucket(clock: ManualClock, ratePerSec: number, burst: number): { inner: Fetcher; sent: { at: number; ok: boolean }[] } {
  let tokens = burst;
  let last = 0;
  const sent: { at: number; ok: boolean }[] = [];
  const inner: Fetcher = {
    fetch: async (req) => {
      const now = clock.nowMs();
      tokens = Math.min(burst, tokens + ((now - last) / 1000) * ratePerSec);
      last = now;
      const ok = tokens >= 1;
      sent.push({ at: now, ok });
      if (!ok) throw errorFromStatus(418, undefined, req.url, now);
      tokens -= 1;
      return response(req, '{"ok":1}', now);
    },
  };
  return { inner, sent };
}

describe('SelfTuningFetcher', () => {
  it('counts a soft block by reason, throws the throttled error and slows that origin and identity down, not another', async () => {
    const clock = new ManualClock(1_000_000);
    const counted: string[] = [];
    const { f, tuning } = tuned(clock, site(clock, ['<html><body>请输入验证码</body></html>', '{"ok":0,"msg":"操作过于频繁，请稍后再试"}']), counted);
    await expect(f.fetch({ url: 'http://sim.test/a', identity: '0', softBlockOf })).rejects.toMatchObject({ code: ErrorCodes.captcha, kind: 'throttled' });
    expect(tuning.waitMs('http://sim.test', '0', clock.nowMs())).toBeGreaterThanOrEqual(9_000);
    expect(tuning.waitMs('http://sim.test', '1', clock.nowMs())).toBe(0);
    await expect(f.fetch({ url: 'http://sim.test/b', identity: '1', softBlockOf })).rejects.toMatchObject({ code: ErrorCodes.rateLimitedBody, kind: 'throttled' });
    expect(counted).toEqual(['captcha', 'too_frequent']);
    // Data is data: a timeline page is no soft block.
    await expect(f.fetch({ url: 'http://sim.test/c', identity: '2', softBlockOf })).resolves.toMatchObject({ status: 200 });
  });

  it('backs off on 418 without Retry-After, escalating; a slot further than max wait reschedules instead of waiting', async () => {
    const clock = new ManualClock(1_000_000);
    const { f } = tuned(clock, site(clock, [418, 418]), [], 15_000);
    await expect(f.fetch({ url: 'http://sim.test/a' })).rejects.toMatchObject({ code: ErrorCodes.fetchThrottled });
    const t0 = clock.nowMs();
    // The first pause (10 s) is waited for; the request is refused again: the next pause (20 s) is too far.
    await expect(f.fetch({ url: 'http://sim.test/b' })).rejects.toMatchObject({ code: ErrorCodes.fetchThrottled });
    expect(clock.nowMs() - t0).toBeGreaterThanOrEqual(9_000);
    const err = await f.fetch({ url: 'http://sim.test/c' }).catch((e: FreshetError) => e);
    expect(err).toMatchObject({ kind: 'throttled', message: 'self-tuned rate: the next slot is too far' });
    expect((err as FreshetError).retryAfterMs).toBeGreaterThan(15_000);
  });

  it('learns the rate an unannounced capacity allows: at least 90 % of it within 10 minutes, at most 2 % refused after', async () => {
    const clock = new ManualClock(0);
    const capacity = 5;
    const { inner, sent } = tokenBucket(clock, capacity, 10);
    const tuning = new SelfTuning({}, () => 0.5);
    const f = new SelfTuningFetcher(inner, { tuning, maxWaitMs: 3_600_000, clock, sleep: async (ms) => clock.advanceMs(ms) });
    while (clock.nowMs() < 20 * 60_000) {
      await f.fetch({ url: 'http://sim.test/x' }).catch(() => undefined);
      clock.advanceMs(1);
    }
    const after = sent.filter((s) => s.at >= 10 * 60_000);
    const okPerSec = after.filter((s) => s.ok).length / 600;
    expect(okPerSec).toBeGreaterThanOrEqual(0.9 * capacity);
    expect(after.filter((s) => !s.ok).length / after.length).toBeLessThanOrEqual(0.02);
    const learned = tuning.sustainable(clock.nowMs());
    expect(learned.learned).toBe(true);
    expect(learned.requestsPerSec).toBeGreaterThan(0.85 * capacity);
    expect(learned.requestsPerSec).toBeLessThanOrEqual(1.05 * capacity);
  });

  it('with many requests waiting for their slots at once, a refusal re-books them instead of sending them into it (no runaway backoff)', async () => {
    const clock = new ManualClock(0);
    const capacity = 3;
    const { inner, sent } = tokenBucket(clock, capacity, 6);
    // Virtual time: sleeps wake in order as the driver below moves the clock to the next one.
    const timers: { at: number; wake: () => void }[] = [];
    const sleep = (ms: number): Promise<void> => new Promise((wake) => timers.push({ at: clock.nowMs() + Math.max(1, ms), wake }));
    const f = new SelfTuningFetcher(inner, { tuning: new SelfTuning({}, () => 0.5), maxWaitMs: 2_000, clock, sleep });
    const endMs = 15 * 60_000;
    let running = 16;
    const worker = async (): Promise<void> => {
      // A throttled request is rescheduled: its worker takes the next one a little later.
      while (clock.nowMs() < endMs) await f.fetch({ url: 'http://sim.test/x' }).catch(() => sleep(500));
      running -= 1;
    };
    for (let i = 0; i < 16; i++) void worker();
    while (running > 0) {
      await new Promise((r) => setImmediate(r));
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next) continue;
      if (next.at > clock.nowMs()) clock.advanceMs(next.at - clock.nowMs());
      while (timers[0] && timers[0].at <= clock.nowMs()) timers.shift()!.wake();
    }
    const after = sent.filter((x) => x.at >= 10 * 60_000);
    expect(after.filter((x) => x.ok).length / 300).toBeGreaterThanOrEqual(0.9 * capacity);
    expect(after.filter((x) => !x.ok).length / after.length).toBeLessThanOrEqual(0.02);
  });
});

describe('TokenPoolFetcher cool-down', () => {
  it('benches an identity that met a soft block, for longer with each refusal in a row, and forgives after an answer', async () => {
    const benches: [number, number][] = [];
    const quota = { take: async () => ({ kind: 'taken', index: 0 }), bench: async (i: number, ms: number) => void benches.push([i, ms]) } as unknown as TokenQuota;
    const clock = new ManualClock(0);
    const captcha = '<html><body>请输入验证码</body></html>';
    const inner = new SelfTuningFetcher(site(clock, [captcha, captcha, 418, '{"ok":1}', captcha]), { maxWaitMs: 1000, clock, sleep: async () => undefined });
    const pool = new TokenPoolFetcher(inner, { tokens: ['t'], headersFor: (t) => ({ cookie: `SUB=${t}` }), quota, benchMs: 7_200_000, minBenchMs: 60_000, maxWaitMs: 1000, sleep: async () => undefined });
    for (let i = 0; i < 5; i++) {
      const r = await pool.fetch({ url: 'http://sim.test/x', softBlockOf }).catch((e: FreshetError) => e);
      if (i === 3) expect(r).toMatchObject({ status: 200 });
      else expect(r).toMatchObject({ code: ErrorCodes.identityBenched, kind: 'throttled' });
    }
    expect(benches).toEqual([[0, 60_000], [0, 120_000], [0, 240_000], [0, 60_000]]);
  });
});
