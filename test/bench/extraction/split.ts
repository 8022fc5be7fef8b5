import { createHash } from 'node:crypto';

/** Share of extraction-dev kept aside: never looked at while tuning, reported separately. */
export const HOLDOUT_SHARE = 0.25;

/** Deterministic: the first 32 bits of sha1(id) pick the part, so the split never drifts. */
export function isHoldout(id: string): boolean {
  const h = createHash('sha1').update(id).digest().readUInt32BE(0);
  return h / 2 ** 32 < HOLDOUT_SHARE;
}
