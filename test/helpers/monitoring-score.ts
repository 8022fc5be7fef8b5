import type { Client } from '@elastic/elasticsearch';
import { tokensToPlain } from '../../src/simsite/text/compose';
import { findPostByMid, truthPostsOf, type Era, type World } from '../../src/simsite';
import { truthDeletions, truthEdits, truthMedia, type TruthDeletion } from '../../src/simsite/monitoring-truth';
import { expectedPost, pickPost } from './weibo-truth';

/**
 * Scores a monitored crawl's posts index against simsite's truth (issue 19's "Done when"):
 * deletions with status and bracket, false tombstones, edits as versions, media, and completeness
 * with every field equal. Shared by the integration test and `npm run bench social`.
 */
export type PostBody = Record<string, unknown> & { id: string };

export async function allPostDocs(search: Client, index: string): Promise<PostBody[]> {
  await search.indices.refresh({ index });
  const out: PostBody[] = [];
  let res = await search.search<PostBody>({ index, size: 5000, scroll: '1m', sort: ['_doc'] });
  while (res.hits.hits.length > 0) {
    for (const h of res.hits.hits) out.push(h._source!);
    res = await search.scroll<PostBody>({ scroll_id: res._scroll_id!, scroll: '1m' });
  }
  await search.clearScroll({ scroll_id: res._scroll_id! }).catch(() => undefined);
  return out;
}

const ms = (v: unknown): number | undefined => (typeof v === 'string' ? Date.parse(v) : undefined);

export interface ScoreOptions {
  world: World;
  era: Era;
  /** uids of the users crawled (seeds, non-zombie). */
  uids: readonly number[];
  /** The crawl's end (simulated). */
  endMs: number;
  /** Deletions and edits later than endMs − graceMs are not counted (no visit could have seen them yet). */
  graceMs: number;
  /** The visit interval: an edit replaced by the next one within two of these is not counted (no read need have shown it). */
  intervalMs: number;
}

export interface MonitorScore {
  deletions: { eligible: number; recorded: number; wrongStatus: number; outsideBracket: number; missed: number; bracketWidthsMs: number[]; examples: string[] };
  falseTombstones: number;
  falseTombstoneIds: string[];
  edits: { eligible: number; captured: number; examples: string[] };
  media: { eligible: number; captured: number };
  completeness: { eligible: number; equal: number; missing: number; unequal: number; duplicates: number; examples: string[]; uidsWithMissing: number[] };
}

const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
export { median };

export function scoreMonitoring(docs: readonly PostBody[], o: ScoreOptions): MonitorScore {
  const { world, endMs, graceMs } = o;
  const byId = new Map<string, PostBody>();
  let duplicates = 0;
  for (const d of docs) {
    if (byId.has(d.id)) duplicates += 1;
    byId.set(d.id, d);
  }
  const gone = new Map<string, TruthDeletion>();
  for (const uid of o.uids) for (const t of truthDeletions(world, endMs, uid)) gone.set(t.id, t);

  const deletions = { eligible: 0, recorded: 0, wrongStatus: 0, outsideBracket: 0, missed: 0, bracketWidthsMs: [] as number[], examples: [] as string[] };
  const accounts = new Map<number, { lo: number; hi: number }>();
  for (const t of gone.values()) {
    const d = byId.get(t.id);
    // Only posts the crawl held before they went can be recorded (the rest it never saw).
    if (!d || t.goneAtMs > endMs - graceMs) continue;
    const seen = ms(d['last_seen_at']);
    if (seen !== undefined && seen > t.goneAtMs) continue; // never held while live (first read after it went is impossible: it was not shown)
    deletions.eligible += 1;
    const status = d['status'];
    if (status === undefined || status === 'active') {
      deletions.missed += 1;
      if (deletions.examples.length < 5) deletions.examples.push(`${t.id} ${t.status} at ${t.goneAt}; seen ${String(d['last_seen_at'])} missing ${String(d['first_missing_at'])} not_found ${String(d['not_found_count'])} created ${String(d['created_at'])}`);
      continue;
    }
    if (status !== t.status) {
      deletions.wrongStatus += 1;
      continue;
    }
    const lo = ms(d['last_seen_at']);
    const hi = ms(d['first_missing_at']);
    if (lo === undefined || hi === undefined || lo > t.goneAtMs || hi < t.goneAtMs) {
      deletions.outsideBracket += 1;
      continue;
    }
    deletions.recorded += 1;
    if (t.status !== 'account_gone') deletions.bracketWidthsMs.push(hi - lo);
    else {
      const a = accounts.get(t.uid) ?? { lo, hi };
      accounts.set(t.uid, { lo: Math.max(a.lo, lo), hi: Math.min(a.hi, hi) });
    }
  }
  // An account that went is one event: its bracket runs from the last sighting of any of its posts.
  for (const a of accounts.values()) deletions.bracketWidthsMs.push(a.hi - a.lo);

  const falseIds: string[] = [];
  for (const d of docs) {
    const status = d['status'];
    if (status === undefined || status === 'active') continue;
    const t = gone.get(d.id);
    const checked = ms(d['status_checked_at']) ?? endMs;
    // A tombstone is false when the post was there when it was checked (or never went).
    if (!t || t.goneAtMs > checked) falseIds.push(d.id);
  }

  const edits = { eligible: 0, captured: 0 };
  const missedEdits: string[] = [];
  for (const uid of o.uids) {
    for (const e of truthEdits(world, endMs, uid)) {
      const d = byId.get(e.id);
      if (!d) continue;
      const seenMs = ms(d['last_seen_at']) ?? 0;
      const texts = Array.isArray(d['versions']) ? (d['versions'] as { text: string }[]).map((v) => v.text) : [String(d['text'] ?? '')];
      const truthTexts = e.versions.map((v) => v.text.trim());
      const first = truthTexts.indexOf(texts[0]!);
      for (let j = 1; j < e.versions.length; j++) {
        const v = e.versions[j]!;
        if (v.atMs > seenMs || v.atMs > endMs - graceMs) continue;
        // A text replaced within two visit intervals may never be shown to a read (one visit can fail).
        const next = e.versions[j + 1];
        if (next && next.atMs - v.atMs < 2 * o.intervalMs) continue;
        // Edits before the crawl first held the post cannot be versions.
        if (first >= 0 && j <= first) continue;
        edits.eligible += 1;
        // Kept as a version with its text, after the versions before it.
        const at = texts.indexOf(truthTexts[j]!);
        if (first >= 0 && at > 0 && texts.slice(0, at).every((t) => truthTexts.slice(0, j).includes(t))) edits.captured += 1;
        else if (missedEdits.length < 5) missedEdits.push(`${e.id} v${j} at ${new Date(v.atMs).toISOString()} seen ${String(d['last_seen_at'])}: truth ${JSON.stringify(truthTexts)} got ${JSON.stringify(texts)}`);
      }
    }
  }

  const media = { eligible: 0, captured: 0 };
  for (const uid of o.uids) {
    for (const m of truthMedia(world, endMs, uid)) {
      const d = byId.get(m.id);
      if (!d) continue;
      media.eligible += 1;
      const dm = d['media'] as { picture_count?: number; pictures?: { id: string }[]; video?: { url?: string } } | undefined;
      const pics = (dm?.pictures ?? []).map((p) => p.id).sort().join(',');
      const want = m.pictures.map((p) => p.id).sort().join(',');
      const picsOk = (dm?.picture_count ?? 0) === m.pictureCount && pics === want;
      const videoOk = m.video === null ? dm?.video === undefined : dm?.video?.url === m.video.url;
      if (picsOk && videoOk) media.captured += 1;
    }
  }

  const completeness = { eligible: 0, equal: 0, missing: 0, unequal: 0, duplicates, examples: [] as string[], uidsWithMissing: [] as number[] };
  for (const uid of o.uids) {
    const user = world.userByUid(uid);
    if (!user) continue;
    const accountGoneMs = world.lifecycle?.accountGoneAtMs(user.index, user.zombie) ?? null;
    for (const t of truthPostsOf(world, user.index, world.historyStartMs, endMs - graceMs)) {
      if (gone.has(t.id)) continue; // tombstoned or never seen: counted above
      // Published after the account went: nobody ever saw it.
      if (accountGoneMs !== null && t.createdMs >= accountGoneMs) continue;
      completeness.eligible += 1;
      const d = byId.get(t.id);
      if (!d) {
        completeness.missing += 1;
        if (completeness.uidsWithMissing.at(-1) !== uid) completeness.uidsWithMissing.push(uid);
        if (completeness.examples.length < 10) completeness.examples.push(`missing ${t.id} of ${uid} created ${new Date(t.createdMs).toISOString()}`);
        continue;
      }
      const crawled = ms(d['crawled_at']) ?? endMs;
      const want = expectedPost(world, o.era, t, crawled);
      const post = findPostByMid(world, t.id);
      if (post && world.lifecycle) want['text'] = tokensToPlain(world.lifecycle.versionAt(post, crawled).tokens).trim();
      const got = pickPost(d);
      if (canonical(got) === canonical({ ...got, ...want }) && d['status'] === 'active') completeness.equal += 1;
      else {
        completeness.unequal += 1;
        if (completeness.examples.length < 5) completeness.examples.push(`unequal ${t.id}: ${JSON.stringify(diff(got, want))}`);
      }
    }
  }
  return { deletions, falseTombstones: falseIds.length, falseTombstoneIds: falseIds.slice(0, 10), edits: { ...edits, examples: missedEdits }, media, completeness };
}

/** JSON with object keys sorted and undefined members left out: equal values, equal strings. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function diff(got: Record<string, unknown>, want: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(want)) if (canonical(got[k]) !== canonical(want[k])) out[k] = { got: got[k], want: want[k] };
  return out;
}
