import { ManualClock } from '../../../src/core/clock';
import { createWorld, startSimsite, type SimsiteHandle } from '../../../src/simsite';

let site: SimsiteHandle;
let uid: number;
let token: string;
let mid: string;

beforeAll(async () => {
  const world = createWorld({ seed: 31, users: 200 });
  site = await startSimsite({ world, clock: new ManualClock(world.startMs) });
  const u = world.users.find((x) => world.postCountAt(x.index, world.startMs) > 3)!;
  uid = u.uid;
  token = u.urlToken;
  mid = world.post(u.index, 0).id;
});
afterAll(() => site.close());

describe('simsite robustness', () => {
  it('never answers 5xx to odd parameters (faults off)', async () => {
    const odd = ['', '-1', '0', 'abc', '1e3', '99999999999999999999', '%FF', '1.5'];
    const templates = [
      (x: string) => `/api/container/getIndex?type=uid&value=${x}`,
      (x: string) => `/api/container/getIndex?containerid=107603${uid}&page=${x}`,
      (x: string) => `/api/container/getIndex?containerid=107603${uid}&since_id=${x}`,
      (x: string) => `/api/container/getIndex?containerid=230413${uid}&page=1&count=${x}`,
      (x: string) => `/api/container/getIndex?containerid=107603${x}`,
      (x: string) => `/api/container/getIndex?containerid=231051_-_fans_-_${uid}&since_id=${x}`,
      (x: string) => `/api/container/getIndex?containerid=231051_-_followers_-_${uid}&page=${x}`,
      (x: string) => `/api/container/getIndex?containerid=${x}`,
      (x: string) => `/statuses/extend?id=${x}`,
      (x: string) => `/statuses/show?id=${x}`,
      (x: string) => `/detail/${x}`,
      (x: string) => `/comments/hotflow?id=${mid}&mid=${mid}&max_id=${x}`,
      (x: string) => `/comments/hotflow?id=${x}`,
      (x: string) => `/api/comments/show?id=${mid}&page=${x}`,
      (x: string) => `/api/v4/members/${token}/followees?offset=${x}&limit=20`,
      (x: string) => `/api/v4/members/${token}/followers?offset=0&limit=${x}`,
      (x: string) => `/api/v4/members/${x}`,
      (x: string) => `/forum/thread-${x}-1-1.html`,
      (x: string) => `/forum/thread-10001-${x}-1.html`,
      (x: string) => `/forum.php?mod=viewthread&tid=${x}&page=${x}`,
      (x: string) => `/forum/forum-1-${x}.html`,
      (x: string) => `/phpbb/viewtopic.php?f=4&t=40001&start=${x}`,
      (x: string) => `/phpbb/viewtopic.php?f=4&t=${x}`,
      (x: string) => `/phpbb/viewforum.php?f=${x}&start=${x}`,
      (x: string) => `/news/${x}.html`,
      (x: string) => `/news/?page=${x}`,
      (x: string) => `/_truth/posts?user=${x}`,
      (x: string) => `/_truth/comments?post=${x}`,
      (x: string) => `/_truth/forum/posts?thread=${x}`,
    ];
    const bad: string[] = [];
    for (const t of templates) {
      for (const x of odd) {
        const path = t(x);
        const r = await fetch(`${site.url}${path}`);
        await r.arrayBuffer();
        if (r.status >= 500) bad.push(`${r.status} ${path}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
