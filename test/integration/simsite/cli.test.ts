import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** Starts the built CLI and resolves with the URL it prints. */
function startCli(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('node', [join(ROOT, 'bin', 'freshet.js'), 'simsite', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`simsite exited with ${code}: ${out}`)));
  });
}

describe('freshet simsite (built CLI)', () => {
  it('serves the world its flags describe, the same on every start, and stops on SIGTERM', async () => {
    const args = ['--port', '0', '--users', '300', '--seed', '5', '--start', '2026-11-01T00:00:00Z', '--speed', '1', '--era', 'classic2019'];
    const first = await startCli(args);
    const world = (await (await fetch(`${first.url}/_truth/world`)).json()) as { seed: number; users: number; startMs: number; era: string };
    expect(world).toMatchObject({ seed: 5, users: 300, startMs: Date.UTC(2026, 10, 1), era: 'classic2019' });
    const usersA = await (await fetch(`${first.url}/_truth/users`)).text();
    const exitedA = new Promise<number | null>((r) => first.child.once('exit', r));
    first.child.kill('SIGTERM');
    expect(await exitedA).toBe(0);

    const second = await startCli(args);
    try {
      const usersB = await (await fetch(`${second.url}/_truth/users`)).text();
      // statusesCount depends on the clock; everything else must be identical.
      const strip = (s: string): unknown => (JSON.parse(s) as Record<string, unknown>[]).map(({ statusesCount: _s, ...rest }) => rest);
      expect(strip(usersB)).toEqual(strip(usersA));
    } finally {
      second.child.kill('SIGTERM');
    }
  });

  it('applies fault presets given on the command line', async () => {
    const { child, url } = await startCli(['--port', '0', '--users', '50', '--faults', 'ratelimit-418']);
    try {
      const faults = (await (await fetch(`${url}/_control/faults`)).json()) as { rateLimit: { status: number } };
      expect(faults.rateLimit.status).toBe(418);
      const users = (await (await fetch(`${url}/_truth/users`)).json()) as { uid: number }[];
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await fetch(`${url}/api/container/getIndex?type=uid&value=${users[0]!.uid}`, { headers: { 'x-client-id': 'cli-test' } })).status);
      expect(statuses).toContain(418);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
