/**
 * Topic groups for cross-validation on the tweets. TweetEval's train and validation tweets were
 * collected per topic (an entity: a player, a film, a holiday), and its test tweets (2017) are on
 * topics the training tweets never show, so random folds over-state how sure the model may be on
 * new tweets (cross-validated ECE 0.01, 0.09 on the test tweets). Keeping a topic's tweets in one
 * fold makes the out-of-fold scores, and so the calibration and decision biases fitted on them,
 * those of unseen topics. The topic of a tweet is guessed from its capitalised words (no label is
 * read): the most frequent one of mid frequency across the file, as topics hold tens to a few
 * thousand tweets; tweets without one keep their own id.
 */

const WORD_RE = /[A-Za-z][A-Za-z0-9']+/g;
/** Capitalised words that name no topic (sentence starts, days, greetings, pronouns). */
const STOP = new Set(('the this that what when where who why how you your and but for with just have has are was were will can not '
  + "all its it's i'm don't my me our we they he she his her them happy good new day tomorrow today night time see get going one may "
  + 'like love great amp thanks thank hope watch friday saturday sunday monday tuesday wednesday thursday').split(' '));

/** The capitalised words of a text (lower-cased), the candidates for its topic. */
export function capitalised(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD_RE)) {
    const w = m[0];
    const c = w.charCodeAt(0);
    if (c >= 0x41 && c <= 0x5a && w !== w.toUpperCase() && w.length > 2) out.add(w.toLowerCase());
  }
  return out;
}

/** One group key per text: `t:<word>` for a guessed topic, undefined when none (fold by post id). */
export function topicGroups(texts: readonly string[], minDocs = 15, maxDocs = 3000): (string | undefined)[] {
  const words = texts.map(capitalised);
  const df = new Map<string, number>();
  for (const ws of words) for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
  return words.map((ws) => {
    let best: string | undefined;
    let bestDf = 0;
    for (const w of ws) {
      const n = df.get(w)!;
      if (STOP.has(w) || n < minDocs || n > maxDocs) continue;
      // Ties broken by the word itself, so the groups do not depend on iteration order.
      if (n > bestDf || (n === bestDf && best !== undefined && w < best)) { best = w; bestDf = n; }
    }
    return best === undefined ? undefined : `t:${best}`;
  });
}
