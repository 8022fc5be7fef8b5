import type { Server } from 'node:http';
import type { RegisterCommand } from '../context';
import { systemClock } from '../../core/clock';
import { onStopSignals } from '../signals';
import { nonNegativeInt, positiveNumber, collect, pipelineVars } from '../options';

interface RunOptions {
  maxFetches?: number;
  durationSecs?: number;
  untilIdle?: boolean;
  metricsPort?: number;
  progressSecs?: number;
  var?: string[];
}

export const register: RegisterCommand = (program, ctx) => {
  program.command('run')
    .description('run a pipeline: claim due subjects, fetch, parse, index, reschedule (Ctrl-C drains and stops)')
    .argument('<pipeline>', 'pipeline file (pipelines/*.yaml)')
    .option('--max-fetches <n>', 'stop claiming after this many requests sent', nonNegativeInt)
    .option('--duration-secs <s>', 'stop claiming after this many seconds', positiveNumber)
    .option('--until-idle', 'stop when nothing is due and nothing is leased')
    .option('--metrics-port <port>', 'serve Prometheus metrics on /metrics at this port', nonNegativeInt)
    .option('--progress-secs <s>', 'seconds between progress lines (default 5 on a terminal, else 15 between structured progress records)', positiveNumber)
    .option('--var <NAME=VALUE>', 'value for ${NAME} in the pipeline file (repeatable; the environment is used too)', collect)
    .addHelpText('after', `
Progress goes to stderr: on a terminal one line every few seconds (requests sent and refused
locally, documents indexed, pages/s, due backlog, leases, identities available/benched, failed
visits by error code); otherwise a structured "progress" log record. A warning repeated per visit
is logged once in full, then as one count per error code and interval. The summary printed on
stdout at the end separates requests sent from requests refused locally (quota, politeness,
robots) and lists failed visits by code and the subjects dead-lettered.`)
    .action(async (file: string, opts: RunOptions) => {
      const { serveMetrics } = require('../metrics-server') as typeof import('../metrics-server');
      const { startProgress, startWorkerReport } = require('../progress') as typeof import('../progress');
      const { WorkerReports } = require('../../sources/worker-reports') as typeof import('../../sources/worker-reports');
      const { openPipeline } = require('../runtime') as typeof import('../runtime');
      const p = await openPipeline(ctx, file, pipelineVars(opts.var));
      // Which process crawls, with which Node flags (bin/freshet.js re-runs itself with them).
      p.logger.info({ pipeline: p.config.name, pid: process.pid, node: process.version, node_flags: process.execArgv }, 'starting');
      let server: Server | undefined;
      // Never taken off: a signal after the run (Ctrl-C's forwarded copy, or a second request while
      // closing or while the last handles wind down) must meet this handler, not Node's default,
      // which kills the process and reports it killed by the signal. Signal handlers do not keep
      // the process alive.
      onStopSignals((sig, signals) => {
        if (signals === 1) {
          p.logger.info({ signal: sig }, 'draining: stop claiming, cut in-flight fetches (their subjects are given back, due now), flush, ack (signal again to exit at once)');
          p.built.runner.stop('signal');
        } else {
          p.logger.warn({ signal: sig, in_flight: p.built.runner.inFlightJobs }, 'exiting at once; unacknowledged leases expire and are reclaimed');
          process.exit(130);
        }
      });
      const tty = process.stderr.isTTY === true;
      const progress = startProgress({
        pipeline: p.config.name, run: () => p.built.runner.progress(), frontier: () => p.built.counts.stats(),
        ...(p.identities ? { identities: p.identities } : {}),
      }, {
        intervalMs: (opts.progressSecs ?? (tty ? 5 : 15)) * 1000, tty, write: (line) => process.stderr.write(line),
        logger: p.logger.child({ pipeline: p.config.name }), warnings: p.warnings, nowMs: () => Date.now(),
      });
      const report = startWorkerReport(new WorkerReports(p.redis, p.namespace, systemClock), () => p.built.runner.progress());
      try {
        if (opts.metricsPort !== undefined) server = await serveMetrics(p.metrics.registry, opts.metricsPort);
        // The pipeline's `alerts:` run alongside the crawl, with a last pass once it has drained.
        await p.built.alerts?.start();
        const summary = await p.built.runner.run({
          ...(opts.maxFetches !== undefined ? { maxFetches: opts.maxFetches } : {}),
          ...(opts.durationSecs !== undefined ? { durationMs: opts.durationSecs * 1000 } : {}),
          untilIdle: opts.untilIdle === true,
        });
        console.log(JSON.stringify({ pipeline: p.config.name, ...summary }));
      } finally {
        progress.stop();
        await report.stop();
        server?.close();
        await p.built.alerts?.stop();
        await p.close();
      }
    });
};
