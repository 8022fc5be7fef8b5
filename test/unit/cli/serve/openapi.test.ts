import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiOnly } from '../../../../src/cli/serve';

const ROOT = join(__dirname, '..', '..', '..', '..');
const FILE = join(ROOT, 'docs', 'openapi.json');
const VALIDATOR = join(ROOT, 'node_modules', '@seriousme', 'openapi-schema-validator', 'bin', 'validate-api-cli.js');

describe('docs/openapi.json (the JSON API of freshet serve)', () => {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  it('is current: regenerating it from the routes\' schemas gives the committed file (else: freshet serve --write-openapi)', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(`${JSON.stringify(openApiOnly(version), null, 2)}\n`);
  });

  it('is a valid OpenAPI 3.1 document', () => {
    // The validator is an ES module: run its command line, which prints {"valid": …}.
    const out = execFileSync(process.execPath, [VALIDATOR, FILE], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ valid: true });
  });

  it('documents every operation with its parameters and answers', () => {
    const doc = openApiOnly(version) as { paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string; required: boolean }[] }>>; components: { schemas: Record<string, unknown> } };
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId)).sort();
    expect(ops).toEqual([
      'drainPipeline', 'dropDeadLetter', 'getDeadLetter', 'getFreshness', 'getLimits', 'getPipeline', 'health', 'listDeadLetters',
      'listPipelines', 'pausePipeline', 'requeueDeadLetter', 'resumePipeline', 'search', 'seed', 'timeline',
    ]);
    const search = doc.paths['/api/search']!['get']!.parameters!;
    expect(search.find((p) => p.name === 'q')).toMatchObject({ in: 'query', required: true });
    expect(search.find((p) => p.name === 'size')).toMatchObject({ in: 'query', required: false });
    expect(doc.paths['/api/pipelines/{name}/dead-letters/{id}']!['delete']!.parameters!.map((p) => p.name)).toEqual(['name', 'id']);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['PipelineOverview', 'SearchResult', 'DeadLetter', 'Error']));
  });
});
