import { isoTime } from '../core/iso-time';
import type { TombstoneUpdate } from './tombstones';

/**
 * How a freshly read post document meets the one already indexed, so edits become versions and
 * tombstones survive re-indexing. Pure: the sink (or the runner) reads the stored body, calls this,
 * and writes the result. Counter-only changes add no version (the counters have post-metrics).
 */
export interface Version {
  text: string;
  /** When this text appeared (the edit time the site gave, else publication or first sight). */
  at: string;
  /** When freshet first saw it. */
  seen_at?: string;
}

type Body = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The stored body's versions, or its one text as the first version. */
function versionsOf(stored: Body): Version[] {
  if (Array.isArray(stored['versions']) && stored['versions'].length > 0) return stored['versions'] as Version[];
  const text = str(stored['text']);
  if (text === undefined) return [];
  const at = str(stored['edited_at']) ?? str(stored['created_at']) ?? str(stored['crawled_at']) ?? '';
  return [{ text, at, ...(str(stored['crawled_at']) ? { seen_at: str(stored['crawled_at']) } : {}) }];
}

/**
 * The body to index for a post seen live (`incoming`, from the adapter) given the stored one.
 * A changed text appends a version; the post is active again (a tombstone that shows again is
 * lifted, its first_missing_at cleared).
 */
export function mergeSeenPost(stored: Body | undefined, incoming: Body): Body {
  if (!stored) return incoming;
  const out: Body = { ...stored, ...incoming };
  const oldText = str(stored['text']);
  const newText = str(incoming['text']);
  let versions = versionsOf(stored);
  if (newText !== undefined && oldText !== undefined && newText !== oldText) {
    const at = str(incoming['edited_at']) ?? str(incoming['crawled_at']) ?? '';
    versions = [...versions, { text: newText, at, ...(str(incoming['crawled_at']) ? { seen_at: str(incoming['crawled_at']) } : {}) }];
  }
  if (versions.length > 1) out['versions'] = versions;
  // Seen again: whatever tombstone it had is over.
  delete out['first_missing_at'];
  delete out['status_reason'];
  out['status'] = 'active';
  return out;
}

/** The stored body with a tombstone applied: text, media and counts stay as last seen. */
export function applyTombstone(stored: Body, t: TombstoneUpdate, reason?: string): Body {
  return {
    ...stored,
    status: t.status,
    ...(t.last_seen_at_ms !== undefined ? { last_seen_at: isoTime(t.last_seen_at_ms) } : {}),
    first_missing_at: isoTime(t.first_missing_at_ms),
    status_checked_at: isoTime(t.checked_at_ms),
    ...(reason ? { status_reason: reason } : {}),
  };
}
