"""Embeddings and positional encoding: what the encoder receives before any attention."""

import numpy as np
import streamlit as st

from explorer.figures.positions import (
    magnitude_bars,
    pe_curves,
    pe_similarity,
    pe_table_heatmap,
    shift_matrix,
    shift_matrix_figure,
    token_vectors,
)
from explorer.ui import context, show_problems
from transformer.model import sinusoid_table

st.title("Embeddings & positional encoding")
st.markdown(
    "Attention by itself treats its input as a *set*: shuffle the words and every token gets "
    "the same result, just shuffled. The Transformer therefore adds a **position signal** to "
    "each token's embedding. It is not learned: dimension 2i holds a sine and dimension 2i+1 a "
    "cosine of the position, with wavelengths growing geometrically from 2π to 10000·2π."
)
st.latex(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right) \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)


@st.cache_data(max_entries=32, show_spinner=False)
def pe_table(positions: int, d_model: int) -> np.ndarray:
    """The sinusoid table as numpy (cached per size; st.cache_data hands out copies)."""
    return sinusoid_table(positions, d_model).numpy()


st.header("The curves")
c1, c2 = st.columns(2)
d_model = int(c1.number_input("d_model for these plots", 2, 1024, value=20, step=2,
                              key="pe_d_model"))
positions = int(c2.slider("positions", 10, 1000, value=100, step=10, key="pe_positions"))
if d_model % 2:
    st.error(f"d_model must be even for sine/cosine pairs; using {d_model + 1}.")
    d_model += 1
d_model = max(2, min(d_model, 1024))
positions = max(10, min(positions, 1000))
table = pe_table(positions, d_model)
default_dims = [d for d in (4, 5, 6, 7) if d < d_model] or [0, 1]
dims = st.multiselect("dimensions", list(range(d_model)), default=default_dims, key="pe_dims",
                      max_selections=12)
dims = [d for d in dims if 0 <= d < d_model] or default_dims
st.plotly_chart(pe_curves(table, dims, f"PE for d_model = {d_model}"), width="stretch",
                key="pe_curves")
st.caption("With the defaults (d_model = 20, dimensions 4–7, 100 positions) this is the "
           "Annotated Transformer's figure: each pair of dimensions is one frequency, and the "
           "higher the dimension, the longer the wavelength.")

t1, t2 = st.columns(2)
with t1:
    st.subheader("The whole table")
    st.plotly_chart(pe_table_heatmap(table), width="stretch", key="pe_table")
    st.caption("Left columns change fast with the position, right columns slowly: like the "
               "digits of a counter, together they give each position a unique pattern.")
with t2:
    st.subheader("Which positions look alike")
    st.plotly_chart(pe_similarity(table), width="stretch", key="pe_sim")
    st.caption("PE(p)·PE(q) is largest on the diagonal and depends only on the distance |p − q|"
               ": nearby positions have similar codes, wherever they are in the sentence.")

st.header("Why PE(pos + k) is a linear function of PE(pos)")
st.markdown(
    "For one frequency w, the angle-addition formulas give "
    "sin(w(p+k)) = sin(wp)·cos(wk) + cos(wp)·sin(wk) and "
    "cos(w(p+k)) = cos(wp)·cos(wk) − sin(wp)·sin(wk). "
    "The factors cos(wk) and sin(wk) depend on k only, not on p. So one matrix M_k, a 2×2 "
    "rotation for every sine/cosine pair, moves *any* position k steps forward. This makes "
    "relative offsets easy for a linear layer (like the attention projections) to use."
)
k = max(1, min(int(st.slider("offset k", 1, 50, value=3, key="pe_k")), 50))
m = shift_matrix(d_model, k)
full = pe_table(positions + 50, d_model).astype(np.float64)  # one cached table for every k
err = float(np.abs(full[:positions] @ m.T - full[k: k + positions]).max())
l1, l2 = st.columns([3, 2])
l1.plotly_chart(shift_matrix_figure(m, k), width="stretch", key="pe_shift")
l2.metric("max |M_k·PE(pos) − PE(pos+k)| over all positions", f"{err:.1e}")
l2.caption("Numerically zero: the same matrix works for every position.")

st.header("Your tokens: embedding + position")
ctx = context()
if show_problems(ctx):
    run = ctx.run()
    s = ctx.settings
    tokens = list(ctx.tokens.src_tokens)
    emb = run.cache["src_embed.0.hook_out"][0]  # (src_len, d_model)
    pe = run.cache["src_embed.1.hook_pe"][0]
    total = run.cache["src_embed.1.hook_out"][0]
    limit = float(max(np.abs(emb).max(), 1.0))
    scale = "× √d_model" if s.scale_embedding else "(not scaled)"
    st.markdown(
        f"The source tokens go through `Embeddings` (a lookup table, then {scale}: "
        f"√{s.d_model} = {np.sqrt(s.d_model):.2f}) and `PositionalEncoding` adds row *pos* of "
        "the table above. Dropout then applies"
        + (" — **train mode is on, so some values are zeroed and the rest scaled up**."
           if s.train_mode else " (off in eval mode).")
    )
    e1, e2, e3 = st.columns(3)
    e1.plotly_chart(token_vectors(emb, tokens, f"embedding {scale}", limit), width="stretch",
                    key="pe_emb")
    e2.plotly_chart(token_vectors(pe, tokens, "positional encoding", limit), width="stretch",
                    key="pe_pe")
    e3.plotly_chart(token_vectors(total, tokens, "sum: what the encoder gets", limit),
                    width="stretch", key="pe_sum")
    raw = emb / (np.sqrt(s.d_model) if s.scale_embedding else 1.0)
    st.plotly_chart(
        magnitude_bars(["embedding (raw)", f"embedding {scale}", "positional encoding"],
                       [float(np.abs(raw).mean()), float(np.abs(emb).mean()),
                        float(np.abs(pe).mean())]),
        width="stretch", key="pe_mag",
    )
    st.caption(
        "Why multiply by √d_model? The embedding table starts with small values (about "
        "±√(3/d_model) here); scaling brings them to the size of the positional encoding "
        "(values in [−1, 1]) so that the position signal does not drown out the word. Turn "
        "the scaling off in the sidebar's teaching options to see the difference. Repeated "
        "words get the same embedding but a different position, so their sums differ."
    )
