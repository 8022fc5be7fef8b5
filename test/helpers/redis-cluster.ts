import { execFile, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';

const run = promisify(execFile);
const STATE = join(__dirname, '..', '..', '.state');

/**
 * A real Redis Cluster of masters on loopback ports, for tests. Idempotent: a cluster already
 * healthy on those ports is reused (and then left running by `stop`), so each test file takes its
 * own base port and files can run in parallel without tearing down each other's nodes.
 */
export interface RedisClusterHandle {
  ports: number[];
  /** host:port seeds, as FRESHET_REDIS_CLUSTER takes them. */
  seeds: string;
  client(): Cluster;
  stop(): Promise<void>;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 30_000 });
  return stdout;
}

async function clusterOk(port: number): Promise<boolean> {
  try {
    return (await cli(port, 'cluster', 'info')).includes('cluster_state:ok');
  } catch {
    return false;
  }
}

async function waitFor(what: string, ok: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function bindable(port: number): Promise<boolean> {
  const srv = createServer();
  const ok = await new Promise<boolean>((r) => {
    srv.once('error', () => r(false));
    srv.listen(port, '127.0.0.1', () => r(true));
  });
  if (ok) await new Promise((r) => srv.close(r));
  return ok;
}

/** A base port whose `masters` ports and their cluster-bus ports (+10000) are all free. */
async function freeBasePort(masters: number): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const base = 20_000 + Math.floor(Math.random() * 9_000);
    const ports = Array.from({ length: masters }, (_, i) => base + i).flatMap((p) => [p, p + 10_000]);
    if ((await Promise.all(ports.map(bindable))).every(Boolean)) return base;
  }
  throw new Error('no free ports for a Redis Cluster');
}

/**
 * `basePort` fixed (e.g. 7101 for a cluster to keep around by hand) or `'free'` (tests: ports
 * nobody holds, so concurrent test runs on one machine never share or stop each other's nodes).
 */
export async function startRedisCluster(basePortOrFree: number | 'free', masters = 3): Promise<RedisClusterHandle> {
  const basePort = basePortOrFree === 'free' ? await freeBasePort(masters) : basePortOrFree;
  const ports = Array.from({ length: masters }, (_, i) => basePort + i);
  const seeds = ports.map((p) => `127.0.0.1:${p}`).join(',');
  const client = (): Cluster => new Cluster(ports.map((port) => ({ host: '127.0.0.1', port })), { redisOptions: { maxRetriesPerRequest: 2 } });
  const healthy = (await Promise.all(ports.map(clusterOk))).every(Boolean);
  if (healthy) return { ports, seeds, client, stop: async () => undefined };

  const dir = join(STATE, `redis-cluster-${basePort}`);
  // A half-built cluster from an interrupted run would refuse `--cluster create`: start clean.
  for (const port of ports) await cli(port, 'shutdown', 'nosave').catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
  for (const port of ports) {
    const nodeDir = join(dir, String(port));
    mkdirSync(nodeDir, { recursive: true });
    const child = spawn('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
      '--cluster-config-file', join(nodeDir, 'nodes.conf'), '--cluster-node-timeout', '5000',
      '--dir', nodeDir, '--appendonly', 'no', '--save', '', '--daemonize', 'no', '--logfile', join(nodeDir, 'redis.log'),
    ], { detached: true, stdio: 'ignore' });
    child.unref();
  }
  await waitFor('cluster nodes to answer', async () => (await Promise.all(ports.map((p) => cli(p, 'ping').catch(() => '')))).every((s) => s.includes('PONG')));
  await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: 60_000 });
  await waitFor('cluster_state:ok on every node', async () => (await Promise.all(ports.map(clusterOk))).every(Boolean));
  return {
    ports,
    seeds,
    client,
    async stop() {
      for (const port of ports) await cli(port, 'shutdown', 'nosave').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A standalone connection to one node, e.g. to check where keys landed. */
export function nodeClient(port: number): Redis {
  return new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 2 });
}

/** Deletes the keys matching a pattern on every master (SCAN is per node on a cluster). */
export async function deleteClusterKeys(cluster: Cluster, pattern: string): Promise<void> {
  for (const node of cluster.nodes('master')) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      for (const k of keys) await node.del(k); // one key per DEL: a node's keys span many slots
      cursor = next;
    } while (cursor !== '0');
  }
}
