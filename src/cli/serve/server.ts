import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { Logger } from '../../core/logger';
import { redactUrlsIn } from '../../core/redact';
import { HttpError, matchPath, type Route } from './http';
import { servePage } from './page-routes';
import type { ServeDeps } from './routes';

export interface ServeOptions {
  host: string;
  port: number;
  /** Required for every request when set (and required to bind a non-loopback address). */
  token?: string;
  routes: Route[];
  deps: ServeDeps;
  openApi: unknown;
  logger: Logger;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

/** Loopback addresses: anything else needs a bearer token. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const ASSETS: Record<string, { file: string; type: string }> = {
  '/assets/uplot.js': { file: 'uplot/dist/uPlot.iife.min.js', type: 'text/javascript; charset=utf-8' },
  '/assets/uplot.css': { file: 'uplot/dist/uPlot.min.css', type: 'text/css; charset=utf-8' },
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sameSecret(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage): string | undefined {
  const m = /(?:^|;\s*)freshet_token=([^;]+)/.exec(req.headers.cookie ?? '');
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/** The host of an Origin header; `null` (a sandboxed frame, a file) or garbage: undefined, never equal to ours. */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

function firstIssue(err: z.ZodError, where: string): string {
  const i = err.issues[0];
  return `${where}${i && i.path.length > 0 ? `.${i.path.join('.')}` : ''}: ${i?.message ?? 'invalid'}`;
}

async function api(route: Route, params: Record<string, string>, url: URL, req: IncomingMessage): Promise<unknown> {
  const query = route.query ? route.query.safeParse(Object.fromEntries(url.searchParams)) : undefined;
  if (query && !query.success) throw new HttpError(400, firstIssue(query.error, 'query'));
  const path = route.params ? route.params.safeParse(params) : undefined;
  if (path && !path.success) throw new HttpError(400, firstIssue(path.error, 'path'));
  let body: unknown;
  if (route.body) {
    let raw: unknown;
    try {
      raw = JSON.parse(await readBody(req));
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new HttpError(400, 'the body is not JSON');
    }
    const parsed = route.body.safeParse(raw);
    if (!parsed.success) throw new HttpError(400, firstIssue(parsed.error, 'body'));
    body = parsed.data;
  }
  const out = await route.handle({ params: (path?.data ?? params) as Record<string, string>, query: query?.data, body });
  // The answer is what the OpenAPI file says it is: a mismatch is this server's bug, said as one.
  const checked = route.response.safeParse(out);
  if (!checked.success) throw new HttpError(500, `answer does not match its schema: ${firstIssue(checked.error, 'response')}`);
  return checked.data;
}

/** An action's answer as its audit line keeps it: at most AUDIT_ANSWER_CHARS of its JSON. */
const AUDIT_ANSWER_CHARS = 300;
function auditAnswer(out: unknown): string {
  const json = JSON.stringify(out) ?? '';
  return json.length > AUDIT_ANSWER_CHARS ? `${json.slice(0, AUDIT_ANSWER_CHARS)}…` : json;
}

/**
 * `freshet serve`: the JSON API (routes.ts), the pages (page-routes.ts), uPlot from node_modules
 * and the OpenAPI file, on one port. Writes must come as JSON (a form of another site cannot
 * send that without a CORS preflight, which is never granted); with a token, every request needs
 * it as `Authorization: Bearer` or the cookie `/login?token=` sets.
 */
export async function startServe(o: ServeOptions): Promise<RunningServer> {
  if (!isLoopback(o.host) && !o.token) throw new Error(`serving on ${o.host} (not loopback) needs a token: --token or FRESHET_SERVE_TOKEN`);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    if (o.token) {
      if (url.pathname === '/login' && sameSecret(url.searchParams.get('token') ?? '', o.token)) {
        send(res, 303, 'text/plain', 'signed in', { location: '/', 'set-cookie': `freshet_token=${encodeURIComponent(o.token)}; HttpOnly; SameSite=Strict; Path=/` });
        return;
      }
      const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? cookieToken(req);
      if (!auth || !sameSecret(auth, o.token)) {
        sendJson(res, 401, { error: 'a bearer token is required (Authorization: Bearer <token>, or open /login?token=<token> once)' });
        return;
      }
    }
    if (method !== 'GET' && method !== 'HEAD') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new HttpError(415, 'writes take Content-Type: application/json');
      const origin = req.headers.origin;
      if (origin !== undefined && hostOf(origin) !== req.headers.host) throw new HttpError(403, 'cross-origin writes are refused');
    }
    if (url.pathname.startsWith('/api/')) {
      let allowed = false;
      for (const route of o.routes) {
        const params = matchPath(route.path, url.pathname);
        if (!params) continue;
        allowed = true;
        if (route.method !== method) continue;
        if (method === 'GET') return sendJson(res, 200, await api(route, params, url, req));
        // Every operator action (pause, drain, seed, requeue, drop…) leaves one line: what, on
        // what, from where, and what it did or why it was refused.
        const who = { action: route.operationId, ...params, from: req.socket.remoteAddress ?? '?' };
        const out = await api(route, params, url, req).catch((err: unknown) => {
          o.logger.warn({ ...who, err: redactUrlsIn((err as Error).message) }, 'operator action refused');
          throw err;
        });
        o.logger.info({ ...who, answer: auditAnswer(out) }, 'operator action');
        sendJson(res, 200, out);
        return;
      }
      throw new HttpError(allowed ? 405 : 404, allowed ? `${method} is not allowed here` : `no such endpoint: ${url.pathname}`);
    }
    if (url.pathname === '/openapi.json') return sendJson(res, 200, o.openApi);
    const asset = ASSETS[url.pathname];
    if (asset) return send(res, 200, asset.type, readFileSync(require.resolve(asset.file)), { 'cache-control': 'max-age=3600' });
    const page = await servePage(o.deps, url);
    if (page === undefined) throw new HttpError(404, `no such page: ${url.pathname}`);
    send(res, 200, 'text/html; charset=utf-8', page);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 502;
      const message = redactUrlsIn((err as Error).message);
      if (!(err instanceof HttpError)) o.logger.warn({ url: req.url, err: message }, 'request failed');
      if (!res.headersSent) sendJson(res, status, { error: message });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`, server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
