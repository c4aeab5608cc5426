"""Attention: every layer and head for the learner's sentence, and one head step by step."""

import numpy as np
import pandas as pd
import streamlit as st

from explorer.app.charts import chart_as_text
from explorer.app.page import end_page, show_problems, show_source_notes
from explorer.core.exports import download_name, run_to_npz
from explorer.core.kinds import KINDS
from explorer.figures.attention import (
    GRID_CELL_BUDGET,
    attention_grid,
    grid_table,
    head_steps,
    key_value_source,
    patterns,
    scaling_effect,
    weights_text,
)
from explorer.sections.classroom import (
    ABOUT_ATTENTION,
    student_question,
    teacher_hides,
    teacher_question,
)
from explorer.sections.frame import context
from explorer.sections.knockout import knockout_section
from explorer.sections.lesson_class import lesson_hides, lesson_waits
from explorer.state.view import Model, keep, refit
from explorer.text.i18n import get_lang, t

st.title(t("attn.title"))
st.markdown(t("attn.intro"))

ctx = context()
lang = get_lang()  # the figures' language, handed to them
if not show_problems(ctx):
    end_page()
run = ctx.run()
cfg = ctx.cfg
tokens = {"src": list(ctx.tokens.src_tokens), "tgt": list(ctx.tokens.tgt_in_tokens)}
show_source_notes(ctx)  # which model this is; the decoder's input; inputs it never saw
# A layer or head the model no longer has (the learner made it smaller): back to 0, before
# the widgets are drawn, as the link already says (explorer.app.links.view_params).
refit(st.session_state, ("attn_layer", "attn_head"), Model(N=cfg.N, h=cfg.h))

c1, c2 = st.columns([3, 2])
kind = KINDS.get(
    c1.radio(t("attn.which"), list(KINDS), format_func=lambda k: KINDS[k].label,
             horizontal=True, **keep("attn_kind")),
    KINDS["enc"],
)
average = bool(c2.toggle(t("attn.average"), **keep("attn_average"), help=t("attn.average_help")))
side = {"src": t("attn.side_src"), "tgt": t("attn.side_tgt")}
st.caption(
    t("attn.axes", queries=side[kind.queries], keys=side[kind.keys], mask=kind.mask)
    + (t("attn.train_mode") if run.train_mode else "")
)

weights = patterns(run.cache, kind, cfg.N)  # (N, h, q_len, k_len)
q_tok, k_tok = tokens[kind.queries], tokens[kind.keys]
# a class question is open (here, or a lesson's in its panel above): the heatmaps would
# give the answer away
if student_question({k: v.label for k, v in KINDS.items()}, lang, ctx.presenter) or (
        lesson_waits()):
    end_page()
# a teacher's question, above the heatmaps it asks about; on a projector, while it is
# prepared or open, they wait for the reveal (the room sees the teacher's screen)
asking = teacher_question(weights, q_tok, k_tok, kind.key, lang, ctx.presenter)
presenting = teacher_hides(ABOUT_ATTENTION, ctx.presenter, asking) or lesson_hides(ctx.presenter)
if not average and weights.size > GRID_CELL_BUDGET:
    average = True
    st.info(t("attn.too_many", N=cfg.N, h=cfg.h, q=len(q_tok), k=len(k_tok)))
if presenting:
    st.caption(t("class.hidden_on_projector"))
else:
    # a projector's grid puts more heads side by side and a layer on one screen
    grid, share = ctx.from_run(("grid", kind.key, average, lang, ctx.presenter),
                               lambda: attention_grid(weights, q_tok, k_tok, lang=lang,
                                                      average_heads=average, title=kind.label,
                                                      wide=ctx.presenter))
    ctx.chart(grid, f"attention_{kind.key}_grid", key="attn_grid", share=share, text=False)
    # the grid's text alternative: each query's strongest key in every layer and head
    rows, _ = ctx.from_run(("grid_text", kind.key, average, lang), lambda: grid_table(
        weights, q_tok, k_tok, lang, average_heads=average))
    with st.expander(t("a11y.grid_as_text"), icon=":material/table_rows:"):
        st.table(pd.DataFrame(rows).set_index(t("a11y.col_layer")))  # an HTML table
if kind.key == "dec":
    st.caption(t("attn.upper_triangle"))

st.header(t("attn.focus_header"))
f1, f2 = st.columns(2)
layer = f1.selectbox(t("attn.layer"), range(cfg.N), **keep("attn_layer"),
                     format_func=lambda i: t("fig.attention.layer", i=i))
head = f2.selectbox(t("attn.head"), range(cfg.h), **keep("attn_head"),
                    format_func=lambda j: t("fig.attention.head", j=j))
layer = layer if isinstance(layer, int) and 0 <= layer < cfg.N else 0
head = head if isinstance(head, int) and 0 <= head < cfg.h else 0

if presenting:  # the head's steps end in its weights: they wait for the reveal too
    st.caption(t("class.hidden_on_projector"))
    end_page()
figs, share = ctx.from_run(("steps", kind.key, layer, head, lang),
                         lambda: head_steps(run.cache, kind, layer, head, q_tok, k_tok, lang=lang))
name = f"attention_{kind.key}_L{layer}_H{head}"


# each step's figure is shared by its own name, when the steps are
shared = {step: None if share is None else (*share, step) for step in figs}
st.markdown(t("attn.step1", h=cfg.h, d_k=cfg.d_k))
for step, column in zip(("Q", "K", "V"), st.columns(3), strict=True):
    ctx.chart(figs[step], f"{name}_{step}", key=f"attn_{step.lower()}", where=column,
              share=shared[step])
# A walk-through says K is usually V: the same input, but two different projections.
kv, _ = ctx.from_run(("kv", kind.key, layer, head), lambda: key_value_source(
    ctx.model(), run.cache, kind, layer, head, cfg.norm_placement == "pre"))
st.caption(t("attn.kv_text", source=t(f"attn.kv_source_{kv.source}"), rows=kv.rows,
             d_model=kv.d_model, head=head, error=f"{kv.recompute_error:.1e}",
             w_diff=f"{kv.weight_diff:.2f}", mean_k=f"{kv.mean_k:.3f}", mean_v=f"{kv.mean_v:.3f}",
             mean_diff=f"{kv.mean_diff:.3f}", corr=f"{kv.corr:.2f}"))
st.markdown(t("attn.step2", sqrt_dk=f"{np.sqrt(cfg.d_k):.3g}"))
s1, s2 = st.columns(2)
ctx.chart(figs["scores"], f"{name}_scores", key="attn_s", where=s1, share=shared["scores"])
ctx.chart(figs["masked"], f"{name}_masked", key="attn_m", where=s2, share=shared["masked"])
fx = scaling_effect(run.cache[kind.hook(layer, "hook_scores")][0, head],  # a common mistake:
                    run.cache[kind.hook(layer, "hook_masked_scores")][0, head], cfg.d_k)
st.caption(t("attn.mistake_exploding", d_k=cfg.d_k, **{k: f"{v:.3f}" for k, v in fx.items()}))
st.markdown(t("attn.step3"))
w1, w2 = st.columns(2)
ctx.chart(figs["weights"], f"{name}_weights", key="attn_p", where=w1, share=shared["weights"],
          text=False)
chart_as_text(weights_text(weights[layer, head], q_tok, k_tok, lang), t("a11y.weights_as_text"),
              where=w1)
ctx.chart(figs["z"], f"{name}_z", key="attn_z", where=w2, share=shared["z"])
st.markdown(t("attn.step5", h=cfg.h, q=len(q_tok), d_k=cfg.d_k, d_model=cfg.d_model))

st.download_button(
    t("attn.npz"),
    data=lambda: run_to_npz(run), file_name=download_name("run", cfg, "npz"),
    mime="application/octet-stream", key="attn_npz", on_click="ignore",
    icon=":material/download:",
    help=t("attn.npz_help"),
)

knockout_section(ctx, run)  # switch off a head, see what the model loses
