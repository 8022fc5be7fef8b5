import { lastValueFrom, of, toArray } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { detectLanguage, languageStage } from '../../../src/enrichers/language';
import { stageContext } from '../../helpers/stage-context';

describe('detectLanguage', () => {
  it.each([
    ['今天北京的天气很好，大家出去走走吧', 'zh'],
    ['The weather in Beijing is lovely today', 'en'],
    ['转发微博 RT @someone: great news 太好了', 'zh'],
    ['lol ok', 'en'],
    ['こんにちは、元気ですか', 'other'],
    ['Привет, как дела', 'other'],
    ['😀😀 123 !!!', 'other'],
  ])('%s → %s', (text, lang) => expect(detectLanguage(text)).toBe(lang));
});

describe('language stage', () => {
  it('writes lang unless the adapter set it', async () => {
    const job = new JobTracker({ subject: 'weibo:user:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
    const envs: DocEnvelope[] = [
      { job, doc: { index: 'posts', id: 'a', body: { text: '天气很好' } } },
      { job, doc: { index: 'posts', id: 'b', body: { text: 'nice weather', lang: 'fr' } } },
    ];
    const config = languageStage.schema.parse({ type: 'language' });
    const out = await lastValueFrom(of(...envs).pipe(languageStage.build(config, stageContext().ctx), toArray()));
    expect(out.map((e) => e.doc.body['lang'])).toEqual(['zh', 'fr']);
  });
});
