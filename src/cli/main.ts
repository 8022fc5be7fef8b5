import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { applyTemplates, indexName, loadTemplates } from '../search/templates';
import { createRedis, createSearch } from './clients';
import { readSettings, type Settings } from './env';
import { formatHealth, redisHealth, searchHealth, type ServiceHealth } from './commands/health';
import { searchText } from './commands/search';

const ROOT = join(__dirname, '..', '..');

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

async function checkServices(settings: Settings): Promise<ServiceHealth[]> {
  const redis = createRedis(settings);
  try {
    const rows = [await redisHealth(redis, settings.redisUrl)];
    try {
      const conn = await createSearch(settings);
      rows.push(await searchHealth(conn, settings.esUrl));
      await conn.client.close();
    } catch (err) {
      rows.push({ service: 'search', url: settings.esUrl, ok: false, detail: (err as Error).message });
    }
    return rows;
  } finally {
    redis.disconnect();
  }
}

async function applyMappings(settings: Settings, dir: string, replicas: number | undefined): Promise<string[]> {
  const conn = await createSearch(settings);
  try {
    const settingsOverride = replicas === undefined ? {} : { number_of_replicas: replicas };
    return await applyTemplates(conn.client, loadTemplates(dir), { prefix: settings.indexPrefix, settings: settingsOverride });
  } finally {
    await conn.client.close();
  }
}

export function buildProgram(settings: () => Settings): Command {
  const program = new Command('freshet')
    .description('Keeps a search index of social posts and web pages continuously fresh.')
    .version((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version)
    .showHelpAfterError()
    .addHelpText('after', `
Environment:
  FRESHET_REDIS_URL     Redis URL (default redis://127.0.0.1:6390)
  FRESHET_ES_URL        Elasticsearch 8/9 or OpenSearch 2.x URL (default http://127.0.0.1:9250)
  FRESHET_ES_API_KEY    or FRESHET_ES_USERNAME / FRESHET_ES_PASSWORD: search credentials
  FRESHET_INDEX_PREFIX  prefix of every index and template name (default freshet-)

Local services: npm run services -- up|down|status`);

  program.command('health')
    .description('check that Redis and the search node answer; exits 1 if either is down')
    .action(async () => {
      const rows = await checkServices(settings());
      console.log(formatHealth(rows));
      if (rows.some((r) => !r.ok)) process.exitCode = 1;
    });

  const mappings = program.command('mappings').description('index templates from mappings/');
  mappings.command('apply')
    .description('put every index template in the mappings folder (idempotent)')
    .option('--dir <dir>', 'folder of index template JSON files', join(ROOT, 'mappings'))
    .option('--replicas <n>', 'override number_of_replicas (0 on a single node)', positiveInt)
    .action(async (opts: { dir: string; replicas?: number }) => {
      const names = await applyMappings(settings(), opts.dir, opts.replicas);
      console.log(`applied ${names.length} index templates: ${names.join(', ')}`);
    });

  program.command('search')
    .description('full-text search over indexed posts and pages, with highlights')
    .argument('<query...>', 'words to search for (Chinese and English)')
    .option('--size <n>', 'number of hits', positiveInt, 10)
    .option('--index <names>', 'comma-separated logical indices', 'posts,pages')
    .option('--json', 'print hits as JSON lines')
    .action(async (words: string[], opts: { size: number; index: string; json?: boolean }) => {
      const s = settings();
      const conn = await createSearch(s);
      try {
        const index = opts.index.split(',').map((n) => indexName(s.indexPrefix, n.trim())).join(',');
        const res = await searchText(conn.client, index, words.join(' '), opts.size);
        if (opts.json) {
          for (const h of res.hits) console.log(JSON.stringify(h));
          return;
        }
        console.log(`${res.total} hits for "${words.join(' ')}"`);
        for (const h of res.hits) console.log(`- [${h.score.toFixed(2)}] ${h.id}: ${h.highlight.join(' … ') || String(h.fields['title'] ?? h.fields['text'] ?? '').slice(0, 120)}`);
      } finally {
        await conn.client.close();
      }
    });

  program.command('demo')
    .description('the quick-start job: check the services and apply the mappings (the demo crawl lands with simsite and the core)')
    .action(async () => {
      const s = settings();
      const rows = await checkServices(s);
      console.log(formatHealth(rows));
      if (rows.some((r) => !r.ok)) {
        process.exitCode = 1;
        return;
      }
      const names = await applyMappings(s, join(ROOT, 'mappings'), 0);
      console.log(`applied ${names.length} index templates: ${names.join(', ')}`);
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram(() => readSettings(process.env));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    console.error(`freshet: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main(process.argv);
