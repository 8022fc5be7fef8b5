import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../../src/cli/main';

/** The CLI finds mappings/ and pipelines/ whether it runs from dist/ or from .state/build/. */
describe('projectRoot', () => {
  const root = mkdtempSync(join(tmpdir(), 'freshet-root-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'freshet', version: '9.9.9' }));
  // A package.json of another name on the way up (a build folder's own) is not the root.
  mkdirSync(join(root, '.state', 'build', 'src', 'cli'), { recursive: true });
  writeFileSync(join(root, '.state', 'build', 'package.json'), JSON.stringify({ name: 'other' }));
  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });

  it('is two levels above dist/cli', () => {
    expect(projectRoot(join(root, 'dist', 'cli'))).toBe(root);
  });

  it('is four levels above .state/build/src/cli, passing a package.json of another name', () => {
    expect(projectRoot(join(root, '.state', 'build', 'src', 'cli'))).toBe(root);
  });

  it('is the real checkout from the sources', () => {
    expect(projectRoot(join(__dirname, '..', '..', '..', 'src', 'cli'))).toBe(join(__dirname, '..', '..', '..'));
  });
});
