import type { SubjectState } from '../../../src/core/envelope';
import { buildModelFromFrontier, poissonNextVisitPolicy, schedulerFields, schedulerState } from '../../../src/schedule/core-bridge';
import { nextVisitAtMs } from '../../../src/schedule/poisson';
import { newSubjectState, observe } from '../../../src/schedule/subject-state';
import { packSubject, packedDue, unpackSubject } from '../../../src/sources/frontier/packed-state';
import { poissonConfigOf, scheduledStates } from '../../bench/scale/scheduled-states';
import { asStored } from '../../helpers/stored-state';

/** A weibo user after four visits under pipelines/social.yaml, as poissonNextVisitPolicy wrote it (open first window). */
const weibo: SubjectState = {
  firstSeenMs: 1795245528873, postsSeen: 275, visits: 4, failures: 0, status: 'active', via: 'seed', meta: { containerid: '1076031990539025' },
  followers: 1234, watermark: '5012345678901234567', lastVisitMs: 1795259032293, lastPostMs: 1795253968523,
  schedule: { ep: 271.903392, eh: 714.734139, rp: 36, rh: 92.007455, lp: 2, lh: 1.505945, ap: 274, ah: 720.266378, op: 273, oh: 716.515427, iv: 1.502 },
};
const withDiurnal: SubjectState = { ...weibo, schedule: { ...weibo.schedule, dn: 12.5, dc: -3.25, ds: 0.75 } };
/** With the window splits the planner reads (subject state v5): whole numbers. */
const withSplits: SubjectState = { ...weibo, schedule: { ...weibo.schedule, ss: 1234, sp: 567 } };

/** With the realized delays the planner is calibrated by (subject state v6): fading, so fractional. */
const withDelays: SubjectState = { ...weibo, schedule: { ...weibo.schedule, dp: 3.517, dh: 11.2345 } };

/** Precision the compact record keeps (packed-schedule.ts): half a thousandth of a post or of an hour. */
const HALF_QUANTUM = 0.0005 + 1e-12;

function expectWithinPrecision(got: Record<string, unknown> | undefined, want: Record<string, unknown> | undefined): void {
  expect(Object.keys(got ?? {}).sort()).toEqual(Object.keys(want ?? {}).sort());
  for (const [k, v] of Object.entries(want ?? {})) {
    const g = got![k] as number;
    expect(Math.abs(g - (v as number))).toBeLessThanOrEqual(HALF_QUANTUM);
    // Whole post counts stay exact.
    if (['ep', 'rp', 'lp', 'ap', 'op', 'dn'].includes(k) && Number.isInteger(v)) expect(g).toBe(v);
  }
}

describe('packed schedule record', () => {
  it('keeps every field of the scheduler record within 1e-3 post / 1e-3 h and the rest of the state exact, in ≤ 80 bytes', () => {
    for (const s of [weibo, withDiurnal, withSplits]) {
      const v = packSubject(s, 1_795_262_639_493);
      const back = unpackSubject(v);
      expect({ ...back, schedule: undefined }).toEqual({ ...asStored(s), schedule: undefined });
      expectWithinPrecision(back.schedule, s.schedule);
      expect(packedDue(v)).toBe(1_795_262_639_493);
    }
    // Generic keys and millionths took this state to 146 bytes.
    expect(packSubject(weibo, 0).length).toBeLessThanOrEqual(80);
    expect(packSubject(withDiurnal, 0).length).toBeLessThanOrEqual(packSubject(weibo, 0).length + 8);
    // The splits ride in the compact form too (the header flag takes a second byte), not the generic one.
    expect(packSubject(withSplits, 0).length).toBeLessThanOrEqual(packSubject(weibo, 0).length + 6);
  });

  it('keeps the realized delays compact, to 0.1 post and 0.1 h', () => {
    const back = unpackSubject(packSubject(withDelays, 0)).schedule!;
    expect(back['dp']).toBeCloseTo(3.5, 9);
    expect(back['dh']).toBeCloseTo(11.2, 9);
    expectWithinPrecision({ ...back, dp: 0, dh: 0 }, { ...withDelays.schedule, dp: 0, dh: 0 });
    // The flag's second byte and two short codes, not the generic record.
    expect(packSubject(withDelays, 0).length).toBeLessThanOrEqual(packSubject(weibo, 0).length + 6);
  });

  it('leaves out what repeats (first visit, no forgetting yet, no open window) and restores it exactly', () => {
    let st = newSubjectState(1_795_245_528_873);
    st = observe(st, { atMs: 1_795_245_600_000, postTimesMs: [1_795_200_000_000, 1_795_240_000_000], pageLimitHit: true });
    const first: SubjectState = { firstSeenMs: st.firstSeenMs, postsSeen: 2, visits: 1, failures: 0, status: 'active', lastVisitMs: st.lastVisitMs!, schedule: { ...schedulerFields(st), iv: 3.25 } };
    expect(first.schedule).toMatchObject({ rp: first.schedule!['ep'], lp: first.schedule!['ep'], ap: first.schedule!['ep'], op: 0, oh: -1 });
    const v = packSubject(first, 0);
    const back = unpackSubject(v);
    expectWithinPrecision(back.schedule, first.schedule);
    expect(back.schedule).toMatchObject({ op: 0, oh: -1, rp: back.schedule!['ep'], lp: back.schedule!['ep'], ap: back.schedule!['ep'], ah: back.schedule!['eh'] });
    // Header byte, ep, eh and iv: the state without its schedule record plus about 8 bytes.
    const bare = packSubject({ ...first, schedule: undefined }, 0).length;
    expect(v.length - bare).toBeLessThanOrEqual(10);
  });

  it('reads schedule records packed before the compact form (generic keys, millionths) exactly', () => {
    // Written by packSubject before the compact form (commit 3605d9e), with and without time-of-day sums.
    const old = Buffer.from('BmDIJ+fPiLwHqa7j5580kwIEAPiu8AzEnYYIAYeX/ZLqutvHRdIJEHNlZWQBAQGRxsDE09T0AQsDAsCqp4MCBQL26M+pBQRycAKAxKoiBHJoAr6w31cEbHACgJL0AQRsaAKy6rcBBGFwAoCip4UCBGFoApSS864FBG9wAoCZrYQCBG9oAsahqasFBGl2AuCstwE=', 'base64');
    expect(unpackSubject(old)).toEqual(weibo);
    expect(packedDue(old)).toBe(1_795_262_639_493);
    const oldDiurnal = Buffer.from('/////////7wHqa7j5580kwIEAPiu8AzEnYYIAYeX/ZLqutvHRdIJEHNlZWQBAQGRxsDE09T0AQ4DAsCqp4MCBQL26M+pBQRycAKAxKoiBHJoAr6w31cEbHACgJL0AQRsaAKy6rcBBGFwAoCip4UCBGFoApSS864FBG9wAoCZrYQCBG9oAsahqasFBGl2AuCstwEHAsDw9QsJAp/djAMLAuDGWw==', 'base64');
    expect(unpackSubject(oldDiurnal)).toEqual(withDiurnal);
    expect(packedDue(oldDiurnal)).toBeUndefined();
  });

  it('packs records the scheduler did not write generically, losing nothing', () => {
    const s = weibo.schedule!;
    const records: Record<string, unknown>[] = [
      { ...s, extra: 1 },
      { ep: 1.5, eh: 2 },
      { ...s, eh: -0.5 },
      { ...s, dn: 1, dc: 0.5 },
      { ...s, op: 3, oh: -1 },
      { ...s, ep: 2 ** 60 },
      { ...s, iv: '2' },
      { ...s, ah: 1 },
    ];
    for (const schedule of records) expect(unpackSubject(packSubject({ ...weibo, schedule }, 0))).toEqual(asStored({ ...weibo, schedule }));
  });

  it('moves no due time of simulated poisson subjects by more than a few seconds, nor any interval by 1e-3 of itself', () => {
    const config = poissonConfigOf('social.yaml');
    const states = scheduledStates({
      pipeline: 'social.yaml', base: weibo, subjects: 300, visits: 4, medianRatePerHour: 0.1, sigma: 1.5,
      historyHours: 720, firstVisitMaxPosts: 2000, visitMaxPosts: 100, seed: 7,
    });
    const model = buildModelFromFrontier(states, config);
    const round = states.map((s) => unpackSubject(packSubject(s, 0, 'weibo:user:1990539025'), 'weibo:user:1990539025'));
    let worstMs = 0;
    let worstShare = 0;
    states.forEach((s, i) => {
      const before = nextVisitAtMs(schedulerState(s), model);
      const after = nextVisitAtMs(schedulerState(round[i]!), model);
      worstMs = Math.max(worstMs, Math.abs(after - before));
      // lastVisitMs is kept to the second: the interval from it is what the record decides.
      worstShare = Math.max(worstShare, Math.abs(after - round[i]!.lastVisitMs! - (before - s.lastVisitMs!)) / (before - s.lastVisitMs!));
    });
    expect(worstShare).toBeLessThan(1e-3);
    expect(worstMs).toBeLessThan(5_000);
    // And the whole population's model barely moves.
    const refit = buildModelFromFrontier(round, config);
    expect(Math.abs(refit.prior.alpha / refit.prior.betaHours / (model.prior.alpha / model.prior.betaHours) - 1)).toBeLessThan(1e-3);
  });

  it("takes the same recheck decisions (visit now, or put off) from a stored state as from the one the scheduler wrote", () => {
    for (const [pipeline, rate, latestOnly, name] of [['social.yaml', 0.1, false, 'weibo:user:1990539025'], ['news-monitor.yaml', 0.02, true, 'web:page:https://a.example/n/1.html']] as const) {
      const states = scheduledStates({
        pipeline, base: weibo, subjects: 300, visits: 4, medianRatePerHour: rate, sigma: 1.5,
        historyHours: latestOnly ? 48 : 720, firstVisitMaxPosts: latestOnly ? 1 : 2000, visitMaxPosts: latestOnly ? 1 : 100, latestOnly, seed: 11,
      });
      const model = buildModelFromFrontier(states, poissonConfigOf(pipeline));
      const policy = poissonNextVisitPolicy(() => model);
      let decisions = 0;
      let differ = 0;
      for (const s of states) {
        const back = unpackSubject(packSubject(s, 0, name), name);
        const ivMs = (s.schedule!['iv'] as number) * 3_600_000;
        for (const share of [0.5, 0.85, 0.95, 1, 1.2, 3]) {
          const now = s.lastVisitMs! + share * Math.min(ivMs, 24 * 3_600_000);
          const a = policy.recheck!(s, now);
          const b = policy.recheck!(back, now);
          decisions += 1;
          // Undefined: visit now; else the new due time, which may move by the second lastVisitMs lost.
          if ((a === undefined) !== (b === undefined) || (a && b && Math.abs(a.nextDueMs - b.nextDueMs) > 5_000)) differ += 1;
        }
      }
      expect(decisions).toBe(1800);
      // Only a claim within a second of a threshold can go the other way.
      expect(differ / decisions).toBeLessThan(0.005);
    }
  });
});
