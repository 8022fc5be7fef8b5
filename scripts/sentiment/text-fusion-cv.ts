/**
 * The text-model fusion's cross-validation alone, from the main zh model's dumped out-of-fold
 * logits (`npm run train:sentiment -- --lang zh ... --zh-dump-oof FILE`), so that the text model's
 * mixes can be compared without retraining the main model. sentiment-train only.
 * `node .state/build/scripts/sentiment/text-fusion-cv.js --oof FILE [--train DIR] [--mixes 1:0,0:1,1:1,1:2] [--text-groups both:both,both:main,text:main] [--bag 1]`
 * `--solver lbfgs --l2 1e-4,3e-5 --nb 0,0.5`: the text model fitted to convergence (trainFullBatch) for each L2 × NB scale.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMOTICON_RE } from '../../src/enrichers/sentiment/features';
import { defaultModelDir } from '../../src/enrichers/sentiment/model';
import { OPINION_WORDS_FILE } from '../../src/enrichers/sentiment/neutral';
import { readPolarWords, zhLexicon } from '../../src/enrichers/sentiment/opinion-words';
import { argValue, readPosts } from './data';
import { idfScale, logCountRatioScale, productScale, trainBagged } from './sgd';
import { BINARY, type BlendColumns } from './fusion';
import { textFusion, type MainOof } from './text-fusion';
import { warmStartedFullBatch } from './lbfgs';

const argv = process.argv.slice(2);
// The project's root (this runs from .state/build/scripts/sentiment/); the data sit beside the project.
const trainDir = argValue(argv, 'train', join(__dirname, '..', '..', '..', '..', '..', 'shared', 'data', 'sentiment-train'));
const dump = JSON.parse(readFileSync(argValue(argv, 'oof', ''), 'utf8')) as { id: string[]; kind: string[]; gold: number[]; oof: number[][] };
const cv = JSON.parse(readFileSync(join(defaultModelDir(), 'sentiment-cv.json'), 'utf8')) as { zh: { config: Record<string, number>; seed: number } };
const c = cv.zh.config;
const seed = cv.zh.seed;
const ws = readPosts(trainDir, 'ws100k');
const w18 = readPosts(trainDir, 'weibo2018');
const textOf = new Map([...ws, ...w18].map((p) => [p.id, p.text]));
const main: MainOof[] = dump.id.map((id, i) => ({
  id, kind: dump.kind[i] as MainOof['kind'], label: BINARY[dump.gold[i]!]!,
  emoticons: dump.kind[i] === 'ws100k-stripped' ? 0 : (textOf.get(id)!.match(EMOTICON_RE) ?? []).length,
  margin: dump.oof[i]![1]! - dump.oof[i]![0]!,
}));
const bag = Number(argValue(argv, 'bag', String(c['bag'] ?? 1)));
const bucketsLog2 = Number(argValue(argv, 'buckets-log2', '20'));
const lexicon = c['lex'] ? zhLexicon(readPolarWords(join(defaultModelDir(), OPINION_WORDS_FILE))) : undefined;
const idf = Number(argValue(argv, 'idf', '0'));
const scaleOf = (nb: number, ex: Parameters<typeof idfScale>[1], f: Parameters<typeof idfScale>[2]): { scale?: Float32Array } => {
  const s = productScale(nb > 0 ? logCountRatioScale(bucketsLog2, ex, f, nb) : undefined, idf > 0 ? idfScale(bucketsLog2, ex, f, idf) : undefined);
  return s ? { scale: s } : {};
};
const fullBatch = argValue(argv, 'solver', 'adagrad') === 'lbfgs';
const runs: { l2: number; nb: number }[] = [];
for (const l2 of argValue(argv, 'l2', String(c['l2'])).split(',').map(Number)) for (const nb of argValue(argv, 'nb', String(c['nb'])).split(',').map(Number)) runs.push({ l2, nb });
const out = runs.map(({ l2, nb }) => {
  const log = (m: string): boolean => process.stderr.write(`[text-fusion-cv ${new Date().toISOString().slice(11, 19)} l2 ${l2} nb ${nb}] ${m}\n`);
  const fullBatchTrain = warmStartedFullBatch({ lang: 'zh', classes: BINARY, bucketsLog2, l2, log, normPower: Number(argValue(argv, 'norm', String(c['norm']))) });
  const r = textFusion({
    cvOnly: true,
    ws, w18, main, folds: 5, seed, ...(lexicon ? { lexicon } : {}),
    featureSet: { ...(c['char4'] ? { char4: true } : {}), ...(c['notags'] ? { noTags: true } : {}) },
    mixes: argValue(argv, 'mixes', '1:0,0:1,1:1,1:2').split(',').map((m) => m.split(':').map(Number) as [number, number]),
    groupings: argValue(argv, 'text-groups', 'both:both,both:main,text:main').split(',').map((g) => g.split(':') as BlendColumns[]),
    kindWeights: { weibo2018: 2, ws100k: 1, 'ws100k-stripped': 1 },
    train: (ex, f) => (fullBatch
      ? fullBatchTrain(ex, f, scaleOf(nb, ex, f).scale)
      : trainBagged({
        lang: 'zh', classes: BINARY, bucketsLog2, epochs: Number(argValue(argv, 'epochs', String(c['epochs']))), learningRate: Number(argValue(argv, 'lr', String(c['lr']))), l2, seed, normPower: Number(argValue(argv, 'norm', String(c['norm']))), ...(argv.includes('--dense-l2') ? { denseL2: true } : {}),
        ...scaleOf(nb, ex, f),
      }, bag, ex, f)),
    log,
  });
  return { l2, nb, solver: fullBatch ? 'lbfgs' : 'adagrad', control: r.control, controlObjective: r.controlObjective, tried: r.tried };
});
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
