"""Shapes: every tensor of one forward pass, in order, with named dimensions."""

import streamlit as st

from explorer.app.numbers import number_box
from explorer.app.page import end_page, show_problems
from explorer.core.kinds import KINDS
from explorer.core.shape_table import (
    STACKS,
    filter_rows,
    layer_label,
    self_attention_shapes,
    shape_rows,
    stack_label,
)
from explorer.figures.common import text_px
from explorer.figures.shapes import (
    BATCH_EXAMPLE,
    MHA_EXAMPLE,
    WALK_EXAMPLE,
    attention_walk_shapes,
    batch_example_shapes,
    example_table,
    head_split_figure,
    head_split_views,
    mha_example_shapes,
    shape_csv,
    shape_table,
    tensor_slice,
    values_figure,
)
from explorer.sections.frame import context
from explorer.state.view import keep
from explorer.text.i18n import get_lang, t
from transformer.hook_paths import layer_hook

TABLE_FONT = 14  # px, the table's text (drawn on a canvas: presenter mode's CSS leaves it)


def column_width(texts: list[str]) -> int:
    """Pixels for a table column that shows the longest of `texts` whole."""
    return int(min(28 + max(text_px(x, TABLE_FONT, narrow=0.54) for x in texts), 900))


st.title(t("shapes.title"))
st.markdown(t("shapes.intro"))

ctx = context()
lang = get_lang()  # the figures' and tables' language, handed to them
if not show_problems(ctx):
    end_page()
run = ctx.run()
cfg = ctx.cfg
rows = shape_rows(run.cache, cfg)
tokens = {"src": list(ctx.tokens.src_tokens), "tgt": list(ctx.tokens.tgt_in_tokens)}

f1, f2, f3 = st.columns(3)
# The options are the identifiers of ShapeRow.stack / .layer; only their labels are translated.
# Each filter's value comes from session state only (a link sets it before the page runs),
# checked again here: a value that is not an option falls back to the default.
stacks = ["all", *STACKS]
layers = ["all"] + [f"layer {i}" for i in range(cfg.N)]
for key, options in (("shape_stack", stacks), ("shape_layer", layers)):
    if st.session_state.get(key) not in options:
        st.session_state[key] = options[0]
if not isinstance(st.session_state.get("shape_attn"), bool):
    st.session_state["shape_attn"] = False
stack = f1.selectbox(t("shapes.part"), stacks, **keep("shape_stack"),
                     format_func=lambda v: t("shapes.all") if v == "all" else stack_label(v))
layer = f2.selectbox(t("shapes.layer"), layers, **keep("shape_layer"),
                     format_func=lambda v: t("shapes.all") if v == "all" else layer_label(v))
only_attn = f3.toggle(t("shapes.attn_only"), **keep("shape_attn"))
stack = stack if stack in stacks else "all"
layer = layer if layer in layers else "all"
only_attn = only_attn is True
shown = filter_rows(rows, stack, layer, only_attn)
st.caption(t("shapes.caption", shown=len(shown), total=len(rows),
             src_len=len(ctx.tokens.src_tokens), tgt_len=len(ctx.tokens.tgt_in_tokens),
             d_model=cfg.d_model, h=cfg.h, d_k=cfg.d_k, d_ff=cfg.d_ff))
columns = shape_table(shown, lang=lang)
# Every column as wide as its longest value (the table does not wrap text, and it cut
# "masked self-attention" or "masked_scores" short); the table scrolls sideways if needed.
# The tensor and its shape come first, the tensor pinned: a phone shows only the first
# columns, and the rest scroll in beside the tensor's name.
widths = {name: column_width([name, *map(str, values)]) for name, values in columns.items()}
tensor, shape = t("shapes.col_tensor"), t("shapes.col_shape")
order = [tensor, shape, *(name for name in columns if name not in (tensor, shape))]
event = st.dataframe(columns, hide_index=True, width="stretch", height=420,
                     on_select="rerun", selection_mode="single-row", key="shape_table",
                     column_order=order,
                     column_config={name: st.column_config.Column(width=w, pinned=name == tensor)
                                    for name, w in widths.items()})
st.download_button(t("shapes.download_csv"), shape_csv(rows, lang=lang), file_name="shapes.csv",
                   mime="text/csv", key="shape_csv")

selected = event.selection.rows if event is not None else []
if selected and 0 <= selected[0] < len(shown):
    row = shown[selected[0]]
    value = run.cache[row.name]
    head = 0
    if value.ndim == 4:
        # a head the tensor has, whatever was typed or sent (tensor_slice checks it again)
        head = number_box(st, t("shapes.head"), "shape_head", 0, value.shape[1] - 1, step=1,
                          default=0, kept=False)
    z, where = tensor_slice(value, head, lang=lang)
    ctx.chart(values_figure(z, tokens.get(row.row_seq), tokens.get(row.col_seq),
                            f"{row.name}{where}  {z.shape[0]} × {z.shape[1]}", lang=lang),
              f"shapes_{row.name}", key="shape_values")
    if row.name.endswith("hook_masked_scores"):
        st.caption(t("shapes.masked_caption"))

st.header(t("shapes.split_header"))
st.markdown(t("shapes.split_text", d_model=cfg.d_model, h=cfg.h, d_k=cfg.d_k))
# walk-throughs' claims (Q, K, V are batchsize x d_model; forward's inputs are already
# 4-D), against the shapes of this run
shape_of = self_attention_shapes(run.cache)
st.caption(t("shapes.qkv_seq", x=shape_of["hook_out"], q=shape_of["hook_q"],
             scores=shape_of["hook_scores"]))
split_layer, split_kinds = head_split_views(stack, layer)
if cfg.h <= 16:
    for kind in (KINDS[k] for k in split_kinds):
        z_heads = run.cache[kind.hook(split_layer, "hook_z")][0]  # (h, q_len, d_k)
        concat = run.cache[kind.hook(split_layer, "hook_concat")][0]  # (q_len, d_model)
        module = layer_hook(kind.stack, split_layer, kind.module)
        which = t("shapes.split_which", kind=kind.label, layer=split_layer, module=module)
        ctx.chart(head_split_figure(z_heads, concat, list(tokens[kind.queries]), title=which,
                                    lang=lang),
                  f"shapes_head_split_{kind.key}_L{split_layer}",
                  key="shape_split_cross" if kind.key == "cross" else "shape_split")
    st.caption(t("shapes.split_caption"))
else:
    st.info(t("shapes.too_many_heads", h=cfg.h))

# ---- The walk-throughs' worked examples, computed ---------------------------------------------
with st.expander(t("shapes.examples_expander")):
    ex = MHA_EXAMPLE
    st.markdown(t("shapes.mha_example", **ex, d_k=ex["d_model"] // ex["h"]))
    st.dataframe(example_table(mha_example_shapes(), lang=lang), hide_index=True, width="stretch")
    ex = BATCH_EXAMPLE
    rows, ntokens = batch_example_shapes()
    st.markdown(t("shapes.batch_example", **ex, t_len=ex["tgt_len"] - 1))
    st.dataframe(example_table(rows, lang=lang), hide_index=True, width="stretch")
    st.caption(t("shapes.batch_example_caption", ntokens=ntokens, labels=ex["batch"] * (
        ex["tgt_len"] - 1)))
    ex = WALK_EXAMPLE  # a walk-through's (30, 8, 33, 64) through attention()
    # the same on every run (0.17 s of tensors): made once for every session
    (rows, more), _ = ctx.fixed(("shapes", "walk"), attention_walk_shapes)
    st.markdown(t("shapes.walk_example", **ex))
    st.dataframe(example_table(rows, lang=lang), hide_index=True, width="stretch")
    st.caption(t("shapes.walk_caption", **{k: str(v) for k, v in more}, **ex))
