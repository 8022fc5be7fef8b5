import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { redactUrlsIn } from '../core/redact';
import type { CliContext, RegisterCommand } from './context';
import { readSettings, type Settings } from './env';
import { BIG_PAGE_NODE_FLAGS } from './node-flags';
import { register as alerts } from './commands/alerts';
import { register as audit } from './commands/audit';
import { register as demo } from './commands/demo';
import { register as extract } from './commands/extract';
import { register as health } from './commands/health';
import { register as mappings } from './commands/mappings';
import { register as plan } from './commands/plan';
import { register as run } from './commands/run';
import { register as search } from './commands/search';
import { register as seed } from './commands/seed';
import { register as serve } from './commands/serve';
import { register as sentiment } from './commands/sentiment';
import { register as simsite } from './commands/simsite';
import { register as status } from './commands/status';
import { register as topics } from './commands/topics';
import { register as validate } from './commands/validate';

/**
 * The project root: the nearest folder above this file with freshet's package.json. Two levels up
 * from `dist/cli/`, but the benchmarks and scripts run the same code compiled to
 * `.state/build/src/cli/`, where mappings/, pipelines/ and package.json are four levels up.
 */
export function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'freshet') return dir;
    if (dirname(dir) === dir) return join(from, '..', '..');
  }
}

const ROOT = projectRoot(__dirname);

/** Every sub-command, in the order `--help` lists them. Add a command: one file, one line here. */
const commands: RegisterCommand[] = [demo, run, serve, validate, status, audit, seed, plan, search, sentiment, topics, alerts, extract, simsite, mappings, health];

export function buildProgram(settings: () => Settings): Command {
  const ctx: CliContext = { settings, root: ROOT };
  const program = new Command('freshet')
    .description('Keeps a search index of social posts and web pages continuously fresh.')
    .version((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version)
    .showHelpAfterError()
    .addHelpText('after', `
Environment:
  FRESHET_REDIS_URL     Redis URL (default redis://127.0.0.1:6390)
  FRESHET_REDIS_CLUSTER Redis Cluster seed nodes host:port,host:port (instead of FRESHET_REDIS_URL)
  FRESHET_ES_URL        Elasticsearch 8/9 or OpenSearch 2.x/3.x URL (default http://127.0.0.1:9250)
  FRESHET_ES_API_KEY    or FRESHET_ES_USERNAME / FRESHET_ES_PASSWORD: search credentials
  FRESHET_INDEX_PREFIX  prefix of every index and template name (default freshet-)
  FRESHET_SERVE_TOKEN   bearer token of "freshet serve" (required when bound to a non-loopback address)
  FRESHET_NODE_FLAGS    Node flags freshet re-runs itself with (default none: one process on V8's
                        defaults; ${BIG_PAGE_NODE_FLAGS.join(' ')} lowers RSS on very large pages at a
                        CPU cost, see README). A flag already in NODE_OPTIONS or on node's command line wins.

Local services: npm run services -- up|down|status`);
  for (const register of commands) register(program, ctx);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram(() => readSettings(process.env));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    console.error(`freshet: ${redactUrlsIn((err as Error).message)}`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main(process.argv);
