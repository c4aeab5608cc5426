"""A small seeded model and one captured run of it, for tests of what the pages compute."""

import torch

from transformer.model import make_model, subsequent_mask


def small_run(**options):
    """(model, cache): N=2, d_model=16, h=4, source of 5 tokens, decoder input of 4."""
    model = make_model(12, 12, N=2, d_model=16, d_ff=24, h=4, dropout=0.0, seed=0, **options)
    model.eval()
    src = torch.tensor([[4, 5, 6, 7, 8]])
    tgt = torch.tensor([[1, 4, 5, 6]])
    _, cache = model.run_with_cache(src, tgt, torch.ones(1, 1, 5, dtype=torch.bool),
                                    subsequent_mask(4))
    return model, {k: v.numpy() for k, v in cache.items()}
