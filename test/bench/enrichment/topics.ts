/**
 * Emerging topics on simsite: a seeded world's posts over two simulated days, with injected
 * break-outs in their adopters' timelines (src/simsite/breakouts.ts: a new hashtag and its phrases
 * spreading through the follow graph from a known start, with a known sentiment mix), fed in time order through freshet's
 * enrichers (language as the world says, sentiment, simhash clusters, topic terms) into the
 * detector, which is asked for its top 10 every 5 simulated minutes.
 */
import { TopicDetector, type Topic } from '../../../src/enrichers/topics/detector';
import { topicTerms } from '../../../src/enrichers/topics/terms';
import { SimhashIndex, simhash64 } from '../../../src/enrichers/simhash';
import type { SentimentModel } from '../../../src/enrichers/sentiment/model';
import { decideSentiment, type NeutralRule } from '../../../src/enrichers/sentiment/neutral';
import type { OpinionWords } from '../../../src/enrichers/sentiment/opinion-words';
import { defaultBreakouts, type BreakoutSpec } from '../../../src/simsite/breakouts';
import { createWorld, DEFAULT_START_MS } from '../../../src/simsite/world';

export interface TopicBenchOptions {
  seed: number;
  users: number;
  days: number;
  breakouts: number;
  /** How the sentiment stage turns the model's label into the label written (its abstaining options). */
  rule: NeutralRule;
  /** The stage's zh opinion words. */
  words: OpinionWords | undefined;
  /** Give the detector the opinion words a gated call rests on, so a topic's own terms are not opinion in its mix (default on, as `freshet topics` does). */
  ownTermsNotOpinion?: boolean;
}

export interface TopicBenchResult {
  breakouts: number;
  detectedWithin15Min: number;
  meanLatencyMin: number | null;
  falseTopicsPerDay: number;
  /** Labels of the topics that matched no break-out. */
  falseTopics: string[];
  /** Per detected break-out: the largest gap between the topic's and the truth's share of a label. */
  mixErrors: number[];
  /** Per detected break-out: the gap between the topic's and the truth's positive share among polar posts. */
  polarMixErrors: number[];
  /** Per detected break-out: its topic's labelled share of each class against the truth's. */
  mixes: { name: string; lang: string; hashtag: string; truth: Record<string, number>; topic: Record<string, number> }[];
  /** The same two per language. */
  mixErrorsByLang: Record<string, number[]>;
  /**
   * Per language, over every break-out post: how the stage labelled the posts whose truth is
   * neutral (share labelled polar) and those whose truth is polar (share labelled right); where
   * a mix error comes from.
   */
  labelsByLang: Record<string, { neutralPosts: number; neutralLabelledPolar: number; polarPosts: number; polarRight: number }>;
  posts: number;
  cpuSeconds: number;
}

const MIN = 60_000;

function breakoutTerms(spec: BreakoutSpec, segment: (t: string) => string[]): Set<string> {
  const text = spec.lang === 'zh' ? `#${spec.hashtag}# ${spec.phrases.join('，')}` : `#${spec.hashtag} ${spec.phrases.join('. ')}`;
  return new Set(topicTerms(text, spec.lang, { segment }));
}

export function runTopicBench(model: SentimentModel, segment: (t: string) => string[], o: TopicBenchOptions): TopicBenchResult {
  const cpu0 = process.cpuUsage();
  const t0 = DEFAULT_START_MS;
  const t1 = t0 + o.days * 86_400_000;
  const specs = defaultBreakouts(t0, o.days, o.breakouts);
  // The break-out posts are in their adopters' timelines, as a crawl of the site would see them.
  const world = createWorld({ seed: o.seed, users: o.users, diurnal: true, breakouts: specs });
  const truthPosts = world.breakoutPosts();
  const breakoutOf = new Map<string, string>();
  for (const [name, posts] of truthPosts) for (const p of posts) breakoutOf.set(world.postOfBreakout(p).id, name);
  type Item = { id: string; author: string; createdMs: number; text: string; lang: string };
  const items: Item[] = [];
  for (let u = 0; u < world.users.length; u++) {
    for (let k = world.postCountAt(u, t0); k < world.postCountAt(u, t1); k++) {
      const p = world.post(u, k);
      items.push({ id: p.id, author: String(u), createdMs: p.createdMs, text: p.text, lang: p.lang });
    }
  }
  items.sort((a, b) => a.createdMs - b.createdMs || (a.id < b.id ? -1 : 1));
  const detector = new TopicDetector();
  const dups = new SimhashIndex(50_000);
  const termsOf = new Map(specs.map((s) => [s.name, breakoutTerms(s, segment)]));
  // A topic is a break-out's when most of its top posts (one per near-duplicate cluster) are the
  // break-out's posts, or else when its label is one of the break-out's terms (the latest started
  // of those that share it: a second round reuses the first one's phrases).
  const match = (t: Topic, at: number): BreakoutSpec | undefined => specs.find((s) => {
    const own = t.topPosts.filter((p) => breakoutOf.get(p.id) === s.name).length;
    return t.topPosts.length > 0 && own * 2 > t.topPosts.length;
  }) ?? specs.filter((s) => s.startMs <= at && termsOf.get(s.name)!.has(t.label)).pop();
  const firstSeen = new Map<string, number>();
  const topicOf = new Map<string, Topic>();
  const falseTopics = new Map<string, string>();
  let next = t0 + 5 * MIN;
  const detect = (at: number): void => {
    for (const t of detector.detect(at, 10)) {
      const s = match(t, at);
      if (!s) { falseTopics.set(t.id, `${t.label} [${t.terms.slice(0, 4).join(' | ')}]`); continue; }
      if (!firstSeen.has(s.name)) firstSeen.set(s.name, at);
      // The break-out's topic is its largest: a fragment that surfaces when the main topic's terms
      // stop emerging (one of the break-out's sentiment words, say) is not what an analyst reads.
      const had = topicOf.get(s.name);
      if (!had || had === t || t.posts > had.posts) topicOf.set(s.name, t);
    }
  };
  const labelsByLang: TopicBenchResult['labelsByLang'] = {};
  const truthOf = new Map<string, string>();
  for (const posts of truthPosts.values()) for (const p of posts) truthOf.set(world.postOfBreakout(p).id, p.sentiment);
  for (const it of items) {
    while (it.createdMs >= next) { detect(next); next += 5 * MIN; }
    const r = model.classify(it.text, it.lang);
    const { label, opinion } = decideSentiment(r, it.text, o.rule, () => o.words);
    const truth = truthOf.get(it.id);
    if (truth !== undefined) {
      const l = (labelsByLang[it.lang] ??= { neutralPosts: 0, neutralLabelledPolar: 0, polarPosts: 0, polarRight: 0 });
      if (truth === 'neutral') { l.neutralPosts++; if (label !== 'neutral') l.neutralLabelledPolar++; }
      else { l.polarPosts++; if (label === truth) l.polarRight++; }
    }
    const h = simhash64(it.text);
    const cluster = dups.find(h) ?? it.id;
    dups.add(it.id, h);
    detector.add({ id: it.id, author: it.author, createdMs: it.createdMs, terms: topicTerms(it.text, it.lang, { segment }), sentiment: label, ...(opinion && o.ownTermsNotOpinion !== false ? { opinion } : {}), cluster });
  }
  while (next <= t1) { detect(next); next += 5 * MIN; }
  let detected = 0;
  const latencies: number[] = [];
  const mixErrors: number[] = [];
  const polarMixErrors: number[] = [];
  const mixes: TopicBenchResult['mixes'] = [];
  const mixErrorsByLang: Record<string, number[]> = {};
  for (const s of specs) {
    const seen = firstSeen.get(s.name);
    if (seen !== undefined) latencies.push((seen - s.startMs) / MIN);
    if (seen !== undefined && seen - s.startMs <= 15 * MIN) detected++;
    const topic = topicOf.get(s.name);
    const truth = truthPosts.get(s.name) ?? [];
    if (!topic || truth.length === 0) continue;
    const n = topic.sentiment.positive + topic.sentiment.neutral + topic.sentiment.negative;
    let worst = 0;
    const mix: TopicBenchResult['mixes'][number] = { name: s.name, lang: s.lang, hashtag: s.hashtag, truth: {}, topic: {} };
    for (const label of ['positive', 'neutral', 'negative'] as const) {
      const truthShare = truth.filter((p) => p.sentiment === label).length / truth.length;
      mix.truth[label] = truthShare;
      mix.topic[label] = n ? topic.sentiment[label] / n : 0;
      worst = Math.max(worst, Math.abs(mix.topic[label] - truthShare));
    }
    mixes.push(mix);
    mixErrors.push(worst);
    (mixErrorsByLang[s.lang] ??= []).push(worst);
    const truthPolar = truth.filter((p) => p.sentiment !== 'neutral');
    const polar = topic.sentiment.positive + topic.sentiment.negative;
    if (truthPolar.length > 0 && polar > 0) {
      polarMixErrors.push(Math.abs(topic.sentiment.positive / polar - truthPolar.filter((p) => p.sentiment === 'positive').length / truthPolar.length));
    }
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    breakouts: specs.length, detectedWithin15Min: detected / specs.length,
    meanLatencyMin: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
    falseTopicsPerDay: falseTopics.size / o.days, falseTopics: [...falseTopics.values()], mixErrors, polarMixErrors, mixes, mixErrorsByLang, labelsByLang, posts: items.length, cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}
