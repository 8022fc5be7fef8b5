/**
 * Per break-out of the simsite topic worlds (as in the enrichment benchmark): the detected topic's
 * sentiment mix against the truth's, with the sentiment stage's defaults or without its zh opinion
 * gate, or with the topic's own terms taken as opinion. `node .state/build/scripts/sentiment/topic-mix.js [--no-gate] [--own-terms-as-opinion] [--below τ] [--seeds 7,8,9] [--model-dir D]`
 */
import { sentimentStage } from '../../src/enrichers/sentiment';
import { jiebaDicts, jiebaModule } from '../../src/enrichers/jieba';
import { defaultModelDir, loadSentimentModel } from '../../src/enrichers/sentiment/model';
import { readOpinionWords } from '../../src/enrichers/sentiment/neutral';
import { runTopicBench } from '../../test/bench/enrichment/topics';
import { argValue } from './data';

const argv = process.argv.slice(2);
const d = sentimentStage.schema.parse({ type: 'sentiment' });
const gate = !argv.includes('--no-gate');
const rule = { neutralBand: d.neutral_band, minConfidence: d.min_confidence, zhNoOpinionBelow: gate ? Number(argValue(argv, 'below', String(d.zh_no_opinion_below))) : 0 };
const jieba = jiebaModule().Jieba.withDict(jiebaDicts().dict);
const dir = argValue(argv, 'model-dir', defaultModelDir());
const model = loadSentimentModel(dir);
const words = readOpinionWords(dir);
const f = (m: Record<string, number>): string => ['positive', 'neutral', 'negative'].map((k) => (m[k] ?? 0).toFixed(2)).join('/');
for (const seed of argValue(argv, 'seeds', '7,8,9').split(',').map(Number)) {
  const r = runTopicBench(model, (t) => jieba.cut(t, true), { seed, users: 3000, days: 2, breakouts: 12, rule, words, ownTermsNotOpinion: !argv.includes('--own-terms-as-opinion') });
  for (const m of r.mixes) {
    const err = Math.max(...['positive', 'neutral', 'negative'].map((k) => Math.abs(m.topic[k]! - m.truth[k]!)));
    console.log(`seed ${seed} ${m.name} ${m.lang} #${m.hashtag}# pos/neu/neg truth ${f(m.truth)} topic ${f(m.topic)} error ${err.toFixed(3)}`);
  }
  console.log(`seed ${seed} worst ${Math.max(...r.mixErrors).toFixed(3)} detected ${r.detectedWithin15Min.toFixed(3)} false/day ${r.falseTopicsPerDay}`);
}
