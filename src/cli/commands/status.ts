import { systemClock } from '../../core/clock';
import type { FrontierFreshness } from '../../schedule/core-bridge';
import type { RegisterCommand } from '../context';
import { collect, pipelineVars } from '../options';

export const register: RegisterCommand = (program, ctx) => {
  program.command('status')
    .description("a pipeline's frontier: subjects, due backlog, leases, dead letters")
    .argument('<pipeline>', 'pipeline file')
    .option('--var <NAME=VALUE>', 'value for ${NAME} (repeatable)', collect)
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { var?: string[]; json?: boolean }) => {
      const { buildModelFromFrontier, frontierFreshness } = require('../../schedule/core-bridge') as typeof import('../../schedule/core-bridge');
      const { configFromStage } = require('../../schedule/poisson') as typeof import('../../schedule/poisson');
      const { openPipelineFrontier } = require('../runtime') as typeof import('../runtime');
      const p = await openPipelineFrontier(ctx, file, pipelineVars(opts.var));
      try {
        const stats = await p.counts.stats({ exact: true });
        let schedule: FrontierFreshness | undefined;
        if (p.config.schedule.type === 'poisson') {
          const { refit_interval_secs: _every, ...options } = p.config.schedule;
          const states = await p.frontier.allStates();
          schedule = frontierFreshness(states, buildModelFromFrontier(states, configFromStage(options)), systemClock.nowMs());
        }
        if (opts.json) console.log(JSON.stringify({ pipeline: p.config.name, ...stats, ...(schedule ? { schedule } : {}) }));
        else {
          console.log(`pipeline ${p.config.name}`);
          console.log(`  subjects     ${stats.subjects}`);
          console.log(`  due          ${stats.due} (due now: ${stats.dueNow})`);
          console.log(`  leased       ${stats.leased}`);
          console.log(`  dead letters ${stats.deadLetters}`);
          console.log(`  throughput   ${stats.visitsPerMin.toFixed(1)} visits/min, ${stats.docsPerMin.toFixed(1)} documents/min (last 5 min)`);
          if (schedule) {
            console.log(`  schedule     poisson, objective ${schedule.objective}: ${schedule.plannedPagesPerHour.toFixed(1)} of ${schedule.budgetPerHour} fetches/hour planned`);
            console.log(`               estimated ${schedule.estimatedPostsPerHour.toFixed(1)} posts/hour; predicted mean delay ${schedule.predictedMeanDelayHours.toFixed(2)} h`);
            const f = schedule.freshness;
            console.log(`  freshness    ~${f.unindexedPosts.toFixed(0)} posts published, not yet indexed (90 %: ${f.unindexedLow.toFixed(0)}–${f.unindexedHigh.toFixed(0)}), `
              + `${f.unindexedMeanAgeHours.toFixed(1)} h old on average${f.unvisitedSubjects > 0 ? `; ${f.unvisitedSubjects} subjects not visited yet` : ''}`);
          }
        }
      } finally {
        p.close();
      }
    });
};
