import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from '@elastic/elasticsearch';
import { deepestCause, describeNodeError, isResponseError, nodeErrorOf, responseErrorLine, withRootCause } from '../../../src/search/node-errors';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'search-errors');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

/** A ResponseError as the client builds it from an answer (real body, real request params). */
function responseError(body: unknown, status = 400, method = 'PUT', path = '/_index_template/freshet-posts'): errors.ResponseError {
  return new errors.ResponseError({
    body, statusCode: status, headers: {}, warnings: null,
    meta: { context: null, name: 'x', request: { params: { method, path }, options: {}, id: 1 }, connection: null, attempts: 0, aborted: false },
  });
}

describe('deepestCause', () => {
  it('follows caused_by past the wrapper that root_cause names (OpenSearch 2.19, unknown analyzer)', () => {
    const body = fixture('opensearch-2.19-template-unknown-analyzer.json') as { error: Parameters<typeof deepestCause>[0] };
    expect(body.error.root_cause![0]!.reason).toMatch(/template after composition is invalid/);
    expect(deepestCause(body.error).reason).toBe('analyzer [cjkx] has not been configured in mappings');
  });

  it('prefers a root_cause entry whose own chain goes deeper', () => {
    const e = { type: 'search_phase_execution_exception', reason: 'all shards failed', root_cause: [{ type: 'a', reason: 'shallow' }, { type: 'b', reason: 'mid', caused_by: { type: 'c', reason: 'deep' } }] };
    expect(deepestCause(e)).toEqual({ type: 'c', reason: 'deep' });
  });

  it('looks into suppressed[] (OpenSearch 3.8, a custom analyzer on an unknown tokenizer)', () => {
    const body = fixture('opensearch-3.8-template-unknown-tokenizer.json') as { error: Parameters<typeof deepestCause>[0] };
    expect(deepestCause(body.error).reason).toBe('Custom Analyzer [mine] failed to find tokenizer under name [freshet_no_such_tokenizer]');
  });

  it('stops on a cycle', () => {
    const e: { type: string; reason: string; caused_by?: unknown } = { type: 't', reason: 'r' };
    e.caused_by = e;
    expect(deepestCause(e as never).reason).toBe('r');
  });
});

describe('describeNodeError', () => {
  it('puts the deepest cause first and the wrapper in parentheses, on one line', () => {
    const body = fixture('opensearch-2.19-template-unknown-analyzer.json') as { error: unknown };
    expect(describeNodeError(body.error)).toBe('illegal_argument_exception: analyzer [cjkx] has not been configured in mappings (composable template [t-probe-x] template after composition is invalid)');
  });

  it('says what Elasticsearch 8.19 core says about a template with cjk: the analyzer, not only the wrapper (issue 22)', () => {
    const body = fixture('elasticsearch-8.19-template-unknown-analyzer.json') as { error: unknown };
    expect(describeNodeError(body.error)).toBe('illegal_argument_exception: analyzer [cjk] has not been configured in mappings (composable template [t-probe-x] template after composition is invalid)');
  });

  it('describes a bulk item error by its cause and the field it names', () => {
    const line = describeNodeError(fixture('opensearch-2.19-bulk-item-bad-date.json'));
    expect(line).toMatch(/^date_time_parse_exception: Failed to parse with all enclosed parsers \(failed to parse field \[d\] of type \[date\]/);
    expect(line).not.toMatch(/\n/);
  });

  it('reads the failed shards of a search error and keeps the first line of a Lucene parse error', () => {
    const body = fixture('opensearch-2.19-search-unparsable-query.json') as { error: unknown };
    expect(describeNodeError(body.error)).toBe('parse_exception: Encountered "<EOF>" at line 1, column 14. (Failed to parse query [text:(unclosed]; all shards failed)');
  });

  it('caps a line at 600 characters', () => {
    expect(describeNodeError({ type: 't', reason: 'x'.repeat(2000) })).toHaveLength(600);
  });

  it('keeps a flat error as it is and passes string errors through', () => {
    expect(describeNodeError({ type: 'strict_dynamic_mapping_exception', reason: 'mapping set to strict' })).toBe('strict_dynamic_mapping_exception: mapping set to strict');
    expect(describeNodeError('no handler found\nfor uri')).toBe('no handler found for uri');
  });
});

describe('responseErrorLine / withRootCause', () => {
  it('names method, path, status and the root cause', () => {
    const err = responseError(fixture('opensearch-2.19-template-unknown-analyzer.json'));
    // The client's own message leads with the wrapper and spans lines.
    expect(err.message).toMatch(/\n/);
    expect(responseErrorLine(err)).toBe('search node answered PUT /_index_template/freshet-posts with HTTP 400: illegal_argument_exception: analyzer [cjkx] has not been configured in mappings (composable template [t-probe-x] template after composition is invalid)');
  });

  it('reads string errors (no handler for an endpoint) and drops the query string', () => {
    const err = responseError(fixture('opensearch-2.19-no-handler.json'), 400, 'POST', '/x/_delete_by_query?refresh=true');
    expect(responseErrorLine(err)).toBe('search node answered POST /x/_delete_by_query with HTTP 400: no handler found for uri [/t-probe-nothing*/_delete_by_queryx] and method [POST]');
    expect(nodeErrorOf({ status: 500 })).toBeUndefined();
  });

  it('rewrites a ResponseError in place and leaves other errors alone', () => {
    const err = responseError(fixture('opensearch-2.19-unknown-query.json'), 400, 'POST', '/p/_search');
    expect(withRootCause(err)).toBe(err);
    expect(err).toBeInstanceOf(errors.ResponseError);
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe('search node answered POST /p/_search with HTTP 400: named_object_not_found_exception: [1:24] unknown field [percolatex] (unknown query [percolatex] did you mean [percolate]?)');
    const plain = new Error('x\ny');
    expect((withRootCause(plain) as Error).message).toBe('x\ny');
  });

  it('tells the client\'s ResponseError apart from other errors without importing the client', () => {
    expect(isResponseError(responseError({ error: 'x' }, 404))).toBe(true);
    expect(isResponseError(new errors.ConnectionError('down'))).toBe(false);
    expect(isResponseError(new errors.TimeoutError('slow'))).toBe(false);
    expect(isResponseError(new Error('ResponseError'))).toBe(false);
    expect(isResponseError({ name: 'ResponseError', meta: {} })).toBe(false);
    expect(isResponseError(undefined)).toBe(false);
  });
});

describe('modules', () => {
  it('reading a pipeline, the templates or the sink factory does not load the search client', () => {
    // The client (~500 modules) is for processes that talk to a search node; a null-sink crawl,
    // `freshet validate` and the page worker threads never do. A fresh process, as in production.
    const src = join(__dirname, '..', '..', '..', 'src');
    const script = `
const { readFileSync } = require('node:fs');
const swc = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (m, f) => m._compile(swc.transformSync(readFileSync(f, 'utf8'), { filename: f, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, f);
for (const m of ['pipeline/load', 'search/templates', 'sinks/factory']) require(${JSON.stringify(src)} + '/' + m + '.ts');
const loaded = Object.keys(require.cache);
console.log(JSON.stringify({ total: loaded.length, elastic: loaded.filter((k) => k.includes('/@elastic/')) }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { total: number; elastic: string[] };
    expect(out.total).toBeGreaterThan(100);
    expect(out.elastic).toEqual([]);
  });
});
