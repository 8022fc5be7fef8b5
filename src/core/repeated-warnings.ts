import type { Logger } from './logger';

type Level = 'info' | 'warn';

interface Repeats {
  out: Logger;
  level: Level;
  msg: string;
  code: string;
  count: number;
  /** The fields of the last one counted: an example to look at. */
  last: object;
}

/**
 * Folds repeated per-visit records into counts. An info or warning record with a `code` field
 * (a paused or failed visit) is logged in full the first time its message and code appear; after
 * that each one is counted, and `flush()` (once per progress interval) logs one line per message
 * and code with the count and the last one's fields. A throttled crawl pausing hundreds of visits
 * a minute then writes a few lines, not hundreds. Records without a code, debug and errors pass
 * through.
 */
export class RepeatedWarnings {
  private readonly seen = new Set<string>();
  private readonly pending = new Map<string, Repeats>();

  /** The logger to hand out: `child()` keeps counting into this aggregator. */
  wrap(out: Logger): Logger {
    return {
      debug: (obj, msg) => out.debug(obj, msg),
      info: (obj, msg) => this.fold(out, 'info', obj, msg),
      error: (obj, msg) => out.error(obj, msg),
      warn: (obj, msg) => this.fold(out, 'warn', obj, msg),
      child: (bindings) => this.wrap(out.child(bindings)),
    };
  }

  private fold(out: Logger, level: Level, obj: object, msg: string): void {
    const code = (obj as { code?: unknown }).code;
    if (typeof code !== 'string') {
      out[level](obj, msg);
      return;
    }
    const key = `${level}\u0000${msg}\u0000${code}`;
    if (!this.seen.has(key)) {
      this.seen.add(key);
      out[level]({ ...obj, repeats: 'further ones are counted per interval' }, msg);
      return;
    }
    const r = this.pending.get(key);
    if (r) {
      r.count += 1;
      r.last = obj;
    } else this.pending.set(key, { out, level, msg, code, count: 1, last: obj });
  }

  /** Logs the counts since the last flush (one line per message and code) and starts again. */
  flush(intervalSecs: number): void {
    for (const r of this.pending.values()) {
      r.out[r.level]({ code: r.code, count: r.count, interval_secs: Math.round(intervalSecs), last: r.last }, `${r.msg} (×${r.count} in the last ${Math.round(intervalSecs)} s)`);
    }
    this.pending.clear();
  }
}
