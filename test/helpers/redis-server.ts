import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './ports';

const run = promisify(execFile);
const STATE = join(__dirname, '..', '..', '.state');

/**
 * A private redis-server with AOF (appendfsync always) on its own port and directory, for tests
 * that kill and restart Redis: the shared one on 6390 must stay up for everyone else.
 */
export interface OwnRedis {
  url: string;
  port: number;
  /** SIGKILL: no shutdown save, only what the AOF already holds survives. */
  crash(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function answers(port: number, password?: string): Promise<boolean> {
  try {
    const auth = password === undefined ? [] : ['-a', password, '--no-auth-warning'];
    const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...auth, 'ping'], { timeout: 5000 });
    return stdout.includes('PONG');
  } catch {
    return false;
  }
}


/**
 * `'free'`: a port nobody holds (tests, so that two test runs on one machine never meet);
 * a number: that port, taking it over from a leftover of an interrupted run. `persist: false`
 * (benchmarks that only measure memory) turns AOF off for speed; `password` sets `requirepass`.
 */
export async function ownRedis(portOrFree: number | 'free', opts: { persist?: boolean; password?: string } = {}): Promise<OwnRedis> {
  const port = portOrFree === 'free' ? await freePort() : portOrFree;
  const dir = join(STATE, `redis-own-${port}`);
  // Leftovers of an interrupted run on this port and directory are ours: clear them.
  if (portOrFree !== 'free') await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'shutdown', 'nosave'], { timeout: 5000 }).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let child: ChildProcess | undefined;
  const handle: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('redis-server', [
        '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', opts.persist === false ? 'no' : 'yes', '--appendfsync', 'always',
        '--save', '', '--daemonize', 'no', '--logfile', join(dir, 'redis.log'),
        ...(opts.password === undefined ? [] : ['--requirepass', opts.password]),
      ], { stdio: 'ignore' });
      for (let i = 0; i < 300 && !(await answers(port, opts.password)) && child?.exitCode === null; i++) await sleep(50);
      if (!(await answers(port, opts.password))) {
        const log = (() => {
          try {
            return readFileSync(join(dir, 'redis.log'), 'utf8').split('\n').slice(-15).join('\n');
          } catch {
            return '(no log)';
          }
        })();
        throw new Error(`redis-server on ${port} did not start (exit ${String(child?.exitCode)}):\n${log}`);
      }
    },
    async crash() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    async stop() {
      await handle.crash();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}
