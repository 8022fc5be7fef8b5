import { ManualClock } from '../../src/core/clock';
import type { Job, SubjectState } from '../../src/core/envelope';
import { newSubjectState } from '../../src/core/envelope';
import { silentLogger } from '../../src/core/logger';
import type { Adapter, Emitted, VisitContext, VisitOutcome } from '../../src/parsers/adapter';
import { createWorld, DEFAULT_WEIBO_OPTIONS, type Era, type LifecycleOptions, type World } from '../../src/simsite';
import { WeiboSite } from '../../src/simsite/weibo/routes';

/** simsite's microblog routes called in-process: the adapter's requests without sockets. */
export interface FakeWeibo {
  world: World;
  clock: ManualClock;
  /** Path and query of every request, in order. */
  requests: string[];
  ctx: VisitContext;
  /** Replaces the body of the next matching request (faults). */
  override(match: RegExp, body: string): void;
  subjects: number;
}

export function fakeWeibo(era: Era, users = 60, seed = 5, lifecycle: LifecycleOptions | null = null): FakeWeibo {
  const world = createWorld({ seed, users, historyDays: 20, lifecycle });
  const site = new WeiboSite(world, { ...DEFAULT_WEIBO_OPTIONS, era, responseCacheMs: 0 });
  const clock = new ManualClock(world.startMs);
  const overrides: { match: RegExp; body: string }[] = [];
  const fake: FakeWeibo = {
    world, clock, requests: [], subjects: 0,
    override: (match, body) => overrides.push({ match, body }),
    ctx: {
      nowMs: () => clock.nowMs(),
      logger: silentLogger,
      subjectCount: async () => fake.subjects,
      fetchText: async (url) => {
        const u = new URL(url);
        const path = `${u.pathname}${u.search}`;
        fake.requests.push(path);
        const o = overrides.findIndex((x) => x.match.test(path));
        if (o >= 0) return { url, status: 200, text: overrides.splice(o, 1)[0]!.body, fetchedAtMs: clock.nowMs() };
        const res = site.handle({
          method: 'GET', pathname: u.pathname, url: path, query: u.searchParams, headers: {}, host: '127.0.0.1',
          client: 'unit', nowMs: clock.nowMs(), realMs: 0, body: '',
        });
        if (!res) throw new Error(`no route for ${path}`);
        return { url, status: res.status, text: String(res.body), fetchedAtMs: clock.nowMs() };
      },
    },
  };
  return fake;
}

export function jobFor(uid: number | string, state: Partial<SubjectState> = {}, nowMs = 0): Job {
  return { subject: `weibo:user:${uid}`, state: newSubjectState(nowMs, state), claimedAtMs: nowMs, leaseToken: 't' };
}

/** Runs one visit to its end: what it emitted and its outcome. */
export async function drive(adapter: Adapter, job: Job, ctx: VisitContext): Promise<{ emitted: Emitted[]; outcome: VisitOutcome }> {
  const gen = adapter.visit(job, ctx);
  const emitted: Emitted[] = [];
  for (;;) {
    const step = await gen.next();
    if (step.done) return { emitted, outcome: step.value };
    emitted.push(step.value);
  }
}
