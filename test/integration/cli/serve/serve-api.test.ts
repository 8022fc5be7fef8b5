import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { silentLogger } from '../../../../src/core/logger';
import { ManualClock, systemClock } from '../../../../src/core/clock';
import { loadPipeline } from '../../../../src/pipeline/load';
import { buildModelFromFrontier, frontierFreshness } from '../../../../src/schedule/core-bridge';
import { configFromStage } from '../../../../src/schedule/poisson';
import { serve } from '../../../../src/cli/serve';
import type { RunningServer } from '../../../../src/cli/serve/server';
import { startServe } from '../../../../src/cli/serve/server';
import { buildPipeline, pipelineNamespace, type BuiltPipeline } from '../../../../src/runner/build';
import type { RunSummary } from '../../../../src/runner/types';
import type { SimsiteHandle } from '../../../../src/simsite';
import { createMetrics } from '../../../../src/core/metrics';
import { seededRng } from '../../../../src/core/rng';
import { sleepMs as sleep } from '../../../../src/core/timers';
import { FRESHET_BIN, frozenSimsite, MAPPINGS, seedsOf, writeCliPipeline } from '../../../helpers/crawl';
import { startServedCrawl, type ServedCrawl } from '../../../helpers/served-crawl';
import { trackNamespace, useRedis, useSearch, type TestSearch } from '../../../helpers/services';

/**
 * `freshet serve` against a real crawl of simsite (real Redis, real search node): the overview
 * shows the running worker's counts, pause stops claims (once the ones asked for have landed) and resume restarts
 * them, drain ends the run, dead letters are listed, requeued (a document is indexed again, a
 * subject made due) and dropped, seeding offers subjects; a token guards a server that has one.
 */
describe('freshet serve: the JSON API over a live crawl', () => {
  let s: TestSearch;
  let site: SimsiteHandle;
  let built: BuiltPipeline;
  let server: RunningServer;
  let running: Promise<RunSummary>;
  const name = `t-serve-${randomBytes(3).toString('hex')}`;

  const api = async <T = Record<string, unknown>>(path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${server.url}${path}`, {
      method, ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }),
    });
    return { status: res.status, body: (await res.json()) as T };
  };
  const claimed = () => built.runner.progress().claimed;

  let crawl: ServedCrawl;

  beforeAll(async () => {
    // One request per origin every 40 ms: the crawl lasts well beyond the test's pauses.
    crawl = await startServedCrawl({ label: 'serve-api', name, seed: 5, users: 300, minDelayMs: 40, rngSeed: 1, reportMs: 200, durationMs: 60_000 });
    ({ s, site, built, server, running } = crawl);
  }, 30_000);

  afterAll(async () => crawl.close());

  async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await cond())) {
      if (Date.now() > end) throw new Error('timed out');
      await sleep(50);
    }
  }

  it('shows the running worker and its counts; pause stops claims, resume restarts them', async () => {
    await until(() => claimed() > 3, 10_000);
    await sleep(500);
    const one = await api<{ name: string; workers: { requests: number }[]; totals: { requests: number }; frontier: { subjects: number } }>(`/api/pipelines/${name}`);
    expect(one.status).toBe(200);
    expect(one.body.name).toBe(name);
    expect(one.body.workers).toHaveLength(1);
    expect(one.body.totals.requests).toBeGreaterThan(0);
    expect(one.body.frontier.subjects).toBe(300);
    const list = await api<{ pipelines: { name: string }[] }>('/api/pipelines');
    expect(list.body.pipelines.map((p) => p.name)).toEqual([name]);

    const paused = await api<{ paused: boolean }>(`/api/pipelines/${name}/pause`, 'POST');
    expect(paused.body.paused).toBe(true);
    // Claims already asked for may still land: the count settles (on a loaded machine, later than on an idle one), then holds.
    let settled = claimed();
    await until(async () => {
      await sleep(500);
      const now = claimed();
      const still = now === settled;
      settled = now;
      return still;
    }, 5_000);
    const held = claimed();
    await sleep(1500);
    expect(claimed()).toBe(held);
    expect(built.runner.progress().paused).toBe(true);
    expect((await api<{ control: { paused: boolean } }>(`/api/pipelines/${name}`)).body.control.paused).toBe(true);

    expect((await api<{ paused: boolean }>(`/api/pipelines/${name}/resume`, 'POST')).body.paused).toBe(false);
    await until(() => claimed() > held, 5_000);
  }, 30_000);

  it('reads the limits and the freshness figures', async () => {
    const limits = await api<{ politeness: { minDelayMs: number; maxConcurrencyPerOrigin: number }; origins: { origin: string }[]; identities: unknown }>(`/api/pipelines/${name}/limits`);
    expect(limits.status).toBe(200);
    expect(limits.body.politeness).toMatchObject({ minDelayMs: 40, maxConcurrencyPerOrigin: 1 });
    expect(limits.body.origins.some((o) => o.origin.includes(String(site.port)))).toBe(true);
    expect(limits.body.identities).toBeNull();
    const fresh = await api<{ schedule: { type: string }; meter: unknown; reason: string }>(`/api/pipelines/${name}/freshness`);
    expect(fresh.body.schedule.type).toBe('fixed_interval');
    expect(fresh.body.meter).toBeNull();
    expect(fresh.body.reason).toMatch(/not a poisson schedule \(fixed_interval\)/);
    expect((await api(`/api/pipelines/nope/limits`)).status).toBe(404);
  });

  it('seeds subjects, refusing malformed ones with the reason', async () => {
    const ok = await api<{ offered: number; added: number }>(`/api/pipelines/${name}/seed`, 'POST', { subjects: ['weibo:user:900001', `weibo:user:${site.world.users[0]!.uid}`] });
    expect(ok.body).toEqual({ offered: 2, added: 1 });
    const bad = await api<{ error: string }>(`/api/pipelines/${name}/seed`, 'POST', { subjects: ['not a subject'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/body\.subjects\.0: expected <platform>:<kind>:<id>/);
    const plain = await fetch(`${server.url}/api/pipelines/${name}/seed`, { method: 'POST', body: 'subjects=x' });
    expect(plain.status).toBe(415);
    for (const origin of ['http://evil.example', 'null']) {
      const cross = await fetch(`${server.url}/api/pipelines/${name}/pause`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: '{}' });
      expect(cross.status).toBe(403);
    }
    expect((await api<{ paused: boolean }>(`/api/pipelines/${name}`)).body).toMatchObject({ control: { paused: false } });
  });

  it('lists, shows, requeues (document indexed again, subject due) and drops dead letters', async () => {
    const letters = built.deadLetters;
    const doc = { index: 'posts', id: 'weibo:dl-1', body: { platform: 'weibo', id: 'dl-1', text: '重新索引的帖子', created_at: '2026-04-10T08:00:00Z' } };
    await letters.deadLetter({ code: 'E_SINK_REJECTED', stage: 'elasticsearch', subject: 'weibo:user:1', id: doc.id, message: 'mapper_parsing_exception', payload: doc });
    await letters.deadLetter({ code: 'E_PARSE', stage: 'weibo_api', subject: 'weibo:user:777777', message: 'unexpected token' });
    await letters.deadLetter({ code: 'E_HTTP_5XX', stage: 'http_fetch', subject: 'weibo:user:888888', message: '503' });

    type Item = { id: string; code: string; subject?: string; hasPayload: boolean };
    const list = await api<{ total: number; items: Item[]; next?: string }>(`/api/pipelines/${name}/dead-letters?limit=2`);
    expect(list.body.total).toBe(3);
    expect(list.body.items.map((i) => i.code)).toEqual(['E_HTTP_5XX', 'E_PARSE']);
    const rest = await api<{ items: Item[] }>(`/api/pipelines/${name}/dead-letters?limit=2&before=${list.body.next!}`);
    expect(rest.body.items.map((i) => i.code)).toEqual(['E_SINK_REJECTED']);
    const docLetter = rest.body.items[0]!;
    expect(docLetter.hasPayload).toBe(true);
    const shown = await api<{ payload: { id: string } }>(`/api/pipelines/${name}/dead-letters/${docLetter.id}`);
    expect(shown.body.payload.id).toBe(doc.id);

    const requeued = await api<{ requeued: string }>(`/api/pipelines/${name}/dead-letters/${docLetter.id}/requeue`, 'POST');
    expect(requeued.status).toBe(200);
    expect(requeued.body.requeued).toBe('document');
    const got = await s.client.get<{ text: string }>({ index: `${s.prefix}posts`, id: doc.id });
    expect(got._source?.text).toBe(doc.body.text);

    const parse = list.body.items[1]!;
    const subj = await api<{ requeued: string; detail: string }>(`/api/pipelines/${name}/dead-letters/${parse.id}/requeue`, 'POST');
    expect(subj.body.requeued).toBe('subject');
    expect(await built.frontier.getState('weibo:user:777777')).toBeDefined();

    expect((await api(`/api/pipelines/${name}/dead-letters/${list.body.items[0]!.id}`, 'DELETE')).status).toBe(200);
    expect((await api(`/api/pipelines/${name}/dead-letters/${list.body.items[0]!.id}`, 'DELETE')).status).toBe(404);
    expect((await api<{ total: number }>(`/api/pipelines/${name}/dead-letters`)).body.total).toBe(0);
  });

  it('serves the pages from the same views', async () => {
    const overview = await (await fetch(`${server.url}/`)).text();
    expect(overview).toContain(`data-pipeline="${name}"`);
    expect(overview).toMatch(/data-block="freshness"><p class="meta" data-fresh="none">not a poisson schedule/);
    expect(overview).toMatch(/data-field="totals\.requests">[1-9]\d*</);
    const dead = await (await fetch(`${server.url}/dead-letters?pipeline=${name}`)).text();
    expect(dead).toContain('data-total="0"');
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    const spec = await api<{ openapi: string; paths: Record<string, unknown> }>('/openapi.json');
    expect(spec.body.openapi).toBe('3.1.0');
    expect(Object.keys(spec.body.paths)).toContain('/api/pipelines/{name}/pause');
  });

  it('drain ends the running worker', async () => {
    expect((await api<{ drainAtMs?: number }>(`/api/pipelines/${name}/drain`, 'POST')).body.drainAtMs).toBeGreaterThan(0);
    const summary = await running;
    expect(summary.stoppedBy).toBe('drain');
  }, 20_000);

  it('with a token, every request needs it; a non-loopback address needs one', async () => {
    const deps = { pipelines: new Map(), views: undefined as never, indexPrefix: '', clock: systemClock, health: () => Promise.resolve({ redis: true, search: false }) };
    await expect(startServe({ host: '0.0.0.0', port: 0, routes: [], deps, openApi: {}, logger: silentLogger })).rejects.toThrow(/needs a token/);
    const guarded = await startServe({ host: '127.0.0.1', port: 0, token: 's3cret', routes: [], deps, openApi: { openapi: '3.1.0' }, logger: silentLogger });
    try {
      expect((await fetch(`${guarded.url}/openapi.json`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/openapi.json`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`${guarded.url}/openapi.json`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
      const login = await fetch(`${guarded.url}/login?token=s3cret`, { redirect: 'manual' });
      expect(login.status).toBe(303);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${guarded.url}/openapi.json`, { headers: { cookie } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

/**
 * The freshness figures of a poisson pipeline after a real crawl of a frozen simsite: the meter
 * `freshet status` prints (the built CLI, same pipeline file), on the API and the overview page,
 * recomputed at most every 30 s.
 */
describe('freshet serve: the freshness meter of a poisson pipeline', () => {
  const name = `t-fresh-${randomBytes(3).toString('hex')}`;
  type Meter = { unindexedPosts: number; unindexedLow: number; unindexedHigh: number; unindexedMeanAgeHours: number; predictedMeanDelayHours: number; unvisitedSubjects: number };
  type Fresh = { schedule: { type: string; plannedPagesPerHour: number; estimatedPostsPerHour: number }; meter: Meter | null; computedAtMs: number };

  it('answers the meter of freshet status, recomputed at most every 30 s, and the overview shows it', async () => {
    const r = await useRedis('serve-fresh');
    const s = await useSearch('serve-fresh');
    trackNamespace(r.redis, pipelineNamespace({ name }));
    const site = await frozenSimsite(40, 43);
    const file = writeCliPipeline(name, seedsOf(site), 'shards: 2, max_in_flight: 16, poll_interval_ms: 50, lease_secs: 30',
      'schedule: { type: poisson, objective: delay, budget_per_hour: 40, page_size: 10, page_limit: 10 }\n');
    const config = loadPipeline(file, { SIMSITE_URL: site.url });
    // The server's clock runs 6 h past the crawl: every visited subject has had 6 h to publish.
    const clock = new ManualClock(Date.now() + 6 * 3_600_000);
    let server: RunningServer | undefined;
    try {
      const built = await buildPipeline(config, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: systemClock, rng: seededRng(3),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms),
      });
      expect((await built.runner.run({ untilIdle: true })).jobs).toBe(40);
      await built.close();
      server = await serve({ redis: r.redis, search: s.client, indexPrefix: s.prefix, pipelines: [{ config }], clock, logger: silentLogger, host: '127.0.0.1', port: 0, version: 'test' });
      const get = async (): Promise<Fresh> => (await (await fetch(`${server!.url}/api/pipelines/${name}/freshness`)).json()) as Fresh;
      const { refit_interval_secs: _every, ...options } = config.schedule as Extract<typeof config.schedule, { type: 'poisson' }>;
      // What freshet status computes: a refit from every state, then the meter.
      const statusAt = async (nowMs: number) => {
        const states = await built.frontier.allStates();
        return frontierFreshness(states, buildModelFromFrontier(states, configFromStage(options)), nowMs);
      };

      const first = await get();
      expect(first.schedule.type).toBe('poisson');
      const meter = first.meter!;
      const expected = (await statusAt(clock.nowMs())).freshness;
      for (const k of Object.keys(expected) as (keyof Meter)[]) expect(meter[k]).toBeCloseTo(expected[k], 9);
      expect(meter.unindexedPosts).toBeGreaterThan(0);
      expect(meter.unindexedLow).toBeLessThan(meter.unindexedPosts);
      expect(meter.unindexedHigh).toBeGreaterThan(meter.unindexedPosts);
      // Posts waiting since the visits 6 h ago are on average 3 h old (uniform over the window).
      expect(meter.unindexedMeanAgeHours).toBeGreaterThan(2.9);
      expect(meter.unindexedMeanAgeHours).toBeLessThan(3.1);
      expect(meter.unvisitedSubjects).toBe(0);

      const page = await (await fetch(`${server.url}/`)).text();
      expect(page).toContain(`data-fresh="unindexedPosts">${meter.unindexedPosts.toFixed(0)}<`);
      expect(page).toContain(`data-fresh="unindexedHigh">${meter.unindexedHigh.toFixed(0)}<`);
      const fragment = await (await fetch(`${server.url}/fragments/freshness?pipeline=${name}`)).text();
      expect(fragment).toContain(`data-fresh="predictedMeanDelayHours">${meter.predictedMeanDelayHours.toFixed(2)}<`);

      // Five subjects never visited: within 30 s the cached figures stand, after it they count (and,
      // 12 % more subjects, the served model is refit: the plan below is status's own).
      const fresh = Array.from({ length: 5 }, (_, i) => `weibo:user:${990_001 + i}`);
      expect((await (await fetch(`${server.url}/api/pipelines/${name}/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ subjects: fresh }) })).json())).toEqual({ offered: 5, added: 5 });
      clock.advanceMs(29_000);
      const cached = await get();
      expect(cached.computedAtMs).toBe(first.computedAtMs);
      expect(cached.meter!.unvisitedSubjects).toBe(0);
      clock.advanceMs(2_000);
      const later = await get();
      expect(later.computedAtMs).toBe(clock.nowMs());
      expect(later.meter!.unvisitedSubjects).toBe(5);

      // freshet status (the built CLI) over the same pipeline file prints the same meter, at its own now.
      const env = { ...process.env, FRESHET_INDEX_PREFIX: s.prefix, SIMSITE_URL: site.url };
      const before = await statusAt(Date.now());
      const { stdout } = await promisify(execFile)('node', [FRESHET_BIN, 'status', file, '--json'], { env });
      const after = await statusAt(Date.now());
      const cli = (JSON.parse(stdout) as { schedule: { plannedPagesPerHour: number; freshness: Meter } }).schedule;
      expect(cli.freshness.unvisitedSubjects).toBe(5);
      expect(cli.freshness.predictedMeanDelayHours).toBeCloseTo(later.meter!.predictedMeanDelayHours, 9);
      expect(cli.plannedPagesPerHour).toBeCloseTo(later.schedule.plannedPagesPerHour, 9);
      expect(cli.freshness.unindexedPosts).toBeGreaterThanOrEqual(before.freshness.unindexedPosts);
      expect(cli.freshness.unindexedPosts).toBeLessThanOrEqual(after.freshness.unindexedPosts);
      expect(cli.freshness.unindexedPosts).toBeGreaterThan(0);

      // freshet plan over the same frontier: a lower budget waits longer. One visit each, so no
      // delay is realized yet: the forecast is the model's, and the text output says so.
      const plan = JSON.parse((await promisify(execFile)('node', [FRESHET_BIN, 'plan', file, '--budget-per-hour', '20,40,80', '--json'], { env })).stdout) as {
        subjects: number; change_probability: number; forecasts: { budgetPerHour: number; meanDelayHours: number; modelMeanDelayHours: number; calibration: number }[];
      };
      expect(plan.subjects).toBe(45);
      // Too few last windows to choose from (50 needed): the change test keeps its default.
      expect(plan.change_probability).toBe(0.3);
      expect(plan.forecasts.map((f) => f.budgetPerHour)).toEqual([20, 40, 80]);
      expect(plan.forecasts[0]!.meanDelayHours).toBeGreaterThan(plan.forecasts[1]!.meanDelayHours);
      expect(plan.forecasts[1]!.meanDelayHours).toBeGreaterThan(plan.forecasts[2]!.meanDelayHours);
      for (const f of plan.forecasts) {
        expect(f.calibration).toBe(1);
        expect(f.meanDelayHours).toBe(f.modelMeanDelayHours);
      }
      const text = (await promisify(execFile)('node', [FRESHET_BIN, 'plan', file, '--budget-per-hour', '20,40'], { env })).stdout;
      expect(text).toContain('not yet calibrated against realized delays');
      expect(text).toContain('change test: a new rate expected in 30 % of recent windows (learned from the visits)');
    } finally {
      await server?.close();
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  }, 60_000);
});
