import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

describe('services script and CLI against the running services', () => {
  it('status prints each service with version, URL and health', async () => {
    const { stdout } = await run('bash', [join(ROOT, 'scripts', 'services.sh'), 'status']);
    expect(stdout).toMatch(/^redis\s+redis:\/\/\S+\s+version \d+\.\d+\.\d+\s+health ok/m);
    expect(stdout).toMatch(/^search\s+https?:\/\/\S+\s+version \d+\.\d+\.\d+\s+health (green|yellow)/m);
  });

  it('up is idempotent: a second up starts nothing', async () => {
    const { stderr } = await run('bash', [join(ROOT, 'scripts', 'services.sh'), 'up']);
    expect(stderr).toMatch(/redis: (already running|using external)/);
    expect(stderr).toMatch(/search node: (already running|using external)/);
    expect(stderr).not.toMatch(/started on/);
  });

  it('refuses to take over a port another process holds', async () => {
    const net = await import('node:net');
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    // Managed mode whatever the caller runs under: with FRESHET_SERVICES=external the script would wait for the port instead.
    const env = { ...process.env, FRESHET_SERVICES: '', FRESHET_REDIS_URL: `redis://127.0.0.1:${port}`, FRESHET_STATE_DIR: join(ROOT, '.state', 'refuse-test') };
    const err = await run('bash', [join(ROOT, 'scripts', 'services.sh'), 'up'], { env }).catch((e: { code: number; stderr: string }) => e);
    server.close();
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toContain(`port 127.0.0.1:${port} is held by a process freshet did not start`);
  });

  it('freshet health (built CLI) reports both services up', async () => {
    const { stdout } = await run('node', [join(ROOT, 'bin', 'freshet.js'), 'health']);
    expect(stdout).toMatch(/^redis .* ok /m);
    expect(stdout).toMatch(/^search .* ok .*(opensearch|elasticsearch)/m);
  });
});
