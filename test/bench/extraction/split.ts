import { createHash } from 'node:crypto';

/**
 * Share of extraction-dev-large kept aside as the check quarter: never looked at while tuning, reported
 * separately. (Not the dataset's own extraction-heldout split, which this benchmark never reads.)
 */
export const CHECK_SHARE = 0.25;

/** Deterministic: the first 32 bits of sha1(id) pick the part, so the split never drifts. */
export function isCheck(id: string): boolean {
  const h = createHash('sha1').update(id).digest().readUInt32BE(0);
  return h / 2 ** 32 < CHECK_SHARE;
}
