import { BoundedCache } from './bounded-cache';
import type { SimResponse } from './http-types';

interface Entry {
  version: string;
  expiresRealMs: number;
  response: SimResponse;
  bytes: number;
}

/**
 * Rendered responses keyed by URL and a content version (e.g. the author's visible post count), so
 * a page is re-rendered as soon as what it lists changes. Embedded details that the version does not
 * cover (other users' counters) may be up to `ttlMs` real ms stale, as behind a real CDN.
 * Bounded by bytes, since pages are ~15 KB each.
 */
export class ResponseCache {
  private readonly entries: BoundedCache<string, Entry>;

  constructor(private readonly ttlMs: number, maxBytes = 64 * 1024 * 1024) {
    this.entries = new BoundedCache(maxBytes, (e) => e.bytes);
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get sizeBytes(): number {
    return this.entries.weight;
  }

  get(url: string, version: string, realMs: number): SimResponse | undefined {
    const e = this.entries.get(url);
    if (!e || e.version !== version || e.expiresRealMs < realMs) return undefined;
    return e.response;
  }

  put(url: string, version: string, realMs: number, response: SimResponse): SimResponse {
    // Bodies are stored encoded, so a hit costs no UTF-8 encoding either.
    const body = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
    const stored: SimResponse = { ...response, body };
    this.entries.set(url, { version, expiresRealMs: realMs + this.ttlMs, response: stored, bytes: body.length });
    return stored;
  }
}
