"""5-fold CV of static vectors, teacher embeddings and their stacks with freshet's out-of-fold logits.

python eval_cv.py zh|en [--dims 64,128,256] [--table zh|zh-extra50000] [--teacher]
Folds are freshet's own (read from the --zh-dump-oof / --en-dump-oof files of
scripts/train-sentiment.ts), so every figure here is on the same folds as the TypeScript model's.
zh: weibo2018 and weibo_senti_100k with emoticon codes stripped, accuracy (LR trained on that
file's own training folds). en: TweetEval macro recall with the best decision biases
(class-balanced LR), as train-en.ts scores it.
Stacking: the same LR with freshet's out-of-fold logit(s) as extra standardised columns.
"""
import json
import os
import sys
import time

os.environ.setdefault('OMP_NUM_THREADS', '1')
import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from common import EN_CLASSES, WORK_DIR, ZH_CLASSES, accuracy, best_bias_macro_recall, read_posts, strip_codes
import static_features as sf

CS = [0.1, 1.0, 10.0]


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def static_args():
    """The static-vector table, its PCA dimensions and the token weighting, from the command line."""
    return arg('--table', 'zh-extra50000'), int(arg('--dims', '128')), arg('--weight', 'sif')


def std(z):
    return (z - z.mean(0)) / z.std(0)


def cv_logits(X, y, fold, C, balanced, dense=True):
    """Out-of-fold decision values (log-odds / per-class scores) of an L2 logistic regression."""
    k = len(np.unique(y))
    z = np.zeros((len(y), k if k > 2 else 1))
    for f in np.unique(fold):
        tr, te = fold != f, fold == f
        Xtr, Xte = X[tr], X[te]
        if dense:
            s = StandardScaler().fit(Xtr)
            Xtr, Xte = s.transform(Xtr), s.transform(Xte)
        m = LogisticRegression(C=C, max_iter=2000, class_weight='balanced' if balanced else None)
        m.fit(Xtr, y[tr])
        d = m.decision_function(Xte)
        z[te] = d.reshape(len(d), -1)
    return z


def score(z, y, lang):
    if lang == 'zh':
        return accuracy((z[:, 0] > 0).astype(int), y)
    return best_bias_macro_recall(z, y)[0]


def best_over_c(X, y, fold, lang, dense=True, cs=CS):
    res = {C: score(cv_logits(X, y, fold, C, lang == 'en', dense), y, lang) for C in cs}
    C = max(res, key=res.get)
    return res[C], C, res


def late_fusion(E, y, fold, lang, bases, C=None):
    """Blend of out-of-fold logits: the embedding's own LR logit(s) next to each base's, in a small LR (same folds)."""
    if C is None:
        C = best_over_c(E, y, fold, lang)[1]
    ze = cv_logits(E, y, fold, C, lang == 'en')
    ze = (ze - ze.mean(0)) / ze.std(0)
    res = []
    for bname, bz in bases:
        res.append(f'base {bname} {best_over_c(bz, y, fold, lang, cs=[1.0])[0]:.4f} -> +emb {best_over_c(np.hstack([bz, ze]), y, fold, lang, cs=[1.0])[0]:.4f}')
    return '; '.join(res)


def log(msg, out):
    print(msg, flush=True)
    out.write(msg + '\n')
    out.flush()


def runs(lang):
    """(name, row texts, gold, fold, freshet oof logit columns) per scored run."""
    if lang == 'zh':
        d = json.load(open(os.path.join(WORK_DIR, 'out', 'zh-oof.json')))
        kinds, ids = np.array(d['kind']), np.array(d['id'])
        gold, fold, oof = np.array(d['gold']), np.array(d['fold']), np.array(d['oof'])
        text = {p['id']: p['text'] for k in ('weibo2018', 'ws100k') for p in read_posts(k)}
        for name in ('weibo2018', 'ws100k-stripped'):
            sel = kinds == name
            texts = [strip_codes(text[i]) if name == 'ws100k-stripped' else text[i] for i in ids[sel]]
            z = oof[sel]
            yield name, texts, gold[sel], fold[sel], (z[:, 1] - z[:, 0])[:, None], ids[sel]
    else:
        d = json.load(open(os.path.join(WORK_DIR, 'out', 'en-oof.json')))
        posts = read_posts('tweeteval')
        yield 'tweeteval', [p['text'] for p in posts], np.array(d['gold']), np.array(d['fold']), np.array(d['oof']), np.array([p['id'] for p in posts])


def main():
    lang = sys.argv[1]
    dims = [int(x) for x in arg('--dims', '64,128,256').split(',')]
    table_name = arg('--table', lang)
    os.makedirs(os.path.join(WORK_DIR, 'results'), exist_ok=True)
    out = open(os.path.join(WORK_DIR, 'results', f'eval-{lang}-{table_name}.log'), 'a')
    log(f'=== {time.strftime("%H:%M:%S")} {" ".join(sys.argv)}', out)
    from transformers import AutoTokenizer
    from models import MODEL_DIRS
    hf = AutoTokenizer.from_pretrained(MODEL_DIRS[lang])
    tokens, vectors = sf.load_table(os.path.join(WORK_DIR, 'static', f'{table_name}.npz'))
    tokz = sf.Tokenizer(hf, tokens)
    for name, texts, y, fold, fz, ids in runs(lang):
        log(f'--- {name}: {len(y)} posts', out)
        fz_std = (fz - fz.mean(0)) / fz.std(0)
        if lang == 'zh':
            log(f'{name} freshet (out-of-fold, uncalibrated argmax): {score(fz, y, lang):.4f}', out)
        else:
            log(f'{name} freshet (out-of-fold, best biases): {score(fz, y, lang):.4f}', out)
        # Control: the stacker with freshet's logit alone (re-fits scale and threshold per file),
        # so a stacked gain is not just a per-file re-threshold of freshet's joint model.
        s, C, res = best_over_c(fz_std, y, fold, lang)
        log(f'{name} control: LR on freshet logit(s) alone: {s:.4f}', out)
        bases = [('freshet', fz_std)]
        if '--tfidf' in sys.argv:
            an = ('char', (1, 3)) if lang == 'zh' else ('char_wb', (1, 4))
            X = TfidfVectorizer(analyzer=an[0], ngram_range=an[1], sublinear_tf=True, min_df=2).fit_transform(texts)
            s, C, res = best_over_c(X, y, fold, lang, dense=False, cs=[1.0, 3.0, 10.0])
            log(f'{name} sklearn {an[0]} {an[1]} tfidf LR (trained on this file only): {s:.4f} (C={C}; {res})', out)
            tz = cv_logits(X, y, fold, C, lang == 'en', dense=False)
            bases.append(('tfidf', (tz - tz.mean(0)) / tz.std(0)))
            bases.append(('freshet+tfidf', np.hstack([fz_std, bases[-1][1]])))
            s, C, res = best_over_c(bases[-1][1], y, fold, lang)
            log(f'{name} control: freshet + tfidf logits stacked: {s:.4f}', out)
        if '--teacher' in sys.argv:
            p = os.path.join(WORK_DIR, 'emb', f'{name}.npz')
            if os.path.exists(p):
                e = np.load(p)
                rows = e['rows']
                pos = {r: k for k, r in enumerate(rows)}
                # map file rows to the dump's order via ids
                file_ids = [q['id'] for q in read_posts('ws100k' if name.startswith('ws100k') else name)]
                id_pos = {i: k for k, i in enumerate(file_ids)}
                at = np.array([pos.get(id_pos[i], -1) for i in ids])
                sel = at >= 0
                E = e['emb'][at[sel]]
                s, C, res = best_over_c(E, y[sel], fold[sel], lang)
                log(f'{name} teacher mean-pooled + LR ({sel.sum()} posts): {s:.4f} (C={C}; {res}); freshet on the same posts {score(fz[sel], y[sel], lang):.4f}', out)
                for bname, bz in bases:
                    s, C, res = best_over_c(np.hstack([E, bz[sel]]), y[sel], fold[sel], lang)
                    log(f'{name} teacher + {bname} stacked: {s:.4f} (C={C}; {res})', out)
                log(f'{name} teacher late fusion: {late_fusion(E, y[sel], fold[sel], lang, [(b, z[sel]) for b, z in bases])}', out)
        id_lists = tokz.ids(texts)
        counts = sf.bag(id_lists, len(tokens))
        w = sf.sif_weights(id_lists, len(tokens))
        for d in dims:
            T = sf.quantize_int8(sf.pca_table(vectors, d))
            for wname, ww in (('mean', None), ('sif', w)):
                X = sf.post_vectors(counts, T, ww)
                s, C, res = best_over_c(X, y, fold, lang)
                stacks = []
                for bname, bz in bases:
                    s2, C2, _ = best_over_c(np.hstack([X, bz]), y, fold, lang)
                    stacks.append(f'+{bname} {s2:.4f} (C={C2})')
                log(f'{name} static {table_name} d={d} {wname}: alone {s:.4f} (C={C}); stacked: {"; ".join(stacks)}', out)
                log(f'{name} static {table_name} d={d} {wname} late fusion: {late_fusion(X, y, fold, lang, bases, C)}', out)


if __name__ == '__main__':
    main()
