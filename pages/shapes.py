"""Shapes: every tensor of one forward pass, in order, with named dimensions."""

import streamlit as st

from explorer.figures.attention import KINDS, hook
from explorer.figures.shapes import head_split_figure, shape_csv, tensor_slice, values_figure
from explorer.introspect import shape_rows
from explorer.ui import context, show_problems

st.title("Shapes")
st.markdown(
    "Every tensor the model computes for your sentence, in the order it is computed. Most "
    "keep the shape **(batch, seq, d_model)**: each sublayer reads and writes vectors of the "
    "same width, which is what lets the residual connections add them. Inside attention the "
    "width is split into **h heads of d_k**, and the scores are **(batch, h, q_len, k_len)**."
)

ctx = context()
if not show_problems(ctx):
    st.stop()
run = ctx.run()
cfg = ctx.cfg
rows = shape_rows(run.cache, cfg)

f1, f2, f3 = st.columns(3)
stacks = ["all", "Embeddings", "Encoder", "Decoder", "Output"]
stack = f1.selectbox("Part", stacks, key="shape_stack")
layers = ["all"] + [f"layer {i}" for i in range(cfg.N)]
layer = f2.selectbox("Layer", layers, key="shape_layer")
only_attn = f3.toggle("Attention internals only", key="shape_attn")
shown = [
    r for r in rows
    if (stack == "all" or r.stack == stack)
    and (layer == "all" or r.layer == layer or r.layer in ("", "source", "target"))
    and (not only_attn or "attn" in r.name)
]
st.caption(f"{len(shown)} of {len(rows)} tensors · batch = 1, src_len = "
           f"{len(ctx.tokens.src_tokens)}, tgt_len = {len(ctx.tokens.tgt_in_tokens)}, "
           f"d_model = {cfg.d_model}, h = {cfg.h}, d_k = {cfg.d_k}, d_ff = {cfg.d_ff}. "
           "Select a row to see its values.")
table = {
    "#": [r.step for r in shown],
    "part": [r.stack for r in shown],
    "layer": [r.layer for r in shown],
    "sublayer": [r.sublayer for r in shown],
    "tensor": [r.name.rsplit(".", 1)[-1].removeprefix("hook_") for r in shown],
    "shape (named)": [r.dims for r in shown],
    "operation": [r.op for r in shown],
    "full name": [r.name for r in shown],
}
event = st.dataframe(table, hide_index=True, width="stretch", height=420,
                     on_select="rerun", selection_mode="single-row", key="shape_table")
st.download_button("Download the table as CSV", shape_csv(rows), file_name="shapes.csv",
                   mime="text/csv", key="shape_csv")

selected = event.selection.rows if event is not None else []
if selected and 0 <= selected[0] < len(shown):
    row = shown[selected[0]]
    value = run.cache[row.name]
    head = 0
    if value.ndim == 4:
        raw_head = st.number_input("head", 0, value.shape[1] - 1, 0, key="shape_head")
        head = min(max(int(raw_head), 0), value.shape[1] - 1)
    z, where = tensor_slice(value, head)
    seqs = {"src": list(ctx.tokens.src_tokens), "tgt": list(ctx.tokens.tgt_in_tokens)}
    st.plotly_chart(values_figure(z, seqs.get(row.row_seq), seqs.get(row.col_seq),
                                  f"{row.name}{where}  {z.shape[0]} × {z.shape[1]}"),
                    width="stretch", key="shape_values")
    if row.name.endswith("hook_masked_scores"):
        st.caption("Blank cells were filled with −1e9 by the mask.")

st.header("Splitting into heads and concatenating them back")
kind = KINDS["enc"]
z_heads = run.cache[hook(kind, 0, "hook_z")][0]  # (h, src_len, d_k)
concat = run.cache[hook(kind, 0, "hook_concat")][0]  # (src_len, d_model)
st.markdown(
    f"`linears[0](x)` gives (batch, seq, d_model = {cfg.d_model}). "
    f"`.view(batch, -1, h, d_k)` reinterprets each row as {cfg.h} pieces of {cfg.d_k}, and "
    "`.transpose(1, 2)` moves the head axis forward: (batch, h, seq, d_k), so every head "
    "attends independently. After attention, `.transpose(1, 2).contiguous().view(batch, -1, "
    "h * d_k)` undoes it: head *j*'s output fills columns *j*·d_k to (*j*+1)·d_k."
)
if cfg.h <= 16:
    st.plotly_chart(head_split_figure(z_heads, concat, list(ctx.tokens.src_tokens)),
                    width="stretch", key="shape_split")
    st.caption("Encoder layer 0. Left: each head's output p_attn @ V, (seq, d_k) per head. "
               "Right: the same numbers after transpose + view, (seq, d_model), before W^O; "
               "black lines mark where one head's columns end. The blocks are identical: "
               "concatenation only moves numbers, and the split before attention is the same "
               "move backwards.")
else:
    st.info(f"{cfg.h} heads are too many to draw side by side; pick h ≤ 16 to see the split.")
