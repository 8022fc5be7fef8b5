/**
 * Online emerging-topic detection. Time runs in buckets (5 minutes by default). Every term keeps
 * an exponentially decayed background rate of how many authors use it per bucket; a term is
 * emerging when the authors using it in the recent window are far more than its background share
 * of the current volume predicts (Poisson z-score, a ratio and a floor of distinct authors, so one
 * account or a copy-paste wave cannot make a topic). Emerging terms that share their recent posts
 * are one topic; a topic keeps its id while any of its terms stays emerging. Near-duplicate posts
 * (the same simhash cluster) count once towards a topic's top posts. Memory is bounded: at most
 * `maxTerms` terms (the least used are forgotten first), `postsPerTerm` recent posts per term and
 * a ring of the last `maxPosts` posts.
 */
export type SentimentLabel = 'positive' | 'neutral' | 'negative';

export interface TopicPost {
  id: string;
  author: string;
  createdMs: number;
  /** The post's topic terms (`topicTerms`). */
  terms: readonly string[];
  sentiment?: SentimentLabel;
  /**
   * The opinion words a polar `sentiment` rests on, when it rests on nothing else (the sentiment
   * stage's `LabelDecision.opinion`: a low-confidence zh call). A topic counts such a post neutral
   * when all of them lie inside the topic's own terms: the name of what the post is about
   * (开放 in 开放时间) is not how it feels.
   */
  opinion?: readonly string[];
  /** Near-duplicate cluster (the simhash `dup_of`, or the post's own id). */
  cluster?: string;
}

export interface DetectorOptions {
  bucketMs: number;
  /** The recent window, in buckets. */
  windowBuckets: number;
  backgroundHalfLifeMs: number;
  /** No topic before this much history has been seen (the background is still forming). */
  warmupMs: number;
  minAuthors: number;
  /** Pseudo-posts added to every term's expected count: rare everyday words fluctuate too. */
  pseudoPosts: number;
  minRatio: number;
  minZ: number;
  /** Two emerging terms join a topic when this share of the smaller one's recent posts has both. */
  joinOverlap: number;
  maxTerms: number;
  postsPerTerm: number;
  maxPosts: number;
}

export const DEFAULT_DETECTOR_OPTIONS: DetectorOptions = {
  bucketMs: 5 * 60_000, windowBuckets: 3, backgroundHalfLifeMs: 12 * 3_600_000, warmupMs: 3 * 3_600_000,
  minAuthors: 8, pseudoPosts: 2, minRatio: 4, minZ: 5, joinOverlap: 0.5, maxTerms: 100_000, postsPerTerm: 200, maxPosts: 200_000,
};

export interface Topic {
  id: string;
  /** The hashtag if the topic has one, else its strongest term. */
  label: string;
  /** Strongest first. */
  terms: string[];
  firstSeenMs: number;
  lastSeenMs: number;
  /** z-score of the strongest term at the last detection. */
  score: number;
  /** Distinct posts per bucket with any of the topic's terms, since the topic was first seen. */
  volume: { startMs: number; posts: number }[];
  /** Distinct posts of the topic so far (those in the window of an emerging term at a detection). */
  posts: number;
  /** Labelled posts of the topic so far, by sentiment. */
  sentiment: Record<SentimentLabel, number>;
  /** One post per near-duplicate cluster, largest cluster first. */
  topPosts: { id: string; copies: number }[];
}

interface TermState {
  bg: number;
  /** The bucket up to which `bg` has absorbed the counts (exclusive). */
  bgBucket: number;
  /** Authors per bucket, for the open buckets not yet in `bg` (bucket → count). */
  open: Map<number, number>;
  /** Sequence numbers of recent posts with the term (bounded). */
  posts: number[];
}

interface PostRec { seq: number; id: string; author: string; bucket: number; terms: ReadonlySet<string>; sentiment?: SentimentLabel; opinion?: readonly string[]; cluster: string }

interface TopicState {
  topic: Topic;
  terms: Set<string>;
  seen: Set<number>;
  /** Per near-duplicate cluster: its earliest post and how many of the topic's posts it holds. */
  clusters: Map<string, { id: string; seq: number; copies: number }>;
}

export class TopicDetector {
  private readonly o: DetectorOptions;
  private readonly alpha: number;
  private readonly terms = new Map<string, TermState>();
  private readonly ring: (PostRec | undefined)[];
  private seq = 0;
  private firstMs = Number.NaN;
  private lastBucket = -1;
  private globalBg = 0;
  private globalBgBucket = -1;
  private readonly globalOpen = new Map<number, number>();
  private readonly active = new Map<string, TopicState>();

  constructor(opts: Partial<DetectorOptions> = {}) {
    this.o = { ...DEFAULT_DETECTOR_OPTIONS, ...opts };
    this.alpha = 1 - Math.pow(0.5, this.o.bucketMs / this.o.backgroundHalfLifeMs);
    this.ring = new Array<PostRec | undefined>(this.o.maxPosts);
  }

  private bucketOf(ms: number): number {
    return Math.floor(ms / this.o.bucketMs);
  }

  /** Folds the open buckets before `upTo` into a decayed rate (an empty bucket decays it). */
  private absorb(bg: number, from: number, open: Map<number, number>, upTo: number): number {
    if (from < 0) from = upTo;
    for (let b = from; b < upTo; b++) {
      const c = open.get(b) ?? 0;
      open.delete(b);
      if (c === 0 && open.size === 0) {
        bg *= Math.pow(1 - this.alpha, upTo - b);
        break;
      }
      bg = bg * (1 - this.alpha) + c * this.alpha;
    }
    return bg;
  }

  /** Posts must come roughly in time order; a post older than the window is ignored. */
  add(post: TopicPost): void {
    const bucket = this.bucketOf(post.createdMs);
    if (Number.isNaN(this.firstMs)) this.firstMs = post.createdMs;
    if (bucket > this.lastBucket) this.lastBucket = bucket;
    if (bucket <= this.lastBucket - this.o.windowBuckets) return;
    const rec: PostRec = {
      seq: this.seq, id: post.id, author: post.author, bucket, terms: new Set(post.terms), cluster: post.cluster ?? post.id,
      ...(post.sentiment ? { sentiment: post.sentiment } : {}), ...(post.opinion?.length ? { opinion: post.opinion } : {}),
    };
    this.ring[this.seq % this.o.maxPosts] = rec;
    this.seq++;
    this.globalOpen.set(bucket, (this.globalOpen.get(bucket) ?? 0) + 1);
    for (const term of post.terms) {
      let t = this.terms.get(term);
      if (!t) {
        if (this.terms.size >= this.o.maxTerms) this.forget();
        t = { bg: 0, bgBucket: -1, open: new Map(), posts: [] };
        this.terms.set(term, t);
      }
      // One count per author and term in the window: a single account repeating itself is no spread.
      if (this.recent(t).some((p) => p.author === post.author)) continue;
      t.open.set(bucket, (t.open.get(bucket) ?? 0) + 1);
      t.posts.push(rec.seq);
      if (t.posts.length > this.o.postsPerTerm) t.posts.splice(0, t.posts.length - this.o.postsPerTerm);
    }
  }

  /** Drops the tenth of the terms with the lowest background and nothing recent. */
  private forget(): void {
    const scored = [...this.terms].map(([k, t]) => [k, t.bg + this.recent(t).length] as const).sort((a, b) => a[1] - b[1]);
    for (const [k] of scored.slice(0, Math.max(1, Math.floor(scored.length / 10)))) this.terms.delete(k);
  }

  private post(seq: number): PostRec | undefined {
    const r = this.ring[seq % this.o.maxPosts];
    return r && r.seq === seq ? r : undefined;
  }

  private recent(t: TermState): PostRec[] {
    const from = this.lastBucket - this.o.windowBuckets + 1;
    const out: PostRec[] = [];
    for (let i = t.posts.length - 1; i >= 0; i--) {
      const p = this.post(t.posts[i]!);
      if (!p || p.bucket < from) break;
      out.push(p);
    }
    return out;
  }

  /** The topics emerging at `nowMs`, strongest first (at most `limit`). */
  detect(nowMs: number, limit = 10): Topic[] {
    const now = this.bucketOf(nowMs);
    if (now > this.lastBucket) this.lastBucket = now;
    const windowStart = now - this.o.windowBuckets + 1;
    this.globalBg = this.absorb(this.globalBg, this.globalBgBucket, this.globalOpen, windowStart);
    this.globalBgBucket = windowStart;
    if (Number.isNaN(this.firstMs) || nowMs - this.firstMs < this.o.warmupMs) return [];
    let windowPosts = 0;
    for (const [b, c] of this.globalOpen) if (b >= windowStart && b <= now) windowPosts += c;
    const emerging: { term: string; z: number; posts: PostRec[] }[] = [];
    for (const [term, t] of this.terms) {
      // The background absorbs only what is older than the window, so a burst does not hide itself.
      t.bg = this.absorb(t.bg, t.bgBucket, t.open, windowStart);
      t.bgBucket = windowStart;
      const posts = this.recent(t);
      const observed = posts.length;
      if (observed < this.o.minAuthors) continue;
      const share = this.globalBg > 0 ? t.bg / this.globalBg : 0;
      const expected = share * windowPosts + this.o.pseudoPosts;
      const z = (observed - expected) / Math.sqrt(expected);
      if (observed / expected >= this.o.minRatio && z >= this.o.minZ) emerging.push({ term, z, posts });
    }
    emerging.sort((a, b) => b.z - a.z);
    return this.group(emerging, nowMs).slice(0, limit);
  }

  /**
   * Union of emerging terms that occur together: i and j join when most of the recent posts of the
   * rarer one also have the other (read from the posts themselves, not from the bounded lists).
   * The groups are matched to the active topics by shared terms.
   */
  private group(emerging: { term: string; z: number; posts: PostRec[] }[], nowMs: number): Topic[] {
    const parent = emerging.map((_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
    for (let i = 0; i < emerging.length; i++) {
      for (let j = i + 1; j < emerging.length; j++) {
        const [rare, other] = emerging[i]!.posts.length <= emerging[j]!.posts.length ? [emerging[i]!, emerging[j]!] : [emerging[j]!, emerging[i]!];
        let both = 0;
        for (const p of rare.posts) if (p.terms.has(other.term)) both++;
        if (both / rare.posts.length >= this.o.joinOverlap) parent[root(j)] = root(i);
      }
    }
    const groups = new Map<number, number[]>();
    emerging.forEach((_, i) => {
      const r = root(i);
      groups.set(r, [...(groups.get(r) ?? []), i]);
    });
    const out: Topic[] = [];
    const claimed = new Set<string>();
    for (const members of groups.values()) {
      const terms = members.map((i) => emerging[i]!);
      let state: TopicState | undefined;
      for (const [id, s] of this.active) {
        if (!claimed.has(id) && terms.some((t) => s.terms.has(t.term))) { state = s; break; }
      }
      if (!state) {
        const lead = terms.find((t) => t.term.startsWith('#')) ?? terms[0]!;
        state = {
          // Deterministic: the same posts replayed give the same topic ids (documents are upserted by id).
          topic: { id: `${lead.term}@${new Date(nowMs).toISOString()}`, label: lead.term, terms: [], firstSeenMs: nowMs, lastSeenMs: nowMs, score: 0, volume: [], posts: 0, sentiment: { positive: 0, neutral: 0, negative: 0 }, topPosts: [] },
          terms: new Set(), seen: new Set(), clusters: new Map(),
        };
        this.active.set(state.topic.id, state);
      }
      claimed.add(state.topic.id);
      this.update(state, terms, nowMs);
      out.push(state.topic);
    }
    // Topics with no emerging term left are over; they keep their last state in the returned objects.
    for (const id of [...this.active.keys()]) if (!claimed.has(id)) this.active.delete(id);
    return out.sort((a, b) => b.score - a.score);
  }

  private update(s: TopicState, terms: { term: string; z: number; posts: PostRec[] }[], nowMs: number): void {
    const t = s.topic;
    for (const e of terms) s.terms.add(e.term);
    t.terms = [...new Set([...terms.map((e) => e.term), ...t.terms])].slice(0, 20);
    if (!t.label.startsWith('#')) t.label = terms.find((e) => e.term.startsWith('#'))?.term ?? t.label;
    t.lastSeenMs = nowMs;
    t.score = terms[0]!.z;
    const perBucket = new Map<number, Set<number>>();
    for (const e of terms) {
      for (const p of e.posts) {
        if (!perBucket.has(p.bucket)) perBucket.set(p.bucket, new Set());
        perBucket.get(p.bucket)!.add(p.seq);
        if (s.seen.has(p.seq)) continue;
        s.seen.add(p.seq);
        t.posts++;
        if (p.sentiment) t.sentiment[mixLabel(p, s.terms)]++;
        const c = s.clusters.get(p.cluster);
        if (!c) s.clusters.set(p.cluster, { id: p.id, seq: p.seq, copies: 1 });
        else {
          c.copies++;
          if (p.seq < c.seq) { c.id = p.id; c.seq = p.seq; }
        }
      }
    }
    for (const [b, set] of [...perBucket].sort((a, b) => a[0] - b[0])) {
      const startMs = b * this.o.bucketMs;
      const at = t.volume.findIndex((v) => v.startMs === startMs);
      if (at >= 0) t.volume[at]!.posts = Math.max(t.volume[at]!.posts, set.size);
      else t.volume.push({ startMs, posts: set.size });
    }
    t.volume.sort((a, b) => a.startMs - b.startMs);
    if (t.volume.length > 288) t.volume.splice(0, t.volume.length - 288);
    t.topPosts = [...s.clusters.values()].sort((a, b) => b.copies - a.copies || a.seq - b.seq).slice(0, 5).map((c) => ({ id: c.id, copies: c.copies }));
    // The per-topic sets are bounded like everything else.
    if (s.seen.size > 20_000) s.seen.clear();
    if (s.clusters.size > 5_000) for (const k of [...s.clusters.keys()].slice(0, 1_000)) s.clusters.delete(k);
  }
}

/**
 * A post's label in a topic's sentiment mix: neutral when every opinion word its polar label rests
 * on lies inside a longer term of the topic (a word of its hashtag or phrase: 开放 in 开放时间).
 * An opinion word that is itself one of the topic's terms (失望 spreading with the topic) still counts.
 */
export function mixLabel(p: { sentiment?: SentimentLabel; opinion?: readonly string[] }, topicTerms: ReadonlySet<string>): SentimentLabel {
  const label = p.sentiment ?? 'neutral';
  if (label === 'neutral' || !p.opinion?.length) return label;
  const named = (w: string): boolean => {
    for (const t of topicTerms) if (t.length > w.length && t !== `#${w}` && t.includes(w)) return true;
    return false;
  };
  return p.opinion.every(named) ? 'neutral' : label;
}
