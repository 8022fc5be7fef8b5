import { accountGone, type World } from '../world';

/**
 * The newest-first post indices a timeline shows at `nowMs`, without the pinned post (which page 1
 * shows first). A page is a window on this sequence. Without a lifecycle every published post is
 * shown and positions map to indices arithmetically; with one, posts that are gone (deleted,
 * removed, restricted) at `nowMs` are left out, and so is a gone pinned post.
 */
export interface Visible {
  count: number;
  pinned: number;
  regularCount: number;
  indexAt(pos: number): number;
}

export function visiblePosts(world: World, u: number, nowMs: number): Visible {
  const count = world.postCountAt(u, nowMs);
  const p = world.pinnedIndex(u);
  let pinned = p >= 0 && p < count ? p : -1;
  const lc = world.lifecycle;
  if (!lc) {
    return {
      count,
      pinned,
      regularCount: pinned >= 0 ? count - 1 : count,
      indexAt(pos: number): number {
        const k = count - 1 - pos;
        return pinned >= 0 && k <= pinned ? k - 1 : k;
      },
    };
  }
  if (accountGone(world, u, nowMs)) return { count: 0, pinned: -1, regularCount: 0, indexAt: () => -1 };
  const shown: number[] = [];
  for (let k = count - 1; k >= 0; k--) {
    if (lc.goneAt(world.post(u, k), nowMs)) {
      if (k === pinned) pinned = -1;
      continue;
    }
    if (k !== pinned) shown.push(k);
  }
  return { count: shown.length + (pinned >= 0 ? 1 : 0), pinned, regularCount: shown.length, indexAt: (pos) => shown[pos]! };
}

/** The profile's `statuses_count`: the posts others can see. */
export function statusesCount(world: World, u: number, nowMs: number): number {
  return world.lifecycle ? visiblePosts(world, u, nowMs).count : world.postCountAt(u, nowMs);
}
