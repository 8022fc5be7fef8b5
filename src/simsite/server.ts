import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { systemClock, type Clock } from '../core/clock';
import { AcceleratedClock } from './clock';
import { handleControl, type StreamResponse } from './control';
import { faultResponse, loginPage } from './fault-responses';
import { FaultInjector, malformBody, truncateBody, type FaultConfig, type FaultDecision } from './faults';
import type { RouteHandler, SimRequest, SimResponse } from './http-types';
import { jsonResponse } from './http-types';
import { RequestLog } from './request-log';
import { DEFAULT_ROBOTS, robotsFor, type RobotsConfig } from './robots';
import { buildSites, type SiteOptionsInput } from './sites';
import { DEFAULT_WEIBO_OPTIONS, type WeiboOptions } from './weibo/routes';
import type { LifecycleOptions } from './lifecycle';
import { createWorld, type World, type WorldOptions } from './world';

export interface SimsiteOptions {
  /** The world to serve; or give worldOptions and one is created. */
  world?: World;
  worldOptions?: WorldOptions;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Simulated ms per real ms (3600 = one simulated hour per real second). Ignored when `clock` is given. */
  speed?: number;
  /** Simulated time source (e.g. a ManualClock in tests). Default: accelerated from world.startMs. */
  clock?: Clock;
  /** Real time source for rate limits and the request log. */
  realClock?: Clock;
  weibo?: Partial<WeiboOptions>;
  sites?: SiteOptionsInput;
  faults?: FaultConfig;
  robots?: RobotsConfig;
  requestLogMaxEntries?: number;
  /** Diurnal posting, for the world created from worldOptions (a given world keeps its own setting). */
  diurnal?: boolean;
  /**
   * Deletions, removals, restrictions, edits, videos and accounts going away, for the world created
   * from worldOptions (off by default: posts then stay as published). Truth: /_truth/deletions, /_truth/edits, /_truth/media.
   */
  lifecycle?: LifecycleOptions;
}

export interface SimsiteHandle {
  url: string;
  port: number;
  clock: Clock;
  world: World;
  requestLog: RequestLog;
  faults: FaultInjector;
  setFaults(config: FaultConfig): void;
  close(): Promise<void>;
}

const CLIENT_HEADER = 'x-client-id';

/** Who is asking: the x-client-id header, else the SUB cookie (a microblog login/visitor token), else ?client_id=, else the address. */
function clientOf(req: IncomingMessage, query: URLSearchParams): string {
  const h = req.headers[CLIENT_HEADER];
  if (typeof h === 'string' && h) return h;
  const cookie = req.headers.cookie;
  if (cookie) {
    const m = /(?:^|;\s*)SUB=([^;]+)/.exec(cookie);
    if (m) return `SUB:${m[1]}`;
  }
  const q = query.get('client_id');
  if (q) return q;
  return req.socket.remoteAddress ?? 'unknown';
}


export async function startSimsite(opts: SimsiteOptions = {}): Promise<SimsiteHandle> {
  if (opts.world && opts.diurnal !== undefined && (opts.world.diurnal !== null) !== opts.diurnal) {
    throw new RangeError('diurnal is part of the world: pass it to createWorld, or give worldOptions instead of a world');
  }
  if (opts.world && opts.lifecycle) throw new RangeError('lifecycle is part of the world: pass it to createWorld, or give worldOptions instead of a world');
  const world = opts.world ?? createWorld({
    ...(opts.worldOptions ?? { seed: 1, users: 1000 }),
    ...(opts.diurnal !== undefined ? { diurnal: opts.diurnal } : {}),
    ...(opts.lifecycle ? { lifecycle: opts.lifecycle } : {}),
  });
  const realClock = opts.realClock ?? systemClock;
  const clock = opts.clock ?? new AcceleratedClock(world.startMs, opts.speed ?? 1, realClock);
  const faults = new FaultInjector(opts.faults ?? {});
  const log = new RequestLog(opts.requestLogMaxEntries);
  const robots: RobotsConfig = { ...(opts.robots ?? DEFAULT_ROBOTS) };
  const weiboOptions: WeiboOptions = { ...DEFAULT_WEIBO_OPTIONS, ...opts.weibo };
  const sites = buildSites(world, weiboOptions, opts.sites ?? {});
  const handlers: RouteHandler[] = sites.handlers;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const describe = (): Record<string, unknown> => ({
    seed: world.seed, users: world.users.length, startMs: world.startMs, historyStartMs: world.historyStartMs,
    speed: clock instanceof AcceleratedClock ? clock.speedFactor : null, era: weiboOptions.era,
    diurnal: world.diurnal, lifecycle: world.lifecycle?.options ?? null, weibo: weiboOptions, requestLog: log.stats(),
  });

  const respond = (res: ServerResponse, r: SimResponse, extraHeaders: Record<string, string> = {}): void => {
    // Encode once: byteLength + end(string) would walk a 15 KB string twice.
    const body = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
    res.writeHead(r.status, { ...r.headers, ...extraHeaders, 'content-length': String(body.length) });
    res.end(body);
  };

  const stream = async (res: ServerResponse, r: StreamResponse): Promise<void> => {
    res.writeHead(r.status, r.headers);
    for (const chunk of r.chunks) {
      if (!res.write(chunk)) await new Promise<void>((resolve) => res.once('drain', resolve));
      if (res.destroyed) return;
    }
    res.end();
  };

  const slow = (res: ServerResponse, r: SimResponse, bytesPerSec: number): void => {
    const buf = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
    res.writeHead(r.status, { ...r.headers, 'content-length': String(buf.length) });
    const tickMs = 100;
    const chunkBytes = Math.max(1, Math.floor((bytesPerSec * tickMs) / 1000));
    let pos = 0;
    const tick = (): void => {
      if (res.destroyed) return;
      res.write(buf.subarray(pos, pos + chunkBytes));
      pos += chunkBytes;
      if (pos >= buf.length) {
        res.end();
        return;
      }
      const t = setTimeout(() => {
        timers.delete(t);
        tick();
      }, tickMs);
      timers.add(t);
    };
    tick();
  };

  /** Announces the full length, sends half, then drops the connection (a premature close). */
  const cut = (res: ServerResponse, r: SimResponse): void => {
    const buf = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
    res.writeHead(r.status, { ...r.headers, 'content-length': String(buf.length) });
    res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => res.destroy());
  };

  const siteResponse = (sreq: SimRequest): SimResponse => {
    if (sreq.pathname === '/robots.txt') {
      const base = robotsFor(robots, sreq.host);
      const text = base === null ? null : base + sites.robotsExtra(sreq);
      return text === null
        ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found', kind: 'text' }
        : { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text, kind: 'text' };
    }
    if (sreq.pathname.startsWith('/signin/')) return loginPage(sreq.query.get('r') ?? '/');
    for (const h of handlers) {
      const r = h(sreq);
      if (r) return r;
    }
    return jsonResponse({ ok: 0, msg: 'not found' }, 404);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const rawUrl = req.url ?? '/';
    const qi = rawUrl.indexOf('?');
    const pathname = qi < 0 ? rawUrl : rawUrl.slice(0, qi);
    const query = new URLSearchParams(qi < 0 ? '' : rawUrl.slice(qi + 1));
    const hostHeader = req.headers.host ?? '';
    const realMs = realClock.nowMs();
    const sreq: SimRequest = {
      method: req.method ?? 'GET', pathname, url: rawUrl, query, headers: req.headers,
      host: hostHeader.replace(/:\d+$/, '').toLowerCase(), client: clientOf(req, query), nowMs: clock.nowMs(), realMs, body,
    };
    if (pathname.startsWith('/_truth/') || pathname.startsWith('/_control/')) {
      const r = handleControl(sreq, {
        world, clock, faults, log, robots, describe, extraTruth: sites.truth,
      });
      if ('chunks' in r) void stream(res, r).catch(() => res.destroy());
      else respond(res, r);
      return;
    }
    const decision: FaultDecision = pathname === '/robots.txt' ? { kind: 'none' } : faults.decide(sreq.client, pathname, realMs, req.socket.remoteAddress ?? '', req.headers['user-agent'] ?? '');
    const logIt = (status: number, retryAfterSec: number | null = null): void => {
      log.add({
        client: sreq.client, realMs, simMs: sreq.nowMs, method: sreq.method, url: rawUrl, host: sreq.host, status,
        fault: decision.kind === 'none' ? null : decision.kind, retryAfterSec,
      });
    };
    if (decision.kind === 'timeout') {
      logIt(0);
      const t = setTimeout(() => {
        timers.delete(t);
        res.destroy();
      }, decision.holdMs);
      timers.add(t);
      return;
    }
    const refusal = faultResponse(decision, pathname, rawUrl);
    if (refusal) {
      logIt(refusal.status, decision.kind === 'rateLimit' ? decision.retryAfterSec : null);
      respond(res, refusal);
      return;
    }
    let r: SimResponse;
    try {
      r = siteResponse(sreq);
    } catch (err) {
      r = jsonResponse({ ok: 0, msg: `simsite error: ${(err as Error).message}` }, 500);
    }
    logIt(r.status);
    if (decision.kind === 'truncated' && decision.cutConnection) cut(res, r);
    else if (decision.kind === 'truncated') respond(res, { ...r, body: truncateBody(r.body) });
    else if (decision.kind === 'malformed') respond(res, { ...r, body: malformBody(r.body, r.kind) });
    else if (decision.kind === 'slowBody') slow(res, r, decision.bytesPerSec);
    else respond(res, r);
  };

  const server = createServer((req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      handle(req, res, '');
      // Drain nothing: GET has no body; 'end' must still fire for keep-alive reuse.
      req.resume();
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(parts).toString('utf8')));
  });
  server.keepAliveTimeout = 65_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const hostForUrl = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${hostForUrl}:${addr.port}`,
    port: addr.port,
    clock,
    world,
    requestLog: log,
    faults,
    setFaults: (c) => faults.set(c),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
