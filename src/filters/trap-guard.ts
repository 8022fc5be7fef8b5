import { z } from 'zod';

/**
 * Crawler-trap guards for discovered URLs (after canonicalisation), after Heritrix's decide rules
 * (TooManyPathSegments, PathologicalPath, TooLongUrl) plus what crawling news and forums needs:
 * bounded query variants per path, a calendar guard, and a page budget per host. Each refusal
 * has a reason, for the drop counter. State is per process and bounded (least recently used
 * paths are forgotten first); a URL admitted once is admitted again.
 *
 * Per process on purpose, not shared through Redis: the guards judge every link of every page
 * (dozens a page) synchronously on the parse path, where a round trip per page would cost more
 * than it saves, and what they bound is a trap's growth, not an exact count. With W workers a
 * trap admits at most W times one process's allowance (W × 5 dates of a calendar pattern, W × 4
 * parameter-name sets of a path), still a constant; the frontier's dedup keeps each URL fetched
 * once whichever worker admitted it; the shape guards (length, depth, repeats, parameters) need
 * no state at all. A restart starts the counts again, once more per restart.
 */
export const trapGuardSchema = z.strictObject({
  max_url_length: z.number().int().min(16).default(2048),
  /** Path segments (`/a/b/c` has 3). */
  max_path_segments: z.number().int().min(1).default(16),
  /** A segment, or a run of up to four, repeated back to back more often than this is a loop (`/news/news/news/`, `/a/b/a/b/a/b/`). */
  max_segment_repeats: z.number().int().min(1).default(2),
  max_query_params: z.number().int().min(0).default(8),
  /** Distinct queries per host and path (pagination of a thread list, topic ids of viewtopic.php …). */
  max_query_variants_per_path: z.number().int().min(1).default(100_000),
  /**
   * Distinct sets of parameter names per path (per value of its router parameters): faceted
   * navigation combines names without end, a listing has a few shapes (bare, paged, one filter).
   */
  max_query_name_sets_per_path: z.number().int().min(1).default(4),
  /** Parameters that choose what a script shows (`forum.php?mod=viewthread`): each value counts as a path of its own. */
  router_params: z.array(z.string().min(1)).default(['mod', 'action', 'act', 'do', 'op', 'module', 'controller', 'route']),
  /** Pages (distinct URLs) admitted per host. */
  max_pages_per_host: z.number().int().min(1).default(1_000_000),
  /** Calendar pages (a URL that ends in a date): dates further than this in the past are refused. */
  calendar_past_days: z.number().int().min(0).default(366),
  /** … and further than this in the future. */
  calendar_future_days: z.number().int().min(0).default(1),
  /**
   * Distinct dates per calendar pattern (the URL with its date taken out): enough to find an
   * archive's recent days; a monitor reaches articles through listings, feeds and sitemaps.
   */
  calendar_max_dates_per_pattern: z.number().int().min(1).default(5),
  /** Paths and patterns remembered (bounds memory). */
  tracked_paths: z.number().int().min(100).default(100_000),
});

export type TrapGuardConfig = z.infer<typeof trapGuardSchema>;
export const DEFAULT_TRAP_GUARD: TrapGuardConfig = trapGuardSchema.parse({});

export type TrapRefusal =
  | 'url_too_long' | 'path_too_deep' | 'repeated_segment' | 'too_many_query_params' | 'query_variants'
  | 'query_name_sets' | 'host_page_limit' | 'calendar_out_of_window' | 'calendar_dates';

const DAY_MS = 86_400_000;

/** A least-recently-used map of bounded size. */
class Lru<K, V> {
  private readonly m = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(k: K): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: K, v: V): void {
    this.m.delete(k);
    if (this.m.size >= this.max) this.m.delete(this.m.keys().next().value!);
    this.m.set(k, v);
  }
}

const hash32 = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

/** A date a calendar URL ends in: `/2026/11/`, `/2026/11/23/`, `/2026-11-23`, `?date=2026-11-23`, `?year=2026&month=11`. */
export interface CalendarDate {
  /** The URL with the date taken out: what stays the same from one calendar page to the next. */
  pattern: string;
  fromMs: number;
  toMs: number;
  key: string;
}

const validYmd = (y: number, m: number, d: number | undefined): boolean => y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && (d === undefined || (d >= 1 && d <= 31));

function span(y: number, m: number, d: number | undefined): { fromMs: number; toMs: number; key: string } {
  const fromMs = Date.UTC(y, m - 1, d ?? 1);
  const toMs = d === undefined ? Date.UTC(y, m, 1) : fromMs + DAY_MS;
  return { fromMs, toMs, key: `${y}-${m}-${d ?? ''}` };
}

export function calendarDate(url: URL): CalendarDate | undefined {
  const path = url.pathname;
  const names = [...url.searchParams.keys()].sort().join('&');
  const m = /^(.*?)\/(\d{4})\/(\d{1,2})(?:\/(\d{1,2}))?\/?(?:index\.\w+)?$/.exec(path)
    ?? /^(.*?)\/(\d{4})-(\d{2})(?:-(\d{2}))?\/?(?:\.html?)?$/.exec(path);
  if (m) {
    const [y, mo, d] = [Number(m[2]), Number(m[3]), m[4] === undefined ? undefined : Number(m[4])];
    if (validYmd(y, mo, d)) return { pattern: `${url.host}${m[1]}/{date}${d === undefined ? 'm' : 'd'}?${names}`, ...span(y, mo, d) };
  }
  for (const [k, v] of url.searchParams) {
    const q = /^(\d{4})-?(\d{2})(?:-?(\d{2}))?$/.exec(v);
    if (q && /date|day|month|cal|time/i.test(k)) {
      const [y, mo, d] = [Number(q[1]), Number(q[2]), q[3] === undefined ? undefined : Number(q[3])];
      if (validYmd(y, mo, d)) return { pattern: `${url.host}${path}?${names}`, ...span(y, mo, d) };
    }
  }
  const y = Number(url.searchParams.get('year'));
  const mo = Number(url.searchParams.get('month'));
  const dayParam = url.searchParams.get('day');
  const d = dayParam === null ? undefined : Number(dayParam);
  if (url.searchParams.has('year') && url.searchParams.has('month') && validYmd(y, mo, d)) return { pattern: `${url.host}${path}?${names}`, ...span(y, mo, d) };
  return undefined;
}

/** Whether a run of 1–4 segments repeats back to back more than `max` times (Heritrix's PathologicalPath, by segments). */
export function repeatsBeyond(segments: readonly string[], max: number): boolean {
  for (let k = 1; k <= 4; k++) {
    for (let i = 0; i + k * (max + 1) <= segments.length; i++) {
      let reps = 1;
      for (let j = i + k; j + k <= segments.length; j += k) {
        let same = true;
        for (let x = 0; x < k && same; x++) same = segments[j + x] === segments[i + x];
        if (!same) break;
        reps += 1;
      }
      if (reps > max) return true;
    }
  }
  return false;
}

interface PathState {
  variants: Set<number>;
  nameSets: Set<number>;
}

export class TrapGuard {
  private readonly paths: Lru<string, PathState>;
  private readonly calendars: Lru<string, Set<string>>;
  private readonly hosts = new Map<string, number>();
  readonly refusals = new Map<TrapRefusal, number>();

  constructor(readonly config: TrapGuardConfig, private readonly nowMs: () => number) {
    this.paths = new Lru(config.tracked_paths);
    this.calendars = new Lru(config.tracked_paths);
  }

  /** Admits a canonical URL (null) or says why not; what it admits counts against the limits. */
  check(canonicalUrl: string): TrapRefusal | null {
    const r = this.decide(canonicalUrl);
    if (r !== null) this.refusals.set(r, (this.refusals.get(r) ?? 0) + 1);
    return r;
  }

  private decide(canonicalUrl: string): TrapRefusal | null {
    const c = this.config;
    if (canonicalUrl.length > c.max_url_length) return 'url_too_long';
    let url: URL;
    try {
      url = new URL(canonicalUrl);
    } catch {
      return 'url_too_long';
    }
    const segments = url.pathname.split('/').filter((s) => s !== '');
    if (segments.length > c.max_path_segments) return 'path_too_deep';
    if (repeatsBeyond(segments, c.max_segment_repeats)) return 'repeated_segment';
    const names = [...url.searchParams.keys()];
    if (names.length > c.max_query_params) return 'too_many_query_params';

    const cal = calendarDate(url);
    if (cal) {
      const now = this.nowMs();
      if (cal.toMs <= now - c.calendar_past_days * DAY_MS || cal.fromMs > now + c.calendar_future_days * DAY_MS) return 'calendar_out_of_window';
      let dates = this.calendars.get(cal.pattern);
      if (!dates) {
        dates = new Set();
        this.calendars.set(cal.pattern, dates);
      }
      if (!dates.has(cal.key)) {
        if (dates.size >= c.calendar_max_dates_per_pattern) return 'calendar_dates';
        dates.add(cal.key);
      }
    }

    const routers = c.router_params.filter((r) => url.searchParams.has(r)).map((r) => `${r}=${url.searchParams.get(r)}`).join('&');
    const pathKey = `${url.host}${url.pathname}${routers === '' ? '' : `?${routers}`}`;
    let st = this.paths.get(pathKey);
    const isNewPath = st === undefined;
    if (!st) st = { variants: new Set(), nameSets: new Set() };
    const variant = hash32(url.search);
    if (st.variants.has(variant)) return null;
    const nameSet = hash32([...new Set(names)].sort().join('&'));
    if (!st.nameSets.has(nameSet) && st.nameSets.size >= c.max_query_name_sets_per_path) return 'query_name_sets';
    if (st.variants.size >= c.max_query_variants_per_path) return 'query_variants';
    const pages = this.hosts.get(url.host) ?? 0;
    if (pages >= c.max_pages_per_host) return 'host_page_limit';
    st.nameSets.add(nameSet);
    st.variants.add(variant);
    if (isNewPath) this.paths.set(pathKey, st);
    this.hosts.set(url.host, pages + 1);
    return null;
  }
}
