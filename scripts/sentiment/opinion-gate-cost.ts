/**
 * What the zh opinion gate (sentiment stage `zh_no_opinion_below`) would cost on the zh training
 * files (share of posts without an opinion word, and of those below each confidence τ: labelled
 * neutral, wrong on binary data; in-sample confidences, so a lower bound) and the worst simsite
 * break-out mix by τ. `node .state/build/scripts/sentiment/opinion-gate-cost.js [words.txt] [--train DIR]`
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { argValue } from './data';
import { defaultModelDir, loadSentimentModel } from '../../src/enrichers/sentiment/model';
import { OpinionWords } from '../../src/enrichers/sentiment/opinion-words';
import { defaultBreakouts } from '../../src/simsite/breakouts';
import { createWorld, DEFAULT_START_MS } from '../../src/simsite/world';
const model = loadSentimentModel();
const argv = process.argv.slice(2);
const words = argv[0] !== undefined && !argv[0].startsWith('--') ? argv[0] : join(defaultModelDir(), 'zh-opinion-words.txt');
const ow = OpinionWords.read(words);
// The data beside the project (four levels up from .state/build/scripts/sentiment/).
const trainDir = argValue(argv, 'train', join(__dirname, '..', '..', '..', '..', '..', 'shared', 'data', 'sentiment-train'));
const taus = [0.6, 0.7, 0.8, 0.9, 1.01];
for (const file of ['zh-weibo2018', 'zh-weibo_senti_100k']) {
  for (const strip of [false, true]) {
    const rows = readFileSync(join(trainDir, `${file}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { text: string; label: string });
    let noEv = 0; const gated = taus.map(() => 0); const gatedWrong = taus.map(() => 0);
    for (const r of rows) {
      const text = strip ? r.text.replace(/\[[^[\]]{1,8}\]/g, '') : r.text;
      if (ow.hasOpinion(text)) continue;
      noEv++;
      const c = model.classify(text, 'zh');
      taus.forEach((t, i) => { if (c.confidence < t) { gated[i]!++; if (c.label !== r.label) gatedWrong[i]!++; } });
    }
    console.log(file, strip ? 'stripped' : '', 'n', rows.length, 'noEvidence', (noEv / rows.length).toFixed(3), taus.map((t, i) => `<${t}: ${(gated[i]! / rows.length).toFixed(3)} (wrong anyway ${(gatedWrong[i]! / rows.length).toFixed(3)})`).join(' '));
  }
}
for (const seed of [7, 8, 9]) {
  const specs = defaultBreakouts(DEFAULT_START_MS, 2, 12);
  const world = createWorld({ seed, users: 3000, diurnal: true, breakouts: specs });
  const worst = taus.map(() => 0);
  let nNeu = 0, neuEv = 0, nPol = 0, polNoEv = 0;
  for (const [, posts] of world.breakoutPosts()) {
    if (posts[0]!.lang !== 'zh' || posts.length < 50) continue;
    const t = { positive: 0, neutral: 0, negative: 0 };
    const c = taus.map(() => ({ positive: 0, neutral: 0, negative: 0 }));
    for (const p of posts) {
      t[p.sentiment]++;
      const r = model.classify(p.text, 'zh');
      const ev = ow.hasOpinion(p.text);
      if (p.sentiment === 'neutral') { nNeu++; if (ev) neuEv++; } else { nPol++; if (!ev) polNoEv++; }
      taus.forEach((tau, i) => { c[i]![!ev && r.confidence < tau ? 'neutral' : r.label]++; });
    }
    taus.forEach((_, i) => { for (const l of ['positive', 'neutral', 'negative'] as const) worst[i] = Math.max(worst[i]!, Math.abs(c[i]![l] - t[l]) / posts.length); });
  }
  console.log('seed', seed, 'neutral with evidence', (neuEv / nNeu).toFixed(3), 'polar without', (polNoEv / nPol).toFixed(3), 'worst mix by tau', taus.map((t, i) => `${t}:${worst[i]!.toFixed(3)}`).join(' '));
}
