import type { Byline } from './bylines';
import { ambiguousDay, dataObjectDates, dateInUrl, readDate } from './dates';
import { elementsOf, type Page } from './page-elements';

/**
 * When a page was published and last changed: its metadata (JSON-LD, meta tags, `<time>`), the
 * dateline it shows, its URL and its script data, reconciled (publication dates of metadata.ts's
 * page elements; split out of metadata.ts, which keeps titles, authors and the language).
 */
const ZH_DATE_RE = /((?:19|20)\d{2})\s*[年\-/.]\s*(\d{1,2})\s*[月\-/.]\s*(\d{1,2})\s*日?(?:\s*(\d{1,2})[:：](\d{2})(?:[:：](\d{2}))?)?/;

const HAS_ZONE_RE = /(?:Z|[+-]\d{2}:?\d{2}|\b(?:GMT|UTC))\s*$/i;

/**
 * ISO 8601 from a date string. A time written without a zone stays local (no offset) unless
 * `utcOffset` (`+08:00`, `Z`) says which zone the site writes in; free-form dates are read as
 * UTC then, never in the zone of the machine running the extractor.
 */
export function normalizeDate(s: string, utcOffset?: string): string | undefined {
  const t = s.trim();
  const zone = HAS_ZONE_RE.test(t) ? '' : (utcOffset ?? '');
  if (/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.test(t)) {
    return t.length > 10 ? `${t.replace(' ', 'T')}${zone}` : t;
  }
  const m = ZH_DATE_RE.exec(t);
  if (m) {
    const p2 = (x: string | undefined): string => (x ?? '0').padStart(2, '0');
    const date = `${m[1]}-${p2(m[2])}-${p2(m[3])}`;
    return m[4] ? `${date}T${p2(m[4])}:${p2(m[5])}:${p2(m[6])}${zone}` : date;
  }
  const read = readDate(t, false, utcOffset);
  if (read) return read.iso;
  // Without a year ("Aug 15", a template's short datetime) Date.parse makes up 2001.
  if (!/\b(?:1[89]|20)\d{2}\b/.test(t)) return undefined;
  const gmt = HAS_ZONE_RE.test(t) ? '' : ` GMT${(utcOffset ?? 'Z') === 'Z' ? '' : utcOffset!.replace(':', '')}`;
  const d = Date.parse(`${t.replace(/(\d)(am|pm)\b/i, '$1 $2')}${gmt}`);
  return Number.isFinite(d) ? new Date(d).toISOString() : undefined;
}

/** Dates the page's metadata states for one field, in order of trust. */
const PUBLISHED_KEYS = ['article:published_time', 'datepublished', 'pubdate', 'publishdate', 'publish-date', 'parsely-pub-date', 'og:published_time', 'date', 'dc.date', 'dc.date.issued', 'dcterms.created', 'sailthru.date', 'published', 'publish_date', 'publication_date', 'release_date',
  // Less common vocabularies, after the ones above: Cxense, Open Graph variants, news CMSs' own.
  'article_date_original', 'cxenseparse:publishtime', 'publish_time', 'og:datepublished', 'og:publication_time', 'article.published', 'date-pub'];
const MODIFIED_KEYS = ['article:modified_time', 'og:updated_time', 'datemodified', 'last-modified', 'dcterms.modified'];

/**
 * The publication dates the page's `<meta>` tags state (Open Graph, Dublin Core, microdata…), in
 * order of trust, without its JSON-LD. A lone microdata `<meta itemprop="datePublished">` is left
 * out with the JSON-LD: it is the same schema.org article record in another syntax. Several are a
 * thread's posts, each dated (the first is the thread's start).
 */
function taggedDates(page: Page, meta: Map<string, string>): string[] {
  const metas = elementsOf(page).metas;
  const loneSchema = metas.filter((m) => m.attribs.itemprop?.toLowerCase() === 'datepublished').length === 1
    && !metas.some((m) => (m.attribs.property ?? m.attribs.name)?.toLowerCase() === 'datepublished');
  return PUBLISHED_KEYS.filter((k) => !(loneSchema && k === 'datepublished')).map((k) => meta.get(k)).filter((v): v is string => v !== undefined)
    .map((v) => normalizeDate(v)).filter((d): d is string => d !== undefined);
}

function metaDates(page: Page, meta: Map<string, string>, ld: Array<Record<string, unknown>>, field: 'published' | 'modified'): string[] {
  const keys = field === 'published' ? PUBLISHED_KEYS : MODIFIED_KEYS;
  const ldKey = field === 'published' ? 'datePublished' : 'dateModified';
  const found: string[] = [];
  // A <time pubdate> marks the date the article itself shows as its publication's; JSON-LD and
  // meta tags are often the CMS's last save (a datePublished equal to dateModified to the second).
  const pubdate = field === 'published' ? elementsOf(page).pubdate : undefined;
  if (pubdate) found.push(pubdate);
  for (const o of ld) if (typeof o[ldKey] === 'string') found.push(o[ldKey] as string);
  for (const k of keys) {
    const v = meta.get(k);
    if (v) found.push(v);
  }
  if (field === 'published') {
    const els = elementsOf(page);
    const time = els.time?.attribs.datetime;
    if (time) found.push(timeDay(time, els.times) ?? time);
    else if (els.titleTime) found.push(els.titleTime);
    // Last: a site's own meta name for the date (`w-published-date`, `ms.date`, `article.date`).
    for (const [k, v] of meta) if (SITE_DATE_KEY_RE.test(k) && !OTHER_DATE_KEY_RE.test(k)) found.push(v);
  }
  return found.map((c) => normalizeDate(c)).filter((d): d is string => d !== undefined);
}

const OTHER_DATE_KEY_RE = /modif|updat|revis|expir|review|event|start|end|birth|release/;
const SITE_DATE_KEY_RE = /^[\w.:-]*(?:[._:-](?:date|published[-_]?date|publish[-_]?date|pub[-_]?date)|published[-_]?date)$/;

/**
 * The day of a `<time datetime>` written as an ambiguous numeric date (`02-12-2025`): the
 * reading another `<time>` of the page states unambiguously (its dateline beside a list of
 * dated entries), else undefined (read as written).
 */
function timeDay(value: string, times: string[]): string | undefined {
  const readings = ambiguousDay(value);
  if (!readings) return undefined;
  const days = new Set(times.map((t) => /^\d{4}-\d{2}-\d{2}/.exec(t)?.[0]).filter((d) => d !== undefined));
  return readings.find((r) => days.has(r));
}

const dayOf = (iso: string): string => iso.slice(0, 10);

/** How far from the headline (in lines, those above counting triple) a shown date outranks the metadata. */
const NEAR_LINES = 10;
/** How much farther than the nearest date a labelled publication date may stand and still win. */
const LABEL_SLACK_LINES = 3;

const ZONED_RE = /(?:Z|[+-]\d{2}:?\d{2})$/;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function offsetOf(ms: number): string {
  if (ms === 0) return 'Z';
  const m = Math.abs(ms) / MINUTE_MS;
  return `${ms < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** A stamp written in UTC (`Z`, `+00:00`): its day may be the next one on the clock of a page in the Americas. */
const UTC_STAMP_RE = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]00:?00)$/;
/** How far local clocks stand behind UTC. */
const MAX_BEHIND_MS = 12 * 3_600_000;
/** How far local clocks stand ahead of UTC. */
const MAX_AHEAD_MS = 14 * 3_600_000;

/**
 * Whether a metadata stamp is the moment or the day the page shows, written on the next day: a
 * shown time the same instant as the stamp (a `<time>` on the site's clock, the stamp in UTC),
 * or a shown day on which a UTC stamp of the next day falls on a clock behind UTC
 * (December 9 shown, `2021-12-10T02:17:00Z` stamped, the evening of the 9th in America). The
 * metadata's writing is kept then: what the publisher's feeds and the benchmark's truth state.
 */
function sameMomentStamp(shown: string, m: string): boolean {
  // Only a clock behind UTC (the stamp's day after the shown one): a stamp of the evening before
  // the shown day is the shown day in Asia, whose pages count their own day (2024-03-05 shown
  // beside 2024-03-04T19:00Z).
  if (dayOf(m) <= dayOf(shown) || m.length <= 10 || !ZONED_RE.test(m)) return false;
  if (shown.length > 10) return ZONED_RE.test(shown) && Date.parse(m) === Date.parse(shown);
  const dayStart = Date.parse(`${shown}T00:00:00Z`);
  const t = Date.parse(m);
  return UTC_STAMP_RE.test(m) && t >= dayStart + DAY_MS && t < dayStart + DAY_MS + MAX_BEHIND_MS;
}

/**
 * The shown date made exact with a metadata stamp of the same moment. A shown time without a zone
 * ("2024-03-05 03:00", Beijing time) and a zoned stamp of the same minute ("2024-03-04T19:00:00Z")
 * give the shown wall clock with the offset between them ("2024-03-05T03:00:00+08:00"): the
 * instant is exact (to the metadata's second) and the day stays the page's. A shown day takes a
 * stamp written on that day, a publication stamp before a change's (`modified`), and the
 * publication stamp of its moment written on another day (sameMomentStamp).
 */
function sharpen(shown: string, published: string[], modified: string[] = [], urlDay?: string): string {
  const day = dayOf(shown);
  // A URL dated the shown day (`/2025/12/18/`) says the site's own clock counts that day.
  const otherClock = (m: string): boolean => urlDay !== day && sameMomentStamp(shown, m);
  if (shown.length > 10 && ZONED_RE.test(shown)) return published.find(otherClock) ?? shown;
  const metadata = [...published, ...modified];
  if (shown.length > 10) {
    const wall = Math.floor(Date.parse(`${shown}Z`) / MINUTE_MS) * MINUTE_MS;
    for (const m of metadata) {
      if (m.length <= 10 || !ZONED_RE.test(m)) continue;
      const instant = Date.parse(m);
      const off = wall - Math.floor(instant / MINUTE_MS) * MINUTE_MS;
      if (Number.isFinite(off) && Math.abs(off) <= 14 * 3_600_000 && off % (15 * MINUTE_MS) === 0) {
        // The metadata's instant (to the second) on the page's wall clock.
        return `${new Date(instant + off).toISOString().slice(0, 19)}${offsetOf(off)}`;
      }
    }
    return shown;
  }
  // The most trusted publication stamp of the shown day, on whichever clock it is written.
  return published.find((m) => (dayOf(m) === day && m.length > shown.length) || otherClock(m))
    ?? modified.find((m) => dayOf(m) === day && m.length > shown.length) ?? shown;
}

/**
 * Whether a time the page shows is the metadata's publication stamp on another clock (a whole number of
 * quarter hours apart, at most 14 h; a stamp without a zone read as UTC): the metadata then
 * vouches for it however far from the headline it stands (a forum's first post below toolbars).
 */
function sameMoment(shown: string, metadata: string[]): boolean {
  if (shown.length <= 10 || ZONED_RE.test(shown)) return false;
  const wall = Math.floor(Date.parse(`${shown}Z`) / MINUTE_MS) * MINUTE_MS;
  return metadata.some((m) => {
    if (m.length <= 10) return false;
    const off = wall - Math.floor(Date.parse(ZONED_RE.test(m) ? m : `${m}Z`) / MINUTE_MS) * MINUTE_MS;
    return Number.isFinite(off) && Math.abs(off) <= 14 * 3_600_000 && off % (15 * MINUTE_MS) === 0;
  });
}

/**
 * Whether a shown date not labelled as the publication's is a later day than the publication
 * date the metadata states: the page then shows when it was updated or last replied to (an
 * "Updated" line, a forum thread's latest post, a review's re-check) while the metadata keeps
 * when it first appeared. Unlabelled, a day apart counts only where the metadata's own offset is
 * stated (a UTC stamp of the evening before is the next day in Asia); labelled "Updated", any
 * later day is the change's.
 */
function laterThan(shown: { iso: string; label: string }, meta: string): boolean {
  if (shown.label === 'updated') return dayOf(shown.iso) > dayOf(meta);
  if (shown.label !== 'none') return false;
  const gap = Date.parse(dayOf(shown.iso)) - Date.parse(dayOf(meta));
  if (!Number.isFinite(gap)) return false;
  const utc = meta.length <= 10 || /(?:Z|[+-]00:?00)$/.test(meta);
  return gap > (utc ? DAY_MS : 0);
}

/**
 * Whether an unlabelled dateline later than the tagged publication date is the template's own
 * publication date rather than a change's: it is marked up as a `<time datetime>` (the dateline
 * the template renders, not a date in the text), and the metadata states a change on another
 * day. A dateline that shows the change is the change's day; one beside a change stamp of
 * another day is the date the page was (re)published under, a tag kept from a first import
 * (article:published_time of 2013 over a `<time>` of 2023 and a dateModified of 2026).
 */
function markedPublication(shown: { iso: string; label: string }, times: string[], modified: string[]): boolean {
  const day = dayOf(shown.iso);
  return shown.label === 'none' && modified.length > 0 && !modified.some((m) => dayOf(m) === day)
    && times.some((t) => t.startsWith(day));
}

/**
 * The date near the headline on the day the metadata's first publication date states, when the
 * nearest one is another day: the page shows its date beside others (a poster's join date, a
 * teaser's, a date its text quotes) and the metadata says which is the page's own. An "Updated"
 * date is the change's whatever its day.
 */
function metadataShown(dates: NonNullable<Byline['dates']>, first: string | undefined): Byline['dates'][number] | undefined {
  if (first === undefined || dates.length < 2) return undefined;
  const days = clockDays(first);
  // A UTC stamp's day is another one on a clock ahead of or behind UTC: the nearest date is the
  // page's own when it is the stamp's day on any clock (a Beijing page's day beside a UTC stamp).
  if (days.has(dayOf(dates[0]!.iso))) return undefined;
  return dates.find((d) => d.distance <= NEAR_LINES && d.label !== 'updated' && days.has(dayOf(d.iso)));
}

/**
 * The days a UTC stamp falls on from the clocks behind UTC to those ahead. A stamp written with
 * its own offset states the site's clock, and one without a zone its day: their own day only.
 */
function clockDays(stamp: string): Set<string> {
  const t = Date.parse(stamp);
  if (!UTC_STAMP_RE.test(stamp) || !Number.isFinite(t)) return new Set([dayOf(stamp)]);
  return new Set([-MAX_BEHIND_MS, 0, MAX_AHEAD_MS].map((off) => new Date(t + off).toISOString().slice(0, 10)));
}

/**
 * When the page was published: the date its dateline shows near the headline (what readers
 * are told), made precise with a metadata timestamp of that day; else the metadata
 * (JSON-LD, article:published_time, …, the first <time datetime>); else a date in the URL;
 * else a publication date in the page's script data (`source`, the raw HTML); else the first
 * date in the text.
 */
export function findPublished(
  page: Page, meta: Map<string, string>, ld: Array<Record<string, unknown>>, bodyText: string, byline?: Byline, url?: string, source?: string,
  labelled?: () => string | undefined,
): string | undefined {
  const published = metaDates(page, meta, ld, 'published');
  // A date labelled as the publication's wins over a nearer unlabelled one only when it stands
  // beside it (the same dateline block): farther down it is a teaser's or a comment's.
  const original = byline?.dates.find((d) => d.label === 'original');
  if (original) return sharpen(original.iso, published);
  // Without a publication date in the metadata to say which shown date is the page's, a change's
  // date near the headline (an "Updated" line, a thread's "last post by") gives way to another
  // date shown beside it. (Where the metadata states one, the rules below weigh the nearest date,
  // "Updated" or not, against it.)
  const tags = taggedDates(page, meta);
  const stated = tags.length > 0 || ld.some((o) => typeof o.datePublished === 'string');
  const own = stated ? undefined : byline?.dates.find((d) => d.label !== 'updated' && d.distance <= NEAR_LINES);
  const nearest = own ?? byline?.dates[0];
  const read = byline?.dates.find((d) => d.label === 'published' && d.distance <= NEAR_LINES && d.distance <= nearest!.distance + LABEL_SLACK_LINES)
    ?? metadataShown(byline?.dates ?? [], published[0]) ?? nearest;
  // A numeric date that reads either way ("02-12-2025") is the reading the metadata or the URL states.
  const urlDay = dateInUrl(url);
  const shown = read?.alt !== undefined && (read.alt === urlDay || published.some((p) => dayOf(p) === read.alt)) ? { ...read, iso: read.alt } : read;
  // A dateline later than the publication date the page's <meta> tags state shows when the page
  // was updated, labelled so or not (a guide re-checked, a thread's latest post): the tags keep its
  // first publication, and the metadata's earliest trusted date before the dateline's day is it.
  // A JSON-LD datePublished alone does not overrule the dateline: on the tuned pages a later
  // dateline beside it was what the page called its date more often than not (a template's
  // structured data keeps a first import's date while the dateline follows the revisions).
  const tagged = tags[0];
  const modified = metaDates(page, meta, ld, 'modified');
  const updated = shown !== undefined && tagged !== undefined && laterThan(shown, tagged) && !markedPublication(shown, elementsOf(page).times, modified);
  if (shown && updated) return published.find((p) => dayOf(p) < dayOf(shown.iso)) ?? tagged;
  // A date shown far from the headline may be a teaser's or a comment's: the metadata wins then.
  if (shown && (shown.distance <= NEAR_LINES || published.length === 0 || sameMoment(shown.iso, published.slice(0, 1)))) {
    return sharpen(shown.iso, published, modified, urlDay);
  }
  if (published.length) return published[0];
  if (urlDay) return urlDay;
  const fromData = source === undefined ? undefined : dataObjectDates(source, 1)[0];
  if (fromData) return normalizeDate(fromData);
  // A date labelled as the publication's anywhere ("Posted on April 13, 2023" at the foot)
  // before the first date of the text, which may be anything the article mentions.
  const fromLabel = labelled?.();
  if (fromLabel) return fromLabel;
  // An element the template names for the date, outside the lines read (an article's own <footer>);
  // not an "Updated" one, and a numeric date that reads either way is left to the text.
  const dateEl = elementsOf(page).dateText;
  const fromEl = dateEl === undefined || /\b(?:updated|modified|revised)\b/i.test(dateEl) ? undefined : readDate(dateEl);
  if (fromEl && fromEl.alt === undefined) return fromEl.iso;
  const m = ZH_DATE_RE.exec(bodyText);
  return m ? normalizeDate(m[0]) : undefined;
}

/** When the page says it was last changed: its metadata, else an "Updated" dateline. */
export function findModified(page: Page, meta: Map<string, string>, ld: Array<Record<string, unknown>>, byline?: Byline): string | undefined {
  const modified = metaDates(page, meta, ld, 'modified');
  if (modified.length) return modified[0];
  const shown = byline?.dates.find((d) => d.label === 'updated');
  return shown?.iso;
}
