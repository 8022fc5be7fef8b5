import { BoundedCache } from '../bounded-cache';
import type { SimPost } from '../posts';
import type { World } from '../world';
import type { EraFormat } from './era';
import { deletedOriginalJson, mblogStaticJson, userJson } from './objects';

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
    const statuses = this.world.postCountAt(u, nowMs);
    const hit = this.users.get(u);
    if (hit && hit.statuses === statuses) return hit.json;
    const json = JSON.stringify(userJson(this.world, this.world.users[u]!, nowMs, this.fmt));
    this.users.set(u, { statuses, json });
    return json;
  }

  /** The same object as mblogJson (key order aside). */
  mblogString(post: SimPost, nowMs: number, pinned: boolean): string {
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
