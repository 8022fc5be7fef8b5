import os from 'node:os';
import { Redis } from 'ioredis';
import { ManualClock, systemClock } from '../../../src/core/clock';
import type { SubjectState } from '../../../src/core/envelope';
import { bloomFalsePositiveRate, bloomMayContain, bloomSize } from '../../../src/sources/frontier/bloom';
import { FrontierCounts } from '../../../src/sources/frontier/counts';
import { RedisFrontier } from '../../../src/sources/frontier/frontier';
import { bucketsPerShard, shardKeys, shardOf } from '../../../src/sources/frontier/keys';
import { packValidators } from '../../../src/fetchers/conditional-get';
import { packSubject } from '../../../src/sources/frontier/packed-state';
import { storedNameBytes } from '../../../src/sources/frontier/subject-name';
import { ownRedis } from '../../helpers/redis-server';
import { goal, writeReport, type ResultRow } from '../lib/results';
import { scheduledStates } from './scheduled-states';
import { measureWorkers, workerChild } from './workers';

/**
 * Memory layout of the frontier (issue 9): Redis bytes per subject, packed state in listpack
 * buckets + their due index + Bloom, with SUBJECTS loaded through RedisFrontier.offer into a
 * private redis-server (default config), extrapolated to 10 M, for weibo users and web pages,
 * each with the `schedule` record a poisson pipeline writes and without it (fixed_interval); the Redis CPU of a claim with
 * SUBJECTS and with SMALL subjects loaded (O(log n): about the same); and the Bloom filter's size
 * and false-positive rate measured on PROBES unseen keys, probing the bits Redis holds with the
 * same double hashing as the Lua script (bloomPositions).
 */
const SUBJECTS = Number(process.env['BENCH_SUBJECTS'] ?? 1_000_000);
const PROBES = Number(process.env['BENCH_PROBES'] ?? 10_000_000);
const SHARDS = 4;
const FP_RATE = 0.01;
const PORT = 6493;
const NS = 'bench-scale';
const USERS = Number(process.env['BENCH_USERS'] ?? 1500);
const SMALL = 10_000;
const CLAIMS = 200;
const CLAIM_BATCH = 32;
/** BENCH_WORKERS= (empty) measures memory, claims and Bloom only: a quick run. */
const WORKERS = (process.env['BENCH_WORKERS'] ?? '1,2,4').split(',').filter((w) => w !== '').map(Number);

/**
 * A weibo user's state after a few visits under `fixed_interval` (no scheduler record): watermark,
 * followers, container id. The poisson states below add the `schedule` record the runner writes.
 */
const visitedState: SubjectState = {
  firstSeenMs: 1_795_245_528_873, postsSeen: 37, visits: 4, failures: 0, status: 'active',
  meta: { containerid: '1076031000000000' }, followers: 1234, watermark: '5012345678901234567',
  lastPostMs: 1_795_240_000_000, lastVisitMs: 1_795_245_528_969,
} as SubjectState;

const uid = (i: number): string => `weibo:user:${String(1_000_000_000 + i * 7919)}`;
/** A user's state with its own timeline container (107603 + uid), as the weibo adapter reads it from the profile. */
const ofUser = (s: SubjectState, i: number): SubjectState => ({ ...s, meta: { ...s.meta, containerid: `107603${uid(i).slice('weibo:user:'.length)}` } });

/**
 * A news article as a `web:page:` subject after a few conditional revisits (issue 20): its
 * validators (a strong ETag and Last-Modified, packed as web_pages packs them) and last body size
 * in `meta` and a depth (what the runner stores).
 */
const WEB_SUBJECTS = Number(process.env['BENCH_WEB_SUBJECTS'] ?? 200_000);
const webState: SubjectState = {
  firstSeenMs: 1_795_245_528_873, postsSeen: 0, visits: 4, failures: 0, status: 'active', depth: 2,
  meta: { v: packValidators({ etag: '"5f3a9c2e-bd41"', lastModifiedSecs: 1_795_240_000 }), b: (48_213).toString(36) },
  lastPostMs: 1_795_240_000_000, lastVisitMs: 1_795_245_528_969,
} as SubjectState;
const webUid = (i: number): string => `web:page:https://www.harbourdaily.example.com/news/2026/11/${String(100_000 + i)}.html`;

/**
 * The same subjects under the pipelines' `poisson` schedule: SIMULATED distinct states, each after
 * VISITS visits folded in by the real policy (scheduled-states.ts), with the `schedule` record the
 * runner writes; subject i gets state i mod SIMULATED. Weibo users post at a median 0.1 an hour
 * (σ of the log 1.5; pipelines/social.yaml), articles change at a median 0.02 an hour
 * (pipelines/news-monitor.yaml, a visit sees the latest change only).
 */
const SIMULATED = 1000;
const VISITS = 4;
const weiboScheduled = scheduledStates({
  pipeline: 'social.yaml', base: visitedState, subjects: SIMULATED, visits: VISITS, medianRatePerHour: 0.1, sigma: 1.5,
  historyHours: 30 * 24, firstVisitMaxPosts: 200 * 10, visitMaxPosts: 10 * 10,
});
const webScheduled = scheduledStates({
  pipeline: 'news-monitor.yaml', base: webState, subjects: SIMULATED, visits: VISITS, medianRatePerHour: 0.02, sigma: 1.5,
  historyHours: 48, firstVisitMaxPosts: 1, visitMaxPosts: 1, latestOnly: true,
});

/** Redis CPU microseconds per script call of `claim` batches, from INFO commandstats (evalsha). */
async function claimUsecPerCall(redis: Redis, frontier: RedisFrontier): Promise<number> {
  await redis.config('RESETSTAT');
  for (let i = 0; i < CLAIMS; i++) if ((await frontier.claim(CLAIM_BATCH)).length < CLAIM_BATCH) throw new Error('ran out of due subjects');
  const stats = await redis.info('commandstats');
  const m = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(stats)!;
  return Number(m[2]) / Number(m[1]);
}

/**
 * Offers n subjects in 200 batches, each due a millisecond after the previous: every size gets
 * the same due-time density per bucket, so the claim costs of two sizes compare. Distinct due
 * times interleaved over buckets are the dearest case for claims (one bucket scan per subject).
 */
async function load(frontier: RedisFrontier, n: number, dueMs: number, name: (i: number) => string, stateOf: (i: number) => SubjectState): Promise<void> {
  const batch = Math.ceil(n / 200);
  for (let i = 0; i < n; i += batch) {
    const items = Array.from({ length: Math.min(batch, n - i) }, (_, j) => ({ subject: name(i + j), state: stateOf(i + j) }));
    await frontier.offer(items, dueMs + i / batch);
  }
}

interface Memory {
  perSubject: number;
  bucketBytes: number;
  indexBytes: number;
  bloomBytes: number;
  encodings: Map<string, number>;
  fullest: number;
  loadSec: number;
}

/** Loads n subjects into an empty namespace and measures what Redis holds for them, bucket by bucket. */
async function measureMemory(redis: Redis, frontier: RedisFrontier, n: number, name: (i: number) => string, stateOf: (i: number) => SubjectState): Promise<Memory> {
  const before = await usedMemory(redis);
  const t0 = performance.now();
  await load(frontier, n, 1_795_245_528_873, name, stateOf);
  const loadSec = (performance.now() - t0) / 1000;
  const perSubject = ((await usedMemory(redis)) - before) / n;
  const buckets = bucketsPerShard(n, SHARDS);
  let bucketBytes = 0;
  let indexBytes = 0;
  let bloomBytes = 0;
  let fullest = 0;
  const encodings = new Map<string, number>();
  for (let s = 0; s < SHARDS; s++) {
    const k = shardKeys(frontier.opts.namespace, s);
    indexBytes += Number(await redis.memory('USAGE', k.bdue, 'SAMPLES', 0)) + Number(await redis.memory('USAGE', k.counts, 'SAMPLES', 0));
    bloomBytes += Number(await redis.memory('USAGE', k.bloom, 'SAMPLES', 0));
    for (let from = 0; from < buckets; from += 1000) {
      const pipe = redis.pipeline();
      for (let b = from; b < Math.min(buckets, from + 1000); b++) {
        const key = `${k.bucketPrefix}${b}`;
        pipe.memory('USAGE', key, 'SAMPLES', 0).object('ENCODING', key).hlen(key);
      }
      const res = ((await pipe.exec()) ?? []).map(([, v]) => v);
      for (let i = 0; i < res.length; i += 3) {
        if (res[i + 1] === null) continue;
        bucketBytes += Number(res[i]);
        encodings.set(String(res[i + 1]), (encodings.get(String(res[i + 1])) ?? 0) + 1);
        fullest = Math.max(fullest, Number(res[i + 2]));
      }
    }
  }
  return { perSubject, bucketBytes, indexBytes, bloomBytes, encodings, fullest, loadSec };
}

/** Packed value sizes (due time + state) over the distinct states of a variant. */
function valueSizes(states: readonly SubjectState[], name: (i: number) => string): { mean: number; max: number; over64: number; json: number } {
  const sizes = states.map((st, i) => packSubject(st, 0, name(i)).length);
  const json = states.reduce((a, st) => a + Buffer.byteLength(JSON.stringify(st)), 0) / states.length;
  return { mean: sizes.reduce((a, b) => a + b, 0) / sizes.length, max: Math.max(...sizes), over64: sizes.filter((x) => x > 64).length / sizes.length, json };
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

async function main(): Promise<void> {
  const server = await ownRedis(PORT, { persist: false });
  const redis = new Redis(server.url);
  const results: ResultRow[] = [];
  const row = (variant: string, metric: string, value: number | null): void => {
    results.push({ system: 'freshet-frontier', variant, metric, value: value === null ? null : Math.round(value * 1000) / 1000 });
  };
  try {
    const frontier = new RedisFrontier(redis, { namespace: NS, shards: SHARDS, leaseMs: 60_000, bloomCapacity: SUBJECTS, bloomFalsePositiveRate: FP_RATE, deadLetterMaxLen: 1000 }, systemClock);
    const memoryRows = (variant: string, n: number, m: Memory, states: readonly SubjectState[], name: (i: number) => string): void => {
      const sizes = valueSizes(states, name);
      row(variant, 'subjects', n);
      row(variant, 'offer_subjects_per_sec', n / m.loadSec);
      row(variant, 'redis_bytes_per_subject', m.perSubject);
      row(variant, 'bucket_hash_bytes_per_subject', m.bucketBytes / n);
      row(variant, 'due_index_bytes_per_subject', m.indexBytes / n);
      row(variant, 'bloom_bytes_per_subject', m.bloomBytes / n);
      row(variant, 'distinct_states', states.length);
      row(variant, 'state_json_bytes_mean', sizes.json);
      row(variant, 'packed_value_bytes_mean', sizes.mean);
      row(variant, 'packed_value_bytes_max', sizes.max);
      row(variant, 'packed_values_over_64_bytes_share', sizes.over64);
      row(variant, 'subject_bytes', Buffer.byteLength(name(0)));
      row(variant, 'stored_subject_bytes', storedNameBytes(name(0)));
      row(variant, 'buckets', bucketsPerShard(n, SHARDS) * SHARDS);
      row(variant, 'listpack_buckets', m.encodings.get('listpack') ?? 0);
      row(variant, 'hashtable_buckets', m.encodings.get('hashtable') ?? 0);
      row(variant, 'fullest_bucket_subjects', m.fullest);
      row(variant, 'redis_gib_at_10M_subjects', (m.perSubject * 10_000_000) / 2 ** 30);
    };
    // Weibo users with the poisson schedule record: the frontier the claims and the Bloom filter below use.
    const mem = await measureMemory(redis, frontier, SUBJECTS, uid, (i) => ofUser(weiboScheduled[i % SIMULATED]!, i));
    const perSubject = mem.perSubject;
    const bloomBytes = mem.bloomBytes;
    const v = 'packed listpack buckets';
    const weiboPoisson = 'weibo subjects with schedule record (poisson)';
    memoryRows(weiboPoisson, SUBJECTS, mem, weiboScheduled.map(ofUser), uid);

    // Claims stay O(log n): Redis CPU per claim script call with SUBJECTS loaded and with SMALL.
    const late = new ManualClock(1_795_245_528_873 + 2 * 86_400_000);
    const big = new RedisFrontier(redis, { ...frontier.opts }, late);
    const small = new RedisFrontier(redis, { ...frontier.opts, namespace: `${NS}-small`, bloomCapacity: SMALL }, late);
    await load(small, SMALL, 1_795_245_528_873, uid, (i) => ofUser(weiboScheduled[i % SIMULATED]!, i));
    const bigUsec = await claimUsecPerCall(redis, big);
    const smallUsec = await claimUsecPerCall(redis, small);
    row(v, `claim_${CLAIM_BATCH}_redis_usec_at_${SUBJECTS}`, bigUsec);
    row(v, `claim_${CLAIM_BATCH}_redis_usec_at_${SMALL}`, smallUsec);
    // stats().dueNow estimates past 100 due buckets per shard; countDue scans them all.
    let t2 = performance.now();
    const bigCounts = new FrontierCounts(redis, big.opts, late);
    const dueNow = (await bigCounts.stats()).dueNow;
    row(v, 'stats_ms_with_all_subjects_due', performance.now() - t2);
    t2 = performance.now();
    const exactDue = await bigCounts.countDue(late.nowMs());
    row(v, 'count_due_ms_with_all_subjects_due', performance.now() - t2);
    row(v, 'stats_due_now_estimate_error', Math.abs(dueNow - exactDue) / exactDue);

    // Bloom filter: the bits Redis holds, probed with keys never offered.
    const perShard = bloomSize(Math.ceil(SUBJECTS / SHARDS), FP_RATE);
    const blooms = await Promise.all(Array.from({ length: SHARDS }, async (_, s) => (await redis.getBuffer(shardKeys(NS, s).bloom)) ?? Buffer.alloc(0)));
    let falseNegatives = 0;
    for (let i = 0; i < 20_000; i++) {
      const key = uid(Math.floor((i * SUBJECTS) / 20_000));
      if (!bloomMayContain(blooms[shardOf(key, SHARDS)]!, key, perShard)) falseNegatives++;
    }
    let falsePositives = 0;
    const t1 = performance.now();
    for (let i = 0; i < PROBES; i++) {
      const key = `weibo:user:unseen-${i}`;
      if (bloomMayContain(blooms[shardOf(key, SHARDS)]!, key, perShard)) falsePositives++;
    }
    const probeSec = (performance.now() - t1) / 1000;
    const fp = falsePositives / PROBES;
    const theoreticalBitsPerEntry = -Math.log(FP_RATE) / Math.LN2 ** 2;
    const bitsPerEntry = (perShard.bits * SHARDS) / SUBJECTS;
    const at50M = bloomSize(50_000_000, FP_RATE);
    row('bloom 1%', 'bits_per_entry', bitsPerEntry);
    row('bloom 1%', 'theoretical_bits_per_entry', theoreticalBitsPerEntry);
    row('bloom 1%', 'hashes', perShard.hashes);
    row('bloom 1%', 'expected_false_positive_rate', bloomFalsePositiveRate(perShard, Math.ceil(SUBJECTS / SHARDS)));
    row('bloom 1%', 'measured_false_positive_rate', fp);
    row('bloom 1%', 'unseen_keys_probed', PROBES);
    row('bloom 1%', 'false_negatives_in_20000_inserted', falseNegatives);
    row('bloom 1%', 'mib_for_50M_keys', at50M.bits / 8 / 2 ** 20);
    row('bloom 1%', 'probe_keys_per_sec_js', PROBES / probeSec);

    // The other variants, each loaded alone into an empty server: weibo users without a schedule
    // record (fixed_interval), web page subjects with validators (issue 20) with and without one.
    const alone = async (ns: string, n: number, name: (i: number) => string, stateOf: (i: number) => SubjectState): Promise<Memory> => {
      await redis.flushall();
      return measureMemory(redis, new RedisFrontier(redis, { ...frontier.opts, namespace: ns, bloomCapacity: n }, systemClock), n, name, stateOf);
    };
    const weiboFixed = 'weibo subjects without a schedule record (fixed_interval)';
    const fixedMem = await alone(`${NS}-fixed`, SUBJECTS, uid, (i) => ofUser(visitedState, i));
    memoryRows(weiboFixed, SUBJECTS, fixedMem, [ofUser(visitedState, 0)], uid);
    const webPoisson = 'web page subjects with validators and schedule record (poisson)';
    const webMem = await alone(`${NS}-web`, WEB_SUBJECTS, webUid, (i) => webScheduled[i % SIMULATED]!);
    memoryRows(webPoisson, WEB_SUBJECTS, webMem, webScheduled, webUid);
    const webFixed = 'web page subjects with validators, without a schedule record (fixed_interval)';
    const webFixedMem = await alone(`${NS}-web-fixed`, WEB_SUBJECTS, webUid, () => webState);
    memoryRows(webFixed, WEB_SUBJECTS, webFixedMem, [webState], webUid);
    // What a server setting would do for the poisson states: listpack values of up to 128 bytes.
    await redis.config('SET', 'hash-max-listpack-value', '128');
    const wide = ', hash-max-listpack-value 128';
    memoryRows(weiboPoisson + wide, WEB_SUBJECTS, await alone(`${NS}-wide`, WEB_SUBJECTS, uid, (i) => ofUser(weiboScheduled[i % SIMULATED]!, i)), weiboScheduled.map(ofUser), uid);
    memoryRows(webPoisson + wide, WEB_SUBJECTS, await alone(`${NS}-web-wide`, WEB_SUBJECTS, webUid, (i) => webScheduled[i % SIMULATED]!), webScheduled, webUid);
    await redis.config('SET', 'hash-max-listpack-value', '64');

    // Throughput with 1, 2 and 4 worker processes sharing one frontier (blackhole sink).
    await redis.flushall();
    // The first run warms simsite up (its posts are generated lazily, then cached) and is not reported.
    const runs = WORKERS.length === 0 ? [] : (await measureWorkers(__filename, server.url, USERS, [1, ...WORKERS])).slice(1);
    const pps = (w: number): number => {
      const r = runs.find((x) => x.workers === w)!;
      return r.requests / (r.elapsedMs / 1000);
    };
    for (const r of runs) {
      const v = `${r.workers} worker${r.workers > 1 ? 's' : ''}`;
      row(v, 'pages_per_sec', pps(r.workers));
      row(v, 'speedup_vs_1_worker', pps(r.workers) / pps(1));
      row(v, 'pages', r.requests);
      row(v, 'workers_cpu_sec', r.workerCpuSec);
      row(v, 'simsite_cpu_sec', r.simsiteCpuSec);
      row(v, 'redis_cpu_sec', r.redisCpuSec);
      row(v, 'min_jobs_of_a_worker', Math.min(...r.jobsPerWorker));
      row(v, 'elapsed_sec', r.elapsedMs / 1000);
    }

    writeReport('scale', {
      subjects: SUBJECTS, web_subjects: WEB_SUBJECTS, shards: SHARDS, probes: PROBES, users_crawled: USERS, workers: WORKERS, bloom_false_positive_rate: FP_RATE, redis: (await redis.info('server')).match(/redis_version:(\S+)/)?.[1],
      encodings: [...mem.encodings].map(([e, n]) => `${n} ${e}`).join(', '), redis_config: 'default (hash-max-listpack-entries 128, hash-max-listpack-value 64)',
      state: `a subject packed with its due time into one field of a bucket hash; bucket due index; Bloom bits. poisson variants: ${SIMULATED} distinct states after ${VISITS} visits folded in by the real policy (poissonNextVisitPolicy: observe + schedulerFields + iv) under the schedule blocks of pipelines/social.yaml and news-monitor.yaml, test/bench/scale/scheduled-states.ts; fixed_interval variants: one state without a schedule record`,
    }, results, [
      goal('redis bytes per weibo subject with schedule record (poisson) incl. due entry', '<=', 120, perSubject),
      goal('redis GiB at 10 M weibo subjects with schedule record (poisson)', '<=', 1.2 * 1e9 / 2 ** 30, (perSubject * 10_000_000) / 2 ** 30),
      goal('redis bytes per web page subject with validators and schedule record (poisson) incl. due entry', '<=', 120, webMem.perSubject),
      goal('redis bytes per weibo subject without a schedule record (fixed_interval) incl. due entry', '<=', 120, fixedMem.perSubject),
      goal('redis bytes per web page subject with validators, without a schedule record (fixed_interval) incl. due entry (issue 20)', '<=', 120, webFixedMem.perSubject),
      goal(`claim Redis CPU at ${SUBJECTS} / at ${SMALL} subjects (O(log n))`, '<=', 1.5, bigUsec / smallUsec),
      goal('bloom bits per entry / theoretical', '<=', 1.1, bitsPerEntry / theoreticalBitsPerEntry),
      goal('bloom bytes held by Redis / theoretical', '<=', 1.1, bloomBytes / SUBJECTS / (theoreticalBitsPerEntry / 8)),
      goal('bloom MiB for 50 M keys at 1 %', '<=', 64 * 1e6 / 2 ** 20, at50M.bits / 8 / 2 ** 20),
      goal('bloom measured false-positive rate', '<=', FP_RATE * 1.1, fp),
      goal('bloom false negatives', '==', 0, falseNegatives),
    ], { note: `private redis-server on ${PORT} without persistence; memory is used_memory before/after loading, divided by subjects; ${WORKERS.length === 0 ? 'worker throughput not measured in this run (BENCH_WORKERS= empty)' : 'worker runs share the 2 cores with simsite (parent process), Redis and other users of the machine'}; load average ${os.loadavg()[0]!.toFixed(1)} at the end (2 cores shared with other jobs: CPU figures are noisy)` });
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

if (process.argv[2] === '--worker') {
  void workerChild().catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  void main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
