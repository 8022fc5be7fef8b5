import type { RegisterCommand } from '../context';
import { collect, pipelineVars } from '../options';

export const register: RegisterCommand = (program, ctx) => {
  program.command('audit')
    .description("a monitored pipeline's completeness ledger: declared posts against indexed and tombstoned ones, the subjects whose gaps remain and why")
    .argument('<pipeline>', 'pipeline file')
    .argument('[subject]', 'one subject (e.g. weibo:user:1669879400); default: every watched subject')
    .option('--var <NAME=VALUE>', 'value for ${NAME} (repeatable)', collect)
    .option('--all', 'list complete subjects too')
    .option('--json', 'print JSON (every subject)')
    .addHelpText('after', `
Reasons: gap (a page-limit or quota window still to read), partial (a page could not be read; the visit
resumes there), uncounted (fewer posts indexed than declared; re-read on the visit after the next
profile read), unreachable (a full re-read found fewer posts than declared), unconfirmed_missing (more
posts held than declared; the tombstone checks will settle them), account_gone.`)
    .action(async (file: string, subject: string | undefined, opts: { var?: string[]; all?: boolean; json?: boolean }) => {
      const { auditLines, populationCompleteness } = require('../../monitor/ledger') as typeof import('../../monitor/ledger');
      const { readLedger } = require('../../runner/ledger') as typeof import('../../runner/ledger');
      const { indexName } = require('../../search/templates') as typeof import('../../search/templates');
      const { createSearch } = require('../clients') as typeof import('../clients');
      const { openPipelineFrontier } = require('../runtime') as typeof import('../runtime');
      const p = await openPipelineFrontier(ctx, file, pipelineVars(opts.var));
      const settings = ctx.settings();
      const conn = await createSearch(settings).catch((err: Error) => {
        p.close();
        throw err;
      });
      try {
        const ix = { posts: indexName(settings.indexPrefix, 'posts'), users: indexName(settings.indexPrefix, 'users') };
        const entries = await readLedger(p.frontier, conn.client, ix, subject);
        if (subject !== undefined && entries.length === 0) throw new Error(`${subject}: not a watched subject of ${p.config.name} (unknown, never visited, or a zombie)`);
        if (opts.json) console.log(JSON.stringify({ pipeline: p.config.name, completeness: populationCompleteness(entries), subjects: entries }));
        else {
          if (opts.all || subject !== undefined) for (const e of entries.filter((x) => x.complete)) console.log(`${e.subject}\tdeclared=${e.declared ?? '?'}\tindexed=${e.active}\ttombstoned=${e.tombstoned}\tcomplete`);
          for (const line of auditLines(entries)) console.log(line);
        }
      } finally {
        p.close();
        await conn.client.close();
      }
    });
};
