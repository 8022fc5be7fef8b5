import type { Clock, ManualClock } from '../core/clock';
import { AcceleratedClock } from './clock';
import type { FaultConfig, FaultInjector } from './faults';
import type { SimRequest, SimResponse } from './http-types';
import { jsonResponse } from './http-types';
import { politeness } from './politeness';
import { findPostByMid } from './posts';
import type { RequestLog } from './request-log';
import type { RobotsConfig } from './robots';
import { truthDeletions, truthEdits, truthMedia } from './monitoring-truth';
import { truthAllPosts, truthBreakouts, truthComments, truthPostsOf, truthUser } from './truth';
import type { World } from './world';

/** A response produced row by row (the full post truth of a big world does not fit one string). */
export interface StreamResponse {
  status: number;
  headers: Record<string, string>;
  chunks: Iterable<string>;
}

export interface ControlDeps {
  world: World;
  clock: Clock;
  faults: FaultInjector;
  log: RequestLog;
  robots: RobotsConfig;
  describe(): Record<string, unknown>;
  extraTruth: (req: SimRequest) => Iterable<unknown> | SimResponse | null;
}

function numParam(q: URLSearchParams, name: string, fallback: number): number {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  const n = Number(v);
  if (Number.isFinite(n)) return n;
  const d = Date.parse(v);
  return Number.isFinite(d) ? d : fallback;
}

function* ndjson(rows: Iterable<unknown>): Generator<string> {
  let buf = '';
  for (const r of rows) {
    buf += `${JSON.stringify(r)}\n`;
    if (buf.length > 64_000) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

function* jsonArray(rows: Iterable<unknown>): Generator<string> {
  let first = true;
  let buf = '[';
  for (const r of rows) {
    buf += (first ? '' : ',') + JSON.stringify(r);
    first = false;
    if (buf.length > 64_000) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}]`;
}

function rowsResponse(req: SimRequest, rows: Iterable<unknown>): StreamResponse {
  const nd = req.query.get('format') === 'ndjson';
  return {
    status: 200,
    headers: { 'content-type': nd ? 'application/x-ndjson; charset=utf-8' : 'application/json; charset=utf-8' },
    chunks: nd ? ndjson(rows) : jsonArray(rows),
  };
}

/** `/_truth/*` (ground truth and the request log) and `/_control/*` (faults, robots): never faulted, never logged. */
export function handleControl(req: SimRequest, deps: ControlDeps): SimResponse | StreamResponse {
  const { world } = deps;
  const now = deps.clock.nowMs();
  const q = req.query;
  const p = req.pathname;
  if (p === '/_truth/world' || p === '/_truth/clock') return jsonResponse({ ...deps.describe(), nowMs: now, now: new Date(now).toISOString() });
  if (p === '/_truth/users') {
    const rows = function* (): Generator<unknown> {
      for (let u = 0; u < world.users.length; u++) yield truthUser(world, u, now);
    };
    return rowsResponse(req, rows());
  }
  if (p === '/_truth/posts') {
    const since = numParam(q, 'since', world.historyStartMs);
    const until = Math.min(numParam(q, 'until', now), now);
    const uidText = q.get('user') ?? q.get('uid');
    if (uidText) {
      const user = world.userByUid(Number(uidText)) ?? world.userByToken(uidText);
      if (!user) return jsonResponse({ error: 'unknown user' }, 404);
      return rowsResponse(req, truthPostsOf(world, user.index, since, until));
    }
    return rowsResponse(req, truthAllPosts(world, since, until));
  }
  if (p === '/_truth/deletions' || p === '/_truth/edits' || p === '/_truth/media') {
    const uidText = q.get('user') ?? q.get('uid');
    const uid = uidText ? Number(uidText) : null;
    if (uid !== null && !world.userByUid(uid)) return jsonResponse({ error: 'unknown user' }, 404);
    const rows = p === '/_truth/deletions' ? truthDeletions(world, now, uid) : p === '/_truth/edits' ? truthEdits(world, now, uid) : truthMedia(world, now, uid);
    return rowsResponse(req, rows);
  }
  if (p === '/_truth/breakouts') return rowsResponse(req, truthBreakouts(world, now));
  if (p === '/_truth/comments') {
    const post = findPostByMid(world, q.get('post') ?? q.get('id') ?? '');
    if (!post || post.createdMs > now) return jsonResponse({ error: 'unknown post' }, 404);
    return rowsResponse(req, truthComments(world, post, now));
  }
  if (p === '/_truth/requests') {
    if (req.method === 'DELETE') {
      deps.log.clear();
      return jsonResponse({ ok: true });
    }
    const client = q.get('client') ?? undefined;
    return rowsResponse(req, deps.log.entries(client));
  }
  if (p === '/_truth/requests/summary') return jsonResponse(deps.log.summary());
  if (p === '/_truth/requests/politeness') {
    const client = q.get('client');
    const clients = client ? [client] : deps.log.clients();
    return jsonResponse(clients.map((c) => politeness(c, deps.log.entries(c))));
  }
  if (p === '/_control/faults') {
    if (req.method === 'POST' || req.method === 'PUT') {
      let config: FaultConfig;
      try {
        config = JSON.parse(req.body || '{}') as FaultConfig;
      } catch {
        return jsonResponse({ error: 'body must be JSON' }, 400);
      }
      deps.faults.set(config);
    }
    return jsonResponse(deps.faults.current);
  }
  if (p === '/_control/clock') {
    if (req.method === 'POST' || req.method === 'PUT') {
      let body: { advanceMs?: number; speed?: number };
      try {
        body = JSON.parse(req.body || '{}') as { advanceMs?: number; speed?: number };
      } catch {
        return jsonResponse({ error: 'body must be JSON' }, 400);
      }
      const c = deps.clock as Partial<AcceleratedClock & ManualClock>;
      try {
        if (body.advanceMs !== undefined) {
          if (typeof c.advanceMs !== 'function') return jsonResponse({ error: 'this clock cannot be advanced' }, 409);
          c.advanceMs(body.advanceMs);
        }
        if (body.speed !== undefined) {
          if (!(deps.clock instanceof AcceleratedClock)) return jsonResponse({ error: 'this clock has no speed' }, 409);
          deps.clock.setSpeed(body.speed);
        }
      } catch (err) {
        return jsonResponse({ error: (err as Error).message }, 400);
      }
    }
    const nowMs = deps.clock.nowMs();
    return jsonResponse({ nowMs, now: new Date(nowMs).toISOString(), speed: deps.clock instanceof AcceleratedClock ? deps.clock.speedFactor : null });
  }
  if (p === '/_control/robots') {
    if (req.method === 'POST' || req.method === 'PUT') {
      const host = q.get('host') ?? '*';
      deps.robots[host] = req.body;
    }
    return jsonResponse(deps.robots);
  }
  const extra = deps.extraTruth({ ...req, nowMs: now });
  if (extra === null) return jsonResponse({ error: 'no such truth or control endpoint' }, 404);
  return 'status' in extra && 'body' in extra ? (extra as SimResponse) : rowsResponse(req, extra as Iterable<unknown>);
}
