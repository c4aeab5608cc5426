"""Attention: every layer and head for the learner's sentence, and one head step by step."""

import numpy as np
import streamlit as st

from explorer.charts import show_chart
from explorer.exports import download_name, run_to_npz
from explorer.figures.attention import (
    GRID_CELL_BUDGET,
    KINDS,
    attention_grid,
    head_matrix,
    hook,
    patterns,
)
from explorer.figures.common import heatmap
from explorer.ui import context, show_problems

st.title("Attention")
st.markdown(
    "Attention lets every position gather information from other positions. Each head "
    "compares a **query** (what this position is looking for) with every **key** (what each "
    "position offers), turns the scores into weights with a softmax, and returns the "
    "weighted sum of the **values**: `softmax(Q Kᵀ / √d_k) V`. A row of a heatmap below is "
    "one query token; its weights over the key tokens add up to 1."
)

ctx = context()
if not show_problems(ctx):
    st.stop()
run = ctx.run()
cfg = ctx.cfg
tokens = {"src": list(ctx.tokens.src_tokens), "tgt": list(ctx.tokens.tgt_in_tokens)}

c1, c2 = st.columns([3, 2])
kind = KINDS.get(
    c1.radio("Which attention", list(KINDS), format_func=lambda k: KINDS[k].label,
             horizontal=True, key="attn_kind"),
    KINDS["enc"],
)
average = bool(c2.toggle("Average the heads", key="attn_average",
                         help="Show the mean of the h heads' weights in each layer."))
st.caption(
    f"Queries: {'source' if kind.queries == 'src' else 'decoder input'} tokens (rows) · "
    f"keys: {'source' if kind.keys == 'src' else 'decoder input'} tokens (columns) · "
    f"mask: {kind.mask}"
    + (" · **train mode: dropout is on**: the weights shown are before dropout, and each rerun "
       "draws a new random dropout pattern for everything after them" if run.train_mode else "")
)

weights = patterns(run.cache, kind, cfg.N)  # (N, h, q_len, k_len)
q_tok, k_tok = tokens[kind.queries], tokens[kind.keys]
if not average and weights.size > GRID_CELL_BUDGET:
    average = True
    st.info(f"{cfg.N} layers × {cfg.h} heads × {len(q_tok)} × {len(k_tok)} tokens is too many "
            "cells to draw one heatmap per head, so the grid shows the mean of the heads. "
            "The focus view below shows any single head.")
show_chart(attention_grid(weights, q_tok, k_tok, average_heads=average, title=kind.label),
           f"attention_{kind.key}_grid", key="attn_grid")
if kind.key == "dec":
    st.caption("The upper triangle is empty: the subsequent mask stops each position from "
               "looking at later ones, so the decoder cannot peek at the word it must predict.")

st.header("One head, step by step")
f1, f2 = st.columns(2)
layer = f1.selectbox("Layer", range(cfg.N), key="attn_layer", format_func=lambda i: f"layer {i}")
head = f2.selectbox("Head", range(cfg.h), key="attn_head", format_func=lambda j: f"head {j}")
layer = layer if isinstance(layer, int) and 0 <= layer < cfg.N else 0
head = head if isinstance(head, int) and 0 <= head < cfg.h else 0

Q = run.cache[hook(kind, layer, "hook_q")][0, head]
K = run.cache[hook(kind, layer, "hook_k")][0, head]
V = run.cache[hook(kind, layer, "hook_v")][0, head]
scores = run.cache[hook(kind, layer, "hook_scores")][0, head]
masked = run.cache[hook(kind, layer, "hook_masked_scores")][0, head]
pattern = run.cache[hook(kind, layer, "hook_pattern")][0, head]
z = run.cache[hook(kind, layer, "hook_z")][0, head]
d_k = cfg.d_model // cfg.h


def shape(a: np.ndarray) -> str:
    return " × ".join(str(s) for s in a.shape)


st.markdown(
    f"**1. Project and split.** The layer's input goes through `linears[0..2]` "
    f"(d_model → d_model) and is cut into {cfg.h} heads of d_k = {d_k}. This head's slice:"
)
q1, q2, q3 = st.columns(3)
name = f"attention_{kind.key}_L{layer}_H{head}"
show_chart(head_matrix(Q, q_tok, f"Q  ({shape(Q)})"), f"{name}_Q", key="attn_q", where=q1)
show_chart(head_matrix(K, k_tok, f"K  ({shape(K)})"), f"{name}_K", key="attn_k", where=q2)
show_chart(head_matrix(V, k_tok, f"V  ({shape(V)})"), f"{name}_V", key="attn_v", where=q3)

st.markdown(f"**2. Scores** `Q @ Kᵀ / √d_k`, with √d_k = {np.sqrt(d_k):.3g}. Dividing keeps "
            "the scores from growing with d_k, which would make the softmax saturate.")
s1, s2 = st.columns(2)
lim = float(np.abs(scores).max()) or 1.0
show_chart(heatmap(scores, k_tok, q_tok, f"scores ({shape(scores)})", zmin=-lim, zmax=lim,
                   colorscale="RdBu", value_format=".2f"), f"{name}_scores", key="attn_s",
           where=s1)
blocked = masked <= -1e8
shown = np.where(blocked, np.nan, masked)
show_chart(heatmap(shown, k_tok, q_tok,
                   f"masked scores: blank = -1e9 ({int(blocked.sum())} blocked)",
                   zmin=-lim, zmax=lim, colorscale="RdBu", value_format=".2f"),
           f"{name}_masked", key="attn_m", where=s2)

st.markdown("**3. Softmax** over each row turns scores into weights that sum to 1; a blocked "
            "position gets exp(-1e9) ≈ 0.")
w1, w2 = st.columns(2)
show_chart(heatmap(pattern, k_tok, q_tok, f"weights p_attn ({shape(pattern)})", zmin=0,
                   zmax=1), f"{name}_weights", key="attn_p", where=w1)
show_chart(head_matrix(z, q_tok, f"4. weighted sum p_attn @ V ({shape(z)})"), f"{name}_z",
           key="attn_z", where=w2)
st.markdown(
    f"**5. Concatenate and mix.** The {cfg.h} heads' outputs (each {len(q_tok)} × {d_k}) are "
    f"put side by side into {len(q_tok)} × {cfg.d_model} and multiplied by W^O "
    f"(`linears[3]`). See the Shapes page for every tensor of this pass."
)

st.download_button(
    "Download every captured tensor of this run (.npz)",
    data=lambda: run_to_npz(run), file_name=download_name("run", ctx.settings, "npz"),
    mime="application/octet-stream", key="attn_npz", on_click="ignore",
    icon=":material/download:",
    help="One array per hook point (names as on the Shapes page), plus the tokens; open "
         "with numpy.load(path). Every chart has its own PNG download: the camera icon in "
         "its toolbar.",
)
