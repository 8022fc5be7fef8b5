/**
 * `npm run bench render`: the render fetch mode against plain fetches of the same script-loaded
 * simsite thread pages, side by side in one run: pages/s, CPU per page (node and browser
 * processes), peak memory (node and browser RSS) and posts found against the ground truth.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock, systemClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { applyRules } from '../../../src/extractors/rules/apply';
import { parseRuleSets } from '../../../src/extractors/rules/schema';
import { HttpFetcher } from '../../../src/fetchers/http-fetch';
import { browserPids, browserRssBytes } from '../../../src/fetchers/render/browser-pool';
import { RenderFetcher } from '../../../src/fetchers/render/render-fetch';
import type { FetchRequest, FetchResponse } from '../../../src/fetchers/contract';
import { startSimsite } from '../../../src/simsite';
import { AjaxSite, ajaxPostTruth, ajaxThreadUrl } from '../../../src/simsite/pages/ajax';
import { ForumWorld } from '../../../src/simsite/pages/forum-world';
import { goal, projectRoot, writeReport, type ResultRow } from '../lib/results';

const PAGES = 60;
const CONCURRENCY = [2, 4];

const RULES = parseRuleSets([{
  name: 'ajax-thread', match: { regex: ['/ajax/thread-\\d+\\.html$'] },
  list: { selector: 'article.post', required: ['text'], fields: { id: { selector: 'header', type: 'attr', attr: 'data-pid' }, text: { selector: '.content' } } },
}]);

const TICKS_PER_SEC = 100;
function cpuSecs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // Exited.
    }
  }
  return ticks / TICKS_PER_SEC;
}

interface Run { pagesPerSec: number; nodeCpuMsPerPage: number; browserCpuMsPerPage: number; nodeRssMibPeak: number; browserRssMibPeak: number; posts: number; launches: number }

async function runPool(urls: string[], concurrency: number, fetch: (req: FetchRequest) => Promise<FetchResponse>, browser?: () => Promise<string | undefined>): Promise<Run> {
  let next = 0;
  let posts = 0;
  let nodePeak = 0;
  let browserPeak = 0;
  const browserPidsSeen = new Set<number>();
  let browserCpu = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const sample = async (): Promise<void> => {
    nodePeak = Math.max(nodePeak, process.memoryUsage().rss);
    const dir = browser ? await browser() : undefined;
    if (dir) {
      browserPeak = Math.max(browserPeak, browserRssBytes(dir));
      for (const p of browserPids(dir).all) browserPidsSeen.add(p);
      browserCpu = Math.max(browserCpu, cpuSecs([...browserPidsSeen]));
    }
  };
  const timer = setInterval(() => void sample(), 100);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const res = await fetch({ url, expect: 'html' });
      posts += applyRules(res.text, res.url, RULES)?.items.length ?? 0;
    }
  }));
  await sample();
  clearInterval(timer);
  const elapsedS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    pagesPerSec: urls.length / elapsedS,
    nodeCpuMsPerPage: (cpu.user + cpu.system) / 1000 / urls.length,
    browserCpuMsPerPage: (browserCpu * 1000) / urls.length,
    nodeRssMibPeak: nodePeak / 2 ** 20,
    browserRssMibPeak: browserPeak / 2 ** 20,
    posts,
    launches: 0,
  };
}

async function main(): Promise<void> {
  // The project installs its own browser (Debian's chromium), as npm test does.
  execFileSync('bash', [join(projectRoot(), 'scripts', 'lib', 'ensure-chromium.sh')], { stdio: 'inherit' });
  const probe = await startSimsite({ worldOptions: { seed: 5, users: 500, historyDays: 20 }, port: 0 });
  const startMs = probe.world.startMs;
  await probe.close();
  const clock = new ManualClock(startMs);
  const site = await startSimsite({ worldOptions: { seed: 5, users: 500, historyDays: 20 }, clock, port: 0 });
  const forum = new ForumWorld(site.world, 40);
  const ajax = new AjaxSite(site.world, forum);
  const threads = ajax.threads(clock.nowMs()).slice(0, PAGES);
  const urls = threads.map((t) => `${site.url}${ajaxThreadUrl(t.tid)}`);
  let truth = 0;
  for (const t of threads) truth += [...ajaxPostTruth(ajax, forum, clock.nowMs(), t.tid)].length;

  const results: ResultRow[] = [];
  const row = (variant: string, r: Run): void => {
    results.push(
      { system: 'freshet', variant, metric: 'pages_per_sec', value: round(r.pagesPerSec) },
      { system: 'freshet', variant, metric: 'node_cpu_ms_per_page', value: round(r.nodeCpuMsPerPage) },
      { system: 'freshet', variant, metric: 'browser_cpu_ms_per_page', value: round(r.browserCpuMsPerPage) },
      { system: 'freshet', variant, metric: 'node_rss_mib_peak', value: round(r.nodeRssMibPeak) },
      { system: 'freshet', variant, metric: 'browser_rss_mib_peak', value: round(r.browserRssMibPeak) },
      { system: 'freshet', variant, metric: 'posts_found_share', value: round(r.posts / truth, 4) },
    );
  };

  const httpConfig = { allow_private_networks: true, respect_robots: true, retry: { max_attempts: 3, base_delay_ms: 50 } };
  const deps = { clock: systemClock, rng: seededRng(1), logger: silentLogger };
  const plainHttp = new HttpFetcher(httpConfig as never, deps);
  // Warm-up (robots.txt, sockets), then the measured run.
  await plainHttp.fetch({ url: urls[0]!, expect: 'html' });
  const plain = await runPool(urls, 4, (req) => plainHttp.fetch(req));
  await plainHttp.close();
  row('plain-c4', plain);

  const renders: Record<number, Run> = {};
  for (const c of CONCURRENCY) {
    const http = new HttpFetcher(httpConfig as never, deps);
    const render = new RenderFetcher({ url_patterns: ['/ajax/thread-'], max_pages: c, wait: { selector: '#posts[data-state=loaded]' } }, { http, retry: http.config.retry, ...deps });
    // The browser launch is paid once per crawl, not per page: start it before the clock runs.
    await render.fetch({ url: urls[0]!, expect: 'html' });
    const r = await runPool(urls, c, (req) => render.fetch(req), async () => (await render.browser())?.userDataDir);
    r.launches = render.stats().browser.launches;
    renders[c] = r;
    row(`render-c${c}`, r);
    results.push({ system: 'freshet', variant: `render-c${c}`, metric: 'blocked_requests_per_page', value: round(Object.values(render.stats().blocked).reduce((a, b) => a + b, 0) / (urls.length + 1)) });
    await render.close();
    await http.close();
  }
  await site.close();

  const best = Math.max(...Object.values(renders).map((r) => r.pagesPerSec));
  results.push({ system: 'freshet', variant: 'render-best/plain', metric: 'pages_per_sec_ratio', value: round(best / plain.pagesPerSec, 4) });
  writeReport('render', { pages: urls.length, posts_truth: truth, plain_concurrency: 4, render_pages: CONCURRENCY, wait: 'selector #posts[data-state=loaded]', blocked: ['image', 'font', 'media'] }, results, [
    goal('render: share of the script-loaded posts found (ground truth)', '==', 1, Math.min(...Object.values(renders).map((r) => round(r.posts / truth, 4)))),
    goal('plain fetch: share of the script-loaded posts found', '==', 0, round(plain.posts / truth, 4)),
  ], { note: 'shared 2-core machine, 8 concurrent helpers: timings noisy; CPU per page is the steadier figure' });
}

const round = (v: number, digits = 2): number => Math.round(v * 10 ** digits) / 10 ** digits;

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
