import type { RegisterCommand } from '../context';
import { nonNegativeInt, positiveNumber } from '../options';
import { serveMetrics } from '../metrics-server';
import { collect, openPipeline, pipelineVars } from '../runtime';

interface RunOptions {
  maxFetches?: number;
  durationSecs?: number;
  untilIdle?: boolean;
  metricsPort?: number;
  var?: string[];
}

export const register: RegisterCommand = (program, ctx) => {
  program.command('run')
    .description('run a pipeline: claim due subjects, fetch, parse, index, reschedule (Ctrl-C drains and stops)')
    .argument('<pipeline>', 'pipeline file (pipelines/*.yaml)')
    .option('--max-fetches <n>', 'stop claiming after this many requests', nonNegativeInt)
    .option('--duration-secs <s>', 'stop claiming after this many seconds', positiveNumber)
    .option('--until-idle', 'stop when nothing is due and nothing is leased')
    .option('--metrics-port <port>', 'serve Prometheus metrics on /metrics at this port', nonNegativeInt)
    .option('--var <NAME=VALUE>', 'value for ${NAME} in the pipeline file (repeatable; the environment is used too)', collect)
    .action(async (file: string, opts: RunOptions) => {
      const p = await openPipeline(ctx, file, pipelineVars(opts.var));
      const server = opts.metricsPort === undefined ? undefined : await serveMetrics(p.metrics.registry, opts.metricsPort);
      // The pipeline's `alerts:` run alongside the crawl, with a last pass once it has drained.
      await p.built.alerts?.start();
      let signals = 0;
      const onSignal = (sig: NodeJS.Signals) => {
        signals += 1;
        if (signals === 1) {
          p.logger.info({ signal: sig }, 'draining: stop claiming, cut in-flight fetches (their subjects are given back, due now), flush, ack (signal again to exit at once)');
          p.built.runner.stop('signal');
        } else {
          p.logger.warn({ signal: sig, in_flight: p.built.runner.inFlightJobs }, 'exiting at once; unacknowledged leases expire and are reclaimed');
          process.exit(130);
        }
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const summary = await p.built.runner.run({
          ...(opts.maxFetches !== undefined ? { maxFetches: opts.maxFetches } : {}),
          ...(opts.durationSecs !== undefined ? { durationMs: opts.durationSecs * 1000 } : {}),
          untilIdle: opts.untilIdle === true,
        });
        console.log(JSON.stringify({ pipeline: p.config.name, ...summary }));
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        server?.close();
        await p.built.alerts?.stop();
        await p.close();
      }
    });
};
