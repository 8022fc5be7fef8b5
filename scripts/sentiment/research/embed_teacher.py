"""Teacher ceiling features: full transformer sentence embeddings (mean pooled) of one training file.

python embed_teacher.py weibo2018|ws100k-stripped|tweeteval [--sample N]
Writes $S2V_WORK/emb/<run>.npz with the row indices into the file and the embeddings.
Posts are sorted by length and batched so padding stays small; one CPU thread.
"""
import os
import sys
import time

os.environ.setdefault('OMP_NUM_THREADS', '1')
import numpy as np

from common import WORK_DIR, read_posts, strip_codes
from models import MAX_TOKENS, load, mean_pooled


def main():
    run = sys.argv[1]
    sample = int(sys.argv[sys.argv.index('--sample') + 1]) if '--sample' in sys.argv else 0
    kind = 'ws100k' if run.startswith('ws100k') else run
    lang = 'en' if kind == 'tweeteval' else 'zh'
    posts = read_posts(kind)
    texts = [strip_codes(p['text']) if run == 'ws100k-stripped' else p['text'] for p in posts]
    rows = np.arange(len(texts))
    if sample and sample < len(rows):
        rows = np.sort(np.random.default_rng(7).choice(len(rows), sample, replace=False))
    tok, model = load(lang)
    order = sorted(rows, key=lambda i: len(texts[i]))
    out = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
    t0 = time.time()
    bs = 32
    for b in range(0, len(order), bs):
        idx = order[b:b + bs]
        enc = tok([texts[i] or ' ' for i in idx], padding=True, truncation=True, max_length=MAX_TOKENS[lang], return_tensors='pt')
        out[idx] = mean_pooled(model, enc).numpy()
        if b % (bs * 50) == 0:
            print(f'{run}: {b}/{len(order)} {time.time() - t0:.0f}s', flush=True)
    secs = time.time() - t0
    print(f'{run}: {len(order)} posts in {secs:.0f}s = {len(order) / secs:.1f} posts/s (1 thread)', flush=True)
    os.makedirs(os.path.join(WORK_DIR, 'emb'), exist_ok=True)
    np.savez(os.path.join(WORK_DIR, 'emb', f'{run}.npz'), rows=rows, emb=out[rows], posts_per_s=len(order) / secs)


if __name__ == '__main__':
    main()
