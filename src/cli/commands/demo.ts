import { join } from 'node:path';
import type { RegisterCommand } from '../context';
import { applyMappings, checkServices } from '../services';
import { formatHealth } from './health';

export const register: RegisterCommand = (program, ctx) => {
  program.command('demo')
    .description('the quick-start job: check the services and apply the mappings (the demo crawl lands with simsite and the core)')
    .action(async () => {
      const s = ctx.settings();
      const rows = await checkServices(s);
      console.log(formatHealth(rows));
      if (rows.some((r) => !r.ok)) {
        process.exitCode = 1;
        return;
      }
      const names = await applyMappings(s, join(ctx.root, 'mappings'), 0);
      console.log(`applied ${names.length} index templates: ${names.join(', ')}`);
    });
};
