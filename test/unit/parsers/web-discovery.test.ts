import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { newSubjectState, type Job, type SubjectState } from '../../../src/core/envelope';
import { FreshetError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import type { Emitted, FetchedText, VisitContext, VisitOutcome } from '../../../src/parsers/adapter';
import { WebPagesAdapter, webPagesConfigSchema, webPageSubject } from '../../../src/parsers/web-pages';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../fixtures/discovery', name), 'utf8');
const NOW = Date.UTC(2026, 10, 21);

async function visit(adapter: WebPagesAdapter, subject: string, pages: Record<string, string>, state: Partial<SubjectState> = {}) {
  const ctx: VisitContext = {
    fetchText: async (url): Promise<FetchedText> => {
      const text = pages[url];
      if (text === undefined) throw new Error(`unexpected fetch ${url}`);
      return { url, status: 200, text, fetchedAtMs: NOW };
    },
    nowMs: () => NOW,
    logger: silentLogger,
  };
  const job: Job = { subject, state: { ...newSubjectState(0), ...state }, claimedAtMs: 0, leaseToken: 't' };
  const gen = adapter.visit(job, ctx);
  const emitted: Emitted[] = [];
  let outcome: VisitOutcome;
  for (;;) {
    const step = await gen.next();
    if (step.done) {
      outcome = step.value;
      break;
    }
    emitted.push(step.value);
  }
  return { emitted, outcome };
}

const revisits = (emitted: Emitted[]): string[] => emitted.flatMap((e) => (e.kind === 'revisit' ? e.subjects : []));
const discovered = (emitted: Emitted[]): string[] => emitted.flatMap((e) => (e.kind === 'discovered_all' ? e.subjects : e.kind === 'discovered' ? [e.subject] : []));
const docs = (emitted: Emitted[]) => emitted.flatMap((e) => (e.kind === 'doc' ? [e.doc] : []));

const newsConfig = (over: Record<string, unknown> = {}) => webPagesConfigSchema.parse({
  type: 'web_pages',
  rules: [{ name: 'news', match: { prefix: ['https://n.example/'] }, page_document: true, links: { selector: 'a[href]' } }],
  ...over,
});

const article = (canonical: string | null, links: string[], head = ''): string => `<!DOCTYPE html><html><head><title>t</title>${canonical ? `<link rel="canonical" href="${canonical}">` : ''}${head}</head>
<body><p>text</p>${links.map((l) => `<a href="${l}">x</a>`).join('')}</body></html>`;

describe('web_pages: canonical URLs and trap guards', () => {
  it('keys a page\'s document by its one URL across tracking, session and canonical variants', async () => {
    const a = new WebPagesAdapter(newsConfig(), undefined, () => NOW);
    const variants = [
      'https://n.example/news/5.html?utm_source=weibo&utm_medium=social',
      'https://n.example/news/5.html;jsessionid=0123456789ABCDEF0123456789ABCDEF',
      'https://n.example/news/amp/5.html?spm=a2c.1.2.3',
      'https://n.example/news/./5.html?from=timeline#comments',
    ];
    const ids = new Set<string>();
    for (const v of variants) {
      const { emitted } = await visit(a, webPageSubject(v), { [v.replace(/#.*$/, '')]: article('/news/5.html', []) });
      const d = docs(emitted);
      expect(d).toHaveLength(1);
      expect(d[0]!.body['url']).toBe('https://n.example/news/5.html');
      ids.add(d[0]!.id);
    }
    expect(ids.size).toBe(1);
    // A canonical to another host is out of scope: the page keeps its own URL.
    const { emitted } = await visit(a, webPageSubject('https://n.example/news/6.html'), { 'https://n.example/news/6.html': article('https://other.example/6.html', []) });
    expect(docs(emitted)[0]!.body['url']).toBe('https://n.example/news/6.html');
  });

  it('offers links in canonical form, once, and refuses traps with a counted reason', async () => {
    const a = new WebPagesAdapter(newsConfig({ trap_guard: { calendar_max_dates_per_pattern: 2 } }), undefined, () => NOW);
    const { emitted } = await visit(a, webPageSubject('https://n.example/news/'), {
      'https://n.example/news/': article(null, [
        '/news/7.html?utm_source=rss', '/news/7.html?from=timeline', '/news/./7.html', '/news/8.html?b=2&a=1',
        'news/news/news/', '/news/calendar/2026/11/', '/news/calendar/2026/10/', '/news/calendar/2026/09/', '/news/calendar/2031/01/',
      ]),
    });
    expect(discovered(emitted)).toEqual([
      webPageSubject('https://n.example/news/7.html'), webPageSubject('https://n.example/news/8.html?a=1&b=2'),
      webPageSubject('https://n.example/news/calendar/2026/11/'), webPageSubject('https://n.example/news/calendar/2026/10/'),
    ]);
    expect(Object.fromEntries(a.trapRefusals())).toEqual({ repeated_segment: 1, calendar_dates: 1, calendar_out_of_window: 1 });
  });

  it('discovers the feeds a page announces as web:feed: subjects, when asked to', async () => {
    const head = '<link rel="alternate" type="application/rss+xml" href="/news/rss.xml"><link rel="alternate" type="application/atom+xml" href="https://elsewhere.example/atom.xml">';
    const on = new WebPagesAdapter(newsConfig({ discover_feeds: true }), undefined, () => NOW);
    const { emitted } = await visit(on, webPageSubject('https://n.example/news/9.html'), { 'https://n.example/news/9.html': article(null, [], head) });
    expect(discovered(emitted)).toEqual(['web:feed:https://n.example/news/rss.xml']);
    const off = new WebPagesAdapter(newsConfig(), undefined, () => NOW);
    expect(discovered((await visit(off, webPageSubject('https://n.example/news/9.html'), { 'https://n.example/news/9.html': article(null, [], head) })).emitted)).toEqual([]);
  });
});

describe('web_pages: feeds and sitemaps as subjects', () => {
  const feedConfig = webPagesConfigSchema.parse({ type: 'web_pages', allow_prefixes: ['https://www.buildweekly.example.com/', 'https://www.harbourdaily.example.com/'] });

  it('a feed visit discovers its items (canonical, tracking parameters gone) and reports the times of new items as posts', async () => {
    const a = new WebPagesAdapter(feedConfig, undefined, () => NOW);
    const url = 'https://www.buildweekly.example.com/feed';
    const first = await visit(a, `web:feed:${url}`, { [url]: fixture('infoq-style-rss.xml') });
    expect(discovered(first.emitted)).toEqual([
      webPageSubject('https://www.buildweekly.example.com/news/2026/11/incremental-monorepo/'),
      webPageSubject('https://www.buildweekly.example.com/news/2026/11/test-result-cache/'),
    ]);
    expect(first.outcome.newPostTimesMs).toEqual([Date.UTC(2026, 10, 18, 13), Date.UTC(2026, 10, 19, 16)]);
    expect(first.outcome.pageLimitHit).toBe(false);
    expect(first.outcome.state).toMatchObject({ visits: 1, lastVisitMs: NOW, postsSeen: 2 });
    // Since the 19th at noon only one item is new; since before both, the feed overflowed.
    const later = await visit(a, `web:feed:${url}`, { [url]: fixture('infoq-style-rss.xml') }, { lastVisitMs: Date.UTC(2026, 10, 19, 12), visits: 1 });
    expect(later.outcome.newPostTimesMs).toEqual([Date.UTC(2026, 10, 19, 16)]);
    expect(later.outcome.pageLimitHit).toBe(false);
    const overflow = await visit(a, `web:feed:${url}`, { [url]: fixture('infoq-style-rss.xml') }, { lastVisitMs: Date.UTC(2026, 10, 1), visits: 1 });
    expect(overflow.outcome.pageLimitHit).toBe(true);
    // An Atom entry updated after the last visit but published before it: an edit, revisited.
    const atom = 'https://www.buildweekly.example.com/atom.xml';
    const edited = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>a</id><link href="/news/a.html"/><published>2026-11-18T00:00:00Z</published><updated>2026-11-20T00:00:00Z</updated></entry>
<entry><id>b</id><link href="/news/b.html"/><published>2026-11-20T01:00:00Z</published><updated>2026-11-20T01:00:00Z</updated></entry></feed>`;
    const e = await visit(a, `web:feed:${atom}`, { [atom]: edited }, { lastVisitMs: Date.UTC(2026, 10, 19), visits: 1 });
    expect(revisits(e.emitted)).toEqual([webPageSubject('https://www.buildweekly.example.com/news/a.html')]);
  });

  it('a sitemap index discovers its changed child sitemaps; a urlset its changed pages', async () => {
    const a = new WebPagesAdapter(feedConfig, undefined, () => NOW);
    const idx = 'https://www.harbourdaily.example.com/sitemap_index.xml';
    const { emitted, outcome } = await visit(a, `web:sitemap:${idx}`, { [idx]: fixture('sitemap-index.xml') }, { lastVisitMs: Date.UTC(2026, 10, 10) });
    expect(discovered(emitted)).toEqual(['web:sitemap:https://www.harbourdaily.example.com/post-sitemap.xml', 'web:sitemap:https://www.harbourdaily.example.com/page-sitemap.xml']);
    // The child changed since the last visit is revisited (when known) and its time is rate evidence.
    expect(revisits(emitted)).toEqual(['web:sitemap:https://www.harbourdaily.example.com/post-sitemap.xml']);
    expect(outcome.newPostTimesMs).toEqual([Date.UTC(2026, 10, 20, 9, 14, 3)]);
    const posts = 'https://www.harbourdaily.example.com/post-sitemap.xml';
    const r = await visit(a, `web:sitemap:${posts}`, { [posts]: fixture('post-sitemap.xml') }, { lastVisitMs: Date.UTC(2026, 10, 19, 18) });
    expect(discovered(r.emitted)).toEqual([webPageSubject('https://www.harbourdaily.example.com/'), webPageSubject('https://www.harbourdaily.example.com/2026/11/20/ferry-timetable-changes/')]);
    expect(r.outcome.newPostTimesMs).toEqual([Date.UTC(2026, 10, 20, 9, 14, 3)]);
    expect(revisits(r.emitted)).toEqual([webPageSubject('https://www.harbourdaily.example.com/2026/11/20/ferry-timetable-changes/')]);
  });

  it('a body that is no feed fails the visit with a clear, non-retryable error', async () => {
    const a = new WebPagesAdapter(feedConfig, undefined, () => NOW);
    const url = 'https://www.buildweekly.example.com/feed';
    const err = await visit(a, `web:feed:${url}`, { [url]: '<html><body>maintenance</body></html>' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FreshetError);
    expect((err as FreshetError).kind).toBe('non_retryable');
    expect((err as FreshetError).message).toBe('feed https://www.buildweekly.example.com/feed: not a feed: root element <html>');
  });
});

describe('web_pages: conditional GET', () => {
  it('keeps the validators in the subject state, sends them on the revisit, and reads a 304 as nothing to index', async () => {
    const a = new WebPagesAdapter(newsConfig(), undefined, () => NOW);
    const url = 'https://n.example/news/5.html';
    const html = article(null, []);
    const sent: (Record<string, string> | undefined)[] = [];
    const ctx = (status: number): VisitContext => ({
      fetchText: async (u, _e, headers): Promise<FetchedText> => {
        sent.push(headers);
        return { url: u, status, text: status === 304 ? '' : html, fetchedAtMs: NOW, headers: { etag: '"v1"', 'last-modified': 'Fri, 20 Nov 2026 08:00:00 GMT' }, bodyBytes: 17_000 };
      },
      nowMs: () => NOW,
      logger: silentLogger,
    });
    const run = async (state: SubjectState, status: number) => {
      const gen = a.visit({ subject: webPageSubject(url), state, claimedAtMs: 0, leaseToken: 't' }, ctx(status));
      const emitted: Emitted[] = [];
      for (;;) {
        const step = await gen.next();
        if (step.done) return { emitted, outcome: step.value };
        emitted.push(step.value);
      }
    };
    const first = await run(newSubjectState(0), 200);
    expect(sent[0]).toBeUndefined();
    expect(docs(first.emitted)).toHaveLength(1);
    // A strong ETag is kept alone: the server must ignore If-Modified-Since beside If-None-Match (issue 20).
    expect(first.outcome.state.meta).toEqual({ v: '|"v1"', b: (17_000).toString(36) });
    const again = await run(first.outcome.state, 304);
    expect(sent[1]).toEqual({ 'if-none-match': '"v1"' });
    expect(again.emitted).toEqual([]);
    expect(again.outcome).toMatchObject({ requests: 1, newPostTimesMs: [], state: { visits: 2, meta: first.outcome.state.meta } });
    expect(a.conditionalSavings()).toEqual({ notModified: 1, bytesSaved: 17_000 });
    // Switched off: no validators are sent.
    const off = new WebPagesAdapter(newsConfig({ conditional_get: false }), undefined, () => NOW);
    const gen = off.visit({ subject: webPageSubject(url), state: first.outcome.state, claimedAtMs: 0, leaseToken: 't' }, ctx(200));
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    expect(sent[2]).toBeUndefined();
  });
});

describe('web_pages: deleted and moved pages', () => {
  const url = 'https://n.example/news/5.html';
  const H = 3_600_000;
  const fail = (status: number | undefined) => new FreshetError('E_FETCH_HTTP_STATUS', status === undefined ? 'retryable' : 'non_retryable', `HTTP ${status}`, status === undefined ? {} : { status });
  async function step(a: WebPagesAdapter, state: SubjectState, at: number, answer: FetchedText | FreshetError) {
    const ctx: VisitContext = {
      fetchText: async (): Promise<FetchedText> => {
        if (answer instanceof FreshetError) throw answer;
        return answer;
      },
      nowMs: () => at,
      logger: silentLogger,
    };
    const gen = a.visit({ subject: webPageSubject(url), state, claimedAtMs: 0, leaseToken: 't' }, ctx);
    const emitted: Emitted[] = [];
    for (;;) {
      const s = await gen.next();
      if (s.done) return { emitted, outcome: s.value };
      emitted.push(s.value);
    }
  }

  it('marks a page deleted on a second 404/410 a grace period after the first, never on a 5xx or a timeout', async () => {
    const a = new WebPagesAdapter(newsConfig({ mark_gone: true, deletion_grace_secs: 3600 }), undefined, () => NOW);
    let state = newSubjectState(0);
    const first = await step(a, state, NOW, fail(404));
    expect(first.emitted).toEqual([]);
    expect(first.outcome.state.status).toBe('active');
    state = first.outcome.state;
    // A 5xx and a timeout in between: the visit fails, nothing is marked, the evidence stays.
    await expect(step(a, state, NOW + H / 2, fail(503))).rejects.toThrow('HTTP 503');
    await expect(step(a, state, NOW + H / 2, new FreshetError('E_FETCH_TIMEOUT', 'retryable', 'timeout'))).rejects.toThrow('timeout');
    const early = await step(a, state, NOW + H / 2, fail(410));
    expect(early.emitted).toEqual([]);
    const gone = await step(a, early.outcome.state, NOW + H, fail(410));
    expect(docs(gone.emitted)).toEqual([{
      index: 'pages', id: expect.any(String),
      body: { url, status: 'deleted', http_status: 410, first_missing_at: new Date(NOW).toISOString(), deleted_at: new Date(NOW + H).toISOString(), crawled_at: new Date(NOW + H).toISOString() },
    }]);
    expect(gone.outcome.state.status).toBe('gone');
    // A page that comes back clears the evidence.
    const back = await step(a, early.outcome.state, NOW + H, { url, status: 200, text: article(null, []), fetchedAtMs: NOW + H });
    expect(back.outcome.state.meta?.['gm']).toBeUndefined();
    // Marking off: a 404 fails the visit as before.
    await expect(step(new WebPagesAdapter(newsConfig(), undefined, () => NOW), newSubjectState(0), NOW, fail(404))).rejects.toThrow('HTTP 404');
  });

  it('marks a page moved only through permanent redirects, and offers its new URL', async () => {
    const a = new WebPagesAdapter(newsConfig({ mark_gone: true }), undefined, () => NOW);
    const to = 'https://n.example/news/2026/11/5.html';
    const moved = await step(a, newSubjectState(0), NOW, { url: to, status: 200, text: article(to, []), fetchedAtMs: NOW, permanentRedirect: true });
    const d = docs(moved.emitted);
    expect(d[0]).toMatchObject({ index: 'pages', body: { url, status: 'moved', moved_to: to } });
    expect(d[1]).toMatchObject({ index: 'pages', body: { url: to } });
    expect(discovered(moved.emitted)).toEqual([webPageSubject(to)]);
    expect(moved.outcome.state.status).toBe('gone');
    const login = await step(a, newSubjectState(0), NOW, { url: 'https://n.example/login', status: 200, text: article(null, []), fetchedAtMs: NOW, permanentRedirect: false });
    expect(docs(login.emitted).some((x) => x.body['status'] === 'moved')).toBe(false);
  });
});

describe('web_pages: sitemaps from robots.txt', () => {
  const cfg = webPagesConfigSchema.parse({ type: 'web_pages', allow_prefixes: ['https://www.harbourdaily.example.com/'] });

  it('a robots subject offers the sitemaps robots.txt names, else /sitemap.xml', async () => {
    const a = new WebPagesAdapter(cfg, undefined, () => NOW);
    const origin = 'https://www.harbourdaily.example.com';
    const named = await visit(a, `web:robots:${origin}`, { [`${origin}/robots.txt`]: 'User-agent: *\nDisallow: /wp-admin/\nSitemap: https://www.harbourdaily.example.com/sitemap_index.xml\nSitemap: /news-sitemap.xml\n' });
    expect(discovered(named.emitted)).toEqual([`web:sitemap:${origin}/sitemap_index.xml`, `web:sitemap:${origin}/news-sitemap.xml`]);
    const none = await visit(a, `web:robots:${origin}`, { [`${origin}/robots.txt`]: 'User-agent: *\nDisallow:\n' });
    expect(discovered(none.emitted)).toEqual([`web:sitemap:${origin}/sitemap.xml`]);
    // No robots.txt at all (404): the well-known path.
    const ctx: VisitContext = { fetchText: async () => { throw new FreshetError('E_FETCH_HTTP_STATUS', 'non_retryable', 'HTTP 404', { status: 404 }); }, nowMs: () => NOW, logger: silentLogger };
    const gen = a.visit({ subject: `web:robots:${origin}`, state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' }, ctx);
    const first = await gen.next();
    expect(first.value).toEqual({ kind: 'discovered_all', subjects: [`web:sitemap:${origin}/sitemap.xml`], state: { depth: 0 } });
  });

  it('a robots subject takes the Sitemap: lines from the fetcher\'s robots cache, with no request of its own', async () => {
    const a = new WebPagesAdapter(cfg, undefined, () => NOW);
    const origin = 'https://www.harbourdaily.example.com';
    const asked: string[] = [];
    const ctx: VisitContext = {
      fetchText: async (url) => { throw new Error(`unexpected fetch ${url}`); },
      robotsSitemaps: async (o) => { asked.push(o); return [`${origin}/news-sitemap.xml`]; },
      nowMs: () => NOW, logger: silentLogger,
    };
    const gen = a.visit({ subject: `web:robots:${origin}`, state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' }, ctx);
    expect((await gen.next()).value).toEqual({ kind: 'discovered_all', subjects: [`web:sitemap:${origin}/news-sitemap.xml`], state: { depth: 0 } });
    expect((await gen.next()).value).toMatchObject({ requests: 0, state: { lastVisitMs: NOW } });
    expect(asked).toEqual([origin]);
    // A robots.txt that is unavailable is an error of the visit (retried), never "no sitemaps".
    const down: VisitContext = { ...ctx, robotsSitemaps: async () => { throw new FreshetError('E_FETCH_ROBOTS_UNAVAILABLE', 'throttled', 'robots.txt unavailable'); } };
    await expect(a.visit({ subject: `web:robots:${origin}`, state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' }, down).next()).rejects.toThrow('robots.txt unavailable');
  });

  it('reads a gzipped sitemap from the body bytes', async () => {
    const a = new WebPagesAdapter(cfg, undefined, () => NOW);
    const url = 'https://www.harbourdaily.example.com/post-sitemap2.xml.gz';
    const bytes = gzipSync(fixture('post-sitemap.xml'));
    const ctx: VisitContext = {
      fetchText: async (): Promise<FetchedText> => ({ url, status: 200, text: bytes.toString('latin1'), body: bytes, fetchedAtMs: NOW }),
      nowMs: () => NOW, logger: silentLogger,
    };
    const gen = a.visit({ subject: `web:sitemap:${url}`, state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' }, ctx);
    const first = await gen.next();
    expect(first.value).toMatchObject({ kind: 'discovered_all', subjects: [webPageSubject('https://www.harbourdaily.example.com/'), expect.any(String), expect.any(String)] });
  });

  it('offers each site\'s robots subject once, when asked to', async () => {
    const a = new WebPagesAdapter(newsConfig({ discover_sitemaps: true }), undefined, () => NOW);
    const one = await visit(a, webPageSubject('https://n.example/news/1.html'), { 'https://n.example/news/1.html': article(null, ['/news/2.html']) });
    expect(discovered(one.emitted)).toEqual([webPageSubject('https://n.example/news/2.html'), 'web:robots:https://n.example']);
    const two = await visit(a, webPageSubject('https://n.example/news/2.html'), { 'https://n.example/news/2.html': article(null, ['/news/3.html']) });
    expect(discovered(two.emitted)).toEqual([webPageSubject('https://n.example/news/3.html')]);
  });
});
