/**
 * The analyst dashboards as data: data views, aggregation-based visualisations, saved searches
 * and dashboards. `npm run kibana:build` turns this into kibana/freshet.ndjson, the file users
 * import; the integration test checks that file, not this one.
 */

export interface DataViewSpec { id: string; title: string; timeField: string }

export interface AggSpec {
  type: 'count' | 'avg' | 'sum' | 'max' | 'min' | 'cardinality' | 'date_histogram' | 'terms' | 'histogram';
  schema: 'metric' | 'segment' | 'group' | 'bucket';
  field?: string;
  size?: number;
  interval?: number | string;
  /** terms: order by this metric agg id (default: count). */
  orderBy?: string;
}

export interface VisSpec {
  id: string;
  title: string;
  type: 'line' | 'histogram' | 'horizontal_bar' | 'pie' | 'table' | 'tagcloud' | 'metric';
  dataView: string;
  aggs: AggSpec[];
  /** KQL over the data view's fields. */
  query?: string;
  stacked?: boolean;
}

export interface SearchSpec { id: string; title: string; dataView: string; columns: string[]; sort: [string, 'asc' | 'desc'][]; query?: string }

export interface DashboardSpec { id: string; title: string; description: string; panels: { id: string; kind: 'visualization' | 'search'; w: number; h: number }[] }

export const dataViews: DataViewSpec[] = [
  { id: 'freshet-posts', title: 'freshet-posts*', timeField: 'created_at' },
  { id: 'freshet-users', title: 'freshet-users*', timeField: 'crawled_at' },
  { id: 'freshet-pages', title: 'freshet-pages*', timeField: 'crawled_at' },
  { id: 'freshet-topics', title: 'freshet-topics*', timeField: 'first_seen' },
];

const count: AggSpec = { type: 'count', schema: 'metric' };
const overTime = (field = 'created_at'): AggSpec => ({ type: 'date_histogram', schema: 'segment', field, interval: 'auto' });
const bySentiment: AggSpec = { type: 'terms', schema: 'group', field: 'sentiment.label', size: 3 };
/** Tombstoned posts (deleted, removed, restricted, account gone): every tombstone names its reason. */
const GONE = 'status_reason : *';

export const visualisations: VisSpec[] = [
  { id: 'freshet-post-volume', title: 'Posts over time', type: 'line', dataView: 'freshet-posts', aggs: [count, overTime()] },
  { id: 'freshet-sentiment-over-time', title: 'Sentiment over time (posts by label)', type: 'histogram', dataView: 'freshet-posts', aggs: [count, overTime(), bySentiment], stacked: true },
  { id: 'freshet-sentiment-score-over-time', title: 'Mean sentiment score over time', type: 'line', dataView: 'freshet-posts', aggs: [{ type: 'avg', schema: 'metric', field: 'sentiment.score' }, overTime()] },
  { id: 'freshet-sentiment-share', title: 'Sentiment share', type: 'pie', dataView: 'freshet-posts', aggs: [count, { type: 'terms', schema: 'segment', field: 'sentiment.label', size: 3 }] },
  { id: 'freshet-sentiment-by-platform', title: 'Sentiment by platform', type: 'histogram', dataView: 'freshet-posts', aggs: [count, { type: 'terms', schema: 'segment', field: 'platform', size: 10 }, bySentiment], stacked: true },
  { id: 'freshet-sentiment-by-region', title: 'Sentiment by region', type: 'horizontal_bar', dataView: 'freshet-posts', aggs: [count, { type: 'terms', schema: 'segment', field: 'region', size: 20 }, bySentiment], stacked: true },
  { id: 'freshet-region-mood', title: 'Regions: posts and mean sentiment', type: 'table', dataView: 'freshet-posts', aggs: [count, { type: 'avg', schema: 'metric', field: 'sentiment.score' }, { type: 'terms', schema: 'bucket', field: 'region', size: 30 }] },
  { id: 'freshet-top-keywords', title: 'Top keywords', type: 'tagcloud', dataView: 'freshet-posts', aggs: [count, { type: 'terms', schema: 'segment', field: 'keywords', size: 50 }] },
  { id: 'freshet-top-hashtags', title: 'Top hashtags', type: 'tagcloud', dataView: 'freshet-posts', aggs: [count, { type: 'terms', schema: 'segment', field: 'hashtags', size: 30 }] },
  { id: 'freshet-negative-keywords', title: 'Keywords of negative posts', type: 'tagcloud', dataView: 'freshet-posts', query: 'sentiment.label : "negative"', aggs: [count, { type: 'terms', schema: 'segment', field: 'keywords', size: 40 }] },
  {
    id: 'freshet-top-authors', title: 'Top authors (posts, likes, mean sentiment)', type: 'table', dataView: 'freshet-posts',
    aggs: [count, { type: 'sum', schema: 'metric', field: 'counts.likes' }, { type: 'avg', schema: 'metric', field: 'sentiment.score' }, { type: 'max', schema: 'metric', field: 'author.followers' }, { type: 'terms', schema: 'bucket', field: 'author.name', size: 20 }],
  },
  { id: 'freshet-languages', title: 'Languages', type: 'pie', dataView: 'freshet-posts', aggs: [count, { type: 'terms', schema: 'segment', field: 'lang', size: 5 }] },
  { id: 'freshet-near-duplicates', title: 'Near-duplicate posts (reposts with edits, spam waves)', type: 'metric', dataView: 'freshet-posts', query: 'dup_of : *', aggs: [count, { type: 'cardinality', schema: 'metric', field: 'dup_of' }] },
  // The crawl view: who is being watched and how fresh the index is.
  { id: 'freshet-crawl-posts-indexed', title: 'Posts indexed over time (crawl time)', type: 'histogram', dataView: 'freshet-posts', aggs: [count, overTime('crawled_at')] },
  { id: 'freshet-crawl-users-crawled', title: 'User profiles crawled over time', type: 'histogram', dataView: 'freshet-users', aggs: [count, overTime('crawled_at')] },
  { id: 'freshet-crawl-users-verified', title: 'Users watched: verified or not', type: 'pie', dataView: 'freshet-users', aggs: [count, { type: 'terms', schema: 'segment', field: 'verified', size: 2 }] },
  { id: 'freshet-crawl-followers-histogram', title: 'Users by followers', type: 'histogram', dataView: 'freshet-users', aggs: [count, { type: 'histogram', schema: 'segment', field: 'followers_count', interval: 1000 }] },
  {
    id: 'freshet-crawl-users-table', title: 'Most followed users', type: 'table', dataView: 'freshet-users',
    aggs: [{ type: 'max', schema: 'metric', field: 'followers_count' }, { type: 'max', schema: 'metric', field: 'statuses_count' }, { type: 'max', schema: 'metric', field: 'crawled_at' }, { type: 'terms', schema: 'bucket', field: 'screen_name', size: 25, orderBy: '1' }],
  },
  {
    // Freshness per author: the newest post indexed and when it was crawled.
    id: 'freshet-crawl-author-freshness', title: 'Freshness by author (newest post, last crawl)', type: 'table', dataView: 'freshet-posts',
    aggs: [{ type: 'max', schema: 'metric', field: 'created_at' }, { type: 'max', schema: 'metric', field: 'crawled_at' }, count, { type: 'terms', schema: 'bucket', field: 'author.name', size: 25, orderBy: '2' }],
  },
  // The schedule of each watched user, written onto its profile after every visit.
  { id: 'freshet-crawl-users-status', title: 'Users by crawl status (active, gone, zombie, dead)', type: 'pie', dataView: 'freshet-users', aggs: [count, { type: 'terms', schema: 'segment', field: 'status', size: 5 }] },
  { id: 'freshet-crawl-next-visits', title: 'Next visits scheduled', type: 'histogram', dataView: 'freshet-users', query: 'next_visit : *', aggs: [count, overTime('next_visit')] },
  {
    id: 'freshet-crawl-user-schedule', title: 'Users: estimated posts per hour, last and next visit', type: 'table', dataView: 'freshet-users', query: 'next_visit : *',
    aggs: [{ type: 'max', schema: 'metric', field: 'rate_per_hour' }, { type: 'max', schema: 'metric', field: 'last_visit' }, { type: 'min', schema: 'metric', field: 'next_visit' }, { type: 'max', schema: 'metric', field: 'last_post_at' }, { type: 'terms', schema: 'bucket', field: 'screen_name', size: 50, orderBy: '1' }],
  },
  // Emerging topics, as `freshet topics` writes them.
  { id: 'freshet-topics-over-time', title: 'Emerging topics over time (first seen)', type: 'histogram', dataView: 'freshet-topics', aggs: [count, overTime('first_seen')] },
  {
    id: 'freshet-topics-table', title: 'Emerging topics: posts, strength, last seen', type: 'table', dataView: 'freshet-topics',
    aggs: [{ type: 'max', schema: 'metric', field: 'posts' }, { type: 'max', schema: 'metric', field: 'score' }, { type: 'max', schema: 'metric', field: 'last_seen' }, { type: 'terms', schema: 'bucket', field: 'label', size: 25, orderBy: '1' }],
  },
  {
    id: 'freshet-topics-mood', title: 'Emerging topics: sentiment of their posts', type: 'table', dataView: 'freshet-topics',
    aggs: [{ type: 'sum', schema: 'metric', field: 'sentiment.negative' }, { type: 'sum', schema: 'metric', field: 'sentiment.neutral' }, { type: 'sum', schema: 'metric', field: 'sentiment.positive' }, { type: 'terms', schema: 'bucket', field: 'label', size: 25, orderBy: '1' }],
  },
  { id: 'freshet-topics-terms', title: 'Terms of emerging topics', type: 'tagcloud', dataView: 'freshet-topics', aggs: [count, { type: 'terms', schema: 'segment', field: 'terms', size: 50 }] },
  { id: 'freshet-topics-count', title: 'Emerging topics', type: 'metric', dataView: 'freshet-topics', aggs: [count, { type: 'sum', schema: 'metric', field: 'posts' }] },
  // What disappeared (deletion monitoring): tombstoned posts keep their last text; `status_reason` marks every tombstone.
  {
    id: 'freshet-deletions-over-time', title: 'Posts gone over time (first missed), by status', type: 'histogram', dataView: 'freshet-posts', query: GONE, stacked: true,
    aggs: [count, overTime('first_missing_at'), { type: 'terms', schema: 'group', field: 'status', size: 4 }],
  },
  { id: 'freshet-deletions-by-status', title: 'Gone posts: deleted, removed, restricted, account gone', type: 'pie', dataView: 'freshet-posts', query: GONE, aggs: [count, { type: 'terms', schema: 'segment', field: 'status', size: 4 }] },
  {
    id: 'freshet-deletions-by-author', title: 'Who deletes: gone posts per author and how long they lived (hours, at most)', type: 'table', dataView: 'freshet-posts', query: GONE,
    aggs: [count, { type: 'avg', schema: 'metric', field: 'lived_hours' }, { type: 'max', schema: 'metric', field: 'first_missing_at' }, { type: 'terms', schema: 'bucket', field: 'author.name', size: 25 }],
  },
  { id: 'freshet-deletions-lifetime', title: 'How long gone posts lived (hours, at most)', type: 'histogram', dataView: 'freshet-posts', query: GONE, aggs: [count, { type: 'histogram', schema: 'segment', field: 'lived_hours', interval: 6 }] },
];

export const searches: SearchSpec[] = [
  { id: 'freshet-most-engaged', title: 'Most engaged posts', dataView: 'freshet-posts', columns: ['author.name', 'text', 'counts.reposts', 'counts.comments', 'counts.likes', 'sentiment.label'], sort: [['counts.reposts', 'desc'], ['counts.likes', 'desc']] },
  { id: 'freshet-emerging-topics', title: 'Emerging topics, newest first', dataView: 'freshet-topics', columns: ['label', 'terms', 'posts', 'score', 'sentiment.negative', 'sentiment.positive'], sort: [['first_seen', 'desc']] },
  { id: 'freshet-most-negative', title: 'Most negative posts', dataView: 'freshet-posts', query: 'sentiment.label : "negative"', columns: ['author.name', 'text', 'sentiment.score', 'counts.likes', 'region'], sort: [['sentiment.score', 'asc']] },
  {
    id: 'freshet-deletions', title: 'Gone posts, newest first: who, when, what text, how long it lived', dataView: 'freshet-posts', query: GONE,
    columns: ['author.name', 'status', 'text', 'created_at', 'last_seen_at', 'first_missing_at', 'lived_hours', 'status_reason'], sort: [['first_missing_at', 'desc']],
  },
  {
    id: 'freshet-edited-posts', title: 'Edited posts, latest edit first (earlier texts in versions)', dataView: 'freshet-posts', query: 'edited_at : *',
    columns: ['author.name', 'text', 'edit_count', 'edited_at', 'created_at'], sort: [['edited_at', 'desc']],
  },
];

const panel = (id: string, w = 24, h = 15, kind: 'visualization' | 'search' = 'visualization'): DashboardSpec['panels'][number] => ({ id, kind, w, h });

export const dashboards: DashboardSpec[] = [
  {
    id: 'freshet-opinion', title: 'freshet: Opinion', description: 'Volume and sentiment of posts over time, by platform and region; top keywords, hashtags and authors; most engaged and most negative posts.',
    panels: [
      panel('freshet-post-volume'), panel('freshet-sentiment-over-time'), panel('freshet-sentiment-score-over-time'), panel('freshet-sentiment-share', 12), panel('freshet-languages', 12),
      panel('freshet-sentiment-by-platform'), panel('freshet-sentiment-by-region'), panel('freshet-top-keywords'), panel('freshet-top-hashtags'),
      panel('freshet-negative-keywords'), panel('freshet-region-mood'), panel('freshet-top-authors', 48), panel('freshet-near-duplicates', 12, 8),
      panel('freshet-most-engaged', 48, 15, 'search'), panel('freshet-most-negative', 48, 15, 'search'),
    ],
  },
  {
    id: 'freshet-crawl', title: 'freshet: Crawl', description: 'Users being watched: crawl status, estimated post rate, last and next visit; profile crawls, posts indexed over crawl time and freshness by author.',
    panels: [
      panel('freshet-crawl-user-schedule', 48), panel('freshet-crawl-users-status', 12), panel('freshet-crawl-next-visits', 36),
      panel('freshet-crawl-posts-indexed'), panel('freshet-crawl-users-crawled'), panel('freshet-crawl-users-verified'), panel('freshet-crawl-followers-histogram'),
      panel('freshet-crawl-users-table'), panel('freshet-crawl-author-freshness'),
    ],
  },
  {
    id: 'freshet-deletions-dashboard', title: 'freshet: Deletions', description: 'What disappeared: posts deleted by their authors, removed by the platform, restricted, or gone with their account; who, when (between last seen and first missed), the last text, and how long each lived; edited posts.',
    panels: [
      panel('freshet-deletions-over-time', 36), panel('freshet-deletions-by-status', 12), panel('freshet-deletions-by-author'), panel('freshet-deletions-lifetime'),
      panel('freshet-deletions', 48, 15, 'search'), panel('freshet-edited-posts', 48, 15, 'search'),
    ],
  },
  {
    id: 'freshet-topics-dashboard', title: 'freshet: Topics', description: 'Emerging topics found by freshet topics: when they appeared, how many posts, how strong, the mood of their posts and their terms.',
    panels: [
      panel('freshet-topics-count', 12, 8), panel('freshet-topics-over-time', 36, 8), panel('freshet-topics-table'), panel('freshet-topics-mood'),
      panel('freshet-topics-terms', 48), panel('freshet-emerging-topics', 48, 15, 'search'),
    ],
  },
];
