import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@elastic/elasticsearch';
import { parseSince, searchText, type SearchFilters } from './full-text';

export interface SearchApiOptions {
  client: Client;
  /** The indices searched (comma-separated names). */
  index: string;
  host: string;
  port: number;
  maxSize?: number;
  nowMs?: () => number;
}

export interface SearchApi {
  url: string;
  close(): Promise<void>;
}

const LABELS = new Set(['positive', 'neutral', 'negative']);

function reply(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * Read-only search over HTTP: `GET /search?q=…&since=24h&sentiment=negative&platform=weibo&size=10`
 * answers `{total, hits:[{id, score, fields, highlight}]}`; `GET /healthz`. Nothing else: no
 * writes, no raw query DSL, so it can sit next to the crawler on loopback without exposing the index.
 */
export async function startSearchApi(o: SearchApiOptions): Promise<SearchApi> {
  const maxSize = o.maxSize ?? 100;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET') return reply(res, 405, { error: 'read-only: GET only' });
    if (url.pathname === '/healthz') return reply(res, 200, { ok: true });
    if (url.pathname !== '/search') return reply(res, 404, { error: 'not found' });
    const q = url.searchParams.get('q')?.trim();
    if (!q) return reply(res, 400, { error: 'q is required' });
    const filters: SearchFilters = {};
    try {
      const since = url.searchParams.get('since');
      if (since) filters.sinceMs = parseSince(since, (o.nowMs ?? Date.now)());
      const sentiment = url.searchParams.get('sentiment');
      if (sentiment) {
        if (!LABELS.has(sentiment)) throw new Error('sentiment: positive, neutral or negative');
        filters.sentiment = sentiment as SearchFilters['sentiment'];
      }
      const platform = url.searchParams.get('platform');
      if (platform) filters.platform = platform;
    } catch (err) {
      return reply(res, 400, { error: (err as Error).message });
    }
    const size = Math.min(maxSize, Math.max(1, Number(url.searchParams.get('size') ?? 10) || 10));
    searchText(o.client, o.index, q, size, filters)
      .then((r) => reply(res, 200, r))
      .catch((err: Error) => reply(res, 502, { error: `search node: ${err.message}` }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
