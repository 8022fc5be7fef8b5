import { lastValueFrom, from, toArray } from 'rxjs';
import { systemClock } from '../../../src/core/clock';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { pageReading, readPage } from '../../../src/parsers/web-page-read';
import { webPagesConfigSchema } from '../../../src/parsers/web-pages';
import { documentStageSchema, stageDefinition, type DocumentStageConfig } from '../../../src/pipeline/stages';
import { leadingStatelessStages, PageWork } from '../../../src/runner/page-work';

const article = (body: string) => `<html><head><title>T</title></head><body><nav><a href="/news/">home</a></nav>
<article><h1>T</h1>${body}</article><aside><a href="/news/2.html">two</a><a href="/news/3.html#c">three</a><a href="https://elsewhere.example/news/4.html">four</a></aside></body></html>`;

const long = '<p>今天加班到半夜，累到不想说话。周末的天气很好，我们一起去公园散步，心情非常愉快，回来以后又读了几页书。</p>'.repeat(4);

const parse = webPagesConfigSchema.parse({
  type: 'web_pages',
  rules: [{ name: 'article', match: { regex: ['/news/\\d+\\.html$'] }, page_document: true, links: { selector: 'a[href]', regex: '/news/\\d+\\.html$' } }],
});
const stages = ['text_density', 'language', 'sentiment'].map((type) => documentStageSchema.parse({ type, ...(type === 'text_density' ? { min_chars: 20 } : {}) }));
const deps = { clock: systemClock, rng: seededRng(1), logger: silentLogger };
const page = (url: string, text: string) => ({ url, status: 200, text, fetchedAtMs: Date.UTC(2026, 0, 2) });

/** The same page through readPage and the stages on this thread, as the runner does without workers. */
async function onMainThread(url: string, html: string): Promise<unknown[]> {
  const read = readPage(pageReading(parse), page(url, html), `web:page:${url}`, undefined);
  const job = new JobTracker({ subject: `web:page:${url}`, state: newSubjectState(0), claimedAtMs: 0, leaseToken: '' });
  let docs = from(read.docs.map((doc): DocEnvelope => ({ doc, job })));
  for (const s of stages) docs = docs.pipe(stageDefinition(s.type).build(s, { pipeline: 'p', ...deps, metrics: createMetrics(), drop: () => undefined }));
  return (await lastValueFrom(docs.pipe(toArray()))).map((e) => e.doc);
}

describe('page work (a page worker thread\'s job, run here)', () => {
  it('reads the page and runs the stages: the same documents as on the main thread, with links and stage counts', async () => {
    const url = 'https://n.example/news/1.html';
    const work = new PageWork({ pipeline: 'p', parse, stages, seed: 1 }, deps);
    const done = await work.run({ id: 7, page: page(url, article(long)), subject: `web:page:${url}`, lastVisitMs: undefined });
    expect(done.id).toBe(7);
    expect(done.read.docs).toEqual(await onMainThread(url, article(long)));
    const body = done.read.docs[0]!.body;
    expect(body['html']).toBeUndefined();
    expect(body['lang']).toBe('zh');
    expect(body['text']).toContain('今天加班到半夜');
    expect(['positive', 'negative', 'neutral']).toContain((body['sentiment'] as { label: string }).label);
    // Same origin, the rule's regex, fragments gone.
    expect(done.read.links).toEqual(['https://n.example/news/2.html', 'https://n.example/news/3.html']);
    expect(done.read.drops).toEqual([]);
    expect(done.samples.map((s) => [s.stage, s.received, s.sent, s.seconds.length])).toEqual([['text_density', 1, 1, 1], ['language', 1, 1, 1], ['sentiment', 1, 1, 1]]);
  });

  it('lets go of a big page\'s text once it is parsed: the request is the thread\'s own copy', async () => {
    const url = 'https://n.example/news/1.html';
    const filler = `<script>${'x'.repeat(1_100_000)}</script>`;
    const big = article(`${long}${filler}`).replace('<html><head>', `<html><head>${'<meta name="k" content="v">'.repeat(20_000)}`);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const work = new PageWork({ pipeline: 'p', parse, stages, seed: 1 }, deps);
    const req = { id: 1, page: page(url, big), subject: `web:page:${url}`, lastVisitMs: undefined };
    const done = await work.run(req);
    expect(req.page.text).toBe('');
    expect(done.read.docs[0]!.body['text']).toContain('今天加班到半夜');
  });

  it('times every 8th document across pages, as the main thread does, not the first of each page', async () => {
    const work = new PageWork({ pipeline: 'p', parse, stages: stages.slice(0, 1), seed: 1 }, deps);
    const timed: number[] = [];
    for (let i = 1; i <= 9; i++) {
      const url = `https://n.example/news/${i}.html`;
      const done = await work.run({ id: i, page: page(url, article(long)), subject: `web:page:${url}`, lastVisitMs: undefined });
      timed.push(done.samples[0]!.seconds.length);
    }
    expect(timed).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('reports a document a stage dropped, with its reason, instead of returning it', async () => {
    const url = 'https://n.example/news/5.html';
    const work = new PageWork({ pipeline: 'p', parse, stages, seed: 1 }, deps);
    const done = await work.run({ id: 1, page: page(url, article('<p>short</p>')), subject: `web:page:${url}`, lastVisitMs: undefined });
    expect(done.read.docs).toEqual([]);
    expect(done.read.drops).toEqual([{ doc: { index: 'pages', id: expect.any(String) as string }, stage: 'text_density', reason: 'no_content' }]);
    expect(done.samples[0]).toMatchObject({ stage: 'text_density', received: 1, sent: 0 });
    expect(done.samples[1]).toMatchObject({ stage: 'language', received: 0, sent: 0 });
  });

  it('moves only the leading stateless stages: a stage with state across documents and all after it stay on the main thread', () => {
    const list: DocumentStageConfig[] = ['text_density', 'language', 'simhash', 'sentiment'].map((type) => documentStageSchema.parse({ type }));
    expect(leadingStatelessStages(list).map((s) => s.type)).toEqual(['text_density', 'language']);
    expect(leadingStatelessStages(list.slice(2)).map((s) => s.type)).toEqual([]);
    expect(leadingStatelessStages(stages).map((s) => s.type)).toEqual(['text_density', 'language', 'sentiment']);
  });
});
