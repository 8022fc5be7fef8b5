import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** docs/architecture.md is kept current: it names no file that is gone and every metric there is. */
describe('docs/architecture.md', () => {
  it('names only paths that exist', () => {
    const paths = [...doc.matchAll(/`((?:src|test|pipelines|docs)\/[A-Za-z0-9_./<>-]+?)`/g)].map((m) => m[1]!).filter((p) => !p.includes('<'));
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
    // Paths relative to src/ in the tables (`sources/frontier/counts.ts`, `runner/job-lifecycle.ts`).
    const relative = [...doc.matchAll(/`([a-z-]+\/[A-Za-z0-9_./-]+\.ts)`/g)].map((m) => m[1]!).filter((p) => !p.startsWith('src/') && !p.startsWith('test/'));
    expect(relative.filter((p) => !existsSync(join(ROOT, 'src', p)) && !existsSync(join(ROOT, 'test', p)))).toEqual([]);
  });

  it('lists every metric the code defines', () => {
    const defined = new Set<string>();
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      // `name: '…'` (prom-client), `counterOn(registry, '…'` / `gaugeOn(…)`, `const name = '…'`.
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:name:\s*|(?:counterOn|gaugeOn)\(\w+,\s*|const name = )'(freshet_[a-z_]+)'/g)) defined.add(m[1]!);
    }
    expect(defined.size).toBeGreaterThan(30);
    expect([...defined].filter((name) => !doc.includes(`\`${name}`))).toEqual([]);
  });
});
