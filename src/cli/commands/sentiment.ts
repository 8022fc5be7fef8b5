import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { RegisterCommand } from '../context';
import type { SentimentModel } from '../../enrichers/sentiment/model';
import { EN_PRIOR_WINDOW_POSTS } from '../../enrichers/sentiment/prior-shift';

/**
 * JSON lines `{"id","text"[,"lang"]}` in, `{"id","lang","label","score","confidence"}` out, one per input line in
 * order; a line that is not such an object yields `{"id","error"}` and a non-zero exit.
 */
export async function classifyLines(input: Readable, model: SentimentModel, write: (line: string) => void): Promise<number> {
  let failures = 0;
  const rl = createInterface({ input, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let id: unknown = null;
    try {
      const row = JSON.parse(line) as { id?: unknown; text?: unknown; lang?: unknown };
      id = row.id ?? null;
      if (typeof row.text !== 'string') throw new Error('no "text" string');
      const r = model.classify(row.text, typeof row.lang === 'string' ? row.lang : undefined);
      write(JSON.stringify({ id, lang: r.lang, label: r.label, score: r.score, confidence: r.confidence }));
    } catch (err) {
      failures++;
      write(JSON.stringify({ id, error: (err as Error).message }));
    }
  }
  return failures;
}

export const register: RegisterCommand = (program) => {
  program.command('sentiment')
    .description('classify JSON lines {"id","text"} from stdin; writes {"id","lang","label","score","confidence"} per line (confidence: calibrated probability that the label is right)')
    .option('--model-dir <dir>', 'folder with sentiment-zh.json and sentiment-en.json (default: the bundled models)')
    .option('--en-prior-window <posts>', 'adapt English scores and confidences to the class mix of this many recent English posts (0: off; 1000 suggested for streams whose mix drifts)', String(EN_PRIOR_WINDOW_POSTS))
    .action(async (opts: { modelDir?: string; enPriorWindow: string }) => {
      const { loadSentimentModel, streamOptions } = require('../../enrichers/sentiment/model') as typeof import('../../enrichers/sentiment/model');
      const window = Number(opts.enPriorWindow);
      if (!Number.isInteger(window) || window < 0) throw new Error(`--en-prior-window: ${opts.enPriorWindow} is not a whole number of posts`);
      const model = loadSentimentModel(opts.modelDir, streamOptions(window));
      const out: string[] = [];
      const flush = (): void => { process.stdout.write(out.join('')); out.length = 0; };
      const failures = await classifyLines(process.stdin, model, (line) => {
        out.push(`${line}\n`);
        if (out.length >= 1024) flush();
      });
      flush();
      if (failures > 0) process.exitCode = 1;
    });
};
