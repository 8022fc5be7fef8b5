import { newSubjectState, type Job } from '../../../src/core/envelope';
import { silentLogger } from '../../../src/core/logger';
import type { Emitted, FetchedText, VisitContext, VisitOutcome } from '../../../src/parsers/adapter';
import { takeParsedHtml } from '../../../src/extractors/parsed-html';
import { WebPagesAdapter, webPagesConfigSchema, webPageSubject } from '../../../src/parsers/web-pages';
import type { PageRead, PageReader } from '../../../src/parsers/web-page-read';
import { fullCollection } from '../../../src/runner/full-collection';

const page = (posts: Array<[string, string]>, next?: string, links: string[] = []): string => `<html><body>
${posts.map(([id, text]) => `<div class="post"><span class="pid" data-id="${id}"></span><b class="who">u${id}</b><time datetime="2026-01-0${id.slice(-1)}T00:00:00Z"></time><p class="text">${text}</p></div>`).join('')}
${next ? `<a class="next" href="${next}">next</a>` : ''}${links.map((l) => `<a class="t" href="${l}">t</a>`).join('')}</body></html>`;

const config = webPagesConfigSchema.parse({
  type: 'web_pages',
  max_pages_per_visit: 2,
  rules: [{
    name: 'forum', match: { prefix: ['https://f.example/'] },
    list: { selector: '.post', required: ['text'], fields: { id: { selector: '.pid', type: 'attr', attr: 'data-id' }, author: { selector: '.who' }, text: { selector: '.text' }, created_at: { selector: 'time', type: 'attr', attr: 'datetime', date: true } } },
    pagination: { selector: 'a.next' },
    links: { selector: 'a.t' },
  }],
});

async function visit(adapter: WebPagesAdapter, subject: string, pages: Record<string, string>) {
  const fetched: string[] = [];
  const ctx: VisitContext = {
    fetchText: async (url): Promise<FetchedText> => {
      fetched.push(url);
      const text = pages[url];
      if (text === undefined) throw new Error(`unexpected fetch ${url}`);
      return { url, status: 200, text, fetchedAtMs: 1_000 };
    },
    nowMs: () => 1_000,
    logger: silentLogger,
  };
  const job: Job = { subject, state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' };
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
  return { emitted, outcome, fetched };
}


/** The subjects a visit discovered, in order (a page's links come as one `discovered_all`). */
const discoveredSubjects = (emitted: Emitted[]): string[] => emitted.flatMap((e) => (e.kind === 'discovered_all' ? e.subjects : e.kind === 'discovered' ? [e.subject] : []));

describe('web_pages adapter', () => {
  it('turns list items into posts, follows pagination within the visit, discovers same-origin links, stops at its page limit', async () => {
    const a = new WebPagesAdapter(config);
    const first = 'https://f.example/t/1';
    const { emitted, outcome, fetched } = await visit(a, webPageSubject(`${first}#top`), {
      [first]: page([['1', 'hello'], ['2', 'world'], ['3', '']], '/t/1?p=2', ['/t/2', 'https://evil.example/x', '/t/1']),
      'https://f.example/t/1?p=2': page([['4', 'more']], '/t/1?p=3'),
    });
    expect(fetched).toEqual([first, 'https://f.example/t/1?p=2']);
    const docs = emitted.filter((e) => e.kind === 'doc').map((e) => (e as Extract<Emitted, { kind: 'doc' }>).doc);
    expect(docs.map((d) => d.body['text'])).toEqual(['hello', 'world', 'more']); // the empty post is dropped by `required`
    expect(docs.every((d) => d.index === 'posts' && d.body['platform'] === 'web')).toBe(true);
    expect(docs[0]!.body['author']).toEqual({ name: 'u1' });
    expect(docs[0]!.body['created_at']).toBe('2026-01-01T00:00:00.000Z');
    // Ids are stable (page URL + item), so a revisit overwrites.
    expect(new Set(docs.map((d) => d.id)).size).toBe(3);
    const again = await visit(a, webPageSubject(first), { [first]: page([['1', 'hello']]) });
    expect((again.emitted[0] as Extract<Emitted, { kind: 'doc' }>).doc.id).toBe(docs[0]!.id);
    const discovered = discoveredSubjects(emitted);
    expect(discovered).toEqual(['web:page:https://f.example/t/2']);
    expect(outcome.pageLimitHit).toBe(true);
    expect(outcome.requests).toBe(2);
    expect(outcome.state.visits).toBe(1);
  });

  it('rejects a subject that is not a URL as non-retryable, and ignores pages no rule set matches', async () => {
    const a = new WebPagesAdapter(config);
    await expect(visit(a, 'web:page:not-a-url', {})).rejects.toMatchObject({ kind: 'non_retryable' });
    const other = await visit(a, webPageSubject('https://other.example/'), { 'https://other.example/': '<p>x</p>' });
    expect(other.emitted).toEqual([]);
    const withPages = await visit(new WebPagesAdapter({ ...config, page_documents: true }), webPageSubject('https://other.example/'), { 'https://other.example/': '<p>x</p>' });
    expect(withPages.emitted).toHaveLength(1);
    expect((withPages.emitted[0] as Extract<Emitted, { kind: 'doc' }>).doc).toMatchObject({ index: 'pages', body: { url: 'https://other.example/', html: '<p>x</p>' } });
  });

  it('gives a page whose rule set says page_document as one document (its DOM attached) and still discovers its links', async () => {
    const links = webPagesConfigSchema.parse({
      type: 'web_pages',
      rules: [{ name: 'news', match: { prefix: ['https://n.example/'] }, page_document: true, links: { selector: 'a[href]', regex: '/news/\\d+\\.html$' } }],
    });
    const html = '<html><body><p>story</p><a href="/news/2.html">2</a><a href="/about.html">about</a></body></html>';
    const { emitted } = await visit(new WebPagesAdapter(links), webPageSubject('https://n.example/news/1.html'), { 'https://n.example/news/1.html': html });
    const docs = emitted.filter((e) => e.kind === 'doc').map((e) => (e as Extract<Emitted, { kind: 'doc' }>).doc);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ index: 'pages', body: { html } });
    expect(takeParsedHtml(docs[0]!, html)).toBeDefined();
    expect(discoveredSubjects(emitted)).toEqual(['web:page:https://n.example/news/2.html']);
    // A page's links come in one step of the visit.
    expect(emitted.filter((e) => e.kind === 'discovered_all')).toEqual([{ kind: 'discovered_all', subjects: ['web:page:https://n.example/news/2.html'], state: { depth: 1 } }]);
    // Rule sets without page_document give their list items only, with page_documents on or off.
    const forum = await visit(new WebPagesAdapter({ ...config, page_documents: true }), webPageSubject('https://f.example/t/9'), { 'https://f.example/t/9': page([['1', 'hi']]) });
    expect(forum.emitted.filter((e) => e.kind === 'doc').map((e) => (e as Extract<Emitted, { kind: 'doc' }>).doc.index)).toEqual(['posts']);
  });

  it('does not offer again links the frontier already holds from recent visits (bounded), and offers those of a visit whose offer never happened', async () => {
    const first = 'https://f.example/t/1';
    const pages = { [first]: page([['1', 'x']], undefined, ['/t/2', '/t/3']) };
    const discovered = async (a: WebPagesAdapter) => (await visit(a, webPageSubject(first), pages)).emitted.flatMap((e) => (e.kind === 'discovered_all' ? e.subjects : []));
    const a = new WebPagesAdapter(webPagesConfigSchema.parse({ ...config, recent_links: 1 }));
    expect(await discovered(a)).toEqual(['web:page:https://f.example/t/2', 'web:page:https://f.example/t/3']);
    // Not told the offer succeeded (the visit failed before it): the links come again.
    expect(await discovered(a)).toHaveLength(2);
    a.offered(['web:page:https://f.example/t/2', 'web:page:https://f.example/t/3']);
    // One remembered (the bound), the older one evicted.
    expect(await discovered(a)).toEqual(['web:page:https://f.example/t/2']);
    const off = new WebPagesAdapter(webPagesConfigSchema.parse({ ...config, recent_links: 0 }));
    off.offered(['web:page:https://f.example/t/2']);
    expect(await discovered(off)).toHaveLength(2);
  });
});

describe('web_pages adapter: a page handed to its reader', () => {
  it('is let go by the visit while the reader works (a big page is not held twice, issue 24)', async () => {
    const collect = fullCollection();
    expect(collect).toBeDefined();
    let bodyRef: WeakRef<Uint8Array> | undefined;
    let answer: ((read: PageRead) => void) | undefined;
    let asked = false;
    const reader: PageReader = {
      // Like a page thread: it takes what it needs (here nothing) and answers later.
      read: () => {
        asked = true;
        return new Promise<PageRead>((resolve) => (answer = resolve));
      },
    };
    const a = new WebPagesAdapter(config, reader);
    const url = 'https://f.example/t/9';
    const ctx: VisitContext = {
      fetchText: async (): Promise<FetchedText> => {
        const body = new Uint8Array(4 * 2 ** 20);
        bodyRef = new WeakRef(body);
        return { url, status: 200, text: 'x'.repeat(2 ** 20), fetchedAtMs: 1_000, body };
      },
      nowMs: () => 1_000,
      logger: silentLogger,
    };
    const gen = a.visit({ subject: webPageSubject(url), state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' }, ctx);
    const step = gen.next();
    while (!asked) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    collect!();
    expect(bodyRef!.deref()).toBeUndefined();
    answer!({ docs: [], drops: [], links: [], newPostTimesMs: [], posts: 0, feeds: [] });
    for (let s = await step; !s.done; s = await gen.next());
  });
});
