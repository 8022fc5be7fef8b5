import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactUrlsIn } from '../../core/redact';
import type { RegisterCommand } from '../context';
import { collect, pipelineVars } from '../options';

export const register: RegisterCommand = (program, ctx) => {
  program.command('validate')
    .description('check pipeline files; errors name the file, line, column and key path')
    .argument('[pipelines...]', 'pipeline files')
    .option('--var <NAME=VALUE>', 'value for ${NAME} (repeatable; the environment is used too)', collect)
    .option('--write-schema', 'also write the JSON Schema for editors to pipelines/pipeline.schema.json')
    .action((files: string[], opts: { var?: string[]; writeSchema?: boolean }) => {
      const { loadPipeline } = require('../../pipeline/load') as typeof import('../../pipeline/load');
      const { pipelineJsonSchema } = require('../../pipeline/schema') as typeof import('../../pipeline/schema');
      if (opts.writeSchema) {
        const out = join(ctx.root, 'pipelines', 'pipeline.schema.json');
        writeFileSync(out, `${JSON.stringify(pipelineJsonSchema(), null, 2)}\n`);
        console.log(`wrote ${out}`);
      }
      const vars = pipelineVars(opts.var);
      let bad = 0;
      for (const file of files) {
        try {
          const p = loadPipeline(file, vars);
          console.log(`${file}: ok (pipeline ${p.name}: ${p.source.type} → ${p.fetch.type} → ${p.parse.type} → ${p.sink.type}, schedule ${p.schedule.type})`);
        } catch (err) {
          bad += 1;
          console.error(redactUrlsIn((err as Error).message));
        }
      }
      if (bad > 0) process.exitCode = 1;
    });
};
