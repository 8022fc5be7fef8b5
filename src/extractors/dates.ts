/**
 * Dates as pages write them, read to ISO 8601 as precise as the page states them: a day
 * (`2024-03-05`), or a time with the offset the page gives (`2024-03-05T09:30:00-05:00`), or a
 * local time when it gives none. Never read in the zone of the machine running the extractor.
 */

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11,
  dec: 12, december: 12,
};
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '((?:19|20)\\d{2})';
/**
 * Where a year ends: not before another digit, unless inline markup without a space glued the
 * line's next part to it, a time ("November 11, 20228:23 PM ET") or a reading time ("May 2nd 202511 mins").
 */
const YEAR_END = '(?!\\d(?!\\d?[:：]\\d{2}|\\d{0,2}\\s*min))';
/** A time after the date: `10:30`, `10:30 am`, `10:30 a.m. ET`, `at 9:05PM (GMT+8)`. */
const TIME = '(?:\\s*(?:[,|•·@-]|at|um|à)?\\s*(\\d{1,2})[:：](\\d{2})(?:[:：](\\d{2}))?\\s*([ap]\\.?m\\.?)?\\s*\\(?((?:GMT|UTC)\\s*[+-]\\s*\\d{1,2}(?::?\\d{2})?|[A-Z]{2,4}T|ET|Z)?\\)?)?';

/** Zone abbreviations of the dates pages write (US, Europe, Asia). */
const ZONES: Record<string, string> = {
  UTC: 'Z', GMT: 'Z', Z: 'Z', EST: '-05:00', EDT: '-04:00', CST: '-06:00', CDT: '-05:00', MST: '-07:00', MDT: '-06:00',
  PST: '-08:00', PDT: '-07:00', BST: '+01:00', CET: '+01:00', CEST: '+02:00', IST: '+05:30', JST: '+09:00', KST: '+09:00',
  HKT: '+08:00', SGT: '+08:00', AEST: '+10:00', AEDT: '+11:00',
};

interface DatePattern {
  re: RegExp;
  /** Indices of year, month, day in the match; month may be a word. */
  ymd: [number, number, number];
  /** The month is a name (MONTH): a line without a letter that starts one (Chinese, digits) cannot match. */
  named?: true;
}

const PATTERNS: DatePattern[] = [
  // ISO and the numeric forms that start with the year (2024-03-05, 2024/3/5, 2024.03.05), Chinese and Japanese (2024年3月5日).
  { re: new RegExp(`(?<![\\d])${YEAR}\\s*[-/.年]\\s*(\\d{1,2})\\s*[-/.月]\\s*(\\d{1,2})(?![\\d])\\s*[日号號]?(?:T|\\s*)${TIME}`, 'iu'), ymd: [1, 2, 3] },
  // March 5, 2024 / Mar. 5th 2024
  // (also glued to a name before it, as inline markup without spaces renders: "By Ana RuizMar 5, 2025")
  // (and to a name after it: "Dec 17, 2025Julian K. Arni")
  { re: new RegExp(`(?:\\b|(?<=[a-z]))${MONTH}\\s+${DAY},?\\s+${YEAR}${YEAR_END}${TIME}`, 'i'), ymd: [3, 1, 2], named: true },
  // 5 March 2024 / 5th Mar, 2024 / 05-Mar-2024
  { re: new RegExp(`\\b${DAY}(?:\\s+|-)(?:of\\s+)?${MONTH},?(?:\\s+|-)${YEAR}${YEAR_END}${TIME}`, 'i'), ymd: [3, 2, 1], named: true },
];
/** What every pattern's YEAR matches (no line without it holds a date readDate reads). */
const YEAR_RE = /(?:19|20)\d{2}/;
/** The first letters of MONTH's names, either case. */
const MONTH_START_RE = /[adfjmnos]/i;
/** 03/05/2024 or 11-29-2024 (vBulletin): which is the month is decided by the page's locale; 05.03.2024 is day-first. */
const NUMERIC_RE = new RegExp(`(?<![\\d/.-])(\\d{1,2})([/.-])(\\d{1,2})\\2${YEAR}(?![\\d/-])${TIME}`, 'i');

export interface ReadDate {
  /** ISO 8601: the day, or the day and time with the page's offset when it gives one. */
  iso: string;
  /** Where in the text the date starts and ends. */
  index: number;
  end: number;
  /** The other reading of a numeric date whose day and month could each be the month (`02-12-2025`). */
  alt?: string;
}

const p2 = (n: number): string => String(n).padStart(2, '0');

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

function zoneOffset(z: string | undefined): string | undefined {
  if (!z) return undefined;
  const upper = z.replace(/\s+/g, '').toUpperCase();
  if (ZONES[upper]) return ZONES[upper];
  if (upper === 'ET') return undefined; // Eastern, but EST or EDT: the day is what counts
  const m = /^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(upper);
  return m ? `${m[1]}${p2(Number(m[2]))}:${m[3] ?? '00'}` : undefined;
}

/** The ISO string of a day and an optional time read from groups [h, min, s, ampm, zone]. */
function iso(y: number, mo: number, d: number, time: Array<string | undefined>, defaultOffset?: string): string {
  const day = `${y}-${p2(mo)}-${p2(d)}`;
  const [h, min, s, ampm, zone] = time;
  if (h === undefined || min === undefined) return day;
  let hour = Number(h);
  if (hour > 23 || Number(min) > 59) return day;
  if (ampm) {
    const pm = /^p/i.test(ampm);
    if (hour > 12) return day;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  const offset = zoneOffset(zone) ?? defaultOffset ?? '';
  return `${day}T${p2(hour)}:${min}:${s ?? '00'}${offset}`;
}

/**
 * The first date written in `text` (English and Chinese forms, ISO, numeric). `dayFirst`: read
 * 03/05/2024 as 3 May (the page's locale is not US English); a first number above 12 is a day anyway.
 */
export function readDate(text: string, dayFirst = false, defaultOffset?: string): ReadDate | undefined {
  // Every form has a four-digit year of 19xx or 20xx: most lines of a page have none, and this one
  // scan spares them the four patterns (each tried at every position of the line).
  if (!YEAR_RE.test(text)) return undefined;
  let best: ReadDate | undefined;
  const consider = (index: number, end: number, y: number, mo: number, d: number, time: Array<string | undefined>, ambiguous = false): void => {
    if (!validDay(y, mo, d) || (best && best.index <= index)) return;
    best = { iso: iso(y, mo, d, time, defaultOffset), index, end, ...(ambiguous ? { alt: `${y}-${p2(d)}-${p2(mo)}` } : {}) };
  };
  const monthNames = MONTH_START_RE.test(text);
  for (const { re, ymd, named } of PATTERNS) {
    if (named && !monthNames) continue;
    const m = re.exec(text);
    if (!m) continue;
    const month = (s: string): number => (/^\d+$/.test(s) ? Number(s) : MONTHS[s.toLowerCase().replace(/\.$/, '')] ?? 0);
    consider(m.index, m.index + m[0].length, Number(m[ymd[0]]), month(m[ymd[1]]!), Number(m[ymd[2]]), m.slice(ymd.length + 1, ymd.length + 6));
    // A date at the very start is the first: no other form can start before it.
    if (best?.index === 0) return best;
  }
  const n = NUMERIC_RE.exec(text);
  if (n) {
    const [a, b] = [Number(n[1]), Number(n[3])];
    // Dots between the numbers are the day-first writing of Europe and Russia (05.03.2024); US dates use slashes.
    const [mo, d] = a > 12 || ((dayFirst || n[2] === '.') && b <= 12) ? [b, a] : [a, b];
    consider(n.index, n.index + n[0].length, Number(n[4]), mo, d, n.slice(5, 10), a <= 12 && b <= 12 && a !== b);
  }
  return best;
}

const DMY_RE = new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH},?\\s+${YEAR}\\b`, 'gi');
const MDY_RE = new RegExp(`\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+${YEAR}\\b`, 'gi');
const DAY_FIRST_NUMERIC_RE = /(?<![\d/.-])(?:1[3-9]|2\d|3[01])[/.-](?:0?[1-9]|1[0-2])[/.-](?:19|20)\d{2}(?!\d)/;
const MONTH_FIRST_NUMERIC_RE = /(?<![\d/.-])(?:0?[1-9]|1[0-2])[/.-](?:1[3-9]|2\d|3[01])[/.-](?:19|20)\d{2}(?!\d)/;

/**
 * Whether a page whose locale says nothing either way (plain `en`, no `lang`) writes the day
 * first: a numeric date that can only be read day-first (`13/10/2023`), else more dates written
 * "3 October 2023" than "October 3, 2023". What its ambiguous `03/10/2023` means then.
 */
export function writesDayFirst(text: string): boolean {
  const dayFirst = DAY_FIRST_NUMERIC_RE.test(text);
  if (dayFirst !== MONTH_FIRST_NUMERIC_RE.test(text)) return dayFirst;
  const count = (re: RegExp): number => text.match(re)?.length ?? 0;
  return count(DMY_RE) > count(MDY_RE);
}

/** A date in a URL path: /2024/03/05/, /2024-03-05-, /20240305/. */
export function dateInUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0] ?? '';
  const m = /\/((?:19|20)\d{2})[/-](\d{1,2}|[a-z]{3,9})[/-](\d{1,2})(?!\d)/i.exec(path) ?? /\/((?:19|20)\d{2})(\d{2})(\d{2})(?=[/_.-])/.exec(path);
  if (!m) return undefined;
  // The month as a number or a name (`/2023/october/03/`).
  const [y, mo, d] = [Number(m[1]), /^\d+$/.test(m[2]!) ? Number(m[2]) : MONTHS[m[2]!.toLowerCase()] ?? 0, Number(m[3])];
  return validDay(y, mo, d) ? `${y}-${p2(mo)}-${p2(d)}` : undefined;
}

/** A numeric date whose first two numbers could each be the month: `02-12-2025`, `3/5/2024`. */
const AMBIGUOUS_RE = /^(\d{1,2})[-/.](\d{1,2})[-/.]((?:19|20)\d{2})\b/;

/**
 * Both readings of a numeric date whose day and month cannot be told apart (both at most 12),
 * month-first then day-first; undefined for any other string.
 */
export function ambiguousDay(s: string): [string, string] | undefined {
  const m = AMBIGUOUS_RE.exec(s.trim());
  if (!m) return undefined;
  const [a, b, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (a > 12 || b > 12 || a < 1 || b < 1 || a === b) return undefined;
  return [`${y}-${p2(a)}-${p2(b)}`, `${y}-${p2(b)}-${p2(a)}`];
}

/**
 * Publication dates in the data objects of a page's scripts and attributes (a framework's state,
 * a tracking object, a malformed JSON-LD block, JSON kept HTML-escaped in an attribute):
 * `"publishDate":"2025-05-27"`, `datePublished: '2024-02-21 13:00:00'`,
 * `&quot;datePublished&quot;:&quot;2025-11-17T09:00:00-05:00&quot;`; and the attribute a post's
 * element carries when a script renders it (`created-timestamp="2026-03-03T09:47:05+0000"`,
 * `data-published-at="…"`). In page order.
 */
// No optional quote before the key: it captured nothing and made the engine try every position of
// the page; starting at the key lets it skip ahead. The same dates in the same order.
const DATA_DATE_RE = /\b(?:datePublished|publishDate|publishedDate|publishedAt|published_at|publish_date|publication_date|publicationDate|firstPublishedAt|first_published_at|data-published(?:-at)?|data-pubdate|created-timestamp)(?:["']|&quot;)?\s*[:=]\s*(?:["']|&quot;)((?:19|20)\d{2}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)/g;

export function dataObjectDates(source: string, max = 5): string[] {
  const out: string[] = [];
  DATA_DATE_RE.lastIndex = 0;
  for (let m = DATA_DATE_RE.exec(source); m && out.length < max; m = DATA_DATE_RE.exec(source)) out.push(m[1]!.replace(' ', 'T'));
  return out;
}

const DAY_MS = 86_400_000;
/** A timestamp written with an offset other than UTC's. */
const SITE_OFFSET_RE = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?[+-](?!00:?00)\d{2}:?\d{2}$/;

/**
 * The day a `<time>` shows, or its `datetime` where that states the day before or after: the
 * same moment, the text rendered on another clock (the server's UTC, "Jan 15" for
 * `2024-01-14T21:50:50-0500`), the attribute written on the site's own. `shown` is what the
 * text reads as, `stamp` what the attribute (`raw`) reads as.
 */
export function onStampDay(shown: string | undefined, stamp: string | undefined, raw: string | undefined): string | undefined {
  // A stamp in UTC is no site's clock: the text is the day on the site's (a Singapore page's "Apr 18" for `2024-04-17T21:13:04Z`).
  if (shown === undefined || stamp === undefined || stamp.length <= 10 || !SITE_OFFSET_RE.test(raw ?? '')) return shown;
  const gap = Math.abs(Date.parse(shown.slice(0, 10)) - Date.parse(stamp.slice(0, 10)));
  return gap === DAY_MS ? stamp : shown;
}
