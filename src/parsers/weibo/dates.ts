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

/**
 * Parses every created_at form the microblog API has used into epoch ms (UTC), relative to the
 * time the response was received: `Wed Aug 24 22:03:13 +0800 2022`, `刚刚`, `N秒前`, `N分钟前`,
 * `N小时前`, `今天 HH:MM`, `昨天 HH:MM`, `MM-DD` (this year), `YYYY-MM-DD`. Relative forms are China
 * time. Returns undefined when the form is unknown.
 */
export function parseWeiboDateMs(value: unknown, responseMs: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  const fast = apiDateMs(s);
  if (fast !== null) return fast;
  let m = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/.exec(s);
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
  const today = chinaParts(responseMs);
  if ((m = /^今天\s*(\d{1,2}):(\d{2})$/.exec(s))) return fromChina(today.y, today.mo, today.d, Number(m[1]), Number(m[2]));
  if ((m = /^昨天\s*(\d{1,2}):(\d{2})$/.exec(s))) return fromChina(today.y, today.mo, today.d - 1, Number(m[1]), Number(m[2]));
  if ((m = /^(\d{1,2})-(\d{1,2})$/.exec(s))) {
    const at = fromChina(today.y, Number(m[1]) - 1, Number(m[2]));
    // A month-day later than today belongs to last year.
    return at > responseMs ? fromChina(today.y - 1, Number(m[1]) - 1, Number(m[2])) : at;
  }
  if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s))) {
    return fromChina(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  }
  return undefined;
}
