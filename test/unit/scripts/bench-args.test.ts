import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** `npm run bench` refuses an unknown name before installing or compiling anything. */
describe('scripts/bench.sh arguments', () => {
  function bench(...args: string[]): { status: number | null; stderr: string } {
    const r = spawnSync('bash', [join(ROOT, 'scripts', 'bench.sh'), ...args], { encoding: 'utf8', timeout: 20_000 });
    return { status: r.status, stderr: r.stderr };
  }

  it('refuses an unknown benchmark with the names it has', () => {
    const r = bench('nosuch');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no benchmark named 'nosuch' \(have: .*\bschedule\b.*\bthroughput\b/);
    expect(r.stderr).not.toMatch(/\blib\b|\bresults\b/);
  });

  it('reads options after the names as options, not as benchmark names', () => {
    // `--rn` would be refused as a name if the options were taken for names; an unknown name
    // after them still is checked first.
    const r = bench('nosuch', '--rn', '1000');
    expect(r.stderr).toMatch(/no benchmark named 'nosuch'/);
    expect(r.stderr).not.toMatch(/named '--rn'|named '1000'/);
  });
});
