import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { regexString } from '../core/regex-string';
import { retryPolicySchema } from '../core/retry';
import { parseCidr } from './address-class';
import { timerMs } from '../core/timers';

/** Read once at load from the package (works from src/ and from dist/, both two levels down). */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const DEFAULT_USER_AGENT = `freshet/${packageVersion()} (+https://github.com/freshet)`;

/** Header names that carry credentials: those come from the environment, never a pipeline file. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'x-auth-token']);

/**
 * Login pages by host (`passport.`, `login.`, `accounts.` …) or by a path segment (`/login`,
 * `/signin/`, `/sso/`, `/users/sign_in`, `/login.php` …), matched against host + path.
 */
export const DEFAULT_LOGIN_REDIRECT_PATTERN =
  '^(?:[^/]*\\.)?(?:passport|login|signin|sso|accounts?)\\.[^/]*/|/(?:log-?in|logon|sign-?in|sign_in|sso|passport)(?:[/.]|$)';

export const httpFetchConfigSchema = z.strictObject({
  user_agent: z.string().min(1).default(DEFAULT_USER_AGENT),
  /** The product token matched against robots.txt `User-agent` lines. */
  robots_user_agent: z.string().min(1).regex(/^[A-Za-z_-]+$/).default('freshet'),
  /** Sent with every request; credentials are refused here (inject them through the header provider). */
  headers: z
    .record(z.string(), z.string())
    .default({})
    .refine((h) => Object.keys(h).every((k) => !CREDENTIAL_HEADERS.has(k.toLowerCase())), {
      message: 'credential headers (authorization, cookie, api keys) must come from the environment, not the pipeline file',
    }),
  connections_per_origin: z.number().int().min(1).max(256).default(8),
  connect_timeout_ms: timerMs(1).default(10_000),
  /** Idle time allowed before the response headers arrive. */
  headers_timeout_ms: timerMs(1).default(15_000),
  /** Idle time allowed between two body chunks. */
  body_timeout_ms: timerMs(1).default(15_000),
  /** Wall-clock cap on one attempt (all redirect hops, headers and body), against trickling bodies. */
  total_timeout_ms: timerMs(1).default(60_000),
  keep_alive_timeout_ms: timerMs(1).default(4_000),
  /** Cap on the body, compressed and decompressed alike. */
  max_body_bytes: z.number().int().min(1).default(10 * 1024 * 1024),
  max_header_bytes: z.number().int().min(1024).default(64 * 1024),
  max_redirects: z.number().int().min(0).max(50).default(5),
  /**
   * A redirect to a URL whose host + path matches this is a login wall: the fetch ends there with
   * `E_LOGIN_REQUIRED`, before robots.txt is asked about the login page or the page is fetched.
   * `null` follows such redirects like any other.
   */
  login_redirect_pattern: regexString.nullable().default(DEFAULT_LOGIN_REDIRECT_PATTERN),
  /** Whether to ask for gzip/deflate/br (decoded under `max_body_bytes`) or identity only. */
  compression: z.boolean().default(true),
  /** Opt-in to private, loopback and link-local targets (the local simulated site needs it). */
  allow_private_networks: z.boolean().default(false),
  /** Narrower opt-in: these ranges only (e.g. `127.0.0.1/32`), the rest stays refused. */
  allowed_cidrs: z
    .array(z.string())
    .default([])
    .refine((list) => list.every((c) => parseCidr(c) !== undefined), { message: 'each entry must be an IP address or CIDR range' }),
  dns_cache_ttl_secs: z.number().min(0).default(60),
  dns_cache_max_hosts: z.number().int().min(1).default(10_000),
  respect_robots: z.boolean().default(true),
  robots_cache_ttl_secs: z.number().min(0).default(3600),
  /** How long a 5xx/unreachable robots.txt keeps the origin disallowed before asking again. */
  robots_error_ttl_secs: z.number().min(0).default(300),
  robots_cache_max_origins: z.number().int().min(1).default(10_000),
  /** RFC 9309 asks crawlers to parse at least 500 KiB. */
  robots_max_bytes: z.number().int().min(1024).default(512 * 1024),
  retry: retryPolicySchema.prefault({}),
});

export type HttpFetchConfig = z.infer<typeof httpFetchConfigSchema>;

/** The connection limits every undici dispatcher of a fetcher shares (the direct agent and each proxy's). */
export function dispatcherLimits(c: HttpFetchConfig) {
  return {
    connections: c.connections_per_origin,
    pipelining: 1,
    keepAliveTimeout: c.keep_alive_timeout_ms,
    headersTimeout: c.headers_timeout_ms,
    bodyTimeout: c.body_timeout_ms,
    maxHeaderSize: c.max_header_bytes,
  };
}
