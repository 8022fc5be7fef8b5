import { lastValueFrom, of, toArray } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { contentSignatureStage } from '../../../src/enrichers/content-signature';
import { contentSignature } from '../../../src/parsers/page-signature';
import { stageContext } from '../../helpers/stage-context';

describe('content_signature stage', () => {
  it('signs the text of page documents only, the same for the same text whatever its spacing', async () => {
    const job = new JobTracker({ subject: 'web:page:https://n.example/1.html', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
    const envs: DocEnvelope[] = [
      { job, doc: { index: 'pages', id: 'a', body: { text: '城区三座桥梁完成汛后检测。' } } },
      { job, doc: { index: 'pages', id: 'b', body: { text: '  城区三座桥梁完成汛后检测。\n' } } },
      { job, doc: { index: 'posts', id: 'c', body: { text: '城区三座桥梁完成汛后检测。' } } },
      { job, doc: { index: 'pages', id: 'd', body: {} } },
    ];
    const out = await lastValueFrom(of(...envs).pipe(contentSignatureStage.build(contentSignatureStage.schema.parse({ type: 'content_signature' }), stageContext().ctx), toArray()));
    expect(out.map((e) => e.doc.body['content_signature'])).toEqual([contentSignature('城区三座桥梁完成汛后检测。'), contentSignature('城区三座桥梁完成汛后检测。'), undefined, undefined]);
    expect(() => contentSignatureStage.schema.parse({ type: 'content_signature', fields: 'x' })).toThrow();
  });
});
