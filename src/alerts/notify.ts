import { appendFile } from 'node:fs/promises';
import { request } from 'undici';
import type { SpikeNotification } from './spikes';
import type { TopicNotification } from './topic-alerts';
import type { AlertNotification } from './watcher';

export type Notification = AlertNotification | SpikeNotification | TopicNotification;
export type Notify = (n: Notification) => Promise<void>;

export interface NotifyTargets {
  /** Append each notification as one JSON line to this file. */
  ndjson?: string;
  /** POST each notification as JSON to this URL. */
  webhook?: string;
  /** Where lines go when there is neither (the CLI passes stdout). */
  fallback?: (line: string) => void;
}

/**
 * Where notifications go: NDJSON lines appended to a file, and/or a webhook POST. A failed
 * delivery throws: the watcher then forgets that post's sent-once marker and keeps its checkpoint,
 * so the next pass delivers it again.
 */
export function notifier(targets: NotifyTargets): Notify {
  return async (n) => {
    const line = `${JSON.stringify(n)}\n`;
    if (targets.ndjson) await appendFile(targets.ndjson, line);
    else if (!targets.webhook) targets.fallback?.(line);
    if (targets.webhook) {
      const res = await request(targets.webhook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(n) });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`webhook answered ${res.statusCode}`);
    }
  };
}
