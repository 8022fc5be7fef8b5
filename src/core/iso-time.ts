/** The last instant `isoTime` formats itself (9999-12-31T23:59:59.999Z); later and earlier ones go to Date. */
const MAX_FAST_MS = 253402300800000;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, computed: the documents of a page carry one or two timestamps
 * each, and V8's toISOString (a runtime call through printf) cost about three times this. Years
 * 1970 to 9999 are formatted here, anything else (and NaN, which throws) by Date itself.
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < MAX_FAST_MS)) return new Date(ms).toISOString();
  const t = Math.floor(ms);
  const days = Math.floor(t / 86_400_000);
  let rem = t - days * 86_400_000;
  // Civil date from days since the epoch (H. Hinnant's days_from_civil, inverted); era 400 years.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const h = Math.floor(rem / 3_600_000);
  rem -= h * 3_600_000;
  const mi = Math.floor(rem / 60_000);
  rem -= mi * 60_000;
  const s = Math.floor(rem / 1000);
  const msPart = rem - s * 1000;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(h)}:${pad2(mi)}:${pad2(s)}.${msPart < 10 ? '00' : msPart < 100 ? '0' : ''}${msPart}Z`;
}
