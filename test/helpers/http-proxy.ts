import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What the proxy did with one request it received. */
export type ProxyOutcome = 'forwarded' | 'refused' | 'dropped' | 'auth_failed';

export interface ProxyLogEntry {
  /** When it arrived, on the clock given (simsite's frozen clock in crawl tests). */
  atMs: number;
  url: string;
  outcome: ProxyOutcome;
  /** The status answered to the client (none when the connection was dropped). */
  status?: number;
}

/** How the proxy behaves from its `after`-th request on (counting from 1). */
export interface ProxyFailure {
  after: number;
  /** `refuse`: answer `status` (403 by default) without forwarding; `drop`: destroy the connection. */
  mode: 'refuse' | 'drop';
  status?: number;
}

export interface HttpForwardProxy {
  /** `http://127.0.0.1:<port>`, without credentials. */
  url: string;
  /** The same with `user:pass@` when the proxy requires them. */
  authUrl: string;
  /** Every request received, in order: the proxy's own record, independent of freshet's. */
  log: ProxyLogEntry[];
  close(): Promise<void>;
}

/**
 * A tiny plain-HTTP forward proxy (absolute-URI requests, no CONNECT) that logs every request it
 * receives, can require Basic credentials, and can start refusing or dropping after N requests.
 * It strips the Proxy-* headers before forwarding, as a real proxy does.
 */
export async function httpForwardProxy(opts: { nowMs?: () => number; auth?: { user: string; pass: string }; failure?: ProxyFailure } = {}): Promise<HttpForwardProxy> {
  const nowMs = opts.nowMs ?? Date.now;
  const log: ProxyLogEntry[] = [];
  const sockets = new Set<Socket>();
  const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 64 });
  const expected = opts.auth ? `Basic ${Buffer.from(`${opts.auth.user}:${opts.auth.pass}`).toString('base64')}` : undefined;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '';
    const entry: ProxyLogEntry = { atMs: nowMs(), url, outcome: 'forwarded' };
    log.push(entry);
    const answer = (status: number, outcome: ProxyOutcome, headers: Record<string, string> = {}): void => {
      entry.outcome = outcome;
      entry.status = status;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(outcome);
    };
    if (expected && req.headers['proxy-authorization'] !== expected) {
      answer(407, 'auth_failed', { 'proxy-authenticate': 'Basic realm="test"' });
      return;
    }
    const f = opts.failure;
    if (f && log.length >= f.after) {
      if (f.mode === 'drop') {
        entry.outcome = 'dropped';
        req.socket.destroy();
      } else {
        answer(f.status ?? 403, 'refused');
      }
      return;
    }
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      answer(400, 'refused');
      return;
    }
    const headers = { ...req.headers };
    for (const h of Object.keys(headers)) if (h.startsWith('proxy-')) delete headers[h];
    const up = request({ host: target.hostname, port: target.port || 80, path: target.pathname + target.search, method: req.method, headers, agent: upstreamAgent }, (upRes) => {
      entry.status = upRes.statusCode ?? 502;
      res.writeHead(entry.status, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) answer(502, 'forwarded');
      else res.destroy();
    });
    req.pipe(up);
  };

  const server = createServer(handle);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const auth = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@` : '';
  return {
    url: `http://127.0.0.1:${port}`,
    authUrl: `http://${auth}127.0.0.1:${port}`,
    log,
    close() {
      for (const s of sockets) s.destroy();
      upstreamAgent.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
