import type { Doc, Job, SubjectState } from '../core/envelope';
import type { Logger } from '../core/logger';

/** What an adapter may ask of the fetcher: a URL in, decoded text out (errors are FreshetErrors). */
export interface FetchedText {
  url: string;
  status: number;
  text: string;
  fetchedAtMs: number;
  /** Response headers (lower-case names), for validators; absent where a test fakes the fetch. */
  headers?: Record<string, string>;
  /** Bytes of the body as received. */
  bodyBytes?: number;
  /** The body's bytes, for formats the text decoding would spoil (gzipped sitemaps). */
  body?: Uint8Array;
  /** The answer came through permanent redirects only (301/308): the page moved to `url`. */
  permanentRedirect?: boolean;
}

export interface VisitContext {
  /** `headers`: extra request headers (If-None-Match …); a 304 then comes back with an empty text. */
  fetchText(url: string, expect: 'json' | 'html', headers?: Record<string, string>): Promise<FetchedText>;
  nowMs(): number;
  logger: Logger;
  /** How many subjects the frontier holds (discovery stops at a cap); absent: no cap can be checked. */
  subjectCount?(): Promise<number>;
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

/** What a visit learned, for the frontier state and the scheduler. */
export interface VisitOutcome {
  state: SubjectState;
  /** Publication times of the posts that were new on this visit. */
  newPostTimesMs: number[];
  /** True when the visit stopped at its page limit with more posts possibly left behind. */
  pageLimitHit: boolean;
  /** Requests this visit made (charged to the budget). */
  requests: number;
}

/**
 * A platform adapter turns a subject into requests and responses into documents and discovered
 * subjects. `visit` yields as it goes (so documents stream to the sink while paging continues)
 * and returns the outcome. One adapter type per file, named after its pipeline `type`.
 */
export interface Adapter {
  readonly type: string;
  /** Whether this adapter handles the subject (by its `<platform>:<kind>:` prefix). */
  accepts(subject: string): boolean;
  visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void>;
  /** Told the subjects a visit discovered once the frontier holds them (the offer succeeded). */
  offered?(subjects: string[]): void;
}
