import type { SimPost } from './posts';
import { tokensToPlain } from './text/compose';
import { picIdsOf } from './weibo/objects';
import type { World } from './world';

/**
 * Ground truth of what happened to posts after publication (worlds with a lifecycle): which went
 * away, when and how, which were edited with every text, and the media of every post. Rows are
 * generated per user, oldest post first; `uid` restricts them to one user.
 */
export interface TruthDeletion {
  id: string;
  uid: number;
  status: 'deleted' | 'removed' | 'restricted' | 'account_gone';
  restriction: 'half_year' | 'self_only' | null;
  createdMs: number;
  goneAtMs: number;
  goneAt: string;
  /** The text the post had when it went (its last version). */
  text: string;
}

export interface TruthEdit {
  id: string;
  uid: number;
  /** Every text the post had, the original first, each with the time it appeared. */
  versions: { text: string; atMs: number }[];
  editCount: number;
  editedAtMs: number;
}

export interface TruthMedia {
  id: string;
  uid: number;
  pictureCount: number;
  pictures: { id: string; url: string; thumbnailUrl: string }[];
  video: { url: string; coverUrl: string; durationSecs: number; playCount: number } | null;
}

function* postsOf(world: World, uid: number | null, nowMs: number): Generator<SimPost> {
  const users = uid === null ? world.users : [world.userByUid(uid)].filter((u) => u !== undefined);
  for (const u of users) {
    const n = world.postCountAt(u.index, nowMs);
    for (let k = 0; k < n; k++) yield world.post(u.index, k);
  }
}

export function* truthDeletions(world: World, nowMs: number, uid: number | null = null): Generator<TruthDeletion> {
  const lc = world.lifecycle;
  if (!lc) return;
  for (const p of postsOf(world, uid, nowMs)) {
    const user = world.users[p.userIndex]!;
    const life = lc.of(p);
    const accountAt = lc.accountGoneAtMs(p.userIndex, user.zombie);
    let status: TruthDeletion['status'] | null = null;
    let at = Infinity;
    if (life.goneAtMs !== null && life.goneAtMs <= nowMs) {
      status = life.gone;
      at = life.goneAtMs;
    }
    if (accountAt !== null && accountAt <= nowMs && accountAt < at && p.createdMs <= accountAt) {
      status = 'account_gone';
      at = accountAt;
    }
    if (status === null) continue;
    yield {
      id: p.id, uid: user.uid, status, restriction: status === 'restricted' ? life.restriction : null,
      createdMs: p.createdMs, goneAtMs: at, goneAt: new Date(at).toISOString(),
      text: tokensToPlain(lc.versionAt(p, at).tokens),
    };
  }
}

export function* truthEdits(world: World, nowMs: number, uid: number | null = null): Generator<TruthEdit> {
  const lc = world.lifecycle;
  if (!lc) return;
  for (const p of postsOf(world, uid, nowMs)) {
    const edits = lc.of(p).edits.filter((e) => e.atMs <= nowMs);
    if (edits.length === 0) continue;
    yield {
      id: p.id, uid: world.users[p.userIndex]!.uid,
      versions: [{ text: p.text, atMs: p.createdMs }, ...edits.map((e) => ({ text: tokensToPlain(e.tokens), atMs: e.atMs }))],
      editCount: edits.length, editedAtMs: edits[edits.length - 1]!.atMs,
    };
  }
}

export function* truthMedia(world: World, nowMs: number, uid: number | null = null): Generator<TruthMedia> {
  for (const p of postsOf(world, uid, nowMs)) {
    const video = world.lifecycle?.of(p).video ?? null;
    if (p.picNum === 0 && !video) continue;
    yield {
      id: p.id, uid: world.users[p.userIndex]!.uid, pictureCount: p.picNum,
      pictures: picIdsOf(p).map((id) => ({ id, url: `https://wx1.sinaimg.cn/large/${id}.jpg`, thumbnailUrl: `https://wx1.sinaimg.cn/orj360/${id}.jpg` })),
      video,
    };
  }
}
