import { createWorld } from '../../../src/simsite';
import { truthPostsOf } from '../../../src/simsite/truth';

const DAY_MS = 86_400_000;

describe('simsite world', () => {
  it('is the same for the same seed: users, graph and posts', () => {
    const a = createWorld({ seed: 11, users: 400 });
    const b = createWorld({ seed: 11, users: 400 });
    expect(b.users).toEqual(a.users);
    expect(Array.from(b.graph.fans)).toEqual(Array.from(a.graph.fans));
    for (const u of [0, 7, 123, 399]) {
      const pa = [...truthPostsOf(a, u, a.historyStartMs, a.startMs)];
      const pb = [...truthPostsOf(b, u, b.historyStartMs, b.startMs)];
      expect(pb).toEqual(pa);
    }
  });

  it('differs for a different seed', () => {
    const a = createWorld({ seed: 11, users: 400 });
    const b = createWorld({ seed: 12, users: 400 });
    expect(b.users.map((u) => u.uid)).not.toEqual(a.users.map((u) => u.uid));
    expect(b.users.map((u) => u.screenName)).not.toEqual(a.users.map((u) => u.screenName));
    const postsA = [...truthPostsOf(a, 3, a.historyStartMs, a.startMs)].map((p) => p.createdMs);
    const postsB = [...truthPostsOf(b, 3, b.historyStartMs, b.startMs)].map((p) => p.createdMs);
    expect(postsB).not.toEqual(postsA);
  });

  it('gives the same post times however far and in what steps the posting process is extended', () => {
    const a = createWorld({ seed: 5, users: 50 });
    const b = createWorld({ seed: 5, users: 50 });
    const end = a.startMs + 10 * DAY_MS;
    for (let t = a.historyStartMs; t <= end; t += DAY_MS / 3) b.postCountAt(9, t);
    const countA = a.postCountAt(9, end);
    expect(countA).toBe(b.postCountAt(9, end));
    for (let k = 0; k < countA; k++) expect(b.postTimes(9, k)).toBe(a.postTimes(9, k));
  });

  it('has about 20% zombies with few followers and a heavy-tailed fan distribution', () => {
    const w = createWorld({ seed: 3, users: 5000 });
    const zombies = w.users.filter((u) => u.zombie);
    expect(zombies.length / w.users.length).toBeGreaterThan(0.15);
    expect(zombies.length / w.users.length).toBeLessThan(0.25);
    const fans = w.users.map((u) => w.fanCount(u.index)).sort((x, y) => x - y);
    const median = fans[Math.floor(fans.length / 2)]!;
    const top = fans[fans.length - 1]!;
    expect(top).toBeGreaterThan(50 * Math.max(1, median));
    const zombieFans = zombies.map((u) => w.fanCount(u.index)).sort((x, y) => x - y);
    expect(zombieFans[Math.floor(zombieFans.length * 0.9)]!).toBeLessThanOrEqual(2);
    // Zombies barely post: far below the median active rate.
    const zombieRate = zombies.reduce((s, u) => s + u.postsPerDay, 0) / zombies.length;
    expect(zombieRate).toBeLessThan(0.05);
  });

  it('builds a 20,000-user world without generating any post until one is asked for', () => {
    const w = createWorld({ seed: 1, users: 20_000 });
    expect(w.users).toHaveLength(20_000);
    expect(w.cachedPosts).toBe(0);
    const u = w.users.findIndex((x) => !x.zombie && w.postCountAt(x.index, w.startMs) > 0);
    expect(u).toBeGreaterThanOrEqual(0);
    expect(w.cachedPosts).toBe(0); // counting posts does not generate them
    w.post(u, 0);
    expect(w.cachedPosts).toBe(1);
  });

  it('modulates posting by time of day when diurnal', () => {
    const w = createWorld({ seed: 2, users: 300, diurnal: true, medianPostsPerDay: 8, historyDays: 30 });
    const byHour = new Array<number>(24).fill(0);
    for (let u = 0; u < w.users.length; u++) {
      const n = w.postCountAt(u, w.startMs);
      for (let k = 0; k < n; k++) byHour[new Date(w.postTimes(u, k) + 8 * 3_600_000).getUTCHours()]!++;
    }
    // Peak at 21:00 China time, trough at 09:00: amplitude 0.8 gives a ratio near 9.
    expect(byHour[21]!).toBeGreaterThan(3 * byHour[9]!);
  });

  it('labels every post with a sentiment and keeps reposts pointing at earlier posts', () => {
    const w = createWorld({ seed: 4, users: 300 });
    let reposts = 0;
    for (let u = 0; u < w.users.length; u++) {
      for (const p of truthPostsOf(w, u, w.historyStartMs, w.startMs)) {
        expect(['positive', 'negative', 'neutral']).toContain(p.sentiment);
        expect(p.id).toMatch(/^\d{16}$/);
        if (p.repostOf) {
          reposts++;
          expect(BigInt(p.repostOf)).toBeLessThan(BigInt(p.id));
        }
      }
    }
    expect(reposts).toBeGreaterThan(0);
  });
});
