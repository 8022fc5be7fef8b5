import { Worker } from 'node:worker_threads';
import { InlineFreshness, type FreshnessAsk } from '../../../../src/cli/serve/freshness-model';
import { ThreadFreshness } from '../../../../src/cli/serve/freshness-thread';
import type { SubjectState } from '../../../../src/core/envelope';
import { configFromStage } from '../../../../src/schedule/poisson';

const HOUR_MS = 3_600_000;
const NOW_MS = 1_000 * HOUR_MS;

function states(n: number): SubjectState[] {
  return Array.from({ length: n }, (_, i) => ({
    firstSeenMs: NOW_MS - 400 * HOUR_MS, lastVisitMs: NOW_MS - ((i % 48) + 1) * HOUR_MS, postsSeen: i % 7 === 0 ? 0 : 3 + (i % 40), visits: 2 + (i % 9),
    failures: 0, status: 'active', schedule: { ep: i % 7 === 0 ? 0 : 3 + (i % 40), eh: 50 + (i % 300) },
  }));
}

function ask(n: number, pipeline = 'p'): FreshnessAsk {
  return { pipeline, states: states(n), config: configFromStage({ type: 'poisson', objective: 'delay', budget_per_hour: 500 } as never), nowMs: NOW_MS, refitEverySecs: 600 };
}

describe('freshet serve: freshness figures on their own thread', () => {
  jest.setTimeout(60_000);

  it('gives the same figures as in this thread', async () => {
    const thread = new ThreadFreshness();
    try {
      const a = ask(500);
      expect(await thread.compute(a)).toEqual(await new InlineFreshness().compute(a));
    } finally {
      await thread.close();
    }
  });

  it('keeps the event loop free while a large refit runs', async () => {
    const thread = new ThreadFreshness();
    try {
      await thread.compute(ask(10)); // the thread is up (its sources compiled) before timing
      const big = ask(8_000, 'big');
      const inlineStartMs = Date.now();
      await new InlineFreshness().compute(big);
      const inlineMs = Date.now() - inlineStartMs;
      let ticks = 0;
      let worstGapMs = 0;
      let last = Date.now();
      const timer = setInterval(() => {
        const t = Date.now();
        worstGapMs = Math.max(worstGapMs, t - last);
        last = t;
        ticks += 1;
      }, 5);
      await thread.compute(big);
      clearInterval(timer);
      // In this thread the refit holds the loop for all of inlineMs; on its own thread the loop
      // keeps ticking (the states' copy is the only pause).
      expect(inlineMs).toBeGreaterThan(100);
      expect(ticks).toBeGreaterThan(3);
      expect(worstGapMs).toBeLessThan(inlineMs * 0.6);
    } finally {
      await thread.close();
    }
  });

  it('fails what a dead thread held and starts another on the next ask', async () => {
    let spawned = 0;
    const dying = new ThreadFreshness(() => {
      spawned += 1;
      // A thread that exits before answering.
      return new Worker('setTimeout(() => process.exit(3), 50)', { eval: true });
    });
    await expect(dying.compute(ask(5))).rejects.toThrow(/freshness thread exited \(code 3\)/);
    await expect(dying.compute(ask(5))).rejects.toThrow(/exited/);
    expect(spawned).toBe(2);
    await dying.close();
  });
});

describe('freshet serve: the freshness thread and the process', () => {
  it('keeps the process alive while it owes an answer, not when idle', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = `
const { readFileSync } = require('node:fs');
const swc = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (m, filename) => m._compile(swc.transformSync(readFileSync(filename, 'utf8'), { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, filename);
const { ThreadFreshness } = require(${JSON.stringify(require.resolve('../../../../src/cli/serve/freshness-thread'))});
const { configFromStage } = require(${JSON.stringify(require.resolve('../../../../src/schedule/poisson'))});
const H = 3600000, N = 1000 * H;
const states = Array.from({ length: 50 }, (_, i) => ({ firstSeenMs: N - 400 * H, lastVisitMs: N - H, postsSeen: i, visits: 3, failures: 0, status: 'active', schedule: { ep: i, eh: 100 } }));
const t = new ThreadFreshness();
t.compute({ pipeline: 'p', states, config: configFromStage({ type: 'poisson', objective: 'delay', budget_per_hour: 50 }), nowMs: N, refitEverySecs: 300 })
  .then((f) => console.log('answered', f.subjects));
`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 50_000 });
    expect(r.stderr).toBe('');
    // Answered, then the process ended by itself although the thread was never closed.
    expect(r.stdout.trim()).toBe('answered 50');
    expect(r.status).toBe(0);
  }, 60_000);
});
