import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const DIR = join(ROOT, 'test', 'fixtures', 'bad', 'pipelines');

/** The bad-pipeline corpus through the built CLI: clear messages and exit codes, never a stack trace. */
describe('freshet validate / run on the bad-pipeline corpus', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(DIR, f));

  it('validate names every file with line and column, exits 1, and prints no stack trace', () => {
    const res = spawnSync('node', [join(ROOT, 'bin', 'freshet.js'), 'validate', ...files, join(ROOT, 'pipelines', 'demo.yaml')], { encoding: 'utf8', timeout: 60_000 });
    expect(res.status).toBe(1);
    for (const f of files) expect(res.stderr).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `, 'm'));
    expect(res.stdout).toMatch(/demo\.yaml: ok/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('run refuses an unknown stage type before touching any service', () => {
    const res = spawnSync('node', [join(ROOT, 'bin', 'freshet.js'), 'run', join(DIR, 'unknown-parse-type.yaml')], {
      encoding: 'utf8', timeout: 60_000, env: { ...process.env, FRESHET_REDIS_URL: 'redis://127.0.0.1:1', FRESHET_ES_URL: 'http://127.0.0.1:1' },
    });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/unknown-parse-type\.yaml:7:3: parse\.type: Invalid discriminator value/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
