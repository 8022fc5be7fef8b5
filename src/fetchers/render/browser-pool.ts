import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { ErrorCodes, FreshetError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { RenderConfig } from './render-config';

/** What this machine needs (no GPU, no sandbox as root, no background traffic); --headless is added by playwright. */
export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
] as const;

/**
 * Every request is answered through a route, in the browser; anything that would still open a
 * connection of its own (a preconnect, a DNS prefetch, a request no route saw) goes to a proxy
 * that does not exist, loopback included (`<-loopback>`), and fails.
 */
export const NO_NETWORK_FLAGS = ['--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=<-loopback>', '--dns-prefetch-disable'] as const;

/** A page slot: credits bound the pages open at once; waiters are served first come, first served. */
class Semaphore {
  private used = 0;
  private readonly waiters: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  get inUse(): number {
    return this.used;
  }

  async acquire(): Promise<void> {
    if (this.used < this.limit) {
      this.used += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    // The credit passes straight to the next waiter: `used` stays the same.
    if (next) next();
    else this.used -= 1;
  }
}

/** One running browser: its persistent context on a fresh profile directory. */
export interface BrowserInstance {
  readonly generation: number;
  readonly context: BrowserContext;
  readonly userDataDir: string;
  /** Resolves when the browser is gone (closed, crashed or killed). */
  readonly closed: Promise<void>;
  alive: boolean;
  pagesServed: number;
  open: number;
  /** Pages parked on about:blank, ready for the next render. */
  idle: Page[];
}

export interface BrowserPoolStats {
  launches: number;
  restarts: Record<string, number>;
  pagesOpen: number;
  /** Requests no page route served (a worker's, a WebSocket), refused. */
  refused: number;
}

/** What the pool tells its owner (metrics). */
export interface PoolEvents {
  launched(): void;
  restarted(reason: string): void;
  refused(): void;
}

export type LaunchContext = (userDataDir: string, config: RenderConfig) => Promise<BrowserContext>;

// Loaded on the first launch, not at startup: every worker imports this module through the runner,
// and playwright-core costs ~67 MiB RSS and startup CPU in the many pipelines that never render.
export const launchChromium: LaunchContext = async (userDataDir, config) => (await import('playwright-core')).chromium.launchPersistentContext(userDataDir, {
  executablePath: config.executable_path,
  headless: true,
  args: [...CHROMIUM_FLAGS, ...NO_NETWORK_FLAGS, ...config.extra_args],
  timeout: config.launch_timeout_ms,
  // A service worker could answer requests without passing through the route (and its guards).
  serviceWorkers: 'block',
  acceptDownloads: false,
  javaScriptEnabled: true,
});

/**
 * Pids of the processes started with this profile directory (the browser and its children),
 * found in /proc: playwright does not expose the pid of a persistent context's browser.
 */
export function browserPids(userDataDir: string): { main: number | undefined; all: number[] } {
  const all: number[] = [];
  let main: number | undefined;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return { main, all };
  }
  const flag = `--user-data-dir=${userDataDir}`;
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!argv.includes(flag)) continue;
    all.push(Number(e));
    if (!argv.some((a) => a.startsWith('--type='))) main = Number(e);
  }
  return { main, all };
}

/** Resident memory of every process of a browser, in bytes (from /proc/PID/statm). */
export function browserRssBytes(userDataDir: string): number {
  let total = 0;
  for (const pid of browserPids(userDataDir).all) {
    try {
      const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
      total += pages * 4096;
    } catch {
      // Gone in between.
    }
  }
  return total;
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))]).finally(() => clearTimeout(timer));
};

/**
 * The browser and its page credits. A browser that dies (crash, kill, disconnect) is noticed
 * through its context's close event and replaced on the next page asked for; a browser that
 * served `pages_per_browser` pages is retired once its open pages are done.
 */
export class BrowserPool {
  private readonly credits: Semaphore;
  private current: Promise<BrowserInstance> | undefined;
  private generation = 0;
  private closing = false;
  private readonly instances = new Set<BrowserInstance>();
  private readonly stats_: BrowserPoolStats = { launches: 0, restarts: {}, pagesOpen: 0, refused: 0 };

  constructor(
    private readonly config: RenderConfig,
    private readonly logger: Logger | undefined,
    private readonly launch: LaunchContext = launchChromium,
    private readonly events?: PoolEvents,
  ) {
    this.credits = new Semaphore(config.max_pages);
  }

  stats(): BrowserPoolStats {
    return { ...this.stats_, restarts: { ...this.stats_.restarts }, pagesOpen: this.credits.inUse };
  }

  /** The running browser, if any (tests kill it; the benchmark reads its memory). */
  async running(): Promise<BrowserInstance | undefined> {
    const inst = this.current ? await this.current.catch(() => undefined) : undefined;
    return inst?.alive ? inst : undefined;
  }

  /**
   * Runs `fn` on a page of a live browser, within a page credit. Pages are kept and reused (a new
   * tab costs a renderer process): `setup` runs once on each new page; after a success the page
   * is parked on about:blank for the next render, after a failure it is closed.
   */
  async withPage<T>(fn: (page: Page, inst: BrowserInstance) => Promise<T>, setup?: (page: Page) => Promise<void>): Promise<T> {
    await this.credits.acquire();
    try {
      const inst = await this.instance();
      inst.open += 1;
      inst.pagesServed += 1;
      try {
        let page = inst.idle.pop();
        if (!page || page.isClosed()) {
          try {
            page = await inst.context.newPage();
            await setup?.(page);
          } catch (err) {
            if (!inst.alive) throw new FreshetError(ErrorCodes.renderCrashed, 'retryable', 'browser gone before the page opened', {}, err);
            throw err;
          }
        }
        let ok = false;
        try {
          const out = await fn(page, inst);
          ok = true;
          return out;
        } finally {
          await this.putBack(inst, page, ok);
        }
      } finally {
        inst.open -= 1;
        if (inst !== (await this.current?.catch(() => undefined)) && inst.open === 0) void this.dispose(inst);
      }
    } finally {
      this.credits.release();
    }
  }

  /** Parks a page that rendered well; closes one that failed (a renderer stuck in a script that will not close takes the browser with it). */
  private async putBack(inst: BrowserInstance, page: Page, ok: boolean): Promise<void> {
    if (!inst.alive) return;
    if (ok && (await withTimeout(page.goto('about:blank').then(() => true, () => false), 3_000)) === true) {
      inst.idle.push(page);
      return;
    }
    if ((await withTimeout(page.close({ runBeforeUnload: false }).catch(() => undefined), 3_000)) === 'timeout') {
      void this.restart(inst, 'page_close_hung');
    }
  }

  /** Replaces the browser (a hung renderer, or a crash noticed by a page). Idempotent per instance. */
  async restart(inst: BrowserInstance, reason: string): Promise<void> {
    if (!this.instances.has(inst)) return;
    this.stats_.restarts[reason] = (this.stats_.restarts[reason] ?? 0) + 1;
    this.events?.restarted(reason);
    this.logger?.warn({ reason, generation: inst.generation, pages_served: inst.pagesServed }, 'render: restarting the browser');
    if (this.current && (await this.current.catch(() => undefined)) === inst) this.current = undefined;
    await this.dispose(inst);
  }

  async close(): Promise<void> {
    this.closing = true;
    const cur = this.current;
    this.current = undefined;
    if (cur) await cur.then((i) => this.dispose(i), () => undefined);
    await Promise.all([...this.instances].map((i) => this.dispose(i)));
  }

  private async instance(): Promise<BrowserInstance> {
    if (this.closing) throw new FreshetError(ErrorCodes.fetchAborted, 'retryable', 'render pool closed');
    for (;;) {
      const cur = this.current;
      if (cur) {
        const inst = await cur.catch(() => undefined);
        if (this.current !== cur) continue;
        if (inst?.alive && inst.pagesServed < this.config.pages_per_browser) return inst;
        // Dead, failed to launch or due for retirement: the next asker launches a new one.
        this.current = undefined;
        if (inst && inst.open === 0) void this.dispose(inst);
        if (!inst) return cur; // rethrows the launch error to this asker
        continue;
      }
      const starting = this.start();
      this.current = starting;
      // Launch errors reach the askers waiting on this launch; a later asker tries again.
      starting.catch(() => {
        if (this.current === starting) this.current = undefined;
      });
      return starting;
    }
  }

  private async start(): Promise<BrowserInstance> {
    if (!existsSync(this.config.executable_path)) {
      throw new FreshetError(ErrorCodes.configInvalid, 'critical', `render: no browser at ${this.config.executable_path} (run scripts/lib/ensure-chromium.sh)`);
    }
    const userDataDir = mkdtempSync(join(tmpdir(), 'freshet-chromium-'));
    const generation = ++this.generation;
    let context: BrowserContext;
    let started: BrowserContext | undefined;
    try {
      context = await this.launch(userDataDir, this.config);
      started = context;
      // Page routes serve every request through the plain fetcher; whatever they do not see
      // (a worker's request, a WebSocket) is refused here rather than left unguarded.
      await context.route('**/*', (route) => {
        this.stats_.refused += 1;
        this.events?.refused();
        return route.abort('blockedbyclient').catch(() => undefined);
      });
      await context.routeWebSocket(/.*/, (ws) => {
        this.stats_.refused += 1;
        this.events?.refused();
        return ws.close({ code: 1008, reason: 'blocked by the renderer' }).catch(() => undefined);
      });
    } catch (err) {
      // A browser that started but could not be set up is not kept.
      await started?.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
      throw new FreshetError(ErrorCodes.renderLaunch, 'retryable', `cannot start the browser: ${(err as Error).message.split('\n')[0]}`, {}, err);
    }
    this.stats_.launches += 1;
    this.events?.launched();
    let markClosed!: () => void;
    const closed = new Promise<void>((r) => (markClosed = r));
    const inst: BrowserInstance = { generation, context, userDataDir, closed, alive: true, pagesServed: 0, open: 0, idle: [] };
    this.instances.add(inst);
    context.on('close', () => {
      const unexpected = inst.alive && this.instances.has(inst);
      inst.alive = false;
      markClosed();
      if (unexpected) {
        this.stats_.restarts['crashed'] = (this.stats_.restarts['crashed'] ?? 0) + 1;
        this.events?.restarted('crashed');
        this.logger?.warn({ generation, pages_served: inst.pagesServed }, 'render: the browser went away; a new one starts with the next page');
        void this.dispose(inst);
      }
    });
    this.logger?.info({ generation, pid: browserPids(userDataDir).main }, 'render: browser started');
    return inst;
  }

  /** Closes a browser (killing it when close does not finish) and deletes its profile. */
  private async dispose(inst: BrowserInstance): Promise<void> {
    if (!this.instances.delete(inst)) return;
    const pids = browserPids(inst.userDataDir).all;
    inst.alive = false;
    if ((await withTimeout(inst.context.close().catch(() => undefined), 5_000)) === 'timeout') {
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    // A killed browser's helper processes can still be writing into the profile while it is
    // removed (ENOTEMPTY): retried, and a profile that stays behind is logged, not a crawl failure.
    try {
      await rm(inst.userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch (err) {
      this.logger?.warn({ dir: inst.userDataDir, err: (err as Error).message }, 'render: could not delete a browser profile');
    }
  }
}
