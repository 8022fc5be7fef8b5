import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline, parsePipeline } from '../../../src/pipeline/load';
import { pipelineJsonSchema } from '../../../src/pipeline/schema';

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
