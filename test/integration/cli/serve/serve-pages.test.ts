import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningServer } from '../../../../src/cli/serve/server';
import { sleepMs as sleep } from '../../../../src/core/timers';
import type { BuiltPipeline } from '../../../../src/runner/build';
import { startServedCrawl, type ServedCrawl } from '../../../helpers/served-crawl';
import { type TestSearch } from '../../../helpers/services';

/** Written by the tests, never committed (.state/ is ignored). */
const SHOTS = join(__dirname, '..', '..', '..', '..', '.state', 'screenshots');

/**
 * The pages of `freshet serve` driven in Debian's Chromium (playwright-core) over a live simsite
 * crawl: the overview follows the crawl's counts and its buttons pause and resume every worker,
 * a search shows highlighted hits, the chart has one point per day of the timeline, and a
 * requeued dead letter is indexed.
 */
describe('freshet serve: the pages in a real browser', () => {
  let s: TestSearch;
  let built: BuiltPipeline;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const name = `t-pages-${randomBytes(3).toString('hex')}`;
  const claimed = () => built.runner.progress().claimed;

  let crawl: ServedCrawl;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    crawl = await startServedCrawl({ label: 'serve-pages', name, seed: 9, users: 200, minDelayMs: 30, rngSeed: 2, reportMs: 250, durationMs: 90_000 });
    ({ s, built, server } = crawl);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await crawl.close();
  });

  const figure = async (field: string): Promise<number> => Number(await page.locator(`[data-pipeline="${name}"] b[data-field="${field}"]`).textContent());

  it('the overview follows the crawl\'s counts; its buttons pause and resume every worker', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForFunction(`Number(document.querySelector('b[data-field="totals.requests"]')?.textContent) > 0`, undefined, { timeout: 10_000 });
    const first = await figure('totals.requests');
    // Refreshed every 2 s from the workers' reports: the figure grows while the crawl runs.
    await page.waitForFunction(`Number(document.querySelector('b[data-field="totals.requests"]')?.textContent) > ${first}`, undefined, { timeout: 6_000 });
    expect(await figure('frontier.subjects')).toBe(200);
    expect(await figure('workers.length')).toBe(1);
    expect(await page.locator(`[data-pipeline="${name}"] [data-block="freshness"]`).textContent()).toMatch(/not a poisson schedule \(fixed_interval\)/);
    await page.screenshot({ path: join(SHOTS, 'serve-overview.png'), fullPage: true });

    await page.click(`[data-pipeline="${name}"] button[data-act="pause"]`);
    await page.waitForSelector(`[data-pipeline="${name}"] .state.paused`, { timeout: 3_000 });
    await sleep(1000);
    const held = claimed();
    await sleep(1000);
    expect(claimed()).toBe(held);
    await page.click(`[data-pipeline="${name}"] button[data-act="resume"]`);
    await page.waitForFunction(`document.querySelector('[data-pipeline="${name}"] [data-field="state"]')?.textContent === 'running'`, undefined, { timeout: 3_000 });
    const end = Date.now() + 1500;
    while (claimed() === held && Date.now() < end) await sleep(50);
    expect(claimed()).toBeGreaterThan(held);
  }, 40_000);

  it('a search shows highlighted hits and facets', async () => {
    await s.client.indices.refresh({ index: `${s.prefix}posts` });
    const one = await s.client.search<{ text: string }>({ index: `${s.prefix}posts`, size: 1, query: { exists: { field: 'text' } } });
    const text = one.hits.hits[0]!._source!.text;
    const word = /[\u4e00-\u9fff]{2}|[A-Za-z]{4,}/.exec(text)![0];
    await page.goto(`${server.url}/search?q=${encodeURIComponent(word)}`);
    const total = Number(await page.locator('[data-total]').getAttribute('data-total'));
    expect(total).toBeGreaterThan(0);
    expect(await page.locator('.hit mark').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-facet="platform"] li').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'serve-search.png'), fullPage: true });
  });

  it('the chart has one point per day of the timeline', async () => {
    const api = (await (await fetch(`${server.url}/api/timeline?interval=day`)).json()) as { points: { posts: number }[] };
    expect(api.points.length).toBeGreaterThan(1);
    await page.goto(`${server.url}/chart?q=&interval=day`);
    await page.waitForFunction('window.chart !== undefined', undefined, { timeout: 5_000 });
    const drawn = await page.evaluate<number>('window.chart.data[0].length');
    // The crawl goes on meanwhile: a new day may have appeared between the two reads, none gone.
    expect(drawn).toBeGreaterThanOrEqual(api.points.length);
    expect(drawn).toBeLessThanOrEqual(api.points.length + 1);
    expect(await page.locator('#chart canvas').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'serve-chart.png'), fullPage: true });
  });

  it('a dead letter requeued from its page is indexed', async () => {
    const doc = { index: 'posts', id: 'weibo:dl-page-1', body: { platform: 'weibo', id: 'dl-page-1', text: '从死信页面重新索引', created_at: '2026-04-10T08:00:00Z' } };
    await built.deadLetters.deadLetter({ code: 'E_SINK_REJECTED', stage: 'elasticsearch', subject: 'weibo:user:1', id: doc.id, message: 'mapper_parsing_exception: test', payload: doc });
    await page.goto(`${server.url}/dead-letters?pipeline=${name}`);
    const row = page.locator('tr[data-id]').filter({ hasText: 'E_SINK_REJECTED' });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('mapper_parsing_exception: test');
    await row.locator('button[data-act="requeue"]').click();
    await page.waitForFunction(`document.getElementById('outcome')?.textContent?.startsWith('indexed ')`, undefined, { timeout: 5_000 });
    expect(await page.locator('tr[data-id]').filter({ hasText: 'E_SINK_REJECTED' }).count()).toBe(0);
    const got = await s.client.get<{ text: string }>({ index: `${s.prefix}posts`, id: doc.id });
    expect(got._source?.text).toBe(doc.body.text);
  });
});
