import type { RegisterCommand } from '../context';
import { collect, pipelineVars } from '../options';

export const register: RegisterCommand = (program, ctx) => {
  program.command('seed')
    .description('offer subjects (<platform>:<kind>:<id>) to a pipeline\'s frontier; known ones are left alone')
    .argument('<pipeline>', 'pipeline file')
    .argument('<subjects...>', 'subjects, e.g. weibo:user:1669879400')
    .option('--var <NAME=VALUE>', 'value for ${NAME} (repeatable)', collect)
    .action(async (file: string, subjects: string[], opts: { var?: string[] }) => {
      const { newSubjectState } = require('../../core/envelope') as typeof import('../../core/envelope');
      const { openPipelineFrontier } = require('../runtime') as typeof import('../runtime');
      const p = await openPipelineFrontier(ctx, file, pipelineVars(opts.var));
      try {
        const now = Date.now();
        const added = await p.frontier.offer(subjects.map((subject) => ({ subject, state: newSubjectState(now) })));
        console.log(`offered ${subjects.length}, new ${added}`);
      } finally {
        p.close();
      }
    });
};
