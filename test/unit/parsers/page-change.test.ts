import { contentSignature, normalizeMainText, textChange } from '../../../src/parsers/page-signature';
import { DEFAULT_DELETION_GRACE_MS, observeStatus, type GoneState } from '../../../src/parsers/page-status';

const H = 3_600_000;

describe('content signature', () => {
  it('ignores whitespace, zero-width characters and full-width forms, but not a changed word or number', () => {
    const a = '城区三座桥梁完成汛后检测。\n\n记者从市交通部门获悉 3 座桥梁。';
    expect(contentSignature(a)).toBe(contentSignature('  城区三座桥梁完成汛后检测。 记者从市交通部门获悉\u200b ３ 座桥梁。  '));
    expect(contentSignature(a)).not.toBe(contentSignature(a.replace('3', '5')));
    expect(contentSignature(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(normalizeMainText('Ａ\u3000B\t\nC')).toBe('A B C');
  });

  it('tells new, unchanged and changed texts', () => {
    const first = textChange(undefined, 'one');
    expect(first.change).toBe('new');
    expect(textChange(first.signature, ' one ').change).toBe('unchanged');
    expect(textChange(first.signature, 'two').change).toBe('changed');
  });
});

describe('page status', () => {
  it('marks a page deleted only on a second 404/410 a grace period after the first', () => {
    let s: GoneState = {};
    let r = observeStatus(s, { status: 404 }, 0);
    expect(r.verdict).toBe('suspect');
    s = r.state;
    r = observeStatus(s, { status: 410 }, DEFAULT_DELETION_GRACE_MS - 1);
    expect(r.verdict).toBe('suspect');
    r = observeStatus(r.state, { status: 404 }, DEFAULT_DELETION_GRACE_MS);
    expect(r).toEqual({ verdict: 'deleted', state: { firstMissingMs: 0, deletedMs: DEFAULT_DELETION_GRACE_MS } });
  });

  it('never takes a timeout, a 5xx or a 429 for a deletion, and a 200 clears a suspicion', () => {
    let s: GoneState = {};
    for (const obs of [{ error: 'timeout' }, { status: 500 }, { status: 503 }, { status: 429 }, { error: 'ECONNRESET' }]) {
      const r = observeStatus(s, obs, 10 * H);
      expect(r.verdict).toBe('unknown');
      s = r.state;
    }
    expect(s).toEqual({});
    const suspect = observeStatus({}, { status: 404 }, 0).state;
    expect(observeStatus(suspect, { status: 503 }, 10 * H)).toEqual({ verdict: 'unknown', state: suspect });
    expect(observeStatus(suspect, { status: 200 }, 10 * H)).toEqual({ verdict: 'live', state: {} });
    expect(observeStatus(suspect, { status: 304 }, 10 * H).verdict).toBe('live');
    expect(observeStatus({}, { status: 301 }, 0).verdict).toBe('moved');
  });
});
