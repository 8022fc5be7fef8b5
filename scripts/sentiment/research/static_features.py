"""Post vectors from a static token table: (weighted) mean of the post's token vectors after PCA.

This is what a TypeScript runtime would do per post: tokenize (BERT WordPiece / greedy longest
match), look up int8 rows, average. The weights are SIF, a / (a + p(token)), with p counted on the
training texts of the language (labels not used).
"""
import collections

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import PCA


def load_table(path):
    z = np.load(path, allow_pickle=True)
    return list(z['tokens']), z['vectors']


def pca_table(vectors, dims, seed=0):
    if dims >= vectors.shape[1]:
        return vectors - vectors.mean(0)
    return PCA(n_components=dims, random_state=seed).fit_transform(vectors).astype(np.float32)


def quantize_int8(table):
    """Per-row symmetric int8 (what would ship): returns the dequantized table, to score with the rounding."""
    scale = np.abs(table).max(1, keepdims=True) / 127 + 1e-12
    return (np.round(table / scale).clip(-127, 127) * scale).astype(np.float32)


class Tokenizer:
    """BERT WordPiece ids, plus (zh, with an extended table) greedy longest match of the extra n-grams."""

    def __init__(self, hf_tok, tokens):
        self.hf = hf_tok
        self.base = len(hf_tok.get_vocab())
        self.extra = {t: self.base + k for k, t in enumerate(tokens[self.base:])}
        self.max_len = max((len(t) for t in self.extra), default=0)

    def ids(self, texts):
        if not self.extra:
            return self.hf(list(texts), add_special_tokens=False, truncation=False)['input_ids']
        out = []
        for t in texts:
            ids, rest, i = [], [], 0
            while i < len(t):
                for n in range(min(self.max_len, len(t) - i), 1, -1):
                    j = self.extra.get(t[i:i + n])
                    if j is not None:
                        break
                else:
                    j = None
                if j is None:
                    rest.append(t[i])
                    i += 1
                    continue
                if rest:
                    ids += self.hf(''.join(rest), add_special_tokens=False)['input_ids']
                    rest = []
                ids.append(j)
                i += n
            if rest:
                ids += self.hf(''.join(rest), add_special_tokens=False)['input_ids']
            out.append(ids)
        return out


def bag(id_lists, vocab_size):
    rows, cols = [], []
    for r, ids in enumerate(id_lists):
        rows += [r] * len(ids)
        cols += ids
    m = sp.csr_matrix((np.ones(len(cols), dtype=np.float32), (rows, cols)), shape=(len(id_lists), vocab_size))
    m.sum_duplicates()
    return m


def sif_weights(id_lists, vocab_size, a=1e-3):
    c = collections.Counter(i for ids in id_lists for i in ids)
    total = sum(c.values())
    p = np.zeros(vocab_size, dtype=np.float64)
    for i, n in c.items():
        p[i] = n / total
    return (a / (a + p)).astype(np.float32)


def post_vectors(counts, table, weights=None):
    w = counts if weights is None else counts.multiply(weights[None, :]).tocsr()
    norm = np.asarray(w.sum(1)).ravel()
    norm[norm == 0] = 1
    return np.asarray(w @ table) / norm[:, None]
