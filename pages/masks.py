"""Masks: which positions each attention may look at, and what masking does to the softmax."""

import numpy as np
import streamlit as st
import torch

from explorer.figures.masks import batch_masks_figure, mask_figure, masking_effect_figure
from explorer.ui import context, show_problems
from transformer.model import attention, subsequent_mask
from transformer.tokenize import BOS, PAD, Vocab
from transformer.train import Batch

st.title("Masks")
st.markdown(
    "A mask says, for every query position, which key positions it may attend to. In this "
    "app's code (as in the Annotated Transformer) **True / 1 means *may attend*** and the "
    "attention does `scores.masked_fill(mask == 0, -1e9)` before the softmax, so blocked "
    "positions get a weight of about exp(−1e9) ≈ 0. Two masks exist: the **padding mask** "
    "hides `<pad>` tokens that only fill a batch to equal length, and the **subsequent mask** "
    "stops the decoder from looking at later positions."
)

ctx = context()
text_ok = show_problems(ctx, need_model=False)
tokens = list(ctx.tokens.tgt_in_tokens) if text_ok else ["<s>", "a", "b", "c"]

st.header("The subsequent (look-ahead) mask")
size = len(tokens)
sub = subsequent_mask(size)[0].numpy()
m1, m2 = st.columns([3, 2])
m1.plotly_chart(mask_figure(sub, tokens, tokens, f"subsequent_mask({size})[0]"),
                width="stretch", key="mask_sub")
with m2:
    st.markdown(
        "Row *i* is the decoder position that predicts the next token; it may attend to "
        "positions 0..*i* only. During training the whole target is fed at once (teacher "
        "forcing), so without this mask position *i* could simply read the word it must "
        "predict at position *i*+1."
    )
    st.code(
        "def subsequent_mask(size):\n"
        "    # True on and below the diagonal\n"
        "    return torch.tril(torch.ones(1, size, size, dtype=torch.bool))",
        language="python",
    )
    st.caption(f"Shape (1, {size}, {size}). The Annotated Transformer builds the same matrix "
               "as `triu(ones, k=1) == 0`.")

st.header("Padding, and the combined target mask")
st.markdown(
    "Sentences in a batch have different lengths, so shorter ones are padded with `<pad>` "
    "(id 0). `Batch` builds `src_mask = (src != pad).unsqueeze(-2)`, shape (batch, 1, "
    "src_len): one row per sentence, broadcast over every query and every head. For the "
    "target it combines padding with the subsequent mask: `tgt_mask = (tgt != pad)"
    ".unsqueeze(-2) & subsequent_mask(T)`, shape (batch, T, T)."
)
words = [t for t in tokens[1:]] or ["a", "b", "c", "d"]
while len(words) < 4:
    words = words + words
p1, p2 = st.columns(2)
len_a = int(p1.number_input("length of sentence A", 1, 12, value=3, key="mask_len_a"))
len_b = int(p2.number_input("length of sentence B", 1, 12, value=4, key="mask_len_b"))
len_a, len_b = max(1, min(len_a, 12)), max(1, min(len_b, 12))
width = max(len_a, len_b)
vocab = Vocab(words)
src_rows, tgt_rows = [], []
for n in (len_a, len_b):
    ids = vocab.encode([words[i % len(words)] for i in range(n)])
    src_rows.append(ids + [PAD] * (width - n))
    tgt_rows.append([BOS, *ids[: n - 1]] + [PAD] * (width - n))  # decoder input: n tokens
src = torch.tensor(src_rows)
labels = torch.full((2, 1), PAD)  # Batch splits off the last column as labels
batch = Batch(src, torch.cat([torch.tensor(tgt_rows), labels], dim=1))
rows = src_rows
sentence_tokens = [vocab.decode(r) for r in rows]
src_mask = batch.src_mask.numpy()  # (2, 1, width)
b1, b2 = st.columns([2, 3])
with b1:
    st.plotly_chart(
        mask_figure(src_mask[:, 0, :], ["A", "B"], sentence_tokens[1] if len_b >= len_a
                    else sentence_tokens[0], f"src_mask, shape {tuple(src_mask.shape)}",
                    row_noun="sentence", col_noun="position (token)"),
        width="stretch", key="mask_pad",
    )
    st.caption("Each row is one sentence: 1 = real token, 0 = padding. With lengths 3 and 4 "
               "this is the walk-through's example: [1 1 1 0] and [1 1 1 1].")
with b2:
    tgt_tokens = [vocab.decode(r.tolist()) for r in batch.tgt]
    st.plotly_chart(
        batch_masks_figure(batch.tgt_mask.numpy(), tgt_tokens,
                           [f"tgt_mask[0]: A, length {len_a}",
                            f"tgt_mask[1]: B, length {len_b}"]),
        width="stretch", key="mask_tgt",
    )
    st.caption(f"tgt_mask has shape {tuple(batch.tgt_mask.shape)}. In the shorter sentence "
               "the padded columns are 0 in every row; the padded rows still attend to the "
               "real tokens, and their predictions are simply ignored by the loss.")
st.markdown(
    "Inside `MultiHeadedAttention`, `mask.unsqueeze(1)` adds a head axis: the encoder's mask "
    "becomes (batch, 1, 1, src_len) and the decoder's (batch, 1, T, T). The 1s broadcast: "
    "every head, and for the encoder every query row, uses the same mask."
)

st.header("What masking does to the scores and the softmax")
if text_ok and ctx.cfg is not None:
    run = ctx.run()
    scores = run.cache["decoder.layers.0.self_attn.hook_scores"][0, 0]  # (T, T)
    st.caption("Decoder self-attention, layer 0, head 0, for your target:")
else:
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(size, size))
    st.caption("Random scores (fix the settings above to see your own sentence's):")
st.plotly_chart(masking_effect_figure(scores, sub, tokens), width="stretch", key="mask_fx")
st.markdown(
    "Without the mask every row spreads its weight over all positions, the future included. "
    "With it, the blocked scores become −1e9, the softmax gives them (almost exactly) 0, and "
    "the remaining weights of each row are renormalised to sum to 1. A large negative number "
    "is used rather than −∞ so that a row whose keys are *all* blocked does not produce NaN:"
)
q = torch.randn(1, 1, 4, 8, generator=torch.Generator().manual_seed(0))
_, p_all = attention(q, q, q, mask=torch.zeros(1, 1, 4, 4, dtype=torch.bool))
a1, a2 = st.columns(2)
a1.plotly_chart(
    mask_figure(np.zeros((4, 4), dtype=bool), list("abcd"), list("abcd"),
                "every key blocked"), width="stretch", key="mask_all")
a2.dataframe(
    {f"key {j}": p_all[0, 0, :, j].numpy().round(4) for j in range(4)},
    width="stretch",
)
a2.caption("…gives uniform weights, 0.25 for each of 4 keys: all scores are equally −1e9.")

st.header("Two conventions for the same mask")
st.markdown(
    "Some tutorials store the opposite: **1 = masked** (hide this position), and write "
    "`scores.masked_fill(mask == 1, -1e9)`. Their subsequent mask has 1s *above* the diagonal. "
    "Both describe the same rule; what matters is that the mask and the `masked_fill` "
    "condition agree. PyTorch's own `nn.MultiheadAttention` also uses True = *not allowed*."
)
c1, c2 = st.columns(2)
small = subsequent_mask(4)[0].numpy()
c1.plotly_chart(mask_figure(small, list("abcd"), list("abcd"),
                            "True/1 = may attend (this app)"), width="stretch", key="mask_c1")
c2.plotly_chart(mask_figure(small, list("abcd"), list("abcd"), "1 = masked (the other way)",
                            blocked_is_one=True), width="stretch", key="mask_c2")
st.caption("Same colours (blue = may attend) in both; only the stored numbers differ.")
