import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FreshetError } from '../../../src/core/errors';
import { loadPipeline, MAX_PROBLEMS_SHOWN, type PipelineProblem } from '../../../src/pipeline/load';

const DIR = join(__dirname, '..', '..', 'fixtures', 'bad', 'pipelines');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<string, { line: number; column: number; path: string; message: string }>;
const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();

function refusal(file: string): FreshetError {
  try {
    loadPipeline(file, {});
  } catch (err) {
    return err as FreshetError;
  }
  throw new Error(`${file} was accepted`);
}

describe('the bad-pipeline corpus (test/fixtures/bad/pipelines)', () => {
  it('has an expectation for every file and a file for every expectation', () => {
    expect(Object.keys(expected).filter((k) => !k.startsWith('_')).sort()).toEqual(files);
  });

  it.each(files)('%s is refused naming file, line, column and key path', (name) => {
    const file = join(DIR, name);
    const err = refusal(file);
    expect(err).toBeInstanceOf(FreshetError);
    expect(err).toMatchObject({ code: 'E_PIPELINE_INVALID', kind: 'critical' });
    const want = expected[name]!;
    const first = (err.fields['problems'] as PipelineProblem[])[0]!;
    expect(first).toMatchObject({ file, line: want.line, column: want.column, path: want.path });
    expect(first.message).toMatch(new RegExp(want.message));
    expect(err.message.split('\n')[0]).toBe(`${file}:${want.line}:${want.column}: ${want.path ? `${want.path}: ` : ''}${first.message}`);
  });

  it('refuses an unreadable, endless or oversized file without reading it all', () => {
    expect(refusal(join(DIR, 'no-such-file.yaml'))).toMatchObject({ code: 'E_PIPELINE_INVALID', message: expect.stringMatching(/no-such-file\.yaml: cannot read: ENOENT/) });
    expect(refusal(DIR)).toMatchObject({ code: 'E_PIPELINE_INVALID', message: expect.stringMatching(/cannot read: EISDIR/) });
    const started = Date.now();
    expect(refusal('/dev/zero')).toMatchObject({ code: 'E_PIPELINE_INVALID', message: '/dev/zero: cannot read: more than the 1048576 bytes a pipeline file may have' });
    const big = join(tmpdir(), `freshet-big-${process.pid}.yaml`);
    writeFileSync(big, `name: big\n# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    expect(refusal(big).message).toMatch(/more than the 1048576 bytes/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses 50,000 unknown keys in seconds, listing the first few and counting the rest', () => {
    const file = join(tmpdir(), `freshet-many-keys-${process.pid}.yaml`);
    const keys = Array.from({ length: 50_000 }, (_, i) => `  k${i}: 1`).join('\n');
    writeFileSync(file, `name: many\nfetch:\n  type: http_fetch\n${keys}\nparse:\n  type: weibo_api\n  base_url: http://127.0.0.1:1\nsink:\n  type: elasticsearch\n`);
    const started = Date.now();
    const err = refusal(file);
    rmSync(file);
    // It took 52-75 s (185 s on a loaded machine) and printed 3.4 MB: yaml's uniqueKeys check and
    // the key lookup were both quadratic.
    expect(Date.now() - started).toBeLessThan(15_000);
    const problems = err.fields['problems'] as PipelineProblem[];
    expect(problems).toHaveLength(MAX_PROBLEMS_SHOWN);
    expect(problems[0]).toMatchObject({ line: 4, column: 3, path: 'fetch.k0', message: 'unknown key' });
    expect(problems[19]).toMatchObject({ line: 23, column: 3, path: 'fetch.k19' });
    expect(err.fields['total_problems']).toBe(50_000);
    const lines = err.message.split('\n');
    expect(lines).toHaveLength(MAX_PROBLEMS_SHOWN + 1);
    expect(lines[lines.length - 1]).toBe('… and 49,980 more problems');
  });
});

