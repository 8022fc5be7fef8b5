import type { Client } from '@elastic/elasticsearch';
import type { SubjectState } from '../core/envelope';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { ledgerEntry, populationCompleteness, type LedgerEntry } from '../monitor/ledger';
import { subjectCounts, type LedgerIndices } from '../search/ledger-query';

/** What the ledger reads of the frontier: the watched subjects and their states. */
export interface LedgerFrontier {
  allEntries(): Promise<{ subject: string; state: SubjectState }[]>;
  getState(subject: string): Promise<SubjectState | undefined>;
}

/**
 * The completeness ledger of a crawl (monitor/ledger.ts), from the frontier (gaps, status) and the
 * index (declared and held counts): every watched subject, or the one asked for. Zombies (never
 * visited) and subjects not visited yet have no books.
 */
export async function readLedger(frontier: LedgerFrontier, client: Client, ix: LedgerIndices, subject?: string): Promise<LedgerEntry[]> {
  let entries: { subject: string; state: SubjectState }[];
  if (subject !== undefined) {
    const state = await frontier.getState(subject);
    entries = state ? [{ subject, state }] : [];
  } else entries = await frontier.allEntries();
  const watched = entries.filter((e) => e.state.status !== 'zombie' && e.state.visits > 0).sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
  const counts = new Map((await subjectCounts(client, ix, watched.map((e) => e.subject))).map((c) => [c.subject, c]));
  return watched.map(({ subject: s, state }) => {
    const c = counts.get(s);
    return ledgerEntry({
      subject: s, declared: c?.declared, active: c?.held ?? 0, tombstoned: c?.tombstoned ?? 0,
      ...(state.meta ? { meta: state.meta } : {}), status: state.status,
    });
  });
}

export interface LedgerGauge {
  stop(): Promise<void>;
}

/**
 * Sets the completeness gauges from the whole ledger every `intervalMs` (an O(subjects) scan of
 * the frontier and a few searches per hundred subjects: minutes apart, not seconds), and once more
 * on stop, after `beforeLastPoll` (the index refresh that makes the last writes searchable).
 */
export function startLedgerGauge(
  read: () => Promise<LedgerEntry[]>, metrics: Metrics,
  o: { intervalMs: number; logger: Logger; beforeLastPoll?: () => Promise<void> },
): LedgerGauge {
  let running: Promise<void> | undefined;
  const poll = (): Promise<void> => {
    running ??= read().then((entries) => {
      const share = populationCompleteness(entries);
      if (share !== null) metrics.completeness.set(share);
      metrics.incompleteSubjects.set(entries.filter((e) => !e.complete).length);
    }, (err: Error) => o.logger.debug({ err: err.message }, 'completeness ledger poll failed; gauges keep their last values')).finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void poll(), o.intervalMs);
  timer.unref();
  void poll();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      // The sink's last bulk is not searchable until the index refreshes; without it the closing
      // figure misses whatever the last flush wrote.
      await o.beforeLastPoll?.().catch((err: Error) => o.logger.debug({ err: err.message }, 'refresh before the last ledger poll failed; it reads what is searchable'));
      await poll();
    },
  };
}
