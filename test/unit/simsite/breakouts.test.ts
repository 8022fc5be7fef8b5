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
});
