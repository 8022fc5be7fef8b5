import { ManualClock } from '../../../src/core/clock';
import { decodeHtml } from '../../../src/core/charset';
import { applyRules, forumRuleSets } from '../../../src/extractors/html-rules';
import { DEFAULT_START_MS, startSimsite, type SimsiteHandle } from '../../../src/simsite';

interface ThreadTruth { tid: number; flavour: string; encoding: string; charset: string; url: string; posts: number }
interface PostTruth { pid: number; author: string; text: string; createdMs: number }

/**
 * The shipped Discuz and phpBB rule sets against simsite's forums (a local server, like the
 * fetcher tests' ones): every post of a thread, across its pages, with author, time and own
 * text equal to simsite's ground truth, for each flavour × encoding × charset-declaration.
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

  it('extracts every post of one thread per flavour, encoding and charset declaration', async () => {
    const threads = await json<ThreadTruth[]>('/_truth/forum/threads');
    const byKind = new Map<string, ThreadTruth>();
    for (const t of threads) {
      const kind = `${t.flavour}/${t.encoding}/${t.charset}`;
      const seen = byKind.get(kind);
      if (t.posts > 1 && (!seen || t.posts > seen.posts)) byKind.set(kind, t);
    }
    expect([...byKind.keys()].some((k) => k.startsWith('discuz/gbk'))).toBe(true);
    expect([...byKind.keys()].some((k) => k.startsWith('phpbb/'))).toBe(true);
    const sets = forumRuleSets();
    for (const [kind, t] of byKind) {
      const truth = await json<PostTruth[]>(`/_truth/forum/posts?tid=${t.tid}`);
      const got = new Map<string, Record<string, unknown>>();
      let url: string | undefined = new URL(t.url, sim.url).toString();
      for (let page = 0; url && page < 50; page++) {
        const { bytes, contentType } = await get(url);
        const res = applyRules(decodeHtml(bytes, contentType).text, url, sets);
        expect([kind, res?.ruleSet]).toEqual([kind, t.flavour]);
        for (const item of res!.items) got.set(String(item.pid), item);
        url = res!.next;
      }
      const mismatches = truth.filter((p) => {
        const g = got.get(String(p.pid));
        // Discuz shows minutes only; compare at minute resolution.
        return !g || g.author !== p.author || String(g.text).trim() !== p.text.trim()
          || Math.floor(Date.parse(String(g.published_at)) / 60000) !== Math.floor(p.createdMs / 60000);
      });
      expect([kind, got.size, mismatches.map((p) => p.pid)]).toEqual([kind, truth.length, []]);
    }
  }, 60000);
});
