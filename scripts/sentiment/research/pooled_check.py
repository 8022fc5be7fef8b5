"""The per-file caveat, checked: one pooled zh model for weibo2018 + stripped ws100k (as the runtime
must be: it cannot tell the two apart), scored per file on the same folds.

python pooled_check.py [--table zh-extra50000] [--dims 128] [--weight sif]
Base logits (freshet; pooled tfidf; pooled static-vector LR) and one blender LR (C=1) over both files.
"""
import os

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
    parts = list(runs('zh'))
    texts = [t for p in parts for t in p[1]]
    y = np.concatenate([p[2] for p in parts])
    fold = np.concatenate([p[3] for p in parts])
    fz = np.concatenate([p[4] for p in parts])
    which = np.concatenate([[p[0]] * len(p[2]) for p in parts])
    X = TfidfVectorizer(analyzer='char', ngram_range=(1, 3), sublinear_tf=True, min_df=2).fit_transform(texts)
    C = best_over_c(X, y, fold, 'zh', dense=False, cs=[1.0, 3.0, 10.0])[1]
    zt = std(cv_logits(X, y, fold, C, False, dense=False))
    tokens, vectors = sf.load_table(os.path.join(WORK_DIR, 'static', f'{table}.npz'))
    tokz = sf.Tokenizer(AutoTokenizer.from_pretrained(MODEL_DIRS['zh']), tokens)
    ids = tokz.ids(texts)
    V = sf.post_vectors(sf.bag(ids, len(tokens)), sf.quantize_int8(sf.pca_table(vectors, d)),
                        sf.sif_weights(ids, len(tokens)) if weight == 'sif' else None)
    Cv = best_over_c(V, y, fold, 'zh')[1]
    zv = std(cv_logits(V, y, fold, Cv, False))
    combos = {
        'freshet argmax': fz,
        'tfidf pooled': zt,
        'static pooled': zv,
        'freshet (pooled LR on logit)': cv_logits(std(fz), y, fold, 1.0, False),
        'freshet + tfidf': cv_logits(np.hstack([std(fz), zt]), y, fold, 1.0, False),
        'freshet + static': cv_logits(np.hstack([std(fz), zv]), y, fold, 1.0, False),
        'freshet + tfidf + static': cv_logits(np.hstack([std(fz), zt, zv]), y, fold, 1.0, False),
    }
    for name, z in combos.items():
        right = (z[:, 0] > 0) == y
        print(f'pooled {table} d={d} {weight}: {name}: ' + ', '.join(f'{k} {right[which == k].mean():.4f}' for k, *_ in parts), flush=True)


if __name__ == '__main__':
    main()
