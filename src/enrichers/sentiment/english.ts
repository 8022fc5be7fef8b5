/**
 * VADER-style valence for English tweets (Hutto & Gilbert 2014, as in vader-sentiment 1.1.3):
 * lexicon valences shifted by degree words, ALL-CAPS emphasis, negation within three words,
 * a contrastive "but", and exclamation marks. The model does not use VADER's label rule: the sums
 * become (binned and real-valued) features whose weights are learned next to the n-grams.
 */

/** Degree adverbs (VADER's list): they shift the valence of the next lexicon word by ±0.293. */
const B_INCR = 0.293;
const BOOSTERS = new Map<string, number>([
  ...['absolutely', 'amazingly', 'awfully', 'completely', 'considerably', 'decidedly', 'deeply', 'effing', 'enormously',
    'entirely', 'especially', 'exceptionally', 'extremely', 'fabulously', 'flipping', 'flippin', 'fricking', 'frickin',
    'frigging', 'friggin', 'fully', 'fucking', 'greatly', 'hella', 'highly', 'hugely', 'incredibly', 'intensely', 'majorly',
    'more', 'most', 'particularly', 'purely', 'quite', 'really', 'remarkably', 'so', 'substantially', 'thoroughly', 'totally',
    'tremendously', 'uber', 'unbelievably', 'unusually', 'utterly', 'very', 'sooo', 'soo', 'super', 'mad', 'freaking', 'damn'].map((w) => [w, B_INCR] as const),
  ...['almost', 'barely', 'hardly', 'kinda', 'kindof', 'less', 'little', 'marginally', 'occasionally', 'partly', 'scarcely',
    'slightly', 'somewhat', 'sorta', 'sortof'].map((w) => [w, -B_INCR] as const),
]);

/** Negators (VADER's list, apostrophes optional). */
const NEGATORS = new Set(['aint', 'arent', 'cannot', 'cant', 'couldnt', 'darent', 'didnt', 'doesnt', 'dont', 'hadnt', 'hasnt',
  'havent', 'isnt', 'mightnt', 'mustnt', 'neither', 'neednt', 'never', 'none', 'nope', 'nor', 'not', 'nothing', 'nowhere',
  'oughtnt', 'shant', 'shouldnt', 'uhuh', 'wasnt', 'werent', 'without', 'wont', 'wouldnt', 'rarely', 'seldom', 'despite', 'no',
  'nobody', 'hardly']);

export function isNegator(tok: string): boolean {
  if (NEGATORS.has(tok)) return true;
  const n = tok.length;
  // don't, can't, isn’t ...
  return n > 3 && tok.charCodeAt(n - 1) === 0x74 && tok.charCodeAt(n - 3) === 0x6e && (tok.charCodeAt(n - 2) === 0x27 || tok.charCodeAt(n - 2) === 0x2019);
}

const C_INCR = 0.733;
const N_SCALAR = -0.74;

/** The result of one scan: sums over the lexicon words after VADER's adjustments. */
export interface Valence {
  pos: number;
  neg: number;
  hits: number;
  /** Sign of the last lexicon word's adjusted valence (0: none): tweets often end on their verdict. */
  last: number;
  /** VADER's normalised sum, −1..1, with the exclamation/question emphasis. */
  compound: number;
}

/**
 * `lower[i]`: the lower-cased tokens (words, emoticons, emoji; punctuation runs as their own
 * tokens); `caps[i]`: the token was written in capitals. `valence(i)`: the lexicon value of
 * token i, or undefined.
 */
export function scanValence(lower: readonly string[], caps: readonly boolean[], n: number, valence: (i: number) => number | undefined, out: Valence): Valence {
  let capsWords = 0;
  let words = 0;
  let bang = 0;
  let quest = 0;
  let butAt = -1;
  for (let i = 0; i < n; i++) {
    const t = lower[i]!;
    const c = t.charCodeAt(0);
    if (c === 0x21 || c === 0x3f || c === 0x2e || c === 0x2c || c === 0x3b || c === 0x3a) {
      for (let k = 0; k < t.length; k++) {
        if (t.charCodeAt(k) === 0x21) bang++;
        else if (t.charCodeAt(k) === 0x3f) quest++;
      }
      continue;
    }
    words++;
    if (caps[i]) capsWords++;
    if (t === 'but' && butAt < 0) butAt = i;
  }
  // Capitals emphasise only when the tweet is not all capitals.
  const capsDiff = capsWords > 0 && capsWords < words;
  let pos = 0;
  let neg = 0;
  let hits = 0;
  let last = 0;
  for (let i = 0; i < n; i++) {
    let v = valence(i);
    if (v === undefined || v === 0) continue;
    const t = lower[i]!;
    if (BOOSTERS.has(t)) continue;
    const sign = v > 0 ? 1 : -1;
    if (capsDiff && caps[i]) v += sign * C_INCR;
    let negated = false;
    for (let j = 1; j <= 3 && i - j >= 0; j++) {
      const p = lower[i - j]!;
      const b = BOOSTERS.get(p);
      if (b !== undefined) {
        let s = b * sign;
        if (capsDiff && caps[i - j]) s += sign * C_INCR;
        v += j === 1 ? s : j === 2 ? s * 0.95 : s * 0.9;
      }
      if (isNegator(p)) negated = true;
      const pc = p.charCodeAt(0);
      if (pc === 0x2e || pc === 0x21 || pc === 0x3f || pc === 0x3b) break; // negation stops at a sentence break
    }
    if (negated) v *= N_SCALAR;
    if (butAt >= 0) v *= i < butAt ? 0.5 : i > butAt ? 1.5 : 1;
    if (v > 0) pos += v;
    else neg -= v;
    hits++;
    last = v > 0 ? 1 : -1;
  }
  let sum = pos - neg;
  if (sum !== 0) {
    const emphasis = Math.min(bang, 4) * 0.292 + (quest > 1 ? (quest <= 3 ? quest * 0.18 : 0.96) : 0);
    sum += sum > 0 ? emphasis : -emphasis;
  }
  out.pos = pos;
  out.neg = neg;
  out.hits = hits;
  out.last = last;
  out.compound = sum / Math.sqrt(sum * sum + 15);
  return out;
}
