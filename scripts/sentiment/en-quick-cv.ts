/**
 * A quick look at one change to the en training: the committed en configuration's 5-fold
 * cross-validation (folds by guessed topic), `--bag 1` by default (the training run bags 3).
 * Macro recall with the best decision biases, and the test-mix ECE of the calibrated confidence.
 * sentiment-train only. `node .state/build/scripts/sentiment/en-quick-cv.js [--topic-power 0.5] [--bag 1]`
 * Measured (bag 1): baseline 0.6831 (ECE 0.0134); topic weights n^-0.5 0.6704; capitalised
 * in-sentence names read as one placeholder (commit 0c10933, since reverted) 0.6776.
 */
import { calibrated, scoreOof } from './oof';
import { outOfFoldLogits } from './cv';
import { argValue } from './data';
import { featurize, trainBagged } from './sgd';
import { bestBiases, TWEETEVAL_TEST_MIX } from './train-en';
import { EN_CLASSES as CLASSES, EN_SEED as seed, enCvSetup } from './en-cv-setup';

const argv = process.argv.slice(2);
const bag = Number(argValue(argv, 'bag', '1'));
const { base, gold, mix, lexicon, params, charNgrams } = enCvSetup(argv);
// --topic-power p: a tweet of a guessed topic of n tweets weighs n^-p (large topics count less).
const topicPower = Number(argValue(argv, 'topic-power', '0'));
if (topicPower > 0) {
  const size = new Map<string, number>();
  for (const e of base) if (e.group) size.set(e.group, (size.get(e.group) ?? 0) + 1);
  const w = base.map((e) => (e.group ? Math.pow(size.get(e.group)!, -topicPower) : 1));
  const mean = w.reduce((a, v) => a + v, 0) / w.length;
  base.forEach((e, i) => { e.weight *= w[i]! / mean; });
}
const set = charNgrams ? { charNgrams: true } : {};
const feats = featurize('en', base, undefined, lexicon, undefined, set);
const oof = outOfFoldLogits(base, feats, 5, seed, (ex, f) => trainBagged(params, bag, ex, f));
const testMix = (e: (typeof base)[number]): number => TWEETEVAL_TEST_MIX[CLASSES.indexOf(e.label)]! / mix[CLASSES.indexOf(e.label)]!;
const cal = calibrated(base, oof, CLASSES, () => 0, 1, feats, testMix);
const g = cal.groups[0]!;
const b = bestBiases(oof.map((z) => z.map((v, j) => v / g.temperature + g.bias[j]!)), gold);
const s = scoreOof(base, oof, CLASSES, cal, feats, [b.neg, 0, b.pos], testMix).kinds['tweeteval']!;
process.stdout.write(`${JSON.stringify(set)} topic power ${topicPower} bag ${bag}: macro recall ${b.recall.toFixed(4)} biases ${b.neg}/${b.pos}, accuracy ${s.accuracy.toFixed(4)}, ECE (test mix, temperature + bias) ${s.ece!.toFixed(4)}\n`);
