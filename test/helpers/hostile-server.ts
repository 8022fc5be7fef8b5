import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';

export const BAD_HTTP_DIR = join(__dirname, '..', 'fixtures', 'bad', 'http');

/** One hostile answer of test/fixtures/bad/http/cases.json. */
export interface HostileCase {
  name: string;
  /** Which request of a visit is answered with it (default: the profile, the visit's first). */
  on?: 'profile' | 'timeline';
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  bodyFile?: string;
  declaredBytes?: number;
  streamBytes?: number;
  headerBytes?: number;
  redirect?: string;
  reset?: boolean;
  trickle?: boolean;
  /** null: the visit must complete, keeping nothing of the bogus answer. */
  code: string | null;
  retryable: boolean;
  /** A soft block: throttling, rescheduled, never a failure or a dead letter. */
  throttled?: boolean;
  /** One unreadable timeline page: the visit ends early and resumes minutes later, never a failure. */
  partial?: boolean;
}

export function loadHostileCases(): HostileCase[] {
  return (JSON.parse(readFileSync(join(BAD_HTTP_DIR, 'cases.json'), 'utf8')) as { cases: HostileCase[] }).cases;
}

export interface HostileServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Stands in front of simsite: requests about a user listed in `byUid` get that user's hostile
 * answer, everything else is passed through untouched (so simsite's ground truth still holds).
 */
export async function hostileServer(upstream: string, byUid: Map<string, HostileCase>): Promise<HostileServer> {
  const open = new Set<IncomingMessage>();
  const server: Server = createServer((req, res) => {
    open.add(req);
    res.on('close', () => open.delete(req));
    const u = new URL(req.url ?? '/', 'http://x');
    const uid = u.searchParams.get('value') ?? '';
    const which = (u.searchParams.get('containerid') ?? '').startsWith('100505') ? 'profile' : 'timeline';
    const c = byUid.get(uid);
    if (c && (c.on ?? 'profile') === which) answer(c, req, res);
    else pass(upstream, req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

function pass(upstream: string, req: IncomingMessage, res: ServerResponse): void {
  const up = request(`${upstream}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (ur) => {
    res.writeHead(ur.statusCode ?? 502, ur.headers);
    ur.pipe(res);
  });
  up.on('error', () => res.destroy());
  req.pipe(up);
}

function answer(c: HostileCase, req: IncomingMessage, res: ServerResponse): void {
  res.on('error', () => undefined);
  const headers = { 'content-type': 'application/json; charset=utf-8', ...c.headers };
  if (c.redirect) {
    res.writeHead(302, { location: c.redirect === 'self' ? req.url ?? '/' : c.redirect }).end();
  } else if (c.headerBytes) {
    res.writeHead(200, { ...headers, 'x-padding': 'a'.repeat(c.headerBytes) }).end('{}');
  } else if (c.declaredBytes) {
    res.writeHead(200, { ...headers, 'content-length': String(c.declaredBytes) });
    res.write('{"ok":1,"data":{"cards":[');
    // Never sends the rest: a client that waited for it would hang, one that read it would bloat.
  } else if (c.streamBytes) {
    res.writeHead(200, headers);
    stream(res, c.streamBytes);
  } else if (c.reset) {
    res.writeHead(200, { ...headers, 'content-length': '5000' });
    res.write('{"ok":1,"data":{"cards":[', () => setTimeout(() => req.socket.destroy(), 20));
  } else if (c.trickle) {
    res.writeHead(200, headers);
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  } else {
    const body = c.bodyFile ? readFileSync(join(BAD_HTTP_DIR, c.bodyFile)) : Buffer.from(c.body ?? '');
    res.writeHead(c.status ?? 200, { ...headers, 'content-length': String(body.length) }).end(body);
  }
}

/** Writes `total` bytes with backpressure, stopping as soon as the client hangs up. */
function stream(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const more = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', more);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  more();
}
