import type { Emitted, VisitContext } from '../adapter';
import type { PagesRead, Reading } from './visit-state';

/**
 * The completeness ledger of the subject, on the visit after a profile read (its posts are
 * searchable by then): when the index held fewer posts at the profile's time than it declared,
 * and no gap explains it, the whole timeline is read again (`reread`) and every post indexed again.
 * A re-read that reaches the end of the list and still finds fewer posts than declared proves the
 * rest unreachable (`short`: by how many); it is not repeated unless the shortfall grows.
 */
export async function* ledgerCheck(
  subject: string, ctx: VisitContext, r: Reading, short: string | undefined, reread: () => AsyncGenerator<Emitted, PagesRead, void>,
): AsyncGenerator<Emitted, string | undefined, void> {
  let counts;
  try {
    counts = await ctx.ledgerCounts!(subject);
  } catch (err) {
    ctx.logger.warn({ subject, err: (err as Error).message }, 'completeness ledger unreadable; checked again on a later visit');
    return short;
  }
  if (!counts || counts.declared === undefined || counts.declaredAtMs === undefined) return short;
  const missing = counts.declared - counts.held;
  if (missing <= 0) return undefined;
  if (short !== undefined && missing <= Number(short)) return short;
  r.listed = { upToMs: counts.declaredAtMs, count: 0 };
  ctx.logger.info({ subject, declared: counts.declared, held: counts.held }, 'fewer posts indexed than the profile declares; reading the timeline again');
  const rr = yield* reread();
  const listed = r.listed.count;
  delete r.listed;
  if (!rr.done) return short;
  const still = counts.declared - listed;
  return still > 0 ? String(still) : undefined;
}
