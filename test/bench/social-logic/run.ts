/**
 * `npm run bench social-logic`: the monitoring logic of issue 19 (deletions, edits, media) against
 * simsite's truth with faults on, in process (no runner, Redis or search engine; see harness.ts).
 * The goals that need them (completeness with every field equal, `freshet audit`'s list) are
 * measured end to end by `npm run bench social` (test/bench/social/run.ts). Writes test/bench/results/social-logic.json. Nothing here was tuned
 * on this run's seeds: the options are the defaults of the code under test, seeds 101 and 202.
 */
import { median, round3 } from '../lib/measure';
import { goal, writeReport, type ResultRow } from '../lib/results';
import { truthDeletions, truthEdits, truthMedia } from '../../../src/simsite';
import { simulateCapacity } from '../../helpers/capacity-sim';
import { runHarness, type HarnessOptions, type HarnessResult } from './harness';

const HOUR_MS = 3_600_000;

const BASE: Omit<HarnessOptions, 'seed'> = {
  users: 120,
  days: 4,
  visitIntervalMs: 4 * HOUR_MS,
  lifecycle: { deletedShare: 0.05, removedShare: 0.02, restrictedShare: 0.02, editedShare: 0.08, videoShare: 0.15, meanLifetimeMs: 24 * HOUR_MS, accountGoneShare: 0.02, meanAccountLifetimeMs: 48 * HOUR_MS },
  faults: { serverErrorRate: 0.03, timeoutRate: 0.01, softBlockRate: 0.03, http432Rate: 0.005, truncatedRate: 0.01, quotaVisitRate: 0.05 },
  pageLimit: 3,
  recheckPages: 8,
  recheckHours: 48,
  sweepPages: 2,
  maxChecksPerVisit: 10,
};

interface Scores {
  deletions: number;
  recorded: number;
  rightStatus: number;
  bracketOk: number;
  widthsOverInterval: number[];
  falseTombstones: number;
  edits: number;
  editsCaptured: number;
  versionsInvented: number;
  media: number;
  mediaOk: number;
  tombstones: number;
}

const norm = (t: string): string => t.replace(/[ \t]+\n/g, '\n').trim();

function score(r: HarnessResult, o: HarnessOptions): Scores {
  const settle = r.endMs - 2 * o.visitIntervalMs;
  const truth = new Map([...truthDeletions(r.world, r.endMs)].map((d) => [d.id, d]));
  const s: Scores = { deletions: 0, recorded: 0, rightStatus: 0, bracketOk: 0, widthsOverInterval: [], falseTombstones: 0, edits: 0, editsCaptured: 0, versionsInvented: 0, media: 0, mediaOk: 0, tombstones: 0 };
  for (const [id, st] of r.index) {
    const b = st.body;
    const status = (b['status'] as string | undefined) ?? 'active';
    const t = truth.get(id);
    if (status !== 'active') {
      s.tombstones += 1;
      const missAt = Date.parse(b['first_missing_at'] as string);
      if (!t || t.goneAtMs > missAt) s.falseTombstones += 1;
    }
    if (t && t.goneAtMs <= settle) {
      s.deletions += 1;
      if (status !== 'active') {
        s.recorded += 1;
        if (status === t.status) s.rightStatus += 1;
        const seen = Date.parse(b['last_seen_at'] as string);
        const miss = Date.parse(b['first_missing_at'] as string);
        if (seen <= t.goneAtMs && t.goneAtMs <= miss) s.bracketOk += 1;
        s.widthsOverInterval.push((miss - seen) / o.visitIntervalMs);
      } else if (process.env['SOCIAL_DEBUG']) console.error('missed deletion', o.seed, o.naive ? 'naive' : '', id, t.status, new Date(t.goneAtMs).toISOString(), JSON.stringify({ seen: b['last_seen_at'], fm: b['first_missing_at'], nf: b['not_found_count'], checked: b['status_checked_at'], created: b['created_at'] }));
    }
  }
  for (const e of truthEdits(r.world, r.endMs)) {
    const st = r.index.get(e.id);
    // Only edits the crawler had a visit to see, of posts still there.
    if (!st || truth.has(e.id) || e.editedAtMs > settle) continue;
    s.edits += 1;
    const b = st.body;
    const last = e.versions[e.versions.length - 1]!;
    const texts = new Set(e.versions.map((v) => norm(v.text)));
    const mine = ((b['versions'] as { text: string }[] | undefined) ?? [{ text: b['text'] as string }]).map((v) => v.text);
    if (mine.some((t) => !texts.has(t))) s.versionsInvented += 1;
    if (b['text'] === norm(last.text) && b['edited_at'] === new Date(Math.floor(e.editedAtMs / 1000) * 1000).toISOString()) s.editsCaptured += 1;
  }
  for (const m of truthMedia(r.world, settle)) {
    const st = r.index.get(m.id);
    if (!st) continue;
    s.media += 1;
    const got = st.body['media'] as { pictures: { url: string }[]; picture_count: number; video?: { url?: string; duration_secs?: number } } | undefined;
    const picsOk = got !== undefined && got.picture_count === m.pictureCount && JSON.stringify(got.pictures.map((p) => p.url).sort()) === JSON.stringify(m.pictures.map((p) => p.url).sort());
    const videoOk = m.video ? got?.video?.url === m.video.url && got.video.duration_secs === m.video.durationSecs : got?.video === undefined;
    if (picsOk && videoOk) s.mediaOk += 1;
  }
  return s;
}

interface SetResult {
  s: Scores;
  faults: Record<string, number>;
  requests: number;
  checks: number;
  visits: number;
  failed: number;
  softPages: number;
  softAsEnd: number;
}

async function runSet(seeds: number[], naive = false): Promise<SetResult> {
  const out: SetResult = { s: emptyScores(), faults: {}, requests: 0, checks: 0, visits: 0, failed: 0, softPages: 0, softAsEnd: 0 };
  for (const seed of seeds) {
    const o = { ...BASE, seed, naive };
    const r = await runHarness(o);
    const s = score(r, o);
    for (const k of Object.keys(out.s) as (keyof Scores)[]) {
      if (k === 'widthsOverInterval') out.s.widthsOverInterval.push(...s.widthsOverInterval);
      else out.s[k] += s[k];
    }
    for (const [k, v] of Object.entries(r.faultsInjected)) out.faults[k] = (out.faults[k] ?? 0) + v;
    out.requests += r.requests;
    out.checks += r.checks;
    out.visits += r.visits;
    out.failed += r.failedVisits;
    out.softPages += r.softBlockedTimelinePages;
    out.softAsEnd += r.softBlocksReadAsEnd;
  }
  return out;
}

function emptyScores(): Scores {
  return { deletions: 0, recorded: 0, rightStatus: 0, bracketOk: 0, widthsOverInterval: [], falseTombstones: 0, edits: 0, editsCaptured: 0, versionsInvented: 0, media: 0, mediaOk: 0, tombstones: 0 };
}

const share = (a: number, b: number): number | null => (b > 0 ? round3(a / b) : null);

function rowsOf(variant: string, x: SetResult, system = 'freshet'): ResultRow[] {
  const t = x.s;
  const row = (metric: string, value: number | null): ResultRow => ({ system, variant, metric, value });
  return [
    row('deletions_settled', t.deletions),
    row('deletions_recorded_share', share(t.recorded, t.deletions)),
    row('deletions_recorded_right_status_share', share(t.rightStatus, t.deletions)),
    row('brackets_containing_truth_share', share(t.bracketOk, t.recorded)),
    row('median_bracket_width_over_visit_interval', t.widthsOverInterval.length ? round3(median(t.widthsOverInterval)) : null),
    row('tombstones', t.tombstones),
    row('false_tombstones', t.falseTombstones),
    row('edited_posts', t.edits),
    row('edits_captured_share', share(t.editsCaptured, t.edits)),
    row('posts_with_invented_versions', t.versionsInvented),
    row('posts_with_media', t.media),
    row('media_equal_to_truth_share', share(t.mediaOk, t.media)),
    row('soft_blocked_timeline_pages', x.softPages),
    row('soft_blocks_read_as_end_of_list', x.softAsEnd),
    row('requests', x.requests),
    row('single_post_checks', x.checks),
    row('visits', x.visits),
    row('visits_failed', x.failed),
    ...Object.entries(x.faults).sort().map(([k, v]) => row(`faults_injected_${k}`, v)),
  ];
}

const CAPACITIES: [number, number][] = [[0.5, 3], [2, 5], [5, 10], [20, 40]];

async function main(): Promise<void> {
  // Dev seeds were used to find what the mechanisms missed; the goals are computed on the others.
  const devSeeds = [101, 202];
  const heldOutSeeds = [303, 404, 505];
  const dev = await runSet(devSeeds);
  const held = await runSet(heldOutSeeds);
  // The same crawl with the absent-means-deleted rule of a crawler without coverage rules or checks.
  const naive = await runSet(heldOutSeeds, true);
  const rows: ResultRow[] = [...rowsOf('dev-seeds', dev), ...rowsOf('held-out-seeds', held), ...rowsOf('held-out-seeds', naive, 'naive-absent-means-deleted')];
  // Self-tuning politeness: the controller alone against token buckets it is never told about.
  let worstReach = Infinity;
  let worstRefused = 0;
  for (const [perSec, burst] of CAPACITIES) {
    for (const seed of [11, 12, 13]) {
      const { ok, refused } = simulateCapacity(perSec, burst, 30 * 60, seed);
      const okAfter = ok.slice(600).reduce((a, b) => a + b, 0);
      const refusedAfter = refused.slice(600).reduce((a, b) => a + b, 0);
      const reach = okAfter / (20 * 60) / perSec;
      const refusedShare = refusedAfter / (okAfter + refusedAfter);
      worstReach = Math.min(worstReach, reach);
      worstRefused = Math.max(worstRefused, refusedShare);
      rows.push({ system: 'freshet-aimd', variant: `capacity-${perSec}-per-sec-seed-${seed}`, metric: 'share_of_capacity_after_10_min', value: round3(reach) });
      rows.push({ system: 'freshet-aimd', variant: `capacity-${perSec}-per-sec-seed-${seed}`, metric: 'refused_share_after_10_min', value: round3(refusedShare) });
    }
  }
  const t = held.s;
  writeReport('social-logic', { ...BASE, devSeeds, heldOutSeeds, capacities: CAPACITIES }, rows, [
    goal('deletions/removals/restrictions recorded with the right status (share, held-out seeds)', '>=', 0.99, share(t.rightStatus, t.deletions)),
    goal('brackets [last_seen_at, first_missing_at] containing the true time (share, held-out seeds)', '>=', 1, share(t.bracketOk, t.recorded)),
    goal('median bracket width / visit interval (held-out seeds)', '<=', 1.5, t.widthsOverInterval.length ? round3(median(t.widthsOverInterval)) : null),
    goal('false tombstones with 5xx, timeouts, soft blocks, 432, truncation, quota and page limits injected (held-out seeds)', '<=', 0, t.falseTombstones),
    goal('edits captured with the right text and time (share, held-out seeds)', '>=', 0.99, share(t.editsCaptured, t.edits)),
    goal('posts with media indexed with media equal to the truth (share, held-out seeds)', '>=', 1, share(t.mediaOk, t.media)),
    goal('soft-block responses read as an empty timeline (held-out seeds)', '<=', 0, held.softAsEnd),
    goal('AIMD: worst share of an unannounced capacity reached after 10 simulated minutes', '>=', 0.9, round3(worstReach)),
    goal('AIMD: worst share of requests refused after 10 simulated minutes', '<=', 0.02, round3(worstRefused)),
  ], {
    note: 'in-process: weibo_api adapter + monitor logic against simsite routes (no runner/Redis/OpenSearch); AIMD rows: the controller against simulated token buckets. '
      + 'Completeness (every field equal, 0 duplicates) and the audit list need the runner, Redis and the search node: measured by `npm run bench social` (social.json)',
  });
}

void main().catch((err: unknown) => {
  console.error(`social-logic: ${(err as Error).message}`);
  process.exitCode = 1;
});
