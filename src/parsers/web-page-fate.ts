import type { Doc, SubjectState } from '../core/envelope';
import { FreshetError } from '../core/errors';
import { isoTime } from '../core/iso-time';
import { pageDocId } from '../filters/url-canonical';
import { observeStatus, type GoneState } from './page-status';

/**
 * What became of a page that is no longer where it was: gone (404/410 twice, a grace period
 * apart) or moved (a redirect to another canonical URL). Both end in a marker document for the
 * page's old id (`status` and times only; the versioned sink keeps the text), never on a
 * timeout, a 5xx or any other error.
 */

const b36 = (n: number | undefined): string | undefined => (n === undefined ? undefined : n.toString(36));
const un36 = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const n = Number.parseInt(s, 36);
  return Number.isFinite(n) ? n : undefined;
};

/** The missing-page evidence kept in the subject's meta (`gm`: first missing, `gd`: deleted), base 36. */
export function goneStateOf(meta: Record<string, string> | undefined): GoneState {
  const first = un36(meta?.['gm']);
  const deleted = un36(meta?.['gd']);
  return { ...(first !== undefined ? { firstMissingMs: first } : {}), ...(deleted !== undefined ? { deletedMs: deleted } : {}) };
}

function withGone(meta: Record<string, string>, g: GoneState): Record<string, string> {
  const out = { ...meta };
  delete out['gm'];
  delete out['gd'];
  const gm = b36(g.firstMissingMs);
  const gd = b36(g.deletedMs);
  if (gm !== undefined) out['gm'] = gm;
  if (gd !== undefined) out['gd'] = gd;
  return out;
}

/** The HTTP status a fetch error carries, when it is a 404 or 410 (the only evidence of a deletion). */
export function missingStatus(err: unknown): 404 | 410 | undefined {
  if (!(err instanceof FreshetError)) return undefined;
  const s = err.fields?.['status'];
  return s === 404 || s === 410 ? s : undefined;
}

export interface MissingVisit {
  state: SubjectState;
  /** Set once the page is marked deleted. */
  marker?: Doc;
}

/** A visit whose first page answered 404/410: suspect first, deleted once the grace period has passed. */
export function missingVisit(state: SubjectState, status: 404 | 410, canonicalUrl: string, nowMs: number, graceMs: number): MissingVisit {
  const before = goneStateOf(state.meta);
  const { state: g, verdict } = observeStatus(before, { status }, nowMs, graceMs);
  const meta = withGone(state.meta ?? {}, g);
  const next: SubjectState = { ...state, visits: state.visits + 1, failures: 0, lastVisitMs: nowMs, meta, ...(verdict === 'deleted' ? { status: 'gone' as const } : {}) };
  if (verdict !== 'deleted' || before.deletedMs !== undefined) return { state: next };
  return {
    state: next,
    marker: {
      index: 'pages', id: pageDocId(canonicalUrl),
      body: { url: canonicalUrl, status: 'deleted', http_status: status, first_missing_at: isoTime(g.firstMissingMs!), deleted_at: isoTime(g.deletedMs!), crawled_at: isoTime(nowMs) },
    },
  };
}

/** A page seen again clears any suspicion of deletion. */
export function clearMissing(meta: Record<string, string>): void {
  delete meta['gm'];
  delete meta['gd'];
}

/** The marker for a page whose old canonical URL now redirects to another one. */
export function movedMarker(oldCanonical: string, newCanonical: string, nowMs: number): Doc {
  return { index: 'pages', id: pageDocId(oldCanonical), body: { url: oldCanonical, status: 'moved', moved_to: newCanonical, crawled_at: isoTime(nowMs) } };
}
