import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { lastValueFrom, of, toArray } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { parseHtml } from '../../../src/extractors/dom';
import { attachParsedHtml, takeParsedHtml } from '../../../src/extractors/parsed-html';
import { textDensityStage } from '../../../src/extractors/text-density-stage';
import { stageContext } from '../../helpers/stage-context';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'extraction');

describe('text_density stage', () => {
  const job = new JobTracker({ subject: 'web:page:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
  const run = async (envs: DocEnvelope[], raw: Record<string, unknown> = {}) => {
    const { ctx, dropped } = stageContext();
    const config = textDensityStage.schema.parse({ type: 'text_density', ...raw });
    const out = await lastValueFrom(of(...envs).pipe(textDensityStage.build(config, ctx), toArray()));
    return { out, dropped };
  };

  it('fills text, title, metadata of page documents and removes the raw HTML', async () => {
    const html = iconv.encode(readFileSync(join(FIXTURES, 'news-zh.html'), 'utf8'), 'gbk');
    const { out } = await run([{ job, doc: { index: 'pages', id: 'p1', body: { url: 'http://news.example.cn/a.html', html, content_type: 'text/html' } } }]);
    const body = out[0]!.doc.body;
    expect(body.title).toBe('长江大桥夜间实施交通管制');
    expect(body.text).toContain('每晚22时至次日5时');
    expect(body.lang).toBe('zh');
    expect(body.published_at).toBe('2012-01-12T16:30:00');
    expect(body).not.toHaveProperty('html');
    expect(body).not.toHaveProperty('content_type');
  });

  it('keeps fields the adapter set, passes other indices through, drops pages without content', async () => {
    const article = readFileSync(join(FIXTURES, 'article-en.html'), 'utf8');
    const { out, dropped } = await run([
      { job, doc: { index: 'pages', id: 'a', body: { html: article, title: 'From the feed' } } },
      { job, doc: { index: 'posts', id: 'b', body: { html: '<p>not a page</p>' } } },
      { job, doc: { index: 'pages', id: 'c', body: { html: '<nav><a href="/">Home</a></nav>' } } },
    ]);
    expect(out.map((e) => e.doc.id)).toEqual(['a', 'b']);
    expect(out[0]!.doc.body.title).toBe('From the feed');
    expect(out[0]!.doc.body.author).toBe('Dana Whitfield');
    expect(out[1]!.doc.body.html).toBe('<p>not a page</p>');
    expect(dropped).toEqual([{ id: 'c', stage: 'text_density', reason: 'no_content' }]);
  });

  it('counts an article page whose markup fell apart as a parse failure, not as a page without content', async () => {
    // simsite's /news/704.html, and the same page as its `malformed` fault serves it (closing
    // div/p/li/td tags lost, a stray `<<span>`): src/simsite/faults.ts malformBody.
    const good = readFileSync(join(FIXTURES, 'simsite-article-704.html'), 'utf8');
    const broken = readFileSync(join(FIXTURES, 'simsite-article-704-malformed.html'), 'utf8');
    const { out, dropped } = await run([
      { job, doc: { index: 'pages', id: 'good', body: { html: good } } },
      { job, doc: { index: 'pages', id: 'broken', body: { html: broken } } },
      { job, doc: { index: 'pages', id: 'bytes', body: { html: Buffer.from(broken), content_type: 'text/html; charset=utf-8' } } },
    ], { min_chars: 20 });
    expect(out.map((e) => e.doc.id)).toEqual(['good']);
    expect((out[0]!.doc.body.text as string).length).toBeGreaterThan(500);
    expect(dropped).toEqual([
      { id: 'broken', stage: 'text_density', reason: 'parse_error' },
      { id: 'bytes', stage: 'text_density', reason: 'parse_error' },
    ]);
  });

  it('extracts from the DOM the adapter attached (no second parse), never from a DOM of other HTML', async () => {
    const html = '<html><body><article><p>Text of the HTML itself, long enough to be the content.</p></article></body></html>';
    const attached = parseHtml('<html><body><article><p>Text of the attached DOM, long enough to be the content.</p></article></body></html>');
    const doc = attachParsedHtml({ index: 'pages', id: 'd', body: { html } }, html, attached);
    // Never serialised: a dead letter or bulk body of the document holds no DOM.
    expect(JSON.stringify(doc)).not.toContain('attached');
    const { out } = await run([{ job, doc }]);
    expect(out[0]!.doc.body.text).toContain('attached DOM');
    const stale = attachParsedHtml({ index: 'pages', id: 'e', body: { html } }, `${html} `, attached);
    expect((await run([{ job, doc: stale }])).out[0]!.doc.body.text).toContain('HTML itself');
    expect(takeParsedHtml(doc, html)).toBeUndefined(); // taken once, then released
  });

  it('rejects unknown config keys', () => {
    expect(() => textDensityStage.schema.parse({ type: 'text_density', min_char: 3 })).toThrow(/Unrecognized key/);
  });
});
