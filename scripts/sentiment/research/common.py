"""Shared helpers for the static-vector research scripts (not product code).

Data loading, the emoticon-code regex of sentiment-train's README, freshet's fold hash
(scripts/sentiment/cv.ts `foldOf`, ported bit for bit so Python folds equal the TypeScript ones)
and the scores the coordinator compares (accuracy; macro recall with the best decision biases).
"""
import json
import os
import re

import numpy as np

TRAIN_DIR = os.environ.get('SENTIMENT_TRAIN', '/work/shared/data/sentiment-train')
WORK_DIR = os.environ.get('S2V_WORK', '/tmp/s2v')
SEED = 20261121
FOLDS = 5
EMOTICON_RE = re.compile(r'\[[^\[\]]{1,8}\]')
FILES = {
    'weibo2018': 'zh-weibo2018.jsonl',
    'ws100k': 'zh-weibo_senti_100k.jsonl',
    'tweeteval': 'en-tweeteval_sentiment.jsonl',
}
EN_CLASSES = ['negative', 'neutral', 'positive']
ZH_CLASSES = ['negative', 'positive']


def read_posts(kind):
    with open(os.path.join(TRAIN_DIR, FILES[kind]), encoding='utf-8') as f:
        return [json.loads(line) for line in f]


def strip_codes(text):
    return EMOTICON_RE.sub('', text)


def _imul(a, b):
    return ((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF)) & 0xFFFFFFFF


def fold_of(key, k=FOLDS, seed=SEED):
    """freshet's foldOf: FNV-style hash over UTF-16 code units, then a mix; the same fold as in TypeScript."""
    h = _imul(0x811c9dc5 ^ seed, 0x01000193)
    units = key.encode('utf-16-le')
    for i in range(0, len(units), 2):
        cu = units[i] | (units[i + 1] << 8)
        h = _imul(h ^ cu, 0x01000193)
    h ^= h >> 15
    h = _imul(h, 0x2c1b3c6d)
    h ^= h >> 12
    return h % k


def accuracy(pred, gold):
    return float(np.mean(np.asarray(pred) == np.asarray(gold)))


def macro_recall(pred, gold, n=3):
    pred, gold = np.asarray(pred), np.asarray(gold)
    return float(np.mean([np.mean(pred[gold == c] == c) for c in range(n)]))


def best_bias_macro_recall(z, gold):
    """As train-en.ts bestBiases: neutral logit fixed, negative/positive biases on a 0.05 grid in [-1, 1]."""
    z, gold = np.asarray(z), np.asarray(gold)
    best = (-1.0, 0.0, 0.0)
    grid = np.round(np.arange(-1, 1.001, 0.05), 2)
    for neg in grid:
        for pos in grid:
            pred = np.argmax(z + np.array([neg, 0, pos]), axis=1)
            r = macro_recall(pred, gold)
            if r > best[0] + 1e-9:
                best = (r, neg, pos)
    return best
