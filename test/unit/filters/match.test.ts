import { lastValueFrom, of, toArray } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { matchConfigSchema, matchStage } from '../../../src/filters/match';
import { stageContext } from '../../helpers/stage-context';

const job = new JobTracker({ subject: 'weibo:user:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
const env = (id: string, index: string, body: Record<string, unknown>): DocEnvelope => ({ job, doc: { index, id, body } });

describe('match filter', () => {
  it('keeps documents meeting every condition and drops the rest with the reason', async () => {
    const config = matchConfigSchema.parse({
      type: 'match', reason: 'out_of_scope',
      keep_if: [{ field: 'author.followers', min: 10 }, { field: 'lang', in: ['zh', 'en'] }, { field: 'text', min_length: 3 }],
    });
    const { ctx, dropped } = stageContext();
    const input = [
      env('keep', 'posts', { author: { followers: 50 }, lang: 'zh', text: '天气很好' }),
      env('zombie', 'posts', { author: { followers: 2 }, lang: 'zh', text: '天气很好' }),
      env('lang', 'posts', { author: { followers: 50 }, lang: 'ja', text: 'こんにちは' }),
      env('short', 'posts', { author: { followers: 50 }, lang: 'en', text: 'ok' }),
      env('user', 'users', { followers_count: 1 }),
    ];
    const out = await lastValueFrom(of(...input).pipe(matchStage.build(config, ctx), toArray()));
    expect(out.map((e) => e.doc.id)).toEqual(['keep', 'user']);
    expect(dropped).toEqual(['zombie', 'lang', 'short'].map((id) => ({ id, stage: 'match', reason: 'out_of_scope' })));
  });

  it('rejects bad patterns and unknown keys at load time', () => {
    expect(matchConfigSchema.safeParse({ type: 'match', keep_if: [{ field: 'text', pattern: '([' }] }).success).toBe(false);
    expect(matchConfigSchema.safeParse({ type: 'match', keep_if: [{ field: 'text', minimum: 1 }] }).success).toBe(false);
  });
});
