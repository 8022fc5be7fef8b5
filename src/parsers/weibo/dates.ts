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

/**
 * Parses every created_at form the microblog API has used into epoch ms (UTC), relative to the
 * time the response was received: `Wed Aug 24 22:03:13 +0800 2022`, `刚刚`, `N秒前`, `N分钟前`,
 * `N小时前`, `今天 HH:MM`, `昨天 HH:MM`, `MM-DD` (this year), `YYYY-MM-DD`. Relative forms are China
 * time. Returns undefined when the form is unknown.
 */
export function parseWeiboDateMs(value: unknown, responseMs: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
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
