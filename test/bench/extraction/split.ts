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

/**
 * The half of the tune part a page falls in: develop on half A, confirm on half B, so a rule
 * read off single pages is seen to carry over to pages it was not written from before the check
 * quarter is ever run. Deterministic: the parity of bits 32..63 of sha1(id), independent of the
 * bits that pick the check quarter.
 */
export function tuneHalf(id: string): 'A' | 'B' {
  return createHash('sha1').update(id).digest().readUInt32BE(4) % 2 === 0 ? 'A' : 'B';
}
