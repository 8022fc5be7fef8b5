import { newSubjectState, type SubjectState } from '../../../src/core/envelope';
import { silentLogger } from '../../../src/core/logger';
import type { Emitted, FetchedText, VisitContext, VisitOutcome } from '../../../src/parsers/adapter';
import { WebPagesAdapter, webPagesConfigSchema, webPageSubject } from '../../../src/parsers/web-pages';

const B = 'https://bbs.example.org';
const PER_PAGE = 3;

/** A board row for thread 7 with `replies`, linking the pages in `linked`. */
const board = (replies: number, linked: number[]): string => `<html><body><ul>
<li class="row"><a class="topictitle" href="/t/7/1">T</a><span class="n">${replies}</span>${linked.map((p) => `<a class="pg" href="/t/7/${p}">${p}</a>`).join('')}</li></ul></body></html>`;
/** Thread page p of a thread with `posts` posts, PER_PAGE a page, with a next link. */
const thread = (p: number, posts: number): string => {
  const floors = Array.from({ length: PER_PAGE }, (_, i) => (p - 1) * PER_PAGE + i + 1).filter((f) => f <= posts);
  return `<html><body>${floors.map((f) => `<div class="post"><p>post ${f}</p></div>`).join('')}${p * PER_PAGE < posts ? `<a class="next" href="/t/7/${p + 1}">next</a>` : ''}</body></html>`;
};

const config = webPagesConfigSchema.parse({
  type: 'web_pages', max_pages_per_visit: 50,
  rules: [
    { name: 'board', match: { prefix: [`${B}/board`] }, list: { selector: 'li.row', fields: {
      url: { selector: 'a.topictitle', type: 'attr', attr: 'href', url: true }, replies: { selector: '.n' },
      page_urls: { selector: 'a.pg', type: 'attr', attr: 'href', url: true, all: true }, page_numbers: { selector: 'a.pg', all: true },
    } } },
    { name: 'thread', match: { prefix: [`${B}/t/`] }, list: { selector: '.post', fields: { text: { selector: 'p' } } }, pagination: { selector: 'a.next' } },
  ],
  thread_lists: [{ rule_set: 'board', posts_per_page: PER_PAGE }],
});

async function visit(a: WebPagesAdapter, state: SubjectState, posts: number, linked: number[]) {
  const fetched: string[] = [];
  const ctx: VisitContext = {
    fetchText: async (url): Promise<FetchedText> => {
      fetched.push(url.slice(B.length));
      const m = /\/t\/7\/(\d+)$/.exec(url);
      return { url, status: 200, text: m ? thread(Number(m[1]), posts) : board(posts - 1, linked), fetchedAtMs: 1000 };
    },
    nowMs: () => 1000,
    logger: silentLogger,
  };
  const gen = a.visit({ subject: webPageSubject(`${B}/board`), state, claimedAtMs: 0, leaseToken: 't' }, ctx);
  const texts: string[] = [];
  let outcome: VisitOutcome;
  for (;;) {
    const step = await gen.next();
    if (step.done) {
      outcome = step.value;
      break;
    }
    const e: Emitted = step.value;
    if (e.kind === 'doc') texts.push(String(e.doc.body['text']));
  }
  return { fetched, texts, outcome };
}

describe('web_pages thread lists', () => {
  it('reads a new thread whole, then only the pages with new posts, emitting each post once', async () => {
    const a = new WebPagesAdapter(config);
    const first = await visit(a, newSubjectState(0), 5, [2]);
    expect(first.fetched).toEqual(['/board', '/t/7/1', '/t/7/2']);
    expect(first.texts).toEqual(['post 1', 'post 2', 'post 3', 'post 4', 'post 5']);
    // Nothing new: the board page only.
    const quiet = await visit(a, first.outcome.state, 5, [2]);
    expect(quiet.fetched).toEqual(['/board']);
    expect(quiet.texts).toEqual([]);
    // Posts 6–14: pages 2 (post 6) to 5, the row linking 2, 3 and the last (5).
    const grown = await visit(a, quiet.outcome.state, 14, [2, 3, 5]);
    expect(grown.fetched).toEqual(['/board', '/t/7/2', '/t/7/3', '/t/7/4', '/t/7/5']);
    expect(grown.texts).toEqual(Array.from({ length: 9 }, (_, i) => `post ${i + 6}`));
    expect(grown.outcome.requests).toBe(5);
  });

  it('walks the pagination from the nearest linked page when the row does not link the first new one', async () => {
    const a = new WebPagesAdapter(config);
    const start = await visit(a, newSubjectState(0), 6, [2]);
    expect(start.texts).toHaveLength(6);
    // 6 seen; now 20 posts (7 pages): pages 3..7 planned; the row links only 2 and 7.
    const far = await visit(a, start.outcome.state, 20, [2, 7]);
    expect(far.fetched).toEqual(['/board', '/t/7/2', '/t/7/3', '/t/7/4', '/t/7/5', '/t/7/6', '/t/7/7']);
    expect(far.texts).toEqual(Array.from({ length: 14 }, (_, i) => `post ${i + 7}`));
  });
});
