"""Is a late-fusion gain more than fold noise? Paired bootstrap over posts of the accuracy difference.

python paired_test.py [--table zh-extra50000] [--dims 128] [--weight sif]
For weibo2018 and stripped ws100k: base = freshet + tfidf logits (late fusion, C=1), candidate =
base + the static-vector LR's out-of-fold logit; the difference's 95 % interval from 2,000
bootstrap resamples of the posts (the folds stay fixed), and the discordant-pair counts.
"""
import os
import sys

os.environ.setdefault('OMP_NUM_THREADS', '1')
import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from transformers import AutoTokenizer

import static_features as sf
from common import WORK_DIR
from eval_cv import best_over_c, cv_logits, runs, static_args, std
from models import MODEL_DIRS


def main():
    table, d, weight = static_args()
    tokens, vectors = sf.load_table(os.path.join(WORK_DIR, 'static', f'{table}.npz'))
    tokz = sf.Tokenizer(AutoTokenizer.from_pretrained(MODEL_DIRS['zh']), tokens)
    T = sf.quantize_int8(sf.pca_table(vectors, d))
    rng = np.random.default_rng(1)
    for name, texts, y, fold, fz, _ids in runs('zh'):
        X = TfidfVectorizer(analyzer='char', ngram_range=(1, 3), sublinear_tf=True, min_df=2).fit_transform(texts)
        C = best_over_c(X, y, fold, 'zh', dense=False, cs=[1.0, 3.0, 10.0])[1]
        base = np.hstack([std(fz), std(cv_logits(X, y, fold, C, False, dense=False))])
        ids = tokz.ids(texts)
        counts = sf.bag(ids, len(tokens))
        V = sf.post_vectors(counts, T, sf.sif_weights(ids, len(tokens)) if weight == 'sif' else None)
        Cv = best_over_c(V, y, fold, 'zh')[1]
        zv = std(cv_logits(V, y, fold, Cv, False))
        a = (cv_logits(base, y, fold, 1.0, False)[:, 0] > 0) == y
        b = (cv_logits(np.hstack([base, zv]), y, fold, 1.0, False)[:, 0] > 0) == y
        diff = b.astype(float) - a.astype(float)
        boots = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(2000)]
        lo, hi = np.percentile(boots, [2.5, 97.5])
        print(f'{name} {table} d={d} {weight}: base {a.mean():.4f} -> {b.mean():.4f}, diff {diff.mean() * 100:+.2f} points, '
              f'95% CI [{lo * 100:+.2f}, {hi * 100:+.2f}], only base right {int(((a) & (~b)).sum())}, only candidate right {int(((~a) & b).sum())}', flush=True)


if __name__ == '__main__':
    main()
