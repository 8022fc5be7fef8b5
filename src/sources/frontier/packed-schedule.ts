import type { Reader, Writer } from './packed-io';

/**
 * The poisson scheduler's record (`schedule` of a subject's state: schedulerFields + iv,
 * src/schedule/core-bridge.ts) packed compactly. Written generically (a key and a millionths varint
 * per field) it took about 80 bytes and pushed every scheduled subject past listpack's 64-byte
 * values; here it takes about 20. Fixed field order instead of keys; one header byte of flags
 * for what is left out; each number a varint at the precision the scheduler needs:
 *
 * - posts (ep, rp, lp, ap, op, dn): to 1e-3 post, and exact while whole (the unforgotten and last
 *   counts are whole numbers; an integer costs a byte below 64). The estimates add these to a
 *   prior of Poisson counts: a thousandth of a post is far below their noise.
 * - hours (eh, rh, lh, ah, oh, iv): to 1e-3 h (3.6 s, at most 1.8 s off); ah as its excess over eh
 *   and oh as its shortfall from ah (all the hours include the forgotten ones and the open window). The shortest window is the
 *   minimum visit interval (5 minutes by default): at most 0.6 % of it, and the rounding of each
 *   visit is independent, so the sums do not drift. iv is written to 1e-3 h already.
 * - time-of-day sums (dc, ds, signed): to 1e-3 post.
 * - window splits (ss, sp: sums of squared half-window differences and of their posts, whole
 *   numbers): as posts; both absent until a day-long window had posts (schedulerFields leaves them out).
 * - realized delays (dp posts, dh hours, both fading): to 0.1 post and 0.1 h (6 min), a hundred
 *   times coarser than the evidence: the planner only takes their population-wide ratio (rounded
 *   to the nearest, a subject's error is as often up as down), and the evidence's precision took a
 *   weibo user past the 64 bytes. Both absent until a later visit found a post.
 *
 * Left out when they repeat (exact equality before rounding): ap/ah equal to ep/eh (no forgetting
 * yet), rp/rh equal to ep/eh and lp/lh equal to rp/rh (after a first visit), op = 0 with oh = −1
 * (the first window was not open). Unpacking restores every key, so the record reads as before
 * up to the rounding. Anything else (other keys, a key missing, values out of range) is left to the
 * generic record, losslessly.
 */

const POSTS_SCALE = 1e3;
const HOURS_SCALE = 1e3;
const DELAYS_SCALE = 10;

const BASE = ['ep', 'eh', 'rp', 'rh', 'lp', 'lh', 'ap', 'ah', 'op', 'oh'] as const;
const DIURNAL = ['dn', 'dc', 'ds'] as const;
const SPLITS = ['ss', 'sp'] as const;
const DELAYS = ['dp', 'dh'] as const;
const KNOWN = new Set<string>([...BASE, ...DIURNAL, ...SPLITS, ...DELAYS, 'iv']);

const F_DIURNAL = 1;
const F_IV = 2;
const F_AP_IS_EP = 4;
const F_AH_IS_EH = 8;
const F_NOT_OPEN = 16;
const F_RECENT_IS_EVIDENCE = 32;
const F_LAST_IS_RECENT = 64;
const F_SPLITS = 128;
/** Past the first byte's seven bits: the flags' varint takes a second byte only when it is set (as with F_SPLITS). */
const F_DELAYS = 256;

const posts = (v: number): number | undefined => {
  if (!(v >= 0)) return undefined;
  const c = Number.isInteger(v) ? v * 2 : Math.round(v * POSTS_SCALE) * 2 + 1;
  return Number.isSafeInteger(c) ? c : undefined;
};
/** `v` ≥ 0 as a whole number of `1/scale` steps. */
const scaled = (v: number, scale: number): number | undefined => {
  const c = Math.round(v * scale);
  return Number.isSafeInteger(c) && c >= 0 ? c : undefined;
};
const hours = (v: number): number | undefined => scaled(v, HOURS_SCALE);
/** `v` (≤ `of`, both ≥ 0) as the difference of their codes: ah − eh and ah − oh are shorter than ah. */
const hoursBelow = (v: number, of: number): number | undefined => {
  const c = hours(of);
  const d = hours(v);
  return c !== undefined && d !== undefined && c >= d ? c - d : undefined;
};
const signed = (v: number): number | undefined => {
  const c = Math.round(v * POSTS_SCALE);
  return Number.isSafeInteger(c * 2) ? (c >= 0 ? c * 2 : -c * 2 - 1) : undefined;
};

/**
 * Writes the record compactly and returns true, or writes nothing and returns false when it is not
 * a record the scheduler wrote (the caller then packs it generically).
 */
export function packSchedule(w: Writer, rec: Record<string, unknown>): boolean {
  const keys = Object.keys(rec).filter((k) => rec[k] !== undefined);
  if (!keys.every((k) => KNOWN.has(k) && typeof rec[k] === 'number' && Number.isFinite(rec[k]))) return false;
  if (!BASE.every((k) => keys.includes(k))) return false;
  const diurnal = DIURNAL.filter((k) => keys.includes(k)).length;
  if (diurnal !== 0 && diurnal !== DIURNAL.length) return false;
  const splits = SPLITS.filter((k) => keys.includes(k)).length;
  if (splits !== 0 && splits !== SPLITS.length) return false;
  const delays = DELAYS.filter((k) => keys.includes(k)).length;
  if (delays !== 0 && delays !== DELAYS.length) return false;
  const n = rec as Record<string, number>;
  const f = (diurnal ? F_DIURNAL : 0) | (n['iv'] !== undefined ? F_IV : 0) | (splits ? F_SPLITS : 0) | (delays ? F_DELAYS : 0)
    | (n['ap'] === n['ep'] ? F_AP_IS_EP : 0) | (n['ah'] === n['eh'] ? F_AH_IS_EH : 0)
    | (n['op'] === 0 && n['oh'] === -1 ? F_NOT_OPEN : 0)
    | (n['rp'] === n['ep'] && n['rh'] === n['eh'] ? F_RECENT_IS_EVIDENCE : 0)
    | (n['lp'] === n['rp'] && n['lh'] === n['rh'] ? F_LAST_IS_RECENT : 0);
  const codes: (number | undefined)[] = [posts(n['ep']!), hours(n['eh']!)];
  if (!(f & F_RECENT_IS_EVIDENCE)) codes.push(posts(n['rp']!), hours(n['rh']!));
  if (!(f & F_LAST_IS_RECENT)) codes.push(posts(n['lp']!), hours(n['lh']!));
  if (!(f & F_AP_IS_EP)) codes.push(posts(n['ap']!));
  // All the hours include the forgotten ones and the open first window: ah ≥ eh, ah ≥ oh.
  if (!(f & F_AH_IS_EH)) codes.push(hours(n['ah']!) === undefined ? undefined : hoursBelow(n['eh']!, n['ah']!));
  if (!(f & F_NOT_OPEN)) codes.push(posts(n['op']!), hoursBelow(n['oh']!, n['ah']!));
  if (f & F_DIURNAL) codes.push(posts(n['dn']!), signed(n['dc']!), signed(n['ds']!));
  if (f & F_IV) codes.push(hours(n['iv']!));
  if (f & F_SPLITS) codes.push(posts(n['ss']!), posts(n['sp']!));
  if (f & F_DELAYS) codes.push(scaled(n['dp']!, DELAYS_SCALE), scaled(n['dh']!, DELAYS_SCALE));
  if (codes.some((c) => c === undefined)) return false;
  w.uint(f);
  for (const c of codes) w.uint(c!);
  return true;
}

export function unpackSchedule(r: Reader): Record<string, number> {
  const f = r.uint();
  const p = (): number => {
    const c = r.uint();
    return c % 2 === 0 ? c / 2 : (c - 1) / 2 / POSTS_SCALE;
  };
  const h = (): number => r.uint() / HOURS_SCALE;
  const s = (): number => {
    const c = r.uint();
    return (c % 2 === 0 ? c / 2 : -(c + 1) / 2) / POSTS_SCALE;
  };
  const ep = p();
  const eh = h();
  const [rp, rh] = f & F_RECENT_IS_EVIDENCE ? [ep, eh] : [p(), h()];
  const [lp, lh] = f & F_LAST_IS_RECENT ? [rp, rh] : [p(), h()];
  const ap = f & F_AP_IS_EP ? ep : p();
  const code = (x: number): number => Math.round(x * HOURS_SCALE);
  const ah = f & F_AH_IS_EH ? eh : (code(eh) + r.uint()) / HOURS_SCALE;
  const [op, oh] = f & F_NOT_OPEN ? [0, -1] : [p(), (code(ah) - r.uint()) / HOURS_SCALE];
  const out: Record<string, number> = { ep, eh, rp, rh, lp, lh, ap, ah, op, oh };
  if (f & F_DIURNAL) Object.assign(out, { dn: p(), dc: s(), ds: s() });
  if (f & F_IV) out['iv'] = h();
  if (f & F_SPLITS) Object.assign(out, { ss: p(), sp: p() });
  if (f & F_DELAYS) Object.assign(out, { dp: r.uint() / DELAYS_SCALE, dh: r.uint() / DELAYS_SCALE });
  return out;
}
