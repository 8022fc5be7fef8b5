"""Model2Vec-style static token vectors: every tokenizer vocabulary item run alone through the model.

python distill_static.py zh|en [--extra N]
Each vocabulary token t is fed as [CLS] t [SEP] and the mean of the three output states is its
vector (Model2Vec's distillation, before PCA). With --extra N (zh), the N most frequent character
2..4-grams of the training texts (label-free counts) are embedded the same way as multi-token
"words", so a post can be cut into them greedily (longest match) instead of single characters.
Writes $S2V_WORK/static/<lang>[-extra].npz: tokens (strings), vectors (float32, vocab x hidden).
"""
import collections
import os
import sys
import time

os.environ.setdefault('OMP_NUM_THREADS', '1')
import numpy as np

from common import WORK_DIR, read_posts, strip_codes
from models import load, mean_pooled


def frequent_ngrams(n_keep):
    """The most frequent char 2..4-grams of CJK text over both zh training files (texts only, no labels)."""
    counts = collections.Counter()
    for kind in ('weibo2018', 'ws100k'):
        for p in read_posts(kind):
            t = strip_codes(p['text'])
            for n in (2, 3, 4):
                for i in range(len(t) - n + 1):
                    g = t[i:i + n]
                    if all('\u4e00' <= ch <= '\u9fff' for ch in g):
                        counts[g] += 1
    return [g for g, c in counts.most_common(n_keep) if c >= 3]


def main():
    lang = sys.argv[1]
    extra = int(sys.argv[sys.argv.index('--extra') + 1]) if '--extra' in sys.argv else 0
    tok, model = load(lang)
    vocab = tok.get_vocab()
    items = sorted(vocab.items(), key=lambda kv: kv[1])
    ids = [i for _, i in items]
    strings = [s for s, _ in items]
    seqs = [[tok.cls_token_id, i, tok.sep_token_id] for i in ids]
    if extra:
        grams = frequent_ngrams(extra)
        strings += grams
        seqs += [[tok.cls_token_id] + tok.convert_tokens_to_ids(tok.tokenize(g)) + [tok.sep_token_id] for g in grams]
    import torch
    out = np.zeros((len(seqs), model.config.hidden_size), dtype=np.float32)
    t0 = time.time()
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
    bs = 256
    for b in range(0, len(order), bs):
        idx = order[b:b + bs]
        L = max(len(seqs[i]) for i in idx)
        input_ids = torch.zeros((len(idx), L), dtype=torch.long)
        mask = torch.zeros((len(idx), L), dtype=torch.long)
        for r, i in enumerate(idx):
            input_ids[r, :len(seqs[i])] = torch.tensor(seqs[i])
            mask[r, :len(seqs[i])] = 1
        out[idx] = mean_pooled(model, {'input_ids': input_ids, 'attention_mask': mask, 'token_type_ids': torch.zeros_like(input_ids)}).numpy()
    print(f'{lang}: {len(seqs)} items in {time.time() - t0:.0f}s', flush=True)
    os.makedirs(os.path.join(WORK_DIR, 'static'), exist_ok=True)
    name = f'{lang}-extra{extra}' if extra else lang
    np.savez(os.path.join(WORK_DIR, 'static', f'{name}.npz'), tokens=np.array(strings, dtype=object), vectors=out)


if __name__ == '__main__':
    main()
