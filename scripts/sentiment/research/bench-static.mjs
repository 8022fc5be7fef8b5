/* global process, console */
// Throughput of the static-vector step as a TypeScript runtime would do it (plain JS, one thread):
// zh: per-character lookup in a Map (BERT-chinese cuts CJK text into single characters), then the
// SIF-weighted mean of int8 rows of a vocab x dims table. Tokenization of English WordPiece is not
// included (see README). Usage: node bench-static.js [dims] [vocab]
import fs from 'node:fs';
const dims = Number(process.argv[2] || 256);
const vocab = Number(process.argv[3] || 21128);
const posts = fs.readFileSync('/work/shared/data/sentiment-train/zh-weibo2018.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l).text);
const table = new Int8Array(vocab * dims);
for (let i = 0; i < table.length; i++) table[i] = (Math.random() * 255 - 127) | 0;
const scale = new Float32Array(vocab).fill(0.01);
const weight = new Float32Array(vocab).fill(0.5);
const ids = new Map();
for (const t of posts) for (const ch of t) if (!ids.has(ch)) ids.set(ch, ids.size % vocab);
const acc = new Float32Array(dims);
function embed(text) {
  acc.fill(0);
  let wsum = 0;
  for (const ch of text) {
    const id = ids.get(ch);
    if (id === undefined) continue;
    const w = weight[id] * scale[id];
    const base = id * dims;
    for (let d = 0; d < dims; d++) acc[d] += w * table[base + d];
    wsum += weight[id];
  }
  if (wsum > 0) for (let d = 0; d < dims; d++) acc[d] /= wsum;
  return acc;
}
// A linear classifier (or linear stack) over the mean vector collapses to one score per token
// (v_t . beta): the runtime then needs a vocab-sized Float32Array, not the table.
const tokenScore = new Float32Array(vocab).map(() => Math.random() - 0.5);
function collapsed(text) {
  let s = 0;
  let wsum = 0;
  for (const ch of text) {
    const id = ids.get(ch);
    if (id === undefined) continue;
    s += weight[id] * tokenScore[id];
    wsum += weight[id];
  }
  return wsum > 0 ? s / wsum : 0;
}
let sink = 0;
for (let r = 0; r < 2; r++) for (const t of posts) sink += embed(t)[0];
const t0 = process.hrtime.bigint();
const reps = 5;
for (let r = 0; r < reps; r++) for (const t of posts) sink += embed(t)[0];
const s = Number(process.hrtime.bigint() - t0) / 1e9;
const t1 = process.hrtime.bigint();
for (let r = 0; r < reps; r++) for (const t of posts) sink += collapsed(t);
const s1 = Number(process.hrtime.bigint() - t1) / 1e9;
console.log(`collapsed to per-token scores (linear head): ${Math.round((reps * posts.length) / s1)} posts/s`);
console.log(`dims ${dims}, vocab ${vocab}: ${Math.round((reps * posts.length) / s)} posts/s (weibo2018 posts, mean ${Math.round(posts.reduce((a, t) => a + t.length, 0) / posts.length)} chars), table ${(vocab * dims / 1048576).toFixed(1)} MiB int8 (sink ${sink.toFixed(1)})`);
