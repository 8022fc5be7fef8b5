import { ManualClock } from '../../../src/core/clock';
import { startSimsite } from '../../../src/simsite';
import { defaultBreakouts, spreadBreakout } from '../../../src/simsite/breakouts';
import { createWorld } from '../../../src/simsite/world';

describe('simsite break-outs', () => {
  const world = createWorld({ seed: 5, users: 2000 });
  const specs = defaultBreakouts(world.startMs, 2, 12);

  it('schedules distinct new hashtags over the days, zh and en, after a quiet lead', () => {
    expect(new Set(specs.map((s) => s.hashtag)).size).toBe(12);
    expect(specs.filter((s) => s.lang === 'en').length).toBe(4);
    expect(specs[0]!.startMs).toBe(world.startMs + 6 * 3_600_000);
    for (let i = 1; i < specs.length; i++) expect(specs[i]!.startMs).toBeGreaterThan(specs[i - 1]!.startMs);
    expect(specs.every((s) => s.startMs < world.startMs + 2 * 86_400_000)).toBe(true);
  });

  it('spreads from the seeds through fans, once per user, in time order, deterministically', () => {
    const spec = specs[0]!;
    const posts = spreadBreakout(world, spec);
    expect(posts.length).toBeGreaterThan(50);
    expect(posts[0]!.createdMs).toBe(spec.startMs);
    for (let i = 1; i < posts.length; i++) expect(posts[i]!.createdMs).toBeGreaterThanOrEqual(posts[i - 1]!.createdMs);
    expect(new Set(posts.map((p) => p.userIndex)).size).toBe(posts.length);
    expect(posts.every((p) => p.text.startsWith(`#${spec.hashtag}#`))).toBe(true);
    // Every adopter after the seeds follows an earlier adopter.
    const earlier = new Set<number>();
    posts.forEach((p, i) => {
      if (i >= spec.seeds) expect([...world.followeesOf(p.userIndex)].some((f) => earlier.has(f))).toBe(true);
      earlier.add(p.userIndex);
    });
    expect(spreadBreakout(world, spec).map((p) => p.text)).toEqual(posts.map((p) => p.text));
  });

  it('draws each post\'s sentiment from the break-out\'s mix', () => {
    const spec = { ...specs[1]!, maxPosts: 4000, fanProbability: 0.5, horizonMs: 86_400_000 };
    const posts = spreadBreakout(world, spec);
    expect(posts.length).toBeGreaterThan(500);
    for (const label of ['positive', 'negative', 'neutral'] as const) {
      expect(Math.abs(posts.filter((p) => p.sentiment === label).length / posts.length - spec.mix[label])).toBeLessThan(0.06);
    }
  });

  it('puts the break-out posts in their adopters\' timelines, in time order, with the rest of the timeline intact', () => {
    const spec = specs[0]!;
    const plain = createWorld({ seed: 5, users: 2000 });
    const injected = createWorld({ seed: 5, users: 2000, breakouts: [spec] });
    const posts = injected.breakoutPosts().get(spec.name)!;
    expect(posts.length).toBeGreaterThan(50);
    const end = spec.startMs + spec.horizonMs;
    for (const bp of posts.slice(0, 20)) {
      const u = bp.userIndex;
      expect(injected.postCountAt(u, end)).toBe(plain.postCountAt(u, end) + 1);
      expect(injected.postCountAt(u, bp.createdMs - 1)).toBe(plain.postCountAt(u, bp.createdMs - 1));
      const sp = injected.postOfBreakout(bp);
      expect(sp.text).toBe(bp.text);
      expect(sp.createdMs).toBe(bp.createdMs);
      expect(sp.lang).toBe(spec.lang);
      expect(sp.repostOf).toBeNull();
      const n = injected.postCountAt(u, end);
      for (let k = 1; k < n; k++) expect(injected.postTimes(u, k)).toBeGreaterThanOrEqual(injected.postTimes(u, k - 1));
      expect(Array.from({ length: n }, (_, k) => injected.post(u, k).id)).toContain(sp.id);
    }
    // Users who never adopt keep exactly their posts.
    const adopters = new Set(posts.map((p) => p.userIndex));
    const other = plain.users.find((x) => !adopters.has(x.index) && plain.postCountAt(x.index, end) > 3)!.index;
    expect(injected.post(other, 2).text).toBe(plain.post(other, 2).text);
  });

  it('serves the break-outs that started by now at /_truth/breakouts, with the mids of their published posts', async () => {
    const injected = createWorld({ seed: 5, users: 2000, breakouts: specs.slice(0, 2) });
    const spec = specs[0]!;
    const clock = new ManualClock(spec.startMs + 20 * 60_000);
    const site = await startSimsite({ world: injected, clock });
    try {
      const rows = (await (await fetch(`${site.url}/_truth/breakouts`)).json()) as { name: string; hashtag: string; started: boolean; posts: number; postIds: string[]; sentiment: Record<string, number> }[];
      expect(rows.map((r) => [r.name, r.started])).toEqual([[spec.name, true], [specs[1]!.name, false]]);
      const published = injected.breakoutPosts().get(spec.name)!.filter((p) => p.createdMs <= clock.nowMs());
      expect(rows[0]!.posts).toBe(published.length);
      expect(rows[0]!.postIds).toEqual(published.map((p) => injected.postOfBreakout(p).id));
      expect(rows[0]!.sentiment.positive! + rows[0]!.sentiment.neutral! + rows[0]!.sentiment.negative!).toBe(published.length);
      expect(rows[1]!.posts).toBe(0);
    } finally {
      await site.close();
    }
  });
});
