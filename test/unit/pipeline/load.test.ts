import { FreshetError } from '../../../src/core/errors';
import { interpolate } from '../../../src/pipeline/interpolate';
import { parsePipeline } from '../../../src/pipeline/load';

const valid = `name: demo
seeds: [weibo:user:1000000001]
fetch:
  type: http_fetch
  allow_private_networks: true
parse:
  type: weibo_api
  base_url: \${SIMSITE_URL:-http://127.0.0.1:8080}
sink:
  type: elasticsearch
  flush_interval_ms: 200
`;

function problems(text: string, vars: Record<string, string> = {}): { line: number; column: number; path: string; message: string }[] {
  try {
    parsePipeline(text, 'pipelines/x.yaml', vars);
  } catch (err) {
    expect(err).toBeInstanceOf(FreshetError);
    expect((err as FreshetError).code).toBe('E_PIPELINE_INVALID');
    expect((err as FreshetError).message).toContain('pipelines/x.yaml:');
    return (err as FreshetError).fields['problems'] as never;
  }
  throw new Error('expected the pipeline to be invalid');
}

describe('parsePipeline', () => {
  it('fills defaults from every stage schema', () => {
    const p = parsePipeline(valid, 'x.yaml');
    expect(p.source).toMatchObject({ type: 'redis_frontier', shards: 4, max_in_flight: 64 });
    expect(p.fetch).toMatchObject({ type: 'http_fetch', allow_private_networks: true, max_redirects: 5 });
    expect(p.parse).toMatchObject({ type: 'weibo_api', base_url: 'http://127.0.0.1:8080', page_limit: 10 });
    expect(p.sink).toMatchObject({ type: 'elasticsearch', flush_interval_ms: 200, concurrency: 2 });
    expect(p.schedule).toEqual({ type: 'fixed_interval', interval_secs: 3600 });
  });

  it('names file, line and key path of an unknown key', () => {
    const text = valid.replace('  flush_interval_ms: 200', '  flush_interval_ms: 200\n  flush_intervall_ms: 5');
    expect(problems(text)).toEqual([{ file: 'pipelines/x.yaml', line: 12, column: 3, path: 'sink.flush_intervall_ms', message: 'unknown key' }]);
  });

  it('bounds the bytes in flight by default, takes 0 for no limit, and refuses a negative or unit-less budget', () => {
    expect(parsePipeline(valid, 'x.yaml').source).toMatchObject({ max_bytes_in_flight: 32 * 1024 * 1024 });
    const withSource = (line: string) => `${valid}source:\n  type: redis_frontier\n  ${line}\n`;
    expect(parsePipeline(withSource('max_bytes_in_flight: 0'), 'x.yaml').source).toMatchObject({ max_bytes_in_flight: 0 });
    expect(problems(withSource('max_bytes_in_flight: -1'))[0]).toMatchObject({ line: 14, path: 'source.max_bytes_in_flight' });
    expect(problems(withSource('max_in_flight_bytes: 1000'))[0]).toMatchObject({ line: 14, path: 'source.max_in_flight_bytes', message: 'unknown key' });
  });

  it('names the key path of a wrong type and of an unknown stage type', () => {
    const wrongType = valid.replace('flush_interval_ms: 200', 'flush_interval_ms: soon');
    const p1 = problems(wrongType);
    expect(p1[0]).toMatchObject({ line: 11, path: 'sink.flush_interval_ms' });
    const unknown = valid.replace('type: weibo_api', 'type: weibo_apii');
    const p2 = problems(unknown);
    expect(p2[0]).toMatchObject({ line: 7, path: 'parse.type' });
  });

  it('reports YAML syntax errors with their line', () => {
    const p = problems('name: demo\nsink: [unclosed\n');
    expect(p[0]!.line).toBeGreaterThanOrEqual(2);
  });

  it('refuses a missing variable and credential headers in the file', () => {
    expect(problems(valid.replace(':-http://127.0.0.1:8080', ''))[0]).toMatchObject({ line: 8, column: 13, path: 'parse.base_url', message: 'variable SIMSITE_URL is not set and has no default' });
    const cred = valid.replace('  allow_private_networks: true', '  allow_private_networks: true\n  headers: { Cookie: "SUB=secret" }');
    expect(problems(cred)[0]!.path).toBe('fetch.headers');
  });
});

describe('parsePipeline: variables go into parsed values, never into the text', () => {
  const withUa = valid.replace('  allow_private_networks: true', '  user_agent: ${UA}');

  it('a value with a newline cannot add keys (here: turn the SSRF guard off)', () => {
    const p = parsePipeline(withUa, 'x.yaml', { UA: 'probe\n  allow_private_networks: true' });
    expect(p.fetch).toMatchObject({ user_agent: 'probe\n  allow_private_networks: true', allow_private_networks: false });
  });

  it('a value holding " #" is kept whole, and quotes in a value cannot end its string', () => {
    expect(parsePipeline(withUa, 'x.yaml', { UA: 'bot #1' }).fetch).toMatchObject({ user_agent: 'bot #1' });
    const quoted = valid.replace('  allow_private_networks: true', '  user_agent: "${UA}"');
    expect(parsePipeline(quoted, 'x.yaml', { UA: 'a" b: "c' }).fetch).toMatchObject({ user_agent: 'a" b: "c' });
  });

  it('ignores ${VAR} in comments and keys', () => {
    const commented = valid.replace('name: demo', 'name: demo # set ${NOT_SET_ANYWHERE} to change it');
    expect(parsePipeline(commented, 'x.yaml').name).toBe('demo');
    expect(problems(valid.replace('  flush_interval_ms: 200', '  ${K}: 200'), { K: 'flush_interval_ms' })[0]).toMatchObject({ path: 'sink.${K}', message: 'unknown key' });
  });

  it('types an unquoted value as YAML would (number, boolean), keeps a quoted one a string', () => {
    const text = valid.replace('flush_interval_ms: 200', 'flush_interval_ms: ${MS}').replace('allow_private_networks: true', 'allow_private_networks: ${OPEN}');
    expect(parsePipeline(text, 'x.yaml', { MS: '250', OPEN: 'false' })).toMatchObject({ sink: { flush_interval_ms: 250 }, fetch: { allow_private_networks: false } });
    expect(problems(text.replace('${MS}', '"${MS}"'), { MS: '250', OPEN: 'true' })[0]).toMatchObject({ path: 'sink.flush_interval_ms', message: 'Invalid input: expected number, received string' });
    expect(parsePipeline(text.replace('${MS}', '${MS:-300}'), 'x.yaml', { OPEN: 'true' }).sink).toMatchObject({ flush_interval_ms: 300 });
  });

  it('names file, line, column and key path of a missing variable in a sequence', () => {
    const text = valid.replace('seeds: [weibo:user:1000000001]', 'seeds:\n  - weibo:user:1\n  - weibo:user:${ID}');
    expect(problems(text)).toEqual([{ file: 'pipelines/x.yaml', line: 4, column: 16, path: 'seeds.1', message: 'variable ID is not set and has no default' }]);
  });

  it('says to quote a variable that breaks a flow collection', () => {
    const p = problems(valid.replace('seeds: [weibo:user:1000000001]', 'seeds: [${SEED}]'), { SEED: 'weibo:user:1' });
    expect(p[0]!.message).toContain('quote a variable');
    expect(parsePipeline(valid.replace('seeds: [weibo:user:1000000001]', 'seeds: ["${SEED}"]'), 'x.yaml', { SEED: 'weibo:user:1' }).seeds).toEqual(['weibo:user:1']);
  });
});

describe('parsePipeline: durations a timer waits for fit in one', () => {
  it.each([
    ['source', 'lease_secs', 10_000_000],
    ['source', 'reap_interval_secs', 2_592_000],
    ['source', 'poll_interval_ms', 2 ** 31],
    ['sink', 'flush_interval_ms', 2 ** 31],
  ])('%s.%s: %s is refused with its key path and the limit', (stage, key, value) => {
    const text = stage === 'source'
      ? valid.replace('seeds: [weibo:user:1000000001]', `seeds: [weibo:user:1000000001]\nsource: { type: redis_frontier, ${key}: ${value} }`)
      : valid.replace('flush_interval_ms: 200', `${key}: ${value}`);
    expect(problems(text)[0]).toMatchObject({ path: `${stage}.${key}`, message: expect.stringMatching(/^at most .* \(about 24\.8 days, the longest delay a Node\.js timer keeps\)$/) });
  });
});

describe('interpolate', () => {
  it('substitutes, defaults and escapes', () => {
    expect(interpolate('a ${X} ${Y:-d} $${X}', { X: '1' })).toEqual({ text: 'a 1 d ${X}', missing: [] });
    expect(interpolate('${NOPE}', {}).missing).toEqual(['NOPE']);
  });
});
