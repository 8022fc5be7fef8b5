import { calendarDate, DEFAULT_TRAP_GUARD, repeatsBeyond, TrapGuard, trapGuardSchema, type TrapGuardConfig } from '../../../src/filters/trap-guard';

const NOW = Date.UTC(2026, 10, 21);
const guard = (over: Partial<TrapGuardConfig> = {}): TrapGuard => new TrapGuard({ ...DEFAULT_TRAP_GUARD, ...over }, () => NOW);

describe('trap guard', () => {
  it('refuses long URLs, deep paths and paths that repeat themselves', () => {
    const g = guard({ max_url_length: 60, max_path_segments: 4 });
    expect(g.check(`http://example.com/${'x'.repeat(60)}`)).toBe('url_too_long');
    expect(g.check('http://example.com/a/b/c/d/e')).toBe('path_too_deep');
    expect(guard().check('http://example.com/news/news/news/')).toBe('repeated_segment');
    expect(guard().check('http://example.com/news/news/')).toBeNull();
    expect(guard().check('http://example.com/a/b/a/b/a/b/')).toBe('repeated_segment');
    // Numbers that recur, but not back to back, are not a loop.
    expect(guard().check('http://example.com/board/1/topic/1/page/1')).toBeNull();
    expect(repeatsBeyond(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c'], 2)).toBe(true);
    expect(repeatsBeyond(['a', 'b', 'c', 'a', 'b', 'c'], 2)).toBe(false);
    expect(g.refusals.get('url_too_long')).toBe(1);
    expect(g.refusals.get('path_too_deep')).toBe(1);
  });

  it('bounds query variants and parameter-name sets per path (faceted navigation), admitting what it admitted before', () => {
    const g = guard({ max_query_variants_per_path: 3, max_query_name_sets_per_path: 2 });
    expect(g.check('http://shop.example.com/list?page=1')).toBeNull();
    expect(g.check('http://shop.example.com/list?page=2')).toBeNull();
    expect(g.check('http://shop.example.com/list?color=red')).toBeNull();
    expect(g.check('http://shop.example.com/list?color=red&size=m')).toBe('query_name_sets');
    expect(g.check('http://shop.example.com/list?page=3')).toBe('query_variants');
    expect(g.check('http://shop.example.com/list?page=2')).toBeNull();
    expect(g.check('http://shop.example.com/other?page=3')).toBeNull();
    expect(g.check('http://shop.example.com/x?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9')).toBe('too_many_query_params');
    expect(Object.fromEntries(g.refusals)).toEqual({ query_name_sets: 1, query_variants: 1, too_many_query_params: 1 });
  });

  it('counts name sets per router value, so a script that routes by parameter keeps its shapes', () => {
    const g = guard({ max_query_name_sets_per_path: 2 });
    for (const u of ['forum.php?mod=viewthread&tid=1', 'forum.php?mod=viewthread&tid=1&page=2', 'forum.php?mod=forumdisplay&fid=2', 'forum.php?mod=forumdisplay&fid=2&page=3', 'forum.php?mod=redirect&goto=lastpost&tid=1']) {
      expect(g.check(`https://bbs.example.cn/${u}`)).toBeNull();
    }
    expect(g.check('https://bbs.example.cn/forum.php?mod=viewthread&tid=1&extra=page%3D1&page=2')).toBe('query_name_sets');
  });

  it('keeps a forum thread with thousands of pages crawlable under the defaults', () => {
    const g = guard();
    for (let t = 1; t <= 300; t++) for (let start = 0; start < 100; start += 10) expect(g.check(`https://forum.example.org/viewtopic.php?f=2&t=${t}&start=${start}`)).toBeNull();
    expect(g.check('https://forum.example.org/viewtopic.php?p=12345')).toBeNull();
  });

  it('tells calendar URLs by the date they end in, and refuses dates out of the window or past the per-pattern budget', () => {
    expect(calendarDate(new URL('http://e.com/news/calendar/2026/11/'))).toMatchObject({ pattern: 'e.com/news/calendar/{date}m?', fromMs: Date.UTC(2026, 10, 1), toMs: Date.UTC(2026, 11, 1) });
    expect(calendarDate(new URL('http://e.com/blog/2026/11/23/'))).toMatchObject({ fromMs: Date.UTC(2026, 10, 23) });
    expect(calendarDate(new URL('http://e.com/events?date=2026-11-23'))).toMatchObject({ fromMs: Date.UTC(2026, 10, 23) });
    expect(calendarDate(new URL('http://e.com/cal.php?year=2026&month=2'))).toMatchObject({ fromMs: Date.UTC(2026, 1, 1) });
    // A dated article (a slug after the date) is not a calendar page.
    expect(calendarDate(new URL('http://e.com/2026/11/23/city-opens-new-park.html'))).toBeUndefined();
    expect(calendarDate(new URL('http://e.com/news/2026/11/123.html'))).toBeUndefined();

    const g = guard({ calendar_max_dates_per_pattern: 3 });
    expect(g.check('http://e.com/news/calendar/2031/01/')).toBe('calendar_out_of_window');
    expect(g.check('http://e.com/news/calendar/1999/01/')).toBe('calendar_out_of_window');
    for (const m of ['11', '10', '09']) expect(g.check(`http://e.com/news/calendar/2026/${m}/`)).toBeNull();
    expect(g.check('http://e.com/news/calendar/2026/08/')).toBe('calendar_dates');
    expect(g.check('http://e.com/news/calendar/2026/10/')).toBeNull();
    // Days are their own pattern.
    expect(g.check('http://e.com/news/calendar/2026/10/05/')).toBeNull();
  });

  it('caps pages per host', () => {
    const g = guard({ max_pages_per_host: 2 });
    expect(g.check('http://a.example.com/1')).toBeNull();
    expect(g.check('http://a.example.com/2')).toBeNull();
    expect(g.check('http://a.example.com/3')).toBe('host_page_limit');
    expect(g.check('http://a.example.com/1')).toBeNull();
    expect(g.check('http://b.example.com/1')).toBeNull();
  });

  it('forgets the least recently used paths first, so memory stays bounded', () => {
    const g = guard({ tracked_paths: 100, max_query_variants_per_path: 1 });
    expect(g.check('http://e.com/p0?x=1')).toBeNull();
    for (let i = 1; i <= 100; i++) g.check(`http://e.com/p${i}`);
    // p0 was forgotten: a second variant is admitted as if first.
    expect(g.check('http://e.com/p0?x=2')).toBeNull();
  });

  it('validates its pipeline config: defaults, and unknown keys are errors', () => {
    expect(trapGuardSchema.parse({})).toEqual(DEFAULT_TRAP_GUARD);
    expect(() => trapGuardSchema.parse({ max_depth: 3 })).toThrow();
  });
});
