import type { Topic } from '../../../src/enrichers/topics/detector';
import { topicAlertSchema, topicMatches } from '../../../src/alerts/topic-alerts';

const topic = (over: Partial<Topic> = {}): Topic => ({
  id: '#城南地铁三号线@2026-04-10T11:30:00.000Z', label: '#城南地铁三号线', terms: ['#城南地铁三号线', '三号线', '停运'], firstSeenMs: 0, lastSeenMs: 0, score: 9,
  volume: [], posts: 40, sentiment: { positive: 10, neutral: 0, negative: 30 }, topPosts: [], ...over,
});

describe('topic alerts', () => {
  it('match on size, keywords in the label or terms, and sentiment share', () => {
    const a = (o: Record<string, unknown>) => topicAlertSchema.parse({ name: 'x', ...o });
    expect(topicMatches(a({}), topic())).toBe(true);
    expect(topicMatches(a({ min_posts: 41 }), topic())).toBe(false);
    expect(topicMatches(a({ keywords: ['地铁'] }), topic())).toBe(true);
    expect(topicMatches(a({ keywords: ['SUBWAY'] }), topic({ label: '#subwaydelay', terms: ['#subwaydelay'] }))).toBe(true);
    expect(topicMatches(a({ keywords: ['机场'] }), topic())).toBe(false);
    expect(topicMatches(a({ sentiment: 'negative', min_share: 0.75 }), topic())).toBe(true);
    expect(topicMatches(a({ sentiment: 'negative', min_share: 0.8 }), topic())).toBe(false);
    expect(topicMatches(a({ sentiment: 'neutral' }), topic({ sentiment: { positive: 0, neutral: 0, negative: 0 } }))).toBe(false);
  });

  it('rejects unknown keys and bad names', () => {
    expect(() => topicAlertSchema.parse({ name: 'x', colour: 'red' })).toThrow();
    expect(() => topicAlertSchema.parse({ name: 'a b' })).toThrow();
  });
});
