import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline, parsePipeline } from '../../../src/pipeline/load';
import { pipelineJsonSchema } from '../../../src/pipeline/schema';
import { forumRuleSets } from '../../../src/extractors/rules/forums';
import { forumBoardRuleSets } from '../../../src/parsers/forum-boards';

const PIPELINES = join(__dirname, '..', '..', '..', 'pipelines');

describe('pipelines/', () => {
  it('keeps pipeline.schema.json in step with the code (run `freshet validate --write-schema`)', () => {
    const committed = JSON.parse(readFileSync(join(PIPELINES, 'pipeline.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(pipelineJsonSchema())));
  });

  it('ships only valid pipeline files', () => {
    const files = readdirSync(PIPELINES).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(() => loadPipeline(join(PIPELINES, f), {})).not.toThrow();
  });

  it('describes unknown keys as errors for editors too', () => {
    const schema = pipelineJsonSchema() as { additionalProperties?: unknown; required?: string[] };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'parse', 'sink']));
  });
});

describe('rules across sections', () => {
  const base = 'name: x\nparse: { type: weibo_api, base_url: "http://x" }\n';

  it('refuses alerts with a sink that indexes nothing, naming the alerts key', () => {
    const text = `${base}sink: { type: blackhole }\nalerts:\n  queries: []\n`;
    expect(() => parsePipeline(text, 'p.yaml')).toThrow(/p\.yaml:4:1: alerts: alerts need the elasticsearch sink/);
  });

  it('makes one attempt per request when identities or proxies charge every attempt to a quota', () => {
    const retry = 'fetch: { type: http_fetch, retry: { max_attempts: 3 } }\nsink: { type: blackhole }\n';
    expect(parsePipeline(`${base}${retry}`, 'p.yaml').fetch.retry.max_attempts).toBe(3);
    const ids = parsePipeline(`${base}${retry}identities: { pool: weibo, send_as: bearer, requests_per_window: 10, window_secs: 60 }\n`, 'p.yaml');
    expect(ids.fetch.retry.max_attempts).toBe(1);
    const proxies = parsePipeline(`${base}${retry}proxies: { pool: p, urls: ["http://10.0.0.1:3128"], requests_per_window: 10, window_secs: 60 }\n`, 'p.yaml');
    expect(proxies.fetch.retry.max_attempts).toBe(1);
  });
});

describe('web_pages deletion marks', () => {
  it('need the sink to keep pages versioned', () => {
    const yaml = (sink: string): string => `name: n\nseeds: []\nparse: { type: web_pages, mark_gone: true }\nsink: ${sink}\n`;
    expect(() => parsePipeline(yaml('{ type: elasticsearch }'), 'n.yaml')).toThrow(/mark_gone needs the sink to keep pages versioned/);
    expect(() => parsePipeline(yaml('{ type: elasticsearch, versioned_indices: [pages] }'), 'n.yaml')).not.toThrow();
  });
});

describe('pipelines/forum-monitor.yaml', () => {
  it('carries the forum rule sets exactly as freshet ships them in code', () => {
    const p = loadPipeline(join(PIPELINES, 'forum-monitor.yaml'), {});
    if (p.parse.type !== 'web_pages') throw new Error('expected web_pages');
    expect(p.parse.rules).toEqual([...forumBoardRuleSets(), ...forumRuleSets()]);
    expect(p.parse.thread_lists.map((t) => t.rule_set)).toEqual(['discuz-board', 'phpbb-board']);
  });
});
