import type { Doc, Job, SubjectState } from '../core/envelope';
import type { Logger } from '../core/logger';
import type { IndexedPost, Span } from '../monitor/tombstones';
import type { FetchedText, VisitOutcome } from '../core/visit';

export type { FetchedText, VisitOutcome } from '../core/visit';

export interface VisitContext {
  /** `headers`: extra request headers (If-None-Match …); a 304 then comes back with an empty text. */
  fetchText(url: string, expect: 'json' | 'html', headers?: Record<string, string>): Promise<FetchedText>;
  nowMs(): number;
  logger: Logger;
  /**
   * The `Sitemap:` lines of `origin`'s robots.txt from the fetcher's robots cache, which robots
   * rules are read from too (so the file is fetched once per origin and TTL); `undefined` when the
   * fetcher reads no robots.txt (the caller then fetches it itself). Throws while it is unavailable.
   */
  robotsSitemaps?(origin: string): Promise<string[]> | undefined;
  /** How many subjects the frontier holds (discovery stops at a cap); absent: no cap can be checked. */
  subjectCount?(): Promise<number>;
  /**
   * What the index holds of a subject's posts whose ids fall in one of `spans` (their status and
   * monitoring times), for deletion monitoring; absent without a search index.
   */
  indexedPosts?(subject: string, spans: readonly Span[]): Promise<IndexedPost[]>;
  /**
   * The completeness ledger's counts of a subject: the post count its profile declared at
   * `declaredAtMs`, and how many posts the index held then; absent without a search index.
   */
  ledgerCounts?(subject: string): Promise<{ declared?: number; declaredAtMs?: number; held: number } | undefined>;
}

export type Emitted =
  | { kind: 'doc'; doc: Doc }
  | { kind: 'discovered'; subject: string; state: Partial<SubjectState> }
  /** Subjects found together with one state (a page's links): one step of the visit for all of them. */
  | { kind: 'discovered_all'; subjects: string[]; state: Partial<SubjectState> }
  /** A document a stage already dropped where the page was read (a page worker thread): counted and settled, never sent on. */
  | { kind: 'dropped'; doc: Doc; stage: string; reason: string }
  /** Known subjects the visit learned have changed (a sitemap's lastmod, a feed's updated time): due now. */
  | { kind: 'revisit'; subjects: string[] };

/**
 * A platform adapter turns a subject into requests and responses into documents and discovered
 * subjects. `visit` yields as it goes (so documents stream to the sink while paging continues)
 * and returns the outcome. One adapter type per file, named after its pipeline `type`.
 */
export interface Adapter {
  readonly type: string;
  visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void>;
  /** Told the subjects a visit discovered once the frontier holds them (the offer succeeded). */
  offered?(subjects: string[]): void;
  /**
   * Whether an answer is a soft block (a 200 body that refuses the client: captcha, "too
   * frequent"), read at the fetch layer so it is counted and the identity cooled down wherever
   * the request came from; its error is the throttled one the parser would throw.
   */
  softBlockOf?(res: { url: string; status: number; text: string }): { reason: string; error: Error } | undefined;
}
