import { join } from 'node:path';
import { checkImports, readSources } from '../../helpers/import-graph';

const ROOT = join(__dirname, '..', '..', '..');

describe('the layers of src/', () => {
  it('has no import running back up the layers and no import cycle', () => {
    const report = checkImports(readSources(ROOT));
    expect(report.files).toBeGreaterThan(150);
    expect(report.back).toEqual([]);
    expect(report.cycles).toEqual([]);
  });
});

describe('checkImports', () => {
  it('reports a kind importing the runner, and a kind importing simsite', () => {
    const report = checkImports(new Map([
      ['src/fetchers/a.ts', "import type { X } from '../runner/types';\nimport { y } from '../simsite/world';\n"],
      ['src/runner/types.ts', 'export type X = 1;\n'],
      ['src/simsite/world.ts', 'export const y = 1;\n'],
    ]));
    expect(report.back).toEqual(['src/fetchers/a.ts -> src/runner/types.ts', 'src/fetchers/a.ts -> src/simsite/world.ts']);
  });

  it('allows downward imports, core from simsite, and anything from cli', () => {
    const report = checkImports(new Map([
      ['src/runner/run.ts', "import { a } from '../fetchers/a';\nimport { b } from '../core/b';\n"],
      ['src/fetchers/a.ts', "import { b } from '../core/b';\nexport const a = b;\n"],
      ['src/simsite/s.ts', "import { b } from '../core/b';\n"],
      ['src/cli/main.ts', "import { s } from '../simsite/s';\nimport { r } from '../runner/run';\n"],
      ['src/core/b.ts', 'export const b = 1;\n'],
    ]));
    expect(report.back).toEqual([]);
    expect(report.cycles).toEqual([]);
  });

  it('reports a cycle of value imports, and ignores one closed only by a type import', () => {
    const cyclic = checkImports(new Map([
      ['src/cli/health.ts', "import { check } from './services';\nexport const probe = 1;\n"],
      ['src/cli/services.ts', "import { probe } from './health';\nexport const check = probe;\n"],
    ]));
    expect(cyclic.cycles).toEqual([['src/cli/health.ts', 'src/cli/services.ts']]);
    const typeOnly = checkImports(new Map([
      ['src/cli/health.ts', "import { check } from './services';\nexport type Probe = 1;\n"],
      ['src/cli/services.ts', "import type { Probe } from './health';\nexport const check = 1;\n"],
      ['src/cli/other.ts', "import { type Probe } from './health';\n"],
    ]));
    expect(typeOnly.cycles).toEqual([]);
  });

  it('resolves index files and finds a cycle through three files', () => {
    const report = checkImports(new Map([
      ['src/simsite/index.ts', "export { a } from './a';\n"],
      ['src/simsite/a.ts', "import { b } from './b';\nexport const a = b;\n"],
      ['src/simsite/b.ts', "import { a } from '../simsite';\nexport const b = 2;\n"],
    ]));
    expect(report.cycles).toEqual([['src/simsite/a.ts', 'src/simsite/b.ts', 'src/simsite/index.ts']]);
  });
});
