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
import { measureWorkers, workerChild } from './workers';

/**
 * Memory layout of the frontier (issue 9): Redis bytes per subject, packed state in listpack
 * buckets + their due index + Bloom, with SUBJECTS loaded through RedisFrontier.offer into a
 * private redis-server (default config), extrapolated to 10 M; the Redis CPU of a claim with
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

/** A subject's state as the runner stores it after a few visits (watermark, rate evidence, schedule). */
const visitedState: SubjectState = {
  firstSeenMs: 1_795_245_528_873, postsSeen: 37, visits: 4, failures: 0, status: 'active', via: 'seed',
  meta: { containerid: '1076031990539025' }, followers: 1234, watermark: '5012345678901234567',
  lastPostMs: 1_795_240_000_000, lastVisitMs: 1_795_245_528_969,
} as SubjectState;

const uid = (i: number): string => `weibo:user:${String(1_000_000_000 + i * 7919)}`;

/**
 * A news article as a `web:page:` subject after a few conditional revisits (issue 20): its
 * validators (a strong ETag and Last-Modified, packed as web_pages packs them) and last body size
 * in `meta`, a depth, and the section page that linked to it as `via` (what the runner stores).
 */
const WEB_SUBJECTS = Number(process.env['BENCH_WEB_SUBJECTS'] ?? 200_000);
const webState: SubjectState = {
  firstSeenMs: 1_795_245_528_873, postsSeen: 0, visits: 4, failures: 0, status: 'active', depth: 2,
  via: 'web:page:https://www.harbourdaily.example.com/news/2026/11/index.html',
  meta: { v: packValidators({ etag: '"5f3a9c2e-bd41"', lastModifiedSecs: 1_795_240_000 }), b: (48_213).toString(36) },
  lastPostMs: 1_795_240_000_000, lastVisitMs: 1_795_245_528_969,
} as SubjectState;
const webUid = (i: number): string => `web:page:https://www.harbourdaily.example.com/news/2026/11/${String(100_000 + i)}.html`;

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
async function load(frontier: RedisFrontier, n: number, dueMs: number, name = uid, state = visitedState): Promise<void> {
  const batch = Math.ceil(n / 200);
  for (let i = 0; i < n; i += batch) {
    const items = Array.from({ length: Math.min(batch, n - i) }, (_, j) => ({ subject: name(i + j), state }));
    await frontier.offer(items, dueMs + i / batch);
  }
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
    const before = await usedMemory(redis);
    const t0 = performance.now();
    await load(frontier, SUBJECTS, 1_795_245_528_873);
    const loadSec = (performance.now() - t0) / 1000;
    const after = await usedMemory(redis);
    const perSubject = (after - before) / SUBJECTS;
    const buckets = bucketsPerShard(SUBJECTS, SHARDS);
    let bucketBytes = 0;
    let indexBytes = 0;
    let bloomBytes = 0;
    const encodings = new Map<string, number>();
    let fullest = 0;
    for (let s = 0; s < SHARDS; s++) {
      const k = shardKeys(NS, s);
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
          bucketBytes += Number(res[i]);
          encodings.set(String(res[i + 1]), (encodings.get(String(res[i + 1])) ?? 0) + 1);
          fullest = Math.max(fullest, Number(res[i + 2]));
        }
      }
    }
    const jsonBytes = Buffer.byteLength(JSON.stringify(visitedState));
    const v = 'packed listpack buckets';
    row(v, 'subjects', SUBJECTS);
    row(v, 'offer_subjects_per_sec', SUBJECTS / loadSec);
    row(v, 'redis_bytes_per_subject', perSubject);
    row(v, 'bucket_hash_bytes_per_subject', bucketBytes / SUBJECTS);
    row(v, 'due_index_bytes_per_subject', indexBytes / SUBJECTS);
    row(v, 'bloom_bytes_per_subject', bloomBytes / SUBJECTS);
    row(v, 'state_json_bytes', jsonBytes);
    row(v, 'packed_value_bytes', packSubject(visitedState, 0).length);
    row(v, 'subject_bytes', Buffer.byteLength(uid(0)));
    row(v, 'buckets', buckets * SHARDS);
    row(v, 'listpack_buckets', encodings.get('listpack') ?? 0);
    row(v, 'fullest_bucket_subjects', fullest);
    row(v, 'redis_gib_at_10M_subjects', (perSubject * 10_000_000) / 2 ** 30);

    // Claims stay O(log n): Redis CPU per claim script call with SUBJECTS loaded and with SMALL.
    const late = new ManualClock(1_795_245_528_873 + 2 * 86_400_000);
    const big = new RedisFrontier(redis, { ...frontier.opts }, late);
    const small = new RedisFrontier(redis, { ...frontier.opts, namespace: `${NS}-small`, bloomCapacity: SMALL }, late);
    await load(small, SMALL, 1_795_245_528_873);
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

    // Web page subjects with validators (issue 20), loaded alone into an empty server.
    await redis.flushall();
    const webNs = `${NS}-web`;
    const web = new RedisFrontier(redis, { ...frontier.opts, namespace: webNs, bloomCapacity: WEB_SUBJECTS }, systemClock);
    const webBefore = await usedMemory(redis);
    await load(web, WEB_SUBJECTS, 1_795_245_528_873, webUid, webState);
    const webPerSubject = ((await usedMemory(redis)) - webBefore) / WEB_SUBJECTS;
    const webEncodings = new Map<string, number>();
    for (let sh = 0; sh < SHARDS; sh++) {
      const k = shardKeys(webNs, sh);
      const keys = Array.from({ length: bucketsPerShard(WEB_SUBJECTS, SHARDS) }, (_, b) => `${k.bucketPrefix}${b}`);
      for (let from = 0; from < keys.length; from += 1000) {
        const pipe = redis.pipeline();
        for (const key of keys.slice(from, from + 1000)) pipe.object('ENCODING', key);
        for (const [, e] of (await pipe.exec()) ?? []) if (e !== null) webEncodings.set(String(e), (webEncodings.get(String(e)) ?? 0) + 1);
      }
    }
    const wv = 'web page subjects with validators';
    row(wv, 'subjects', WEB_SUBJECTS);
    row(wv, 'redis_bytes_per_subject', webPerSubject);
    row(wv, 'state_json_bytes', Buffer.byteLength(JSON.stringify(webState)));
    row(wv, 'packed_value_bytes', packSubject(webState, 0, webUid(0)).length);
    row(wv, 'subject_bytes', Buffer.byteLength(webUid(0)));
    row(wv, 'stored_subject_bytes', storedNameBytes(webUid(0)));
    row(wv, 'listpack_buckets', webEncodings.get('listpack') ?? 0);
    row(wv, 'hashtable_buckets', webEncodings.get('hashtable') ?? 0);
    row(wv, 'redis_gib_at_10M_subjects', (webPerSubject * 10_000_000) / 2 ** 30);

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
      encodings: [...encodings].map(([e, n]) => `${n} ${e}`).join(', '), redis_config: 'default (hash-max-listpack-entries 128, hash-max-listpack-value 64)',
      state: 'a subject after a few visits (JSON 247 B), packed with its due time into one field of a bucket hash; bucket due index; Bloom bits',
    }, results, [
      goal('redis bytes per subject incl. due entry', '<=', 120, perSubject),
      goal('redis GiB at 10 M subjects', '<=', 1.2 * 1e9 / 2 ** 30, (perSubject * 10_000_000) / 2 ** 30),
      goal('redis bytes per web page subject with validators incl. due entry (issue 20)', '<=', 120, webPerSubject),
      goal(`claim Redis CPU at ${SUBJECTS} / at ${SMALL} subjects (O(log n))`, '<=', 1.5, bigUsec / smallUsec),
      goal('bloom bits per entry / theoretical', '<=', 1.1, bitsPerEntry / theoreticalBitsPerEntry),
      goal('bloom bytes held by Redis / theoretical', '<=', 1.1, bloomBytes / SUBJECTS / (theoreticalBitsPerEntry / 8)),
      goal('bloom MiB for 50 M keys at 1 %', '<=', 64 * 1e6 / 2 ** 20, at50M.bits / 8 / 2 ** 20),
      goal('bloom measured false-positive rate', '<=', FP_RATE * 1.1, fp),
      goal('bloom false negatives', '==', 0, falseNegatives),
    ], { note: `private redis-server on ${PORT} without persistence; memory is used_memory before/after loading, divided by subjects; worker runs share the 2 cores with simsite (parent process), Redis and other users of the machine` });
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
