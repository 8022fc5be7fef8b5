import { systemClock } from '../../core/clock';
import type { RegisterCommand } from '../context';
import { collect, pipelineVars } from '../options';

export const register: RegisterCommand = (program, ctx) => {
  program.command('plan')
    .description('what-if: predicted mean and p90 delay and share indexed within a day for other budgets (poisson schedule), from the current population')
    .argument('<pipeline>', 'pipeline file')
    .requiredOption('--budget-per-hour <N[,M...]>', 'fetches per hour to compare, comma-separated')
    .option('--var <NAME=VALUE>', 'value for ${NAME} (repeatable)', collect)
    .option('--horizon-hours <H>', 'forecast the mean over the next H hours of a crawl still settling after its start, not its steady state')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { budgetPerHour: string; horizonHours?: string; var?: string[]; json?: boolean }) => {
      const { buildModelFromFrontier, schedulerState } = require('../../schedule/core-bridge') as typeof import('../../schedule/core-bridge');
      const { forecastBudgets } = require('../../schedule/planner') as typeof import('../../schedule/planner');
      const { changeOptions, configFromStage } = require('../../schedule/poisson') as typeof import('../../schedule/poisson');
      const { openPipelineFrontier } = require('../runtime') as typeof import('../runtime');
      const budgets = opts.budgetPerHour.split(',').map(Number);
      if (budgets.length === 0 || budgets.some((b) => !(b > 0))) {
        throw new Error(`--budget-per-hour wants positive numbers separated by commas, got ${opts.budgetPerHour}`);
      }
      const horizonHours = opts.horizonHours === undefined ? undefined : Number(opts.horizonHours);
      if (horizonHours !== undefined && !(horizonHours > 0)) throw new Error(`--horizon-hours wants a positive number, got ${opts.horizonHours}`);
      const p = await openPipelineFrontier(ctx, file, pipelineVars(opts.var));
      try {
        if (p.config.schedule.type !== 'poisson') throw new Error(`pipeline ${p.config.name} has a ${p.config.schedule.type} schedule; the planner needs poisson`);
        const { refit_interval_secs: _every, ...options } = p.config.schedule;
        const states = (await p.frontier.allStates()).filter((st) => st.status === 'active');
        const model = buildModelFromFrontier(states, configFromStage(options));
        const rows = forecastBudgets(states.map(schedulerState), model, budgets, { nowMs: systemClock.nowMs(), ...(horizonHours !== undefined ? { horizonHours } : {}) });
        const change = changeOptions(model).changeProbability;
        if (opts.json) console.log(JSON.stringify({ pipeline: p.config.name, subjects: states.length, change_probability: change, horizon_hours: horizonHours ?? null, forecasts: rows }));
        else {
          const burst = rows[0]?.dispersion ?? 1;
          const calibration = rows[0]?.calibration ?? 1;
          // Where posts come in bursts the forecast counts them as clusters, and it is scaled by the
          // delays the crawl realized at its own budget (planner.ts): say so.
          console.log(`pipeline ${p.config.name}: ${states.length} active subjects${burst > 1 ? `, posts weighed as bursts of ${burst.toFixed(2)}` : ''}`
            + (calibration !== 1 ? `, delays scaled by ${calibration.toFixed(2)} (realized / modelled at ${model.config.budgetPerHour}/h)` : ', not yet calibrated against realized delays'));
          console.log(`  change test: a new rate expected in ${(100 * change).toFixed(0)} % of recent windows (${model.config.changeProbability === 'auto' ? 'learned from the visits' : 'configured'})`);
          console.log(horizonHours !== undefined ? `  over the next ${horizonHours} h (the crawl's first visits and revisits as they fall)` : '  in steady state');
          console.log('  budget/h   mean delay h   p90 delay h   indexed within a day');
          for (const r of rows) {
            console.log(`  ${String(r.budgetPerHour).padStart(8)}   ${r.meanDelayHours.toFixed(2).padStart(12)}   ${r.p90DelayHours.toFixed(2).padStart(11)}   ${(100 * r.withinDayShare).toFixed(1).padStart(19)} %`);
          }
        }
      } finally {
        p.close();
      }
    });
};
