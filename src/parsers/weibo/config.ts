import { z } from 'zod';
import { weiboMonitorConfigSchema } from './monitor-visit';

/** The `weibo_api` parse stage's options (validated at the boundary; unknown keys are errors). */
export const weiboApiConfigSchema = z.strictObject({
  type: z.literal('weibo_api'),
  /** Where the API lives, e.g. https://m.weibo.cn or the local simsite. */
  base_url: z.url(),
  /** Deep history: how many timeline pages a first visit may read. */
  first_visit_page_limit: z.number().int().min(1).default(50),
  /** Later visits stop at the watermark, or after this many pages. */
  page_limit: z.number().int().min(1).default(10),
  /** Fetch the long-text endpoint for truncated posts. */
  long_text: z.boolean().default(true),
  /** Refresh the profile (users document, follower count) every N visits. */
  profile_every_visits: z.number().int().min(1).default(10),
  /** Write a post-metrics snapshot of every post seen on a visit. */
  post_metrics: z.boolean().default(true),
  /** Read the hot-flow comments (and the replies shown under them) of every new post with comments. */
  comments: z.boolean().default(false),
  /** Hot-flow pages (about 20 comments each) per post; anonymous clients see only the hottest anyway. */
  comments_page_limit: z.number().int().min(1).default(5),
  /** Discover users breadth-first through fans lists (`231051_-_fans_-_{uid}`). */
  discover_fans: z.boolean().default(false),
  /** Fans pages (20 users each) read per discovering visit; the platform caps the list silently anyway. */
  fans_page_limit: z.number().int().min(1).default(250),
  /** Re-read the fans list every N visits (the first visit always reads it). */
  fans_every_visits: z.number().int().min(1).default(30),
  /** Stop discovering once the frontier holds this many subjects (zombies included). */
  max_users: z.number().int().min(1).default(1_000_000),
  /** Users with fewer followers are recorded (users document, status `zombie`) but never visited. */
  min_followers: z.number().int().min(0).default(10),
  /**
   * Pages read on past the first known post (within the page limit), so known posts are seen again:
   * their counters refresh and one that went missing can be noticed (deletion monitoring). 0 = stop there.
   */
  recheck_pages: z.number().int().min(0).default(0),
  /** With recheck_pages: stop re-reading once a page reaches posts older than this (0 = always read recheck_pages). */
  recheck_hours: z.number().min(0).default(0),
  /**
   * Pages of older history re-read per visit, from where the last visit's sweep stopped down to
   * `sweep_horizon_days`, then from the top again: every known post is seen again now and then,
   * so deletions and edits deep in a timeline are noticed too. 0 = no sweep.
   */
  sweep_pages: z.number().int().min(0).default(0),
  sweep_horizon_days: z.number().positive().default(30),
  /**
   * Deletion monitoring (issue 19): posts a covering read missed are checked with `statuses/show`
   * and tombstoned (deleted, removed, restricted, account_gone) on an answer that names a reason;
   * posts are merged into the stored ones (versions and tombstones kept). Needs the elasticsearch sink.
   */
  monitor: weiboMonitorConfigSchema.optional(),
  /**
   * A timeline page that cannot be read (truncated, malformed, a failure the fetcher's retries did
   * not mend) ends the visit with what the pages before it gave, and the rest is read from that
   * page again after `bad_page_backoff_secs`, doubling (to an hour) each time the same subject
   * meets one again; after `bad_page_retries` such visits in a row the visit fails as usual.
   */
  bad_page_retries: z.number().int().min(0).default(6),
  bad_page_backoff_secs: z.number().int().min(1).default(120),
});

export type WeiboApiConfig = z.infer<typeof weiboApiConfigSchema>;
