import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FRESHET_BIN, frozenSimsite, seedsOf, writeCliPipeline } from '../../helpers/crawl';
import { deleteKeys, useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

/**
 * bin/freshet.js re-runs the CLI once with the Node flags of FRESHET_NODE_FLAGS (none by default): the
 * crawl must really run with them, the user's NODE_OPTIONS must win, and signals and exit codes
 * must pass through the parent as if there were none.
 */
interface Launched {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The crawler's "starting" record: which process crawls, with which flags. */
  started: Promise<{ pid: number; node_flags: string[] }>;
  stdout: () => string;
  stderr: () => string;
}

function launch(args: string[], env: NodeJS.ProcessEnv): Launched {
  const child = spawn('node', [FRESHET_BIN, ...args], { env: { ...env, FRESHET_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let onStarted: (r: { pid: number; node_flags: string[] }) => void = () => undefined;
  const started = new Promise<{ pid: number; node_flags: string[] }>((res) => (onStarted = res));
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    for (const line of err.split('\n')) {
      if (line.includes('"msg":"starting"')) onStarted(JSON.parse(line) as { pid: number; node_flags: string[] });
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on('exit', (code, signal) => res({ code, signal })));
  return { child, exited, started, stdout: () => out, stderr: () => err };
}

/** By default the CLI runs in place: the signal tests ask for flags to have the parent and its crawler. */
const RELAUNCH = { FRESHET_NODE_FLAGS: '--max-semi-space-size=2' };

describe('bin/freshet.js: the crawler\'s Node flags (built CLI, real services)', () => {
  let r: TestRedis;
  let s: TestSearch;
  beforeAll(async () => {
    r = await useRedis('cli-launch');
    s = await useSearch('cli-launch');
  });
  afterAll(async () => {
    await s.cleanup();
    await r.cleanup();
  });

  it('runs a crawl in place by default (web pages or an API); with FRESHET_NODE_FLAGS in a child with them; NODE_OPTIONS or an empty list run it in place', async () => {
    const name = `launch-flags-${s.prefix.slice(2, -1)}`;
    const api = writeCliPipeline(`${name}-api`, [], 'poll_interval_ms: 50');
    const file = join(tmpdir(), `${name}.yaml`);
    writeFileSync(file, `name: ${name}
seeds: []
source: { type: redis_frontier, poll_interval_ms: 50 }
fetch: { type: http_fetch, allowed_cidrs: [127.0.0.0/8], respect_robots: false }
parse: { type: web_pages }
sink: { type: elasticsearch, flush_interval_ms: 100, replicas: 0 }
`);
    const base: NodeJS.ProcessEnv = { ...process.env, FRESHET_INDEX_PREFIX: s.prefix, SIMSITE_URL: 'http://127.0.0.1:9' };
    delete base['NODE_OPTIONS'];
    const cases: { env: NodeJS.ProcessEnv; flags: string[]; inPlace: boolean }[] = [
      { env: {}, flags: [], inPlace: true },
      { env: { FRESHET_NODE_FLAGS: '--max-semi-space-size=2' }, flags: ['--max-semi-space-size=2'], inPlace: false },
      { env: { FRESHET_NODE_FLAGS: '--max-semi-space-size=4 --max-old-space-size=300' }, flags: ['--max-semi-space-size=4', '--max-old-space-size=300'], inPlace: false },
      { env: { FRESHET_NODE_FLAGS: '--max-semi-space-size=2', NODE_OPTIONS: '--max-semi-space-size=8' }, flags: [], inPlace: true },
      { env: { FRESHET_NODE_FLAGS: '' }, flags: [], inPlace: true },
    ];
    try {
      const inPlace = launch(['run', api, '--until-idle'], base);
      expect({ flags: (await inPlace.started).node_flags, inPlace: (await inPlace.started).pid === inPlace.child.pid, code: (await inPlace.exited).code })
        .toEqual({ flags: [], inPlace: true, code: 0 });
      for (const c of cases) {
        const l = launch(['run', file, '--until-idle'], { ...base, ...c.env });
        const started = await l.started;
        const { code } = await l.exited;
        expect({ env: c.env, code, flags: started.node_flags, inPlace: started.pid === l.child.pid })
          .toEqual({ env: c.env, code: 0, flags: c.flags, inPlace: c.inPlace });
        expect(JSON.parse(l.stdout().trim().split('\n').pop()!)).toMatchObject({ pipeline: name, stoppedBy: 'idle' });
      }
    } finally {
      await deleteKeys(r.redis, `freshet:${name}*`);
      rmSync(file, { force: true });
    }
  });

  it('passes exit codes through, and refuses a flag list that is not one with one line', async () => {
    const missing = launch(['run', '/nonexistent/pipeline.yaml'], process.env);
    expect((await missing.exited).code).toBe(1);
    expect(missing.stderr()).toMatch(/^freshet: .*nonexistent\/pipeline\.yaml/m);
    const bad = launch(['--version'], { ...process.env, FRESHET_NODE_FLAGS: 'max-semi-space-size=2' });
    expect(await bad.exited).toEqual({ code: 1, signal: null });
    expect(bad.stderr().trim()).toBe('freshet: FRESHET_NODE_FLAGS: "max-semi-space-size=2" is not a node option (expected --name or --name=value, separated by spaces)');
  });

  it('Ctrl-C as a terminal sends it (SIGINT to the parent and the crawler at once) drains: exit 0, not 130', async () => {
    const site = await frozenSimsite(400, 35);
    const name = `launch-ctrlc-${s.prefix.slice(2, -1)}`;
    const file = writeCliPipeline(name, seedsOf(site), 'max_in_flight: 4, lease_secs: 60, poll_interval_ms: 100');
    const l = launch(['run', file], { ...process.env, ...RELAUNCH, FRESHET_INDEX_PREFIX: s.prefix, SIMSITE_URL: site.url });
    try {
      const { pid } = await l.started;
      expect(pid).not.toBe(l.child.pid);
      for (let i = 0; i < 200 && site.requestLog.entries().length < 20; i++) await sleep(100);
      // The crawler's copy first; the parent's forwarded copy lands a little later (two signals
      // sent back to back could merge into one pending signal and prove nothing), but well before
      // the drain ends, as a terminal's two copies do: at 150 ms the copy could land in the very
      // moment the crawler's Node tears its signal handles down on exit, and kill it.
      process.kill(pid, 'SIGINT');
      await sleep(20);
      l.child.kill('SIGINT');
      expect(await l.exited).toEqual({ code: 0, signal: null });
      expect(JSON.parse(l.stdout().trim().split('\n').pop()!)).toMatchObject({ pipeline: name, stoppedBy: 'signal' });
    } finally {
      await site.close();
      await deleteKeys(r.redis, `freshet:${name}*`);
    }
  });

  it('forwards SIGHUP, and ends killed by the signal that killed the crawler', async () => {
    const site = await frozenSimsite(200, 36);
    const name = `launch-hup-${s.prefix.slice(2, -1)}`;
    const file = writeCliPipeline(name, seedsOf(site), 'max_in_flight: 4, lease_secs: 60, poll_interval_ms: 100');
    const l = launch(['run', file], { ...process.env, ...RELAUNCH, FRESHET_INDEX_PREFIX: s.prefix, SIMSITE_URL: site.url });
    try {
      const { pid } = await l.started;
      l.child.kill('SIGHUP');
      expect(await l.exited).toEqual({ code: null, signal: 'SIGHUP' });
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    } finally {
      await site.close();
      await deleteKeys(r.redis, `freshet:${name}*`);
    }
  });
});
