import { Client, type ClientOptions } from '@elastic/elasticsearch';
import { request } from 'undici';
import { ErrorCodes, FreshetError } from '../core/errors';
import { detectDistribution, type SearchNodeInfo } from './distribution';
import { OpenSearchTransport } from './opensearch-transport';

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

/** Picks the transport for a distribution: stock for Elasticsearch, plain JSON for OpenSearch. */
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
    ...(info.distribution === 'opensearch' ? { Transport: OpenSearchTransport } : {}),
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
export async function probeSearchNode(opts: SearchConnectOptions): Promise<SearchNodeInfo> {
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

export async function connectSearch(opts: SearchConnectOptions): Promise<SearchConnection> {
  const info = await probeSearchNode(opts);
  return { client: new Client(clientOptionsFor(info, opts)), info };
}

/** Credentials never reach logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '<invalid url>';
  }
}
