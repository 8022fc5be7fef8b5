/** Dates and counts the way the microblog site writes them (China time, +0800). */

const CHINA_OFFSET_MS = 8 * 3_600_000;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** `Wed Aug 24 22:03:13 +0800 2022` (the format since 2021). */
export function absoluteDate(ms: number): string {
  const d = new Date(ms + CHINA_OFFSET_MS);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0800 ${d.getUTCFullYear()}`;
}

function chinaDayNumber(ms: number): number {
  return Math.floor((ms + CHINA_OFFSET_MS) / 86_400_000);
}

/**
 * The relative strings of the pre-2021 era, computed against the server's now:
 * 刚刚, N分钟前, N小时前 (same day, under 6 h), 今天 HH:MM, 昨天 HH:MM, MM-DD (this year), YYYY-MM-DD.
 */
export function relativeDate(ms: number, nowMs: number): string {
  const diff = nowMs - ms;
  if (diff < 60_000) return '刚刚';
  if (diff < 3_600_000) return `${Math.floor(diff / 60_000)}分钟前`;
  const d = new Date(ms + CHINA_OFFSET_MS);
  const hm = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  const dayDiff = chinaDayNumber(nowMs) - chinaDayNumber(ms);
  if (dayDiff === 0) return diff < 6 * 3_600_000 ? `${Math.floor(diff / 3_600_000)}小时前` : `今天 ${hm}`;
  if (dayDiff === 1) return `昨天 ${hm}`;
  const now = new Date(nowMs + CHINA_OFFSET_MS);
  const md = `${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
  return now.getUTCFullYear() === d.getUTCFullYear() ? md : `${d.getUTCFullYear()}-${md}`;
}

/** `43.4万`, `1.2亿`: one decimal, trailing .0 dropped. Counts under 10,000 stay as digits. */
export function countString(n: number): string {
  if (n >= 100_000_000) return `${trim1(n / 100_000_000)}亿`;
  if (n >= 10_000) return `${trim1(n / 10_000)}万`;
  return String(n);
}

function trim1(x: number): string {
  const s = (Math.floor(x * 10) / 10).toFixed(1);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** Counts as the modern site sends them: an int below 10,000, a string such as "43.4万" above. */
export function modernCount(n: number): number | string {
  return n >= 10_000 ? countString(n) : n;
}

/** Counts as the 2019 site sends them: ints, except "100万+" beyond a million. */
export function classicCount(n: number): number | string {
  return n >= 1_000_000 ? '100万+' : n;
}
