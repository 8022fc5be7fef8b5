const CHINA_OFFSET_MS = 8 * 3600_000;
const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/** China wall-clock fields of an instant. */
function chinaParts(ms: number): { y: number; mo: number; d: number } {
  const d = new Date(ms + CHINA_OFFSET_MS);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth(), d: d.getUTCDate() };
}

function fromChina(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  return Date.UTC(y, mo, d, h, mi, s) - CHINA_OFFSET_MS;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const num2 = (s: string, i: number): number => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;

/**
 * The API's own form with a two-digit day, `Wed Aug 24 22:03:13 +0800 2022` (every post of the
 * current era), read by position instead of by the regex below: the same fields, checked char by
 * char as the regex would. Null for anything else, which goes to the regexes.
 */
function apiDateMs(s: string): number | undefined | null {
  if (s.length !== 30) return null;
  const c = (i: number) => s.charCodeAt(i);
  if (!(isUpper(c(0)) && isLower(c(1)) && isLower(c(2)) && c(3) === 32 && isUpper(c(4)) && isLower(c(5)) && isLower(c(6)) && c(7) === 32)) return null;
  if (!(isDigit(c(8)) && isDigit(c(9)) && c(10) === 32 && isDigit(c(11)) && isDigit(c(12)) && c(13) === 58 && isDigit(c(14)) && isDigit(c(15)) && c(16) === 58)) return null;
  const sign = c(20);
  if (!(isDigit(c(17)) && isDigit(c(18)) && c(19) === 32 && (sign === 43 || sign === 45) && isDigit(c(21)) && isDigit(c(22)) && isDigit(c(23)) && isDigit(c(24)) && c(25) === 32)) return null;
  if (!(isDigit(c(26)) && isDigit(c(27)) && isDigit(c(28)) && isDigit(c(29)))) return null;
  const month = MONTHS[s.slice(4, 7)];
  if (month === undefined) return undefined;
  const offsetMs = (sign === 45 ? -1 : 1) * (num2(s, 21) * 60 + num2(s, 23)) * 60_000;
  return Date.UTC(num2(s, 26) * 100 + num2(s, 28), month, num2(s, 8), num2(s, 11), num2(s, 14), num2(s, 17)) - offsetMs;
}

/** A month-day with a time may lie this far after the response (clock skew) and still be this year. */
const SKEW_MS = 86_400_000;

/**
 * The instant of a month-day (and time) given without a year, in China time: this year, unless
 * that lies in the future of the response (beyond the skew allowed with a time), then last year.
 */
function monthDayMs(responseMs: number, month: number, day: number, time?: [number, number, number]): number {
  const y = chinaParts(responseMs).y;
  const at = time ? fromChina(y, month - 1, day, ...time) : fromChina(y, month - 1, day);
  const limit = time ? responseMs + SKEW_MS : responseMs;
  return at > limit ? (time ? fromChina(y - 1, month - 1, day, ...time) : fromChina(y - 1, month - 1, day)) : at;
}

const hms = (h?: string, mi?: string, sec?: string): [number, number, number] | undefined =>
  h === undefined ? undefined : [Number(h), Number(mi ?? 0), Number(sec ?? 0)];

/**
 * Parses every created_at form the microblog API has used into epoch ms (UTC), relative to the
 * time the response was received: `Wed Aug 24 22:03:13 +0800 2022`, `刚刚`, `N秒前`, `N分钟前`,
 * `N小时前`, `N天前`, `今天 HH:MM`, `昨天 HH:MM`, `MM-DD` and `MM-DD HH:MM` (this year, or last year
 * when that would be in the future), `M月D日 HH:MM`, `YYYY-MM-DD[ HH:MM[:SS]]`, `YYYY年M月D日[ HH:MM]`.
 * Relative and year-less forms are China time. Returns undefined when the form is unknown.
 */
export function parseWeiboDateMs(value: unknown, responseMs: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  const fast = apiDateMs(s);
  if (fast !== null) return fast;
  // Some published captures carry the API form with blanks after the colons (`17: 29: 30`).
  let m = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}):\s*(\d{2}):\s*(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS[m[1]!];
    if (month === undefined) return undefined;
    const offsetMs = (m[6] === '-' ? -1 : 1) * (Number(m[7]) * 60 + Number(m[8])) * 60_000;
    return Date.UTC(Number(m[9]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) - offsetMs;
  }
  if (s === '刚刚') return responseMs;
  if ((m = /^(\d+)\s*秒前$/.exec(s))) return responseMs - Number(m[1]) * 1000;
  if ((m = /^(\d+)\s*分钟前$/.exec(s))) return responseMs - Number(m[1]) * 60_000;
  if ((m = /^(\d+)\s*小时前$/.exec(s))) return responseMs - Number(m[1]) * 3600_000;
  if ((m = /^(\d+)\s*天前$/.exec(s))) return responseMs - Number(m[1]) * 86_400_000;
  const today = chinaParts(responseMs);
  if ((m = /^今天\s*(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s))) return fromChina(today.y, today.mo, today.d, Number(m[1]), Number(m[2]), Number(m[3] ?? 0));
  if ((m = /^昨天\s*(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s))) return fromChina(today.y, today.mo, today.d - 1, Number(m[1]), Number(m[2]), Number(m[3] ?? 0));
  if ((m = /^(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s)) || (m = /^(\d{1,2})月(\d{1,2})日(?:\s*(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s))) {
    return validDay(Number(m[1]), Number(m[2])) ? monthDayMs(responseMs, Number(m[1]), Number(m[2]), hms(m[3], m[4], m[5])) : undefined;
  }
  if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s)) || (m = /^(\d{4})年(\d{1,2})月(\d{1,2})日(?:\s*(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s))) {
    if (!validDay(Number(m[2]), Number(m[3]))) return undefined;
    return fromChina(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  }
  return undefined;
}

/** Month 1–12 and day 1–31: `13-45` is no date (Date.UTC would roll it over silently). */
function validDay(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}
