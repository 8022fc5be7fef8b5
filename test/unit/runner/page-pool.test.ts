import { Worker } from 'node:worker_threads';
import { systemClock } from '../../../src/core/clock';
import { FreshetError } from '../../../src/core/errors';
import { recordingLogger, silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { webPagesConfigSchema } from '../../../src/parsers/web-pages';
import { documentStageSchema } from '../../../src/pipeline/stages';
import { PagePool } from '../../../src/runner/page-pool';
import { PageWork, type PageWorkInit } from '../../../src/runner/page-work';

const init: PageWorkInit = {
  pipeline: 'p',
  parse: webPagesConfigSchema.parse({ type: 'web_pages', rules: [{ name: 'a', match: { regex: ['/news/\\d+\\.html$'] }, page_document: true, links: { selector: 'a[href]' } }] }),
  stages: [documentStageSchema.parse({ type: 'text_density' }), documentStageSchema.parse({ type: 'language' })],
  seed: 1,
};
const html = '<html><body><article><p>The main text of this article, long enough to be the content of the page.</p></article><a href="/news/2.html">2</a></body></html>';
const page = (url: string) => ({ url, status: 200, text: html, fetchedAtMs: 0 });

/**
 * A stand-in thread for the pool's own logic: answers with the URL as its one link, logs on
 * `log`, throws a coded error on `fail`, and exits on `crash` (the process of a thread that dies).
 */
const fakeThread = () => new Worker(`
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ ready: true });
parentPort.on('message', (m) => {
  if (m.page.url.includes('crash')) process.exit(3);
  if (m.page.url.includes('bytes')) return parentPort.postMessage({ id: m.id, read: { docs: [], drops: [], links: [String(m.page.body === undefined)], newPostTimesMs: [], posts: 0 }, samples: [] });
  if (m.page.url.includes('log')) parentPort.postMessage({ log: { level: 'warn', msg: 'from the thread', fields: { url: m.page.url } } });
  if (m.page.url.includes('fail')) return parentPort.postMessage({ id: m.id, error: { message: 'bad page', code: 'E_PARSE_HTML', kind: 'non_retryable' } });
  setTimeout(() => parentPort.postMessage({ id: m.id, read: { docs: [], drops: [], links: [m.page.url], newPostTimesMs: [], posts: 0 }, samples: [{ stage: 'language', received: 2, sent: 1, seconds: [0.001] }] }), m.page.url.includes('slow') ? 200 : 0);
});`, { eval: true });

describe('page pool (worker threads)', () => {
  it('reads pages on real threads: the same read as on this thread, stage counts into the pipeline metrics', async () => {
    const metrics = createMetrics();
    const pool = new PagePool({ threads: 2, init, logger: silentLogger, metrics });
    try {
      const urls = Array.from({ length: 6 }, (_, i) => `https://n.example/news/${i + 10}.html`);
      const reads = await Promise.all(urls.map((u) => pool.read(page(u), `web:page:${u}`, undefined)));
      const here = new PageWork(init, { clock: systemClock, rng: seededRng(1), logger: silentLogger });
      for (const [i, u] of urls.entries()) expect(reads[i]).toEqual((await here.run({ id: 0, page: page(u), subject: `web:page:${u}`, lastVisitMs: undefined })).read);
      expect(reads[0]!.docs[0]!.body['text']).toContain('The main text');
      expect(metrics.stageTally('text_density')).toEqual({ received: 6, sent: 6 });
      expect(metrics.stageTally('language')).toEqual({ received: 6, sent: 6 });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('fails the pages of a thread that dies as retryable, restarts it, and keeps reading; errors and logs of a page come back', async () => {
    const logger = recordingLogger();
    const pool = new PagePool({ threads: 1, init, logger, metrics: createMetrics(), spawn: fakeThread });
    try {
      const slow = pool.read(page('https://n.example/slow'), 's', undefined);
      const crash = pool.read(page('https://n.example/crash'), 's', undefined);
      for (const p of [slow, crash]) await expect(p).rejects.toMatchObject({ code: 'E_PAGE_WORKER', kind: 'retryable' });
      expect(logger.records.some((r) => r.level === 'warn' && (r.fields as { code?: string }).code === 'E_PAGE_WORKER')).toBe(true);
      // A thread that dies on pages (a page too big for its heap) is restarted every time: the pages fail, the pipeline goes on.
      for (let i = 0; i < 4; i++) await expect(pool.read(page(`https://n.example/crash-${i}`), 's', undefined)).rejects.toMatchObject({ kind: 'retryable' });
      expect((await pool.read(page('https://n.example/ok'), 's', undefined)).links).toEqual(['https://n.example/ok']);
      const failed = await pool.read(page('https://n.example/fail'), 's', undefined).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(FreshetError);
      expect(failed).toMatchObject({ code: 'E_PARSE_HTML', kind: 'non_retryable', message: 'bad page' });
      await pool.read(page('https://n.example/log'), 's', undefined);
      expect(logger.records).toContainEqual({ level: 'warn', msg: 'from the thread', fields: { thread: 0, url: 'https://n.example/log' } });
    } finally {
      await pool.close();
    }
  });

  it('gives a thread at most charsInHand of page text at once: a big page goes alone, the next waits for its answer, small ones go together', async () => {
    const pool = new PagePool({ threads: 1, init, logger: silentLogger, metrics: createMetrics(), spawn: fakeThread, charsInHand: 1000 });
    try {
      const big = (url: string) => ({ ...page(url), text: 'x'.repeat(800) });
      const order: string[] = [];
      const first = pool.read(big('https://n.example/slow-1'), 's', undefined).then((r) => order.push(r.links[0]!));
      const second = pool.read(big('https://n.example/slow-2'), 's', undefined).then((r) => order.push(r.links[0]!));
      // 800 + 800 > 1000: the second page waits on this thread, not in the page thread's heap.
      expect(pool.waitingPages).toBe(1);
      await first;
      expect(pool.waitingPages).toBe(0);
      await second;
      expect(order).toEqual(['https://n.example/slow-1', 'https://n.example/slow-2']);
      // Small pages (html is ~150 characters) go several at a time.
      const smalls = [1, 2, 3, 4, 5].map((i) => pool.read(page(`https://n.example/slow-s${i}`), 's', undefined));
      expect(pool.waitingPages).toBe(0);
      await Promise.all(smalls);
    } finally {
      await pool.close();
    }
  });

  it("collects the main thread's heap once big pages of collectEveryChars have been answered (their bodies and texts are garbage V8 keeps for long)", async () => {
    let collections = 0;
    const pool = new PagePool({ threads: 1, init, logger: silentLogger, metrics: createMetrics(), spawn: fakeThread, collect: () => void (collections += 1), collectEveryChars: 2.5 * 2 ** 20 });
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    try {
      const big = (url: string) => ({ ...page(url), text: 'x'.repeat(2 ** 20) });
      await pool.read(big('https://n.example/b1'), 's', undefined);
      await pool.read(big('https://n.example/b2'), 's', undefined);
      for (let i = 0; i < 50; i++) await pool.read(page(`https://n.example/s${i}`), 's', undefined); // small pages never count
      await tick();
      expect(collections).toBe(0);
      await pool.read(big('https://n.example/b3'), 's', undefined);
      await tick();
      expect(collections).toBe(1);
      await pool.read(big('https://n.example/b4'), 's', undefined);
      await tick();
      expect(collections).toBe(1); // counted again from nothing
    } finally {
      await pool.close();
    }
  });

  it('fails the pages in a thread\'s hand and those still waiting when the pool closes (retryable), rather than leaving them unanswered', async () => {
    const pool = new PagePool({ threads: 1, init, logger: silentLogger, metrics: createMetrics(), spawn: fakeThread, charsInHand: 10 });
    const inHand = pool.read(page('https://n.example/slow-a'), 's', undefined).catch((e: unknown) => e);
    const waiting = pool.read(page('https://n.example/slow-b'), 's', undefined).catch((e: unknown) => e);
    expect(pool.waitingPages).toBe(1);
    await pool.close();
    // Without an answer the visit would hold its credit and lease until the lease expires.
    const settled = await Promise.race([Promise.all([inHand, waiting]), new Promise((r) => setTimeout(() => r('unanswered'), 1_000))]);
    expect(settled).toEqual([expect.objectContaining({ code: 'E_PAGE_WORKER', kind: 'retryable' }), expect.objectContaining({ code: 'E_PAGE_WORKER', kind: 'retryable' })]);
  });

  it('sends a page to its thread as text, without the body bytes (one copy of the page, not two)', async () => {
    const pool = new PagePool({ threads: 1, init, logger: silentLogger, metrics: createMetrics(), spawn: fakeThread });
    try {
      const bytes = new Uint8Array(Buffer.from(html));
      const read = await pool.read({ ...page('https://n.example/bytes'), body: bytes }, 's', undefined);
      expect(read.links).toEqual(['true']);
    } finally {
      await pool.close();
    }
  });

  it('stops restarting a thread that exits before it is ready, three times in a row: reads fail with a critical error', async () => {
    const logger = recordingLogger();
    const spawn = () => new Worker('process.exit(9)', { eval: true });
    const pool = new PagePool({ threads: 1, init, logger, metrics: createMetrics(), spawn });
    try {
      let err: unknown;
      for (let i = 0; i < 10 && !(err instanceof FreshetError && err.kind === 'critical'); i++) {
        err = await pool.read(page(`https://n.example/${i}`), 's', undefined).catch((e: unknown) => e);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(err).toMatchObject({ code: 'E_PAGE_WORKER', kind: 'critical' });
      await expect(pool.read(page('https://n.example/x'), 's', undefined)).rejects.toMatchObject({ kind: 'critical' });
      expect(logger.records.filter((r) => r.level === 'error')).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });
});
