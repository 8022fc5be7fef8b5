const CHINA_OFFSET_MS = 8 * 3_600_000;

/** Discuz absolute time: `2019-3-1 10:00` (China time, no zero padding on month and day). */
export function discuzDate(ms: number, withSeconds = false): string {
  const d = new Date(ms + CHINA_OFFSET_MS);
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  const s = withSeconds ? `:${String(d.getUTCSeconds()).padStart(2, '0')}` : '';
  return `${d.getUTCFullYear()}-${d.getUTCMonth() + 1}-${d.getUTCDate()} ${hm}${s}`;
}

/** Discuz shows posts of the last week as `<span title="absolute">N 天前</span>`. */
export function discuzPostedHtml(ms: number, nowMs: number): string {
  return `发表于 ${discuzTimeHtml(ms, nowMs)}`;
}

/** A Discuz time: relative with the absolute time in the title within a week, absolute after. */
export function discuzTimeHtml(ms: number, nowMs: number): string {
  const diff = nowMs - ms;
  const rel = diff < 3_600_000 ? `${Math.max(1, Math.floor(diff / 60_000))} 分钟前`
    : diff < 86_400_000 ? `${Math.floor(diff / 3_600_000)} 小时前`
      : diff < 7 * 86_400_000 ? `${Math.floor(diff / 86_400_000)} 天前` : null;
  return rel ? `<span title="${discuzDate(ms, true)}">${rel}</span>` : discuzDate(ms);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** phpBB: `<time datetime="2026-03-05T20:27:24+00:00">Thu Mar 05, 2026 8:27 pm</time>` (board time zone UTC). */
export function phpbbTimeHtml(ms: number): string {
  const d = new Date(ms);
  const iso = d.toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const h = d.getUTCHours();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const text = `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, '0')}, ${d.getUTCFullYear()} ${h12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'am' : 'pm'}`;
  return `<time datetime="${iso}">${text}</time>`;
}
