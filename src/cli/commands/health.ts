import type { RegisterCommand } from '../context';

export const register: RegisterCommand = (program, ctx) => {
  program.command('health')
    .description('check that Redis and the search node answer; exits 1 if either is down')
    .action(async () => {
      const { checkServices, formatHealth } = require('../services') as typeof import('../services');
      const rows = await checkServices(ctx.settings());
      console.log(formatHealth(rows));
      if (rows.some((r) => !r.ok)) process.exitCode = 1;
    });
};
