import { join } from 'node:path';
import type { RegisterCommand } from '../context';
import { nonNegativeInt } from '../options';

export const register: RegisterCommand = (program, ctx) => {
  const mappings = program.command('mappings').description('index templates from mappings/');
  mappings.command('apply')
    .description('put every index template in the mappings folder (idempotent)')
    .option('--dir <dir>', 'folder of index template JSON files', join(ctx.root, 'mappings'))
    .option('--replicas <n>', 'override number_of_replicas (0 on a single node)', nonNegativeInt)
    .action(async (opts: { dir: string; replicas?: number }) => {
      const { applyMappings } = require('../services') as typeof import('../services');
      const { names, warning } = await applyMappings(ctx.settings(), opts.dir, opts.replicas);
      if (warning) console.error(`freshet: warning: ${warning}`);
      console.log(`applied ${names.length} index templates: ${names.join(', ')}`);
    });
};
