import { mixLabel, TopicDetector, type Topic, type TopicPost } from '../../../src/enrichers/topics/detector';
import { topicTerms } from '../../../src/enrichers/topics/terms';

describe('topic terms', () => {
  it('takes hashtags whole, words and two-word phrases, and leaves links, mentions and emoticons out', () => {
    const en = topicTerms('RT @user: The #NewPhoneLaunch was a total mess, preorder queue down https://t.co/x :(', 'en');
    expect(en).toContain('#newphonelaunch');
    expect(en).toContain('preorder queue');
    expect(en).toContain('total mess');
    expect(en).not.toContain('user');
    expect(en.some((t) => t.includes('http') || t.includes('t.co'))).toBe(false);
    expect(en).not.toContain('the');
    expect(new Set(en).size).toBe(en.length);
  });

  it('segments Chinese with the injected segmenter; Weibo topics are #…#', () => {
    const segment = (t: string): string[] => t.split(/(地铁|停运|通知|，|。)/).filter((s) => s !== '');
    const zh = topicTerms('#城南地铁停运#地铁停运通知，我们[怒] @某人', 'zh', { segment });
    expect(zh).toContain('#城南地铁停运');
    expect(zh).toContain('地铁');
    expect(zh).toContain('地铁停运');
    expect(zh).not.toContain('我们'); // a stop word
    expect(zh.some((t) => t.includes('怒'))).toBe(false);
    expect(topicTerms('#只有话题#', 'zh')).toEqual(['#只有话题']);
  });
});

const MIN = 60_000;

/** A steady background (each author posts a random one of a few everyday words) and an optional burst. */
function stream(opts: { burstAtMs?: number; burstAuthors?: number; oneAuthorSpam?: boolean }): TopicPost[] {
  const posts: TopicPost[] = [];
  const everyday = ['weather', 'lunch', 'coffee', 'traffic', 'music', 'movie', 'work', 'gym'];
  let n = 0;
  for (let t = 0; t < 8 * 60 * MIN; t += 20_000) {
    const w = everyday[n % everyday.length]!;
    posts.push({ id: `p${n}`, author: `a${n % 500}`, createdMs: t, terms: [w, `${w} today`], sentiment: 'neutral' });
    n++;
  }
  if (opts.burstAtMs !== undefined) {
    for (let i = 0; i < (opts.burstAuthors ?? 40); i++) {
      posts.push({
        id: `b${i}`, author: opts.oneAuthorSpam ? 'spammer' : `fan${i}`, createdMs: opts.burstAtMs + i * 15_000,
        terms: ['#solarflare', 'solar flare', 'outage'], sentiment: i % 4 === 0 ? 'positive' : 'negative', cluster: i % 2 === 0 ? 'c0' : `c${i}`,
      });
    }
  }
  return posts.sort((a, b) => a.createdMs - b.createdMs);
}

function run(posts: TopicPost[], det = new TopicDetector()): { first: Map<string, number>; topics: Map<string, Topic>; det: TopicDetector } {
  const first = new Map<string, number>();
  const topics = new Map<string, Topic>();
  let nextDetect = 5 * MIN;
  const detect = (): void => {
    for (const t of det.detect(nextDetect)) {
      if (!first.has(t.label)) first.set(t.label, nextDetect);
      topics.set(t.label, t);
    }
    nextDetect += 5 * MIN;
  };
  for (const p of posts) {
    while (p.createdMs >= nextDetect) detect();
    det.add(p);
  }
  detect();
  return { first, topics, det };
}

describe('emerging topic detector', () => {
  it('stays quiet on a steady background', () => {
    expect(run(stream({})).first.size).toBe(0);
  });

  it('finds a burst of a new hashtag within minutes, with its phrases, mix and top posts', () => {
    const at = 5 * 60 * MIN + 2 * MIN;
    const { first, topics } = run(stream({ burstAtMs: at }));
    expect([...first.keys()]).toEqual(['#solarflare']);
    expect(first.get('#solarflare')! - at).toBeLessThanOrEqual(10 * MIN);
    // The topic as last reported (it ends when the burst leaves the window).
    const topic = topics.get('#solarflare')!;
    expect(topic.terms).toEqual(expect.arrayContaining(['#solarflare', 'solar flare', 'outage']));
    expect(topic.sentiment.positive + topic.sentiment.negative).toBe(40);
    expect(topic.sentiment.positive).toBe(10);
    // Half the burst is one near-duplicate cluster: it leads the top posts once.
    expect(topic.topPosts[0]).toEqual({ id: 'b0', copies: 20 });
    expect(topic.volume.reduce((s, v) => s + v.posts, 0)).toBeGreaterThan(0);
  });

  it('ignores one account repeating itself', () => {
    expect(run(stream({ burstAtMs: 5 * 60 * MIN, oneAuthorSpam: true })).first.size).toBe(0);
  });

  it('reports nothing during the warm-up and keeps its term table bounded', () => {
    const det = new TopicDetector({ maxTerms: 50 });
    const { first } = run(stream({ burstAtMs: 30 * MIN }), det);
    expect(first.size).toBe(0); // the burst came before 3 hours of background
    expect((det as unknown as { terms: Map<string, unknown> }).terms.size).toBeLessThanOrEqual(50);
  });

  it('counts a post neutral in a topic\'s mix when its only opinion words are inside the topic\'s own terms', () => {
    const at = 5 * 60 * MIN + 2 * MIN;
    // 开放 (open) is a positive opinion word, but in 开放时间 (opening hours) it names the topic.
    const burst: TopicPost[] = Array.from({ length: 40 }, (_, i) => ({
      id: `lib${i}`, author: `reader${i}`, createdMs: at + i * 15_000, terms: ['#城市图书馆新馆', '开放', '时间', '开放时间'],
      sentiment: 'positive' as const, opinion: i % 4 === 0 ? ['开放', '开心'] : ['开放'],
    }));
    const { topics } = run([...stream({}), ...burst].sort((a, b) => a.createdMs - b.createdMs));
    const topic = topics.get('#城市图书馆新馆')!;
    expect(topic.terms).toEqual(expect.arrayContaining(['开放时间']));
    expect(topic.sentiment).toEqual({ positive: 10, neutral: 30, negative: 0 });
  });
});

describe('mixLabel', () => {
  const terms = new Set(['#城市图书馆新馆', '开放时间', '失望']);
  it('masks opinion words that are part of a longer term of the topic, and only those', () => {
    expect(mixLabel({ sentiment: 'positive', opinion: ['开放'] }, terms)).toBe('neutral');
    expect(mixLabel({ sentiment: 'positive', opinion: ['开放', '开心'] }, terms)).toBe('positive');
    // A label with no recorded opinion words was not a gated call: it stands.
    expect(mixLabel({ sentiment: 'positive' }, terms)).toBe('positive');
    expect(mixLabel({ sentiment: 'neutral', opinion: ['开放'] }, terms)).toBe('neutral');
    // An opinion word that is itself a term of the topic (spreading with it) is still opinion.
    expect(mixLabel({ sentiment: 'negative', opinion: ['失望'] }, terms)).toBe('negative');
    expect(mixLabel({ sentiment: 'positive', opinion: ['新馆'] }, new Set(['#新馆']))).toBe('positive');
    expect(mixLabel({ sentiment: 'positive', opinion: ['新馆'] }, new Set(['#城市图书馆新馆']))).toBe('neutral');
  });
});
