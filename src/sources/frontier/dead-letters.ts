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
}
