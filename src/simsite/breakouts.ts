import { chance, expSample, pick, streamRng } from './random';
import { chooseSentiment, fillSlots, tokensToPlain, type Token } from './text/compose';
import { EMOTICONS, EN_TEMPLATES, ZH_TEMPLATES, type Lang, type Sentiment } from './text/lexicon';

/** What a spread needs of the world (the World class has it; kept apart so world.ts can import this file). */
export interface BreakoutWorld {
  readonly seed: number;
  readonly users: readonly { index: number; zombie: boolean }[];
  fansOf(u: number): Uint32Array;
}

/**
 * Topics that break out at known times: a new hashtag and its phrases, posted first by a few
 * seed accounts and then spreading through the follow graph (a fan who sees an adopter's post
 * adopts the topic with a given probability after an exponential delay), each post with a
 * sentiment drawn from a known mix. The posts are the ground truth for emerging-topic detection:
 * when each break-out started, which posts belong to it and their sentiment.
 */
export interface BreakoutSpec {
  name: string;
  lang: Lang;
  /** Without the `#` marks. */
  hashtag: string;
  phrases: readonly string[];
  startMs: number;
  seeds: number;
  /** Probability that a fan of an adopter adopts the topic. */
  fanProbability: number;
  meanDelayMs: number;
  mix: Record<Sentiment, number>;
  maxPosts: number;
  horizonMs: number;
}

export interface BreakoutPost {
  id: string;
  breakout: string;
  userIndex: number;
  createdMs: number;
  lang: Lang;
  tokens: Token[];
  text: string;
  sentiment: Sentiment;
}

/** A small binary min-heap of (time, user) adoption events. */
class EventHeap {
  private readonly items: { t: number; u: number }[] = [];
  get size(): number { return this.items.length; }
  push(t: number, u: number): void {
    const a = this.items;
    a.push({ t, u });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]!.t <= a[i]!.t) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  pop(): { t: number; u: number } {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]!.t < a[m]!.t) m = l;
        if (r < a.length && a[r]!.t < a[m]!.t) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

/** `#hashtag#` (the site writes topics Weibo-style in both languages), a phrase, a sentence of the post's sentiment, maybe an emoticon. */
function composeBreakoutTokens(rng: ReturnType<typeof streamRng>, spec: BreakoutSpec, sentiment: Sentiment): Token[] {
  const zh = spec.lang === 'zh';
  const sentence = fillSlots(rng, pick(rng, (zh ? ZH_TEMPLATES : EN_TEMPLATES)[sentiment]), spec.lang, []);
  const phrase = pick(rng, spec.phrases);
  const tokens: Token[] = [{ kind: 'topic', name: spec.hashtag }, { kind: 'text', text: zh ? `${phrase}，${sentence}` : ` ${phrase}: ${sentence}` }];
  if (zh && chance(rng, 0.5)) tokens.push({ kind: 'emoticon', ...pick(rng, EMOTICONS[sentiment]) });
  return tokens;
}

/** The posts of one break-out, in time order; deterministic for the world's seed and the spec. */
export function spreadBreakout(world: BreakoutWorld, spec: BreakoutSpec): BreakoutPost[] {
  const rng = streamRng(world.seed, 0xb2ea, spec.startMs, spec.name.length, spec.hashtag.charCodeAt(0));
  const adopted = new Set<number>();
  const heap = new EventHeap();
  const active = world.users.filter((u) => !u.zombie).map((u) => u.index);
  for (let i = 0; i < spec.seeds && active.length > 0; i++) heap.push(spec.startMs + i * 30_000, pick(rng, active));
  const posts: BreakoutPost[] = [];
  const shares = { positive: spec.mix.positive, negative: spec.mix.negative };
  while (heap.size > 0 && posts.length < spec.maxPosts) {
    const { t, u } = heap.pop();
    if (t > spec.startMs + spec.horizonMs) break;
    if (adopted.has(u)) continue;
    adopted.add(u);
    const sentiment = chooseSentiment(rng, shares.positive, shares.negative);
    const tokens = composeBreakoutTokens(rng, spec, sentiment);
    posts.push({ id: `bo-${spec.name}-${posts.length}`, breakout: spec.name, userIndex: u, createdMs: Math.round(t), lang: spec.lang, tokens, text: tokensToPlain(tokens), sentiment });
    for (const f of world.fansOf(u)) {
      if (!adopted.has(f) && chance(rng, spec.fanProbability)) heap.push(t + expSample(rng, 1 / spec.meanDelayMs), f);
    }
  }
  return posts;
}

// The hashtags and phrases name the topic and carry no sentiment of their own: each post's
// sentiment comes from its sentence, so the truth mix is what a reader would say.
const ZH_BREAKOUTS: { hashtag: string; phrases: string[] }[] = [
  { hashtag: '城南地铁三号线', phrases: ['三号线', '城南站', '地铁公告'] },
  { hashtag: '折叠屏新机发布会', phrases: ['折叠屏新机', '发布会直播', '新机参数'] },
  { hashtag: '城市图书馆新馆', phrases: ['图书馆新馆', '开放时间', '借阅规则'] },
  { hashtag: '奶茶店新品上市', phrases: ['奶茶新品', '限定口味', '新品菜单'] },
  { hashtag: '马拉松报名开启', phrases: ['马拉松报名', '报名通道', '中签率'] },
  { hashtag: '外卖平台新规', phrases: ['外卖新规', '配送时间', '平台公告'] },
];
const EN_BREAKOUTS: { hashtag: string; phrases: string[] }[] = [
  { hashtag: 'SolarFlareWatch', phrases: ['solar flare', 'radio signals', 'satellite update'] },
  { hashtag: 'NewPhoneLaunch', phrases: ['new phone launch', 'preorder page', 'launch event'] },
  { hashtag: 'CityMarathonSignup', phrases: ['marathon signup', 'registration page', 'race lottery'] },
  { hashtag: 'StreamingPlanChange', phrases: ['streaming plan', 'subscription tiers', 'plan change'] },
];

const MIXES: Record<Sentiment, number>[] = [
  { positive: 0.2, negative: 0.6, neutral: 0.2 }, { positive: 0.6, negative: 0.1, neutral: 0.3 },
  { positive: 0.1, negative: 0.5, neutral: 0.4 }, { positive: 0.3, negative: 0.5, neutral: 0.2 },
  { positive: 0.7, negative: 0.1, neutral: 0.2 },
];

/**
 * `count` break-outs spread evenly over `days` after `fromMs` (the first after a quiet `leadMs`),
 * zh and en alternating as the lists allow, mixes cycling through a fixed set.
 */
export function defaultBreakouts(fromMs: number, days: number, count: number, leadMs = 6 * 3_600_000): BreakoutSpec[] {
  const span = days * 86_400_000 - leadMs;
  const specs: BreakoutSpec[] = [];
  for (let i = 0; i < count; i++) {
    const en = i % 3 === 2 && i / 3 < EN_BREAKOUTS.length;
    const pool = en ? EN_BREAKOUTS : ZH_BREAKOUTS;
    const k = en ? Math.floor(i / 3) : i - Math.floor((i + 1) / 3);
    const base = pool[k % pool.length]!;
    const round = Math.floor(k / pool.length);
    specs.push({
      name: `b${i}`, lang: en ? 'en' : 'zh', hashtag: round ? `${base.hashtag}${round + 1}` : base.hashtag, phrases: base.phrases,
      startMs: fromMs + leadMs + Math.round((span * i) / count), seeds: 3, fanProbability: 0.12, meanDelayMs: 6 * 60_000,
      mix: MIXES[i % MIXES.length]!, maxPosts: 400, horizonMs: 3 * 3_600_000,
    });
  }
  return specs;
}
