"""Shapes: every tensor of one forward pass, in order, with named dimensions."""

import streamlit as st

from explorer.charts import show_chart
from explorer.figures.attention import KINDS, hook
from explorer.figures.shapes import head_split_figure, shape_csv, tensor_slice, values_figure
from explorer.i18n import t
from explorer.introspect import layer_label, shape_rows, stack_label, sublayer_label
from explorer.ui import context, show_problems

st.title(t("shapes.title"))
st.markdown(t("shapes.intro"))

ctx = context()
if not show_problems(ctx):
    st.stop()
run = ctx.run()
cfg = ctx.cfg
rows = shape_rows(run.cache, cfg)

f1, f2, f3 = st.columns(3)
# The options are the identifiers of ShapeRow.stack / .layer; only their labels are translated.
stacks = ["all", "Embeddings", "Encoder", "Decoder", "Output"]
stack = f1.selectbox(t("shapes.part"), stacks, key="shape_stack",
                     format_func=lambda v: t("shapes.all") if v == "all" else stack_label(v))
layers = ["all"] + [f"layer {i}" for i in range(cfg.N)]
layer = f2.selectbox(t("shapes.layer"), layers, key="shape_layer",
                     format_func=lambda v: t("shapes.all") if v == "all" else layer_label(v))
only_attn = f3.toggle(t("shapes.attn_only"), key="shape_attn")
shown = [
    r for r in rows
    if (stack == "all" or r.stack == stack)
    and (layer == "all" or r.layer == layer or r.layer in ("", "source", "target"))
    and (not only_attn or "attn" in r.name)
]
st.caption(t("shapes.caption", shown=len(shown), total=len(rows),
             src_len=len(ctx.tokens.src_tokens), tgt_len=len(ctx.tokens.tgt_in_tokens),
             d_model=cfg.d_model, h=cfg.h, d_k=cfg.d_k, d_ff=cfg.d_ff))
table = {
    "#": [r.step for r in shown],
    t("shapes.col_part"): [stack_label(r.stack) for r in shown],
    t("shapes.col_layer"): [layer_label(r.layer) for r in shown],
    t("shapes.col_sublayer"): [sublayer_label(r.sublayer) for r in shown],
    t("shapes.col_tensor"): [r.name.rsplit(".", 1)[-1].removeprefix("hook_") for r in shown],
    t("shapes.col_shape"): [r.dims for r in shown],
    t("shapes.col_operation"): [r.op for r in shown],
    t("shapes.col_full_name"): [r.name for r in shown],
}
event = st.dataframe(table, hide_index=True, width="stretch", height=420,
                     on_select="rerun", selection_mode="single-row", key="shape_table")
st.download_button(t("shapes.download_csv"), shape_csv(rows), file_name="shapes.csv",
                   mime="text/csv", key="shape_csv")

selected = event.selection.rows if event is not None else []
if selected and 0 <= selected[0] < len(shown):
    row = shown[selected[0]]
    value = run.cache[row.name]
    head = 0
    if value.ndim == 4:
        raw_head = st.number_input(t("shapes.head"), 0, value.shape[1] - 1, 0, key="shape_head")
        head = min(max(int(raw_head), 0), value.shape[1] - 1)
    z, where = tensor_slice(value, head)
    seqs = {"src": list(ctx.tokens.src_tokens), "tgt": list(ctx.tokens.tgt_in_tokens)}
    show_chart(values_figure(z, seqs.get(row.row_seq), seqs.get(row.col_seq),
                             f"{row.name}{where}  {z.shape[0]} × {z.shape[1]}"),
               f"shapes_{row.name}", key="shape_values")
    if row.name.endswith("hook_masked_scores"):
        st.caption(t("shapes.masked_caption"))

st.header(t("shapes.split_header"))
kind = KINDS["enc"]
z_heads = run.cache[hook(kind, 0, "hook_z")][0]  # (h, src_len, d_k)
concat = run.cache[hook(kind, 0, "hook_concat")][0]  # (src_len, d_model)
st.markdown(t("shapes.split_text", d_model=cfg.d_model, h=cfg.h, d_k=cfg.d_k))
if cfg.h <= 16:
    show_chart(head_split_figure(z_heads, concat, list(ctx.tokens.src_tokens)),
               "shapes_head_split_enc_L0", key="shape_split")
    st.caption(t("shapes.split_caption"))
else:
    st.info(t("shapes.too_many_heads", h=cfg.h))
