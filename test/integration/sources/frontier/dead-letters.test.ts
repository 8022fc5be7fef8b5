import { ManualClock } from '../../../../src/core/clock';
import { DeadLetterStream } from '../../../../src/sources/frontier/dead-letters';
import { useRedis, type TestRedis } from '../../../helpers/services';

/** The reading side of the dead-letter stream that `freshet serve` uses: pages, one entry, removal, counts by code. */
describe('DeadLetterStream reads (real Redis)', () => {
  let r: TestRedis;
  let stream: DeadLetterStream;
  beforeAll(async () => {
    r = await useRedis('dead-letters');
    stream = new DeadLetterStream(r.redis, { namespace: `${r.prefix}x`, deadLetterMaxLen: 10_000 }, new ManualClock(1_000));
    for (let i = 0; i < 450; i++) {
      await stream.deadLetter({ code: i % 3 === 0 ? 'E_PARSE' : 'E_HTTP_5XX', stage: 's', subject: `weibo:user:${i}`, message: `m${i}` });
    }
  });
  afterAll(async () => r.cleanup());

  it('lists newest first in pages that join without gaps or repeats', async () => {
    const first = await stream.list(200);
    const second = await stream.list(200, first[199]!.id);
    const third = await stream.list(200, second[199]!.id);
    const subjects = [...first, ...second, ...third].map((e) => e.fields['subject']);
    expect(subjects).toHaveLength(450);
    expect(new Set(subjects).size).toBe(450);
    expect(subjects[0]).toBe('weibo:user:449');
    expect(subjects[449]).toBe('weibo:user:0');
  });

  it('counts codes over the newest entries only, reading them in pages', async () => {
    expect(await stream.countByCode()).toEqual({ E_PARSE: 150, E_HTTP_5XX: 300 });
    // Newest 300: subjects 449…150, of which i % 3 === 0 are 150, 153, … 447.
    expect(await stream.countByCode(300)).toEqual({ E_PARSE: 100, E_HTTP_5XX: 200 });
  });

  it('shows and removes one entry', async () => {
    const [newest] = await stream.list(1);
    expect((await stream.get(newest!.id))?.fields['message']).toBe('m449');
    expect(await stream.remove(newest!.id)).toBe(true);
    expect(await stream.remove(newest!.id)).toBe(false);
    expect(await stream.get(newest!.id)).toBeUndefined();
    expect(await stream.length()).toBe(449);
  });
});
