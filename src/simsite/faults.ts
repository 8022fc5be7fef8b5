import type { Rng } from '../core/rng';
import { hashString, streamRng } from './random';

/**
 * Switchable, seeded fault injection. Every field is optional; an absent or null field is off.
 * Rates are probabilities per request. Rate limits run on the real clock (clients are real).
 */
export interface FaultConfig {
  seed?: number;
  /** Only requests whose path starts with one of these are affected (default: every site path). */
  pathPrefixes?: string[];
  /** Only these clients are affected (default: all). */
  clients?: string[];
  /** Per-client token bucket. 418 = microblog style (no Retry-After); 429 with or without Retry-After. */
  rateLimit?: {
    requestsPerSec: number;
    burst?: number;
    status?: 418 | 429 | 403;
    /** Seconds to announce; 'auto' = until the bucket refills; null/absent = no header. */
    retryAfterSec?: number | 'auto' | null;
    /** After a violation every request of that client is refused for this long (the 2–3 h ban, time-scaled by you). */
    banMs?: number;
    /** 'ip': one bucket per remote address, so every client id (cookie) behind it is limited at once. Default 'client'. */
    keyBy?: 'client' | 'ip';
    /** Over capacity, answer with this soft block (HTTP 200 body, or 432) instead of `status`: the microblog's 操作过于频繁. */
    softKind?: SoftErrorKind;
  } | null;
  /**
   * Microblog soft errors: with HTTP 200, ok:-100 login required, a captcha body (url, no data),
   * 操作过于频繁, ok:-100 pointing at a captcha (`captcha_limit`), an HTML verification page
   * (`captcha_html`); or HTTP 432 with an empty body (`http432`). Default kinds: the first three.
   */
  softErrors?: { rate: number; kinds?: SoftErrorKind[] } | null;
  /** A burst of `burstLength` consecutive 5xx answers starts with probability `rate`. */
  serverErrors?: { rate: number; burstLength?: number; status?: number } | null;
  /** The request is held without an answer for holdMs, then the socket is destroyed. */
  timeouts?: { rate: number; holdMs?: number } | null;
  /** The body trickles at bytesPerSec. */
  slowBody?: { rate: number; bytesPerSec: number } | null;
  /**
   * The body is cut in half. By default Content-Length matches the cut body (a "complete" but
   * broken document); with cutConnection the full length is announced and the connection dropped.
   */
  truncated?: { rate: number; cutConnection?: boolean } | null;
  /** JSON gets a syntax error; HTML loses closing tags and gets stray markup. */
  malformed?: { rate: number } | null;
  /** 302 to the login page, as when the site decides the visitor cookie is stale. */
  loginRedirect?: { rate: number } | null;
  /** Endless 302s to the same path with a growing counter (what "foreign" clients saw, spec §1.7). */
  redirectLoop?: { rate: number } | null;
  /** User-Agent substrings answered with HTTP 432 and an empty body (the 2025 crawler-UA block). */
  blockedUserAgents?: string[] | null;
}

export type SoftErrorKind = 'login' | 'captcha' | 'frequent' | 'captcha_limit' | 'captcha_html' | 'http432';

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'rateLimit'; status: number; retryAfterSec: number | null }
  | { kind: 'serverError'; status: number }
  | { kind: 'timeout'; holdMs: number }
  | { kind: 'slowBody'; bytesPerSec: number }
  | { kind: 'truncated'; cutConnection: boolean }
  | { kind: 'malformed' }
  | { kind: 'loginRedirect' }
  | { kind: 'redirectLoop' }
  | { kind: 'blockedUserAgent' }
  | { kind: 'softError'; soft: SoftErrorKind };

interface ClientState {
  rng: Rng;
  tokens: number;
  lastMs: number;
  bannedUntilMs: number;
  burstLeft: number;
  burstStatus: number;
}

const NONE: FaultDecision = { kind: 'none' };

export class FaultInjector {
  private config: FaultConfig;
  private readonly clients = new Map<string, ClientState>();
  private readonly buckets = new Map<string, ClientState>();

  constructor(config: FaultConfig = {}) {
    this.config = config;
  }

  get current(): FaultConfig {
    return this.config;
  }

  /** Replaces the configuration and resets per-client state, so a new setting starts from a known point. */
  set(config: FaultConfig): void {
    this.config = config;
    this.clients.clear();
    this.buckets.clear();
  }

  private state(client: string, realMs: number, map = this.clients): ClientState {
    let s = map.get(client);
    if (!s) {
      s = {
        rng: streamRng(this.config.seed ?? 1, hashString(client)),
        tokens: this.config.rateLimit?.burst ?? Math.max(1, this.config.rateLimit?.requestsPerSec ?? 1),
        lastMs: realMs, bannedUntilMs: 0, burstLeft: 0, burstStatus: 503,
      };
      map.set(client, s);
    }
    return s;
  }

  decide(client: string, pathname: string, realMs: number, remoteAddress = '', userAgent = ''): FaultDecision {
    const c = this.config;
    if (c.clients && !c.clients.includes(client)) return NONE;
    if (c.pathPrefixes && !c.pathPrefixes.some((p) => pathname.startsWith(p))) return NONE;
    if (c.blockedUserAgents?.some((b) => b !== '' && userAgent.includes(b))) return { kind: 'blockedUserAgent' };
    const s = this.state(client, realMs);
    const rl = c.rateLimit;
    if (rl) {
      const b = rl.keyBy === 'ip' ? this.state(`ip:${remoteAddress}`, realMs, this.buckets) : s;
      const burst = rl.burst ?? Math.max(1, rl.requestsPerSec);
      b.tokens = Math.min(burst, b.tokens + ((realMs - b.lastMs) / 1000) * rl.requestsPerSec);
      b.lastMs = realMs;
      const status = rl.status ?? 418;
      if (realMs < b.bannedUntilMs) {
        if (rl.softKind) return { kind: 'softError', soft: rl.softKind };
        return { kind: 'rateLimit', status, retryAfterSec: retryAfter(rl.retryAfterSec, (b.bannedUntilMs - realMs) / 1000) };
      }
      if (b.tokens < 1) {
        if (rl.banMs) b.bannedUntilMs = realMs + rl.banMs;
        if (rl.softKind) return { kind: 'softError', soft: rl.softKind };
        const waitSec = rl.banMs ? rl.banMs / 1000 : (1 - b.tokens) / rl.requestsPerSec;
        return { kind: 'rateLimit', status, retryAfterSec: retryAfter(rl.retryAfterSec, waitSec) };
      }
      b.tokens -= 1;
    }
    if (s.burstLeft > 0) {
      s.burstLeft--;
      return { kind: 'serverError', status: s.burstStatus };
    }
    const r = s.rng;
    if (c.serverErrors && r.next() < c.serverErrors.rate) {
      s.burstLeft = Math.max(0, (c.serverErrors.burstLength ?? 3) - 1);
      s.burstStatus = c.serverErrors.status ?? (r.next() < 0.5 ? 503 : 500);
      return { kind: 'serverError', status: s.burstStatus };
    }
    if (c.timeouts && r.next() < c.timeouts.rate) return { kind: 'timeout', holdMs: c.timeouts.holdMs ?? 30_000 };
    if (c.loginRedirect && r.next() < c.loginRedirect.rate) return { kind: 'loginRedirect' };
    if (c.redirectLoop && r.next() < c.redirectLoop.rate) return { kind: 'redirectLoop' };
    if (c.softErrors && r.next() < c.softErrors.rate) {
      const kinds = c.softErrors.kinds?.length ? c.softErrors.kinds : (['login', 'captcha', 'frequent'] as SoftErrorKind[]);
      return { kind: 'softError', soft: kinds[Math.floor(r.next() * kinds.length)]! };
    }
    if (c.truncated && r.next() < c.truncated.rate) return { kind: 'truncated', cutConnection: c.truncated.cutConnection ?? false };
    if (c.malformed && r.next() < c.malformed.rate) return { kind: 'malformed' };
    if (c.slowBody && r.next() < c.slowBody.rate) return { kind: 'slowBody', bytesPerSec: c.slowBody.bytesPerSec };
    return NONE;
  }
}

function retryAfter(setting: number | 'auto' | null | undefined, waitSec: number): number | null {
  if (setting === undefined || setting === null) return null;
  return setting === 'auto' ? Math.max(1, Math.ceil(waitSec)) : setting;
}

/** Cuts a body in half on a character boundary (UTF-8 safe for strings). */
export function truncateBody(body: string | Buffer): string | Buffer {
  if (typeof body === 'string') return body.slice(0, Math.floor(body.length / 2));
  return body.subarray(0, Math.floor(body.length / 2));
}

/** Breaks a document the way broken servers do: a JSON syntax error, or HTML with lost closing tags. */
export function malformBody(body: string | Buffer, kind: 'json' | 'html' | 'text' | 'empty'): string | Buffer {
  const s = typeof body === 'string' ? body : body.toString('latin1');
  let out: string;
  if (kind === 'json') out = s.replace(/":/, '" ').replace(/,"/, ',,"');
  else if (kind === 'html') out = s.replace(/<\/(div|p|table|li|td)>/g, '').replace('<body', '<body><div class="x"><<span>');
  else out = s;
  return typeof body === 'string' ? out : Buffer.from(out, 'latin1');
}

/** The HTTP-200 bodies of the microblog's soft errors (spec §1.2). */
export function softErrorBody(kind: SoftErrorKind, url: string): Record<string, unknown> {
  if (kind === 'login') {
    return { ok: -100, msg: '请先登录', url: `https://passport.weibo.cn/signin/welcome?entry=mweibo&r=${encodeURIComponent(`https://m.weibo.cn${url}`)}` };
  }
  if (kind === 'captcha') return { ok: 0, url: `https://m.weibo.cn/verify?from=${encodeURIComponent(url)}` };
  // What every request got once an account was risk-controlled (dataabc/weibo-crawler#461, 2024).
  if (kind === 'captcha_limit') return { ok: -100, errno: '-100', msg: '', url: 'https://m.weibo.cn/captcha?scene=limit&referer=/', extra: '' };
  return { ok: 0, msg: '操作过于频繁，请稍后再试' };
}
