/**
 * Writes the `backed` column of models/zh-opinion-words.txt for the trained zh model: a HowNet word
 * supports a call of its polarity when the model, reading the word alone as text or as an emoticon
 * code (`[赞]`), leans that way over its reading of a post with nothing in it (else 0). Run after
 * `npm run train:sentiment` (zh): `node .state/build/scripts/sentiment/opinion-words.js [--model-dir D]`
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultModelDir, loadSentimentModel } from '../../src/enrichers/sentiment/model';
import { OPINION_WORDS_FILE } from '../../src/enrichers/sentiment/neutral';
import { readPolarWords } from '../../src/enrichers/sentiment/opinion-words';
import { argValue } from './data';

const dir = argValue(process.argv.slice(2), 'model-dir', defaultModelDir());
const path = join(dir, OPINION_WORDS_FILE);
const words = readPolarWords(path, 'hownet');
const model = loadSentimentModel(dir);
const empty = model.classify('的', 'zh').score;
let backed = 0;
const lines = [...words].map(([w, p]) => {
  const leans = [model.classify(w, 'zh').score - empty, model.classify(`[${w}]`, 'zh').score - empty];
  const b = p !== 0 && leans.some((lean) => Math.sign(lean) === p) ? p : 0;
  if (b !== 0) backed++;
  return `${w}\t${p}\t${b}`;
});
writeFileSync(path, lines.join('\n') + '\n');
process.stderr.write(`${path}: ${backed} of ${words.size} words backed by the zh model\n`);
