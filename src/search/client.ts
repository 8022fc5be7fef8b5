import { Client, type ClientOptions } from '@elastic/elasticsearch';
import { request } from 'undici';
import { ErrorCodes, FreshetError } from '../core/errors';
import { redactUrl } from '../core/redact';
import { detectDistribution, type SearchNodeInfo } from './distribution';
import { FreshetTransport, OpenSearchTransport } from './opensearch-transport';

export interface SearchConnectOptions {
  url: string;
  apiKey?: string;
  username?: string;
  password?: string;
  requestTimeoutMs?: number;
  maxRetries?: number;
}

export interface SearchConnection {
  client: Client;
  info: SearchNodeInfo;
}

/** Picks the transport for a distribution: stock for Elasticsearch, plain JSON for OpenSearch (both name the node's root cause). */
export function clientOptionsFor(info: SearchNodeInfo, opts: SearchConnectOptions): ClientOptions {
  const auth = opts.apiKey
    ? { apiKey: opts.apiKey }
    : opts.username !== undefined
      ? { username: opts.username, password: opts.password ?? '' }
      : undefined;
  return {
    node: opts.url,
    ...(auth ? { auth } : {}),
    requestTimeout: opts.requestTimeoutMs ?? 30_000,
    maxRetries: opts.maxRetries ?? 0, // freshet's own retry policy decides, not the client's
    // The default redaction clones each error's request key by key, a Buffer body byte by byte
    // (~100 bytes of garbage per body byte per failed bulk: past 600 MiB through a search outage).
    // Removing headers and connection keeps credentials out as well, and the body as it was.
    redaction: { type: 'remove' },
    Transport: info.distribution === 'opensearch' ? OpenSearchTransport : FreshetTransport,
  };
}

function authHeader(opts: SearchConnectOptions): Record<string, string> {
  if (opts.apiKey) return { authorization: `ApiKey ${opts.apiKey}` };
  if (opts.username !== undefined) {
    const token = Buffer.from(`${opts.username}:${opts.password ?? ''}`).toString('base64');
    return { authorization: `Basic ${token}` };
  }
  return {};
}

/** `GET /` with plain JSON, before any client exists, to learn what we are talking to. */
export async function probeSearchNode(given: SearchConnectOptions): Promise<SearchNodeInfo> {
  const opts = credentialsFromUrl(given);
  let body: unknown;
  try {
    const res = await request(opts.url, {
      method: 'GET',
      headers: { accept: 'application/json', ...authHeader(opts) },
      headersTimeout: opts.requestTimeoutMs ?? 10_000,
      bodyTimeout: opts.requestTimeoutMs ?? 10_000,
    });
    if (res.statusCode >= 400) {
      const text = await res.body.text();
      throw new FreshetError(ErrorCodes.searchUnreachable, 'retryable',
        `search node at ${redactUrl(opts.url)} answered GET / with HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    }
    body = await res.body.json();
  } catch (err) {
    if (err instanceof FreshetError) throw err;
    throw new FreshetError(ErrorCodes.searchUnreachable, 'retryable',
      `search node at ${redactUrl(opts.url)} is unreachable: ${(err as Error).message}`, {}, err);
  }
  return detectDistribution(body);
}

export async function connectSearch(given: SearchConnectOptions): Promise<SearchConnection> {
  const opts = credentialsFromUrl(given);
  const info = await probeSearchNode(opts);
  return { client: new Client(clientOptionsFor(info, opts)), info };
}

export { redactUrl } from '../core/redact';

/**
 * `http://user:pass@host` → the URL without them, and them as basic auth (unless credentials were
 * given apart, which win): undici's `request` ignores userinfo, and a URL that carries a password
 * is one that gets printed.
 */
export function credentialsFromUrl(opts: SearchConnectOptions): SearchConnectOptions {
  let u: URL;
  try {
    u = new URL(opts.url);
  } catch {
    return opts;
  }
  if (!u.username && !u.password) return opts;
  const username = safeDecode(u.username);
  const password = safeDecode(u.password);
  u.username = '';
  u.password = '';
  const url = u.toString().replace(/\/$/, '');
  return opts.apiKey || opts.username !== undefined ? { ...opts, url } : { ...opts, url, username, password };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
