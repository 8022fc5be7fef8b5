import type { Clock } from '../../core/clock';
import type { DeadLetter, DeadLetterWriter } from '../../core/dead-letter';
import { deadLetterKey } from './keys';
import type { RedisLike } from './layout';

/** The crawl's dead-letter stream (a capped Redis stream): what could not succeed, with its error. */
export class DeadLetterStream implements DeadLetterWriter {
  private readonly key: string;
  private readonly maxLen: number;

  constructor(private readonly redis: RedisLike, opts: { namespace: string; deadLetterMaxLen: number }, private readonly clock: Clock) {
    this.key = deadLetterKey(opts.namespace);
    this.maxLen = opts.deadLetterMaxLen;
  }

  async deadLetter(entry: DeadLetter): Promise<void> {
    const fields: string[] = ['code', entry.code, 'stage', entry.stage, 'message', entry.message, 'at', String(this.clock.nowMs())];
    if (entry.subject) fields.push('subject', entry.subject);
    if (entry.id) fields.push('id', entry.id);
    if (entry.payload !== undefined) fields.push('payload', JSON.stringify(entry.payload));
    await this.redis.xadd(this.key, 'MAXLEN', '~', this.maxLen, '*', ...fields);
  }

  async read(count = 100): Promise<Record<string, string>[]> {
    const rows = await this.redis.xrange(this.key, '-', '+', 'COUNT', count);
    return rows.map(([, kv]) => {
      const o: Record<string, string> = {};
      for (let i = 0; i < kv.length; i += 2) o[kv[i]!] = kv[i + 1]!;
      return o;
    });
  }

  length(): Promise<number> {
    return this.redis.xlen(this.key);
  }

  /** Newest first, `count` entries from before the id `before` (exclusive; none: from the newest). */
  async list(count: number, before?: string): Promise<StoredDeadLetter[]> {
    const end = before === undefined ? '+' : `(${before}`;
    const rows = await this.redis.xrevrange(this.key, end, '-', 'COUNT', count);
    return rows.map(([id, kv]) => ({ id, fields: pairs(kv) }));
  }

  async get(id: string): Promise<StoredDeadLetter | undefined> {
    const rows = await this.redis.xrange(this.key, id, id);
    const row = rows[0];
    return row ? { id: row[0], fields: pairs(row[1]) } : undefined;
  }

  /** Removes one entry (dropped by an operator, or requeued); false if it was not there. */
  async remove(id: string): Promise<boolean> {
    return (await this.redis.xdel(this.key, id)) > 0;
  }

  /**
   * Codes of the newest `scan` entries, counted (a status page's "errors by reason"). Read in pages
   * of 200: an entry can carry a whole document, and a stream holds up to deadLetterMaxLen of them.
   */
  async countByCode(scan = 1_000): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    let before: string | undefined;
    for (let seen = 0; seen < scan;) {
      const rows = await this.list(Math.min(200, scan - seen), before);
      for (const { fields } of rows) out[fields['code'] ?? '?'] = (out[fields['code'] ?? '?'] ?? 0) + 1;
      seen += rows.length;
      if (rows.length < 200) break;
      before = rows[rows.length - 1]!.id;
    }
    return out;
  }
}

/** One entry of the stream: its id (ms-seq) and fields as written. */
export interface StoredDeadLetter {
  id: string;
  fields: Record<string, string>;
}

function pairs(kv: string[]): Record<string, string> {
  const o: Record<string, string> = {};
  for (let i = 0; i < kv.length; i += 2) o[kv[i]!] = kv[i + 1]!;
  return o;
}
