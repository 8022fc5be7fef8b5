import type { FreshetError } from '../../core/errors';
import type { VisitOutcome } from '../adapter';

/** The microblog adapter's bookkeeping of one visit (weibo-api.ts). */
export interface Tally {
  requests: number;
  checks: number;
}

/** What the timeline pages of one visit have shown so far. */
export interface Reading {
  seen: Set<string>;
  newTimes: number[];
  /** The highest post id seen (the next watermark). */
  top: string | undefined;
  lastFetchMs: number;
  /** Posts this visit indexed (a re-read indexes the others it lists, seen or not). */
  indexed: Set<string>;
  /** Posts the lists showed as stubs of gone posts. */
  stubs: Set<string>;
  /** Known posts whose current long text is still to be indexed (from earlier visits); shown and read, they leave. */
  longDue: Set<string>;
  /** Known posts whose long text this visit failed to read again: due on the next visit. */
  longFailed: Set<string>;
  /** During a re-read: how many posts published by `upToMs` the list shows. */
  listed?: { upToMs: number; count: number };
}

/** How a run of timeline pages ended. */
export interface PagesRead {
  done: boolean;
  pages: number;
  /** The cursor of the first page not read (when not done). */
  stoppedAt?: string;
  /** A limit refused a request after some posts were read: the rest is due as soon as it allows. */
  paused?: VisitOutcome['paused'];
  after?: string;
  /** The page at `stoppedAt` could not be read: the visit resumes there soon. */
  bad?: FreshetError;
}
