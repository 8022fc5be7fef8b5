import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errors } from '@elastic/elasticsearch';
import { FreshetError } from '../../../src/core/errors';
import { applyTemplates, applyTemplatesReport, indexName, loadTemplates, parseTemplate } from '../../../src/search/templates';
import { engine } from '../../helpers/engine';
import { FRESHET_BIN } from '../../helpers/crawl';
import { useSearch, type TestSearch } from '../../helpers/services';

const run = promisify(execFile);
const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');

const template = (name: string, mappings: object, settings: object = {}): string => JSON.stringify({
  index_patterns: [name], template: { settings: { number_of_replicas: 0, ...settings }, mappings: { dynamic: 'strict', ...mappings } },
});

/** What the node says, and what freshet prints, when the node refuses something (real node). */
describe('search node errors name their root cause (real search node)', () => {
  let t: TestSearch;
  let dir: string;
  beforeAll(async () => {
    t = await useSearch('node-errors');
    dir = mkdtempSync(join(tmpdir(), 'freshet-mappings-'));
  });
  afterAll(async () => {
    await t.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a template the node refuses for an unknown analyzer: one line with the analyzer, not "template after composition is invalid" alone', async () => {
    const name = `${t.prefix}raw`;
    const err = await t.client.indices.putIndexTemplate({
      name, index_patterns: [name], template: { mappings: { properties: { a: { type: 'text', analyzer: 'freshet_no_such_analyzer' } } } },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(errors.ResponseError);
    const message = (err as Error).message;
    expect(message).toMatch(new RegExp(`^search node answered PUT /_index_template/${name} with HTTP 400: \\S+: .*analyzer \\[freshet_no_such_analyzer\\]`));
    expect(message).not.toMatch(/\n/);
  });

  it('freshet refuses a missing built-in analyzer before sending the templates, naming it and the node', async () => {
    const t1 = parseTemplate('bad', template('bad', { properties: { a: { type: 'text', analyzer: 'freshet_no_such_analyzer' } } }));
    const err = await applyTemplates(t.client, [t1], { prefix: t.prefix }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FreshetError);
    expect((err as Error).message).toMatch(new RegExp(`^the search node \\(${engine().node.replace('.', '\\.')}[^)]*\\) lacks the analyzer \\[freshet_no_such_analyzer\\] \\(.*freshet_no_such_analyzer.*; no documented fallback\\) that mappings/ use$`));
    // Nothing was sent: no template of this prefix exists (OpenSearch answers 404 for none).
    const put = await t.client.indices.getIndexTemplate({ name: `${t.prefix}*` }).catch(() => ({ index_templates: [] }));
    expect(put.index_templates).toEqual([]);
  });

  it('a template refused for a cause only the node knows says which template and the deepest cause', async () => {
    // A custom analyzer (defined in the template, so not probed) on a tokenizer no node has.
    const body = template('odd', { properties: { a: { type: 'text', analyzer: 'mine' } } }, { analysis: { analyzer: { mine: { type: 'custom', tokenizer: 'freshet_no_such_tokenizer' } } } });
    const err = await applyTemplates(t.client, [parseTemplate('odd', body, 'mappings/odd.json')], { prefix: t.prefix }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FreshetError);
    const message = (err as Error).message;
    expect(message).toMatch(new RegExp(`^index template ${t.prefix}odd \\(mappings/odd\\.json\\) refused: search node answered PUT /_index_template/${t.prefix}odd with HTTP 400: `));
    // OpenSearch 3.8 says it under `suppressed`, the others under `caused_by`.
    expect(message).toContain('failed to find tokenizer under name [freshet_no_such_tokenizer]');
    expect(message).not.toMatch(/\n/);
  });

  it('a search the node cannot parse names the parse error, not only "all shards failed"', async () => {
    await applyTemplates(t.client, loadTemplates(MAPPINGS), { prefix: t.prefix, settings: { number_of_replicas: 0 } });
    const index = indexName(t.prefix, 'posts');
    await t.client.index({ index, id: 'x:1', document: { platform: 'x', id: '1', text: 'hello' }, refresh: true });
    const err = await t.client.search({ index, query: { query_string: { query: 'text:(unclosed' } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(errors.ResponseError);
    const message = (err as Error).message;
    expect(message).toMatch(new RegExp(`^search node answered POST /${index}/_search with HTTP 400: \\S+: .*(Cannot parse 'text:\\(unclosed'|Encountered "<EOF>")`));
    expect(message).not.toMatch(/\n/);
  });

  it('applies mappings/ on this node: the cjk analyzer, or its documented fallback with a warning', async () => {
    const report = await applyTemplatesReport(t.client, loadTemplates(MAPPINGS), { prefix: `${t.prefix}fb-`, settings: { number_of_replicas: 0 } });
    expect(report.names).toHaveLength(loadTemplates(MAPPINGS).length);
    if (engine().cjk.ok) {
      expect(report.plan.fallbacks).toEqual([]);
      expect(report.warning).toBeUndefined();
    } else {
      expect(report.plan.fallbacks).toEqual([{ analyzer: 'cjk', fallback: 'standard', reason: engine().cjk.reason }]);
      expect(report.warning).toContain(`the search node (${engine().node}) lacks the cjk analyzer`);
    }
  });

  it('freshet mappings apply (built CLI) exits 1 with one line naming the missing analyzer', async () => {
    writeFileSync(join(dir, 'bad.json'), template('bad', { properties: { a: { type: 'text', analyzer: 'freshet_no_such_analyzer' } } }));
    const err = await run('node', [FRESHET_BIN, 'mappings', 'apply', '--dir', dir], { env: { ...process.env, FRESHET_INDEX_PREFIX: t.prefix } })
      .catch((e: { code: number; stderr: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    const lines = (err as { stderr: string }).stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^freshet: the search node \(.+\) lacks the analyzer \[freshet_no_such_analyzer\] /);
  });
});
