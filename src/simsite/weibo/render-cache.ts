import { BoundedCache } from '../bounded-cache';
import type { SimPost } from '../posts';
import type { World } from '../world';
import type { EraFormat } from './era';
import { deletedOriginalJson, mblogJson, mblogStaticJson, userJson } from './objects';
import { statusesCount } from './visible';

/**
 * Serialised fragments of users and posts, so a timeline page is string assembly rather than
 * JSON.stringify of ten nested objects (that was most of the cost per response). Only the parts that
 * depend on "now" are rendered per request: created_at, the pinned flag and the author's statuses_count.
 */
export class RenderCache {
  private readonly users = new Map<number, { statuses: number; json: string }>();
  private readonly posts: BoundedCache<string, string>;

  constructor(
    private readonly world: World,
    private readonly fmt: EraFormat,
    maxPosts = 60_000,
  ) {
    this.posts = new BoundedCache(maxPosts);
  }

  userString(u: number, nowMs: number): string {
    const statuses = statusesCount(this.world, u, nowMs);
    const hit = this.users.get(u);
    if (hit && hit.statuses === statuses) return hit.json;
    const json = JSON.stringify(userJson(this.world, this.world.users[u]!, nowMs, this.fmt));
    this.users.set(u, { statuses, json });
    return json;
  }

  /** The same object as mblogJson (key order aside). */
  mblogString(post: SimPost, nowMs: number, pinned: boolean): string {
    // With a lifecycle a post's text, edits and original change over time: rendered whole, never cached.
    if (this.world.lifecycle) return JSON.stringify(mblogJson(this.world, post, nowMs, this.fmt, { pinned }));
    let rest = this.posts.get(post.id);
    if (rest === undefined) {
      rest = JSON.stringify(mblogStaticJson(post, this.fmt, false)).slice(1, -1);
      this.posts.set(post.id, rest);
    }
    let retweet = '';
    if (post.repostOf) {
      retweet = post.originalDeleted
        ? `,"retweeted_status":${JSON.stringify(deletedOriginalJson(post.repostOf, nowMs, this.fmt))}`
        : `,"retweeted_status":${this.mblogString(post.repostOf, nowMs, false)}`;
    }
    return `{"created_at":${JSON.stringify(this.fmt.date(post.createdMs, nowMs))},"mblogtype":${pinned ? 2 : 0},"user":${this.userString(post.userIndex, nowMs)},${rest}${retweet}}`;
  }
}
