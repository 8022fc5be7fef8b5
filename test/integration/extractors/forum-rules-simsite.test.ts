import { ManualClock } from '../../../src/core/clock';
import { decodeHtml } from '../../../src/core/charset';
import { applyRules } from '../../../src/extractors/rules/apply';
import { forumRuleSets } from '../../../src/extractors/rules/forums';
import { DEFAULT_START_MS, startSimsite, type SimsiteHandle } from '../../../src/simsite';

interface ThreadTruth { tid: number; flavour: string; encoding: string; charset: string; url: string; posts: number }
interface PostTruth { pid: number; author: string; text: string; createdMs: number }

/**
 * The shipped Discuz and phpBB rule sets against simsite's forums (a real local HTTP server):
 * every post of every thread, across its pages, with author, time and own text equal to
 * simsite's ground truth, over each flavour × encoding × charset declaration.
 */
describe('forum rule sets on simsite threads', () => {
  let sim: SimsiteHandle;
  const get = async (path: string): Promise<{ bytes: Uint8Array; contentType?: string }> => {
    const res = await fetch(new URL(path, sim.url));
    return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? undefined };
  };
  const json = async <T>(path: string): Promise<T> => JSON.parse(new TextDecoder().decode((await get(path)).bytes)) as T;

  beforeAll(async () => {
    sim = await startSimsite({ port: 0, clock: new ManualClock(DEFAULT_START_MS) });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('extracts every post of every thread with its author and time', async () => {
    const threads = await json<ThreadTruth[]>('/_truth/forum/threads');
    const kinds = new Set(threads.map((t) => `${t.flavour}/${t.encoding}/${t.charset}`));
    // The traps the rule sets must survive: GBK pages with and without a declared charset, both engines.
    for (const k of ['discuz/gbk/none', 'discuz/gbk/meta', 'discuz/utf-8/header', 'phpbb/utf-8/none']) expect([k, kinds.has(k)]).toEqual([k, true]);
    const sets = forumRuleSets();
    let posts = 0;
    const failures: string[] = [];
    const checkThread = async (t: ThreadTruth): Promise<void> => {
      const kind = `${t.flavour}/${t.encoding}/${t.charset}`;
      const truth = await json<PostTruth[]>(`/_truth/forum/posts?tid=${t.tid}`);
      const got = new Map<string, Record<string, unknown>>();
      let url: string | undefined = new URL(t.url, sim.url).toString();
      for (let page = 0; url && page < 50; page++) {
        const { bytes, contentType } = await get(url);
        const res = applyRules(decodeHtml(bytes, contentType).text, url, sets);
        if (res?.ruleSet !== t.flavour) {
          failures.push(`${kind} ${t.tid}: rule set ${res?.ruleSet}`);
          break;
        }
        for (const item of res.items) got.set(String(item.pid), item);
        url = res.next;
      }
      if (got.size !== truth.length) failures.push(`${kind} ${t.tid}: ${got.size} posts of ${truth.length}`);
      for (const p of truth) {
        const g = got.get(String(p.pid));
        if (!g) continue;
        posts++;
        // Discuz shows minutes only; compare at minute resolution.
        const minute = Math.floor(Date.parse(String(g.published_at)) / 60000);
        if (g.author !== p.author) failures.push(`${kind} ${p.pid}: author ${String(g.author)} != ${p.author}`);
        if (minute !== Math.floor(p.createdMs / 60000)) failures.push(`${kind} ${p.pid}: time ${String(g.published_at)} != ${new Date(p.createdMs).toISOString()}`);
        if (String(g.text).trim() !== p.text.trim()) failures.push(`${kind} ${p.pid}: text differs`);
      }
    };
    // A few threads at a time: the server answers while the previous page is parsed.
    const queue = [...threads];
    await Promise.all(Array.from({ length: 6 }, async () => {
      for (let t = queue.shift(); t; t = queue.shift()) await checkThread(t);
    }));
    expect(failures.slice(0, 20)).toEqual([]);
    expect(posts).toBe(threads.reduce((a, t) => a + t.posts, 0));
  }, 120000);
});
