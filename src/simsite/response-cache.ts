import type { SimResponse } from './http-types';

interface Entry {
  version: string;
  expiresRealMs: number;
  response: SimResponse;
}

/**
 * Rendered responses keyed by URL and a content version (e.g. the author's visible post count), so
 * a page is re-rendered as soon as what it lists changes. Embedded details that the version does not
 * cover (other users' counters) may be up to `ttlMs` real ms stale, as behind a real CDN.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number, private readonly maxEntries = 50_000) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(url: string, version: string, realMs: number): SimResponse | undefined {
    const e = this.entries.get(url);
    if (!e || e.version !== version || e.expiresRealMs < realMs) return undefined;
    return e.response;
  }

  put(url: string, version: string, realMs: number, response: SimResponse): SimResponse {
    // Bodies are stored encoded, so a hit costs no UTF-8 encoding either.
    const stored: SimResponse = { ...response, body: typeof response.body === 'string' ? Buffer.from(response.body) : response.body };
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(url);
    this.entries.set(url, { version, expiresRealMs: realMs + this.ttlMs, response: stored });
    return stored;
  }
}
