/**
 * The completeness ledger of one watched subject: what the platform says it holds (the profile's
 * post count) against what the index holds, and why the two differ. Pure: the caller gathers the
 * counts (index), the subject state (frontier) and the last profile; `freshet audit` prints the
 * entries, a gauge shows `populationCompleteness`.
 *
 * Reasons a subject is incomplete, each something a later visit can act on or a proof it cannot:
 * - `gap`: a page-limit or quota gap is open (`meta.gap_since` … `gap_until`); later visits read it
 * - `uncounted`: fewer posts indexed than declared and no gap explains it (re-read the timeline)
 * - `unconfirmed_missing`: more active posts indexed than declared: some went and are not yet
 *   confirmed (the tombstone checks will settle them)
 * - `platform_cap`: the list stops before its end for this client (anonymous ~200-page cap): the
 *   rest is unreachable, not missing by fault of the crawl
 * - `account_gone`: the profile is gone; what was indexed stays, nothing more can be read (a gap
 *   or an unreadable page it left open is closed with it: no later visit can read them)
 * - `partial`: a timeline page could not be read (`meta.bad_pages`); the visit resumes there soon
 * - `unreachable`: a full re-read reached the end of the list and the site still lists fewer posts
 *   than it declares (`meta.short`): proven out of reach, listed, never re-read again for it
 */
export type LedgerReason = 'gap' | 'partial' | 'uncounted' | 'unreachable' | 'unconfirmed_missing' | 'platform_cap' | 'account_gone';

export interface LedgerInput {
  subject: string;
  /** The profile's post count at its last read (what others can see), if known. */
  declared: number | undefined;
  /** Indexed posts of the subject by status. */
  active: number;
  tombstoned: number;
  /** The subject state's meta (gap_since, gap_until, bad_pages, short, …) and status. */
  meta?: Record<string, string>;
  status?: string;
  /** The timeline ended before its declared length for this client (a cap), as last observed. */
  cappedAtPosts?: number;
}

export interface LedgerEntry {
  subject: string;
  declared: number | null;
  active: number;
  tombstoned: number;
  /** Declared posts not indexed (0 when none or unknown). */
  missing: number;
  complete: boolean;
  reasons: LedgerReason[];
}

export function ledgerEntry(x: LedgerInput): LedgerEntry {
  const reasons: LedgerReason[] = [];
  if (x.status === 'gone') reasons.push('account_gone');
  // A gone account's gap or unreadable page can never be read: its books are closed (account_gone).
  const gone = x.status === 'gone';
  const gapOpen = !gone && Boolean(x.meta?.['gap_since'] && x.meta?.['gap_until']);
  if (gapOpen) reasons.push('gap');
  if (x.meta?.['bad_pages'] && !gone) reasons.push('partial');
  const unreachable = Boolean(x.meta?.['short']);
  const declared = x.declared ?? null;
  let missing = 0;
  if (declared !== null && x.status !== 'gone') {
    const reachable = x.cappedAtPosts !== undefined ? Math.min(declared, x.cappedAtPosts) : declared;
    if (x.cappedAtPosts !== undefined && x.cappedAtPosts < declared) reasons.push('platform_cap');
    missing = Math.max(0, reachable - x.active);
    if (missing > 0 && !gapOpen) reasons.push(unreachable ? 'unreachable' : 'uncounted');
    if (x.active > declared) reasons.push('unconfirmed_missing');
  }
  const complete = reasons.every((r) => r === 'platform_cap' || r === 'account_gone') && missing === 0;
  return { subject: x.subject, declared, active: x.active, tombstoned: x.tombstoned, missing, complete, reasons };
}

/** Share of the declared posts of the population that are indexed (each subject counted up to its declared number). */
export function populationCompleteness(entries: readonly LedgerEntry[]): number | null {
  let declared = 0;
  let held = 0;
  for (const e of entries) {
    if (e.declared === null || e.reasons.includes('account_gone')) continue;
    declared += e.declared;
    held += Math.min(e.active, e.declared);
  }
  return declared === 0 ? null : held / declared;
}

/** `freshet audit` lines: the incomplete subjects with their reasons, then one summary line. */
export function auditLines(entries: readonly LedgerEntry[]): string[] {
  const open = entries.filter((e) => !e.complete);
  const lines = open.map((e) => `${e.subject}\tdeclared=${e.declared ?? '?'}\tindexed=${e.active}\ttombstoned=${e.tombstoned}\tmissing=${e.missing}\t${e.reasons.join(',')}`);
  const share = populationCompleteness(entries);
  lines.push(`${entries.length} subjects, ${open.length} with open gaps; completeness ${share === null ? 'unknown' : `${(share * 100).toFixed(2)} %`}`);
  return lines;
}
