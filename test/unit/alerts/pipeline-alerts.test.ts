import { join } from 'node:path';
import { loadAlertsFile } from '../../../src/alerts/saved-queries';
import { parsePipeline } from '../../../src/pipeline/load';

const base = `name: t
parse: { type: weibo_api, base_url: "http://127.0.0.1:1" }
sink: { type: elasticsearch }
`;
const parse = (alerts: string) => () => parsePipeline(`${base}alerts:\n${alerts}`, 't.yaml');

describe('alerts: in the pipeline file', () => {
  it('parses saved queries and spikes with their delivery and defaults', () => {
    const c = parse(`  ndjson: out.ndjson
  webhook: https://hooks.example/freshet
  queries:
    - { name: subway, keywords: [地铁], sentiment: negative }
  spikes:
    - { name: anger, min_posts: 5 }
`)();
    expect(c.alerts).toMatchObject({
      interval_secs: 10, ndjson: 'out.ndjson', webhook: 'https://hooks.example/freshet',
      queries: [{ name: 'subway', keywords: ['地铁'], sentiment: 'negative' }],
      spikes: [{ name: 'anger', min_posts: 5, sentiment: 'negative', window_minutes: 60 }],
    });
    expect(parsePipeline(base, 't.yaml').alerts).toBeUndefined();
  });

  it('rejects alerts without a destination, empty ones, duplicate names, bad criteria and unknown keys', () => {
    expect(parse('  queries: [{ name: a, authors: ["1"] }]\n')).toThrow(/ndjson.*webhook/);
    expect(parse('  ndjson: x\n')).toThrow(/no queries, spikes or topics/);
    expect(parse('  ndjson: x\n  topics: [{ name: t, keywords: [地铁] }]\n')).not.toThrow();
    expect(parse('  ndjson: x\n  topics: [{ name: a }]\n  spikes: [{ name: a, min_posts: 1 }]\n')).toThrow(/unique/);
    expect(parse('  ndjson: x\n  queries: [{ name: a, authors: ["1"] }]\n  spikes: [{ name: a, min_posts: 1 }]\n')).toThrow(/unique/);
    expect(parse('  ndjson: x\n  queries: [{ name: a }]\n')).toThrow(/criterion/);
    expect(parse('  ndjson: x\n  queries: [{ name: a, authors: ["1"] }]\n  colour: red\n')).toThrow(/colour/);
    expect(parse('  webhook: "file:///etc/passwd"\n  queries: [{ name: a, authors: ["1"] }]\n')).toThrow();
  });

  it('leaves the separate alerts file as it was', () => {
    const f = loadAlertsFile(join(__dirname, '..', '..', '..', 'alerts', 'example.yaml'));
    expect(f.alerts.map((a) => a.name)).toEqual(['subway-complaints', 'watched-authors', 'negative-weibo']);
    expect(f.spikes.map((a) => a.name)).toEqual(['subway-anger']);
    expect(f.topics).toEqual([{ name: 'new-subway-trouble', keywords: ['地铁', 'subway'], min_posts: 30, sentiment: 'negative', min_share: 0.5, window_minutes: 60, background_hours: 24 }]);
  });
});
