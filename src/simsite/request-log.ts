/** One request as the site saw it; tests compute politeness, cost and Retry-After compliance from these. */
export interface RequestLogEntry {
  seq: number;
  client: string;
  /** Real (wall) time of arrival, ms. */
  realMs: number;
  /** Simulated time of arrival, ms. */
  simMs: number;
  method: string;
  url: string;
  host: string;
  status: number;
  /** The injected fault, if any (rateLimit, serverError, timeout, slowBody, truncated, malformed, loginRedirect). */
  fault: string | null;
  /** The Retry-After the response carried, in seconds. */
  retryAfterSec: number | null;
}

export interface ClientSummary {
  client: string;
  requests: number;
  byStatus: Record<string, number>;
  faults: Record<string, number>;
  firstRealMs: number;
  lastRealMs: number;
}

/** Per-client request log, bounded so a long benchmark cannot exhaust memory (oldest entries go first). */
export class RequestLog {
  private readonly byClient = new Map<string, RequestLogEntry[]>();
  private seq = 0;
  private size = 0;
  private droppedEntries = 0;

  constructor(private readonly maxEntries = 300_000) {}

  /** Entries held, entries dropped to stay under the bound (a test that needs all of them checks this is 0). */
  stats(): { entries: number; dropped: number; maxEntries: number } {
    return { entries: this.size, dropped: this.droppedEntries, maxEntries: this.maxEntries };
  }

  add(entry: Omit<RequestLogEntry, 'seq'>): void {
    let list = this.byClient.get(entry.client);
    if (!list) {
      list = [];
      this.byClient.set(entry.client, list);
    }
    list.push({ seq: ++this.seq, ...entry });
    this.size++;
    if (this.size > this.maxEntries) {
      // Drop from the biggest client: the one hammering the site is the one a test cares least about in detail.
      let biggest: RequestLogEntry[] | undefined;
      for (const l of this.byClient.values()) if (!biggest || l.length > biggest.length) biggest = l;
      const removed = biggest?.splice(0, Math.ceil(this.maxEntries / 10)).length ?? 0;
      this.size -= removed;
      this.droppedEntries += removed;
    }
  }

  entries(client?: string): RequestLogEntry[] {
    if (client !== undefined) return [...(this.byClient.get(client) ?? [])];
    const all: RequestLogEntry[] = [];
    for (const l of this.byClient.values()) all.push(...l);
    return all.sort((a, b) => a.seq - b.seq);
  }

  clients(): string[] {
    return [...this.byClient.keys()];
  }

  summary(): ClientSummary[] {
    return [...this.byClient.entries()].map(([client, list]) => {
      const byStatus: Record<string, number> = {};
      const faults: Record<string, number> = {};
      for (const e of list) {
        byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
        if (e.fault) faults[e.fault] = (faults[e.fault] ?? 0) + 1;
      }
      return {
        client, requests: list.length, byStatus, faults,
        firstRealMs: list[0]?.realMs ?? 0, lastRealMs: list[list.length - 1]?.realMs ?? 0,
      };
    });
  }

  clear(): void {
    this.byClient.clear();
    this.size = 0;
    this.droppedEntries = 0;
  }
}
