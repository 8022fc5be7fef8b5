import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { FRESHET_BIN, PIPELINES } from '../../helpers/crawl';
import { freePort } from '../../helpers/ports';
import { ownRedis, type OwnRedis } from '../../helpers/redis-server';
import { refusingTemplates } from '../../helpers/refusing-search';
import { deleteKeys, testSettings, uniquePrefix } from '../../helpers/services';

type Fault = 'no_tokens' | 'redis_down' | 'redis_wrong_password' | 'search_down' | 'template_refused' | 'bad_pipeline';

const BAD = join(__dirname, '..', '..', 'fixtures', 'bad', 'pipelines', 'unknown-parse-type.yaml');
const SOCIAL = join(PIPELINES, 'social.yaml');

/** The line each fault must produce: it names the service and what it answered. */
const EXPECTED: Record<Fault, RegExp> = {
  no_tokens: /set FRESHET_TOKENS_WEIBO/,
  redis_down: /Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable: connect ECONNREFUSED/,
  redis_wrong_password: /Redis at redis:\/\/\[redacted\]@127\.0\.0\.1:\d+ refused the connection: WRONGPASS/,
  search_down: /search node at http:\/\/127\.0\.0\.1:\d+ is unreachable: .*ECONNREFUSED/,
  template_refused: /analyzer \[cjkx\] has not been configured/,
  bad_pipeline: /unknown-parse-type\.yaml:7:3: parse\.type: /,
};

/** Each command with the faults that concern it (a command that never opens Redis is not given a Redis fault). */
const COMMANDS: { name: string; argv: (f: Fault) => string[]; faults: Fault[] }[] = [
  { name: 'run', argv: (f) => ['run', f === 'bad_pipeline' ? BAD : SOCIAL, '--duration-secs', '2'], faults: ['no_tokens', 'redis_down', 'redis_wrong_password', 'search_down', 'template_refused', 'bad_pipeline'] },
  { name: 'status', argv: (f) => ['status', f === 'bad_pipeline' ? BAD : SOCIAL], faults: ['redis_down', 'redis_wrong_password', 'bad_pipeline'] },
  { name: 'seed', argv: (f) => ['seed', f === 'bad_pipeline' ? BAD : SOCIAL, 'weibo:user:1'], faults: ['redis_down', 'redis_wrong_password', 'bad_pipeline'] },
  { name: 'demo', argv: () => ['demo', '--users', '3'], faults: ['redis_down', 'redis_wrong_password', 'search_down', 'template_refused'] },
  { name: 'serve', argv: (f) => ['serve', f === 'bad_pipeline' ? BAD : SOCIAL, '--port', '0'], faults: ['redis_down', 'redis_wrong_password', 'search_down', 'bad_pipeline'] },
  { name: 'validate', argv: () => ['validate', BAD], faults: ['bad_pipeline'] },
  { name: 'health', argv: () => ['health'], faults: ['redis_down', 'redis_wrong_password', 'search_down'] },
  { name: 'search', argv: () => ['search', '天气'], faults: ['search_down'] },
  { name: 'alerts', argv: () => ['alerts', join(__dirname, '..', '..', '..', 'alerts', 'example.yaml')], faults: ['redis_down', 'redis_wrong_password', 'search_down'] },
];

interface Outcome {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
}

function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn('node', [FRESHET_BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Well past the 5 s asked for, so a hang shows as a failed time, not a jest timeout.
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, ms: Date.now() - t0, stdout, stderr });
    });
  });
}

/**
 * Every command against every misconfiguration that concerns it, through the built CLI: it must
 * end within 5 s of what node takes to start the CLI at all (`freshet --version`, timed on the same
 * machine just before, so that a loaded machine's slower start-up is not counted as the command's),
 * non-zero, with one line naming the cause (Redis and its WRONGPASS, the search node and the root
 * cause it gave, the missing variable, the file position), and no stack trace.
 */
describe('start-up errors end the process with one clear line', () => {
  const db = 1 + Math.floor(Math.random() * 15);
  const redisUrl = `${testSettings().redisUrl.replace(/\/\d*$/, '')}/${db}`;
  const prefix = uniquePrefix('misconfig');
  let locked: OwnRedis;
  let refusing: Awaited<ReturnType<typeof refusingTemplates>>;
  let deadPort: number;
  let startUpMs: number;
  beforeAll(async () => {
    const idle = { ...process.env };
    startUpMs = Math.min((await runCli(['--version'], idle)).ms, (await runCli(['--version'], idle)).ms);
    locked = await ownRedis('free', { persist: false, password: 'right-one' });
    refusing = await refusingTemplates(testSettings().esUrl);
    deadPort = await freePort();
  });
  afterAll(async () => {
    await locked?.stop();
    await refusing?.close();
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    await deleteKeys(redis, 'freshet:social*');
    await deleteKeys(redis, 'freshet:demo*');
    redis.disconnect();
  });

  function envFor(fault: Fault): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env, FRESHET_REDIS_URL: redisUrl, FRESHET_ES_URL: testSettings().esUrl, FRESHET_INDEX_PREFIX: prefix,
      FRESHET_TOKENS_WEIBO: 'tok-a,tok-b', SIMSITE_URL: `http://127.0.0.1:${deadPort}`,
    };
    delete env['FRESHET_REDIS_CLUSTER'];
    delete env['FRESHET_TOKENS_WEIBO_FILE'];
    if (fault === 'no_tokens') delete env['FRESHET_TOKENS_WEIBO'];
    if (fault === 'redis_down') env['FRESHET_REDIS_URL'] = `redis://127.0.0.1:${deadPort}`;
    if (fault === 'redis_wrong_password') env['FRESHET_REDIS_URL'] = `redis://:wrong-one@127.0.0.1:${locked.port}`;
    if (fault === 'search_down') env['FRESHET_ES_URL'] = `http://127.0.0.1:${deadPort}`;
    if (fault === 'template_refused') env['FRESHET_ES_URL'] = refusing.url;
    return env;
  }

  const cases = COMMANDS.flatMap((c) => c.faults.map((f) => [c.name, f] as const));
  it.each(cases)('%s with %s', async (name, fault) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    const out = await runCli(command.argv(fault), envFor(fault));
    const said = `${out.stderr}\n${out.stdout}`;
    expect({ withinFiveSecsOfStartUp: out.ms - startUpMs < 5000, code: out.code }).toEqual({ withinFiveSecsOfStartUp: true, code: 1 });
    expect(said).toMatch(EXPECTED[fault]);
    expect(out.stderr).not.toMatch(/\n\s+at /);
    expect(out.stderr).not.toMatch(/Connection is closed/);
    // Besides JSON log records, one line: the cause (health prints its table on stdout instead).
    const plain = out.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));
    if (name === 'health') expect(plain).toEqual([]);
    else if (name === 'validate') expect(plain).toHaveLength(1);
    else expect(plain).toEqual([expect.stringMatching(/^freshet: /)]);
  });
});
