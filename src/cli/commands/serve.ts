import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../core/clock';
import type { RegisterCommand } from '../context';
import { firstStop } from '../signals';
import { nonNegativeInt, collect, pipelineVars } from '../options';

interface ServeOptions {
  host: string;
  port: number;
  token?: string;
  var?: string[];
  writeOpenapi?: boolean;
}

function version(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** How many secrets the environment holds for a pool (the status shows every identity); none set: undefined. */
function sizeOf(read: () => string[]): number | undefined {
  try {
    return read().length || undefined;
  } catch {
    return undefined;
  }
}

export const register: RegisterCommand = (program, ctx) => {
  program.command('serve')
    .description('one place to watch and steer crawls and search what they indexed: HTML pages and a JSON API (loopback by default)')
    .argument('[pipelines...]', 'pipeline files to serve (default: every pipelines/*.yaml of the project)')
    .option('--host <addr>', 'address to listen on (not loopback: a token is required)', '127.0.0.1')
    .option('--port <n>', 'port', nonNegativeInt, 8790)
    .option('--token <secret>', 'bearer token every request must carry (default: FRESHET_SERVE_TOKEN)')
    .option('--var <NAME=VALUE>', 'value for ${NAME} in the pipeline files (repeatable)', collect)
    .option('--write-openapi', 'write the API description to docs/openapi.json and exit')
    .addHelpText('after', `
Pages:
  /                 crawl overview: requests sent and refused, pages/s, documents indexed, due
                    backlog, leases, workers, errors by reason; pause, resume, drain (live,
                    refreshed every 2 s); freshness (poisson schedules: the meter of
                    \`freshet status\`, posts published but not yet indexed with a 90 % interval
                    and their age; refreshed every 30 s)
  /search?q=        full-text search with highlights and facets (sentiment, platform, author, time)
  /chart?q=         post volume and sentiment over time for a query (uPlot)
  /dead-letters     dead letters of a pipeline with their errors; requeue or drop each

JSON API (described by /openapi.json, also docs/openapi.json):
  GET  /api/health                                   Redis and search node up?
  GET  /api/pipelines[/{name}]                       frontier stats, control, live workers, totals
  GET  /api/pipelines/{name}/limits                  per-origin politeness, per-identity quotas
  GET  /api/pipelines/{name}/freshness               the plan and the freshness meter of \`freshet status\`
                                                     (poisson; recomputed at most every 30 s: it reads
                                                     every subject's state)
  POST /api/pipelines/{name}/pause|resume|drain      every worker of the crawl obeys (through Redis)
  POST /api/pipelines/{name}/seed   {"subjects":[…]} offer subjects
  GET  /api/pipelines/{name}/dead-letters[/{id}]     list (newest first), show
  POST /api/pipelines/{name}/dead-letters/{id}/requeue, DELETE …/{id}
  GET  /api/search?q=&since=&sentiment=&platform=&author=&size=
  GET  /api/timeline?q=&interval=hour|day|week

Writes take Content-Type: application/json. Bound to a non-loopback address the server needs
--token (or FRESHET_SERVE_TOKEN): send it as "Authorization: Bearer <token>", or open
/login?token=<token> once in a browser (it sets a cookie). Pause holds every worker, also
ones started later, until resume; drain stops the workers running when it is asked.
(This replaces \`freshet search-api\`: GET /api/search answers what GET /search did, with facets.)`)
    .action(async (files: string[], opts: ServeOptions) => {
      const { loadPipeline } = require('../../pipeline/load') as typeof import('../../pipeline/load');
      const { connectRedis, createSearch } = require('../clients') as typeof import('../clients');
      const { createLogger } = require('../runtime') as typeof import('../runtime');
      const { openApiOnly, serve } = require('../serve') as typeof import('../serve');
      const { readProxyUrls, readTokens } = require('../tokens') as typeof import('../tokens');
      if (opts.writeOpenapi) {
        const out = join(ctx.root, 'docs', 'openapi.json');
        writeFileSync(out, `${JSON.stringify(openApiOnly(version(ctx.root)), null, 2)}\n`);
        console.log(`wrote ${out}`);
        return;
      }
      const vars = pipelineVars(opts.var);
      const list = (files.length > 0 ? files : readdirSync(join(ctx.root, 'pipelines')).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(ctx.root, 'pipelines', f)))
        .map((file) => {
          const config = loadPipeline(file, vars);
          const identitySize = config.identities ? sizeOf(() => readTokens(config.identities!.pool, process.env)) : undefined;
          const proxySize = config.proxies ? sizeOf(() => [...(config.proxies!.urls ?? []), ...readProxyUrls(config.proxies!.pool, process.env)]) : undefined;
          return { config, ...(identitySize ? { identitySize } : {}), ...(proxySize ? { proxySize } : {}) };
        });
      const token = opts.token ?? process.env['FRESHET_SERVE_TOKEN'];
      const settings = ctx.settings();
      const redis = await connectRedis(settings);
      const logger = createLogger();
      try {
        const search = await createSearch(settings);
        try {
          const running = await serve({
            redis, search: search.client, indexPrefix: settings.indexPrefix, pipelines: list, clock: systemClock, logger,
            host: opts.host, port: opts.port, ...(token ? { token } : {}), version: version(ctx.root),
          });
          process.stderr.write(`freshet serve: ${running.url}/ (pipelines: ${list.map((p) => p.config.name).join(', ')}; API ${running.url}/openapi.json)\n`);
          await firstStop();
          await running.close();
        } finally {
          await search.client.close();
        }
      } finally {
        redis.disconnect();
      }
    });
};
