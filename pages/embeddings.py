"""Embeddings and positional encoding: what the encoder receives before any attention."""

import numpy as np
import streamlit as st

from explorer.app.cache import pe_table
from explorer.app.charts import chart_as_text
from explorer.app.numbers import fit_state, number_box
from explorer.app.page import show_problems
from explorer.core.introspect import embedding_range, xavier_bound
from explorer.figures.embeddings import (
    divided_scale,
    encoder_input,
    magnitude_bars,
    pe_curves,
    pe_curves_text,
    pe_similarity,
    pe_steps,
    pe_table_heatmap,
    shift_error,
    shift_matrix,
    shift_matrix_figure,
    token_vectors,
)
from explorer.sections.frame import context
from explorer.state.urlstate import EXTRAS
from explorer.state.view import BY_KEY, MODEL_FREE, PE_D_MODEL_RANGE, keep
from explorer.text.i18n import get_lang, t

st.title(t("emb.title"))
ctx = context()
lang = get_lang()  # the figures' language, handed to them
st.markdown(t("emb.intro"))
st.latex(  # two lines: one would run off a phone's screen
    r"\begin{aligned}"
    r"PE_{(pos,\,2i)} &= \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right) \\"
    r"PE_{(pos,\,2i+1)} &= \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
    r"\end{aligned}"
)


# The Annotated Transformer's figure: d_model 20, dimensions 4-7 (declared with the link).
PE_D_MODEL_DEFAULT: int = EXTRAS["ped"][1]  # type: ignore[assignment]
PE_DIMS_DEFAULT: tuple[int, ...] = EXTRAS["dims"][1]  # type: ignore[assignment]
PE_POSITIONS_RANGE = (10, 1000)  # the positions slider's


def _clean_dims(value: object, d_model: int) -> list[int]:
    """The dimensions in `value` that exist for `d_model` (session state may hold anything)."""
    if not isinstance(value, (list, tuple)):
        return []
    return [d for d in value if isinstance(d, int) and not isinstance(d, bool)
            and 0 <= d < d_model]


st.header(t("emb.curves_header"))
c1, c2 = st.columns(2)
# The widgets take their value from the session state only (a shared link sets it before
# the first run), so Streamlit never sees a default value and a state value for one widget.
# A typed d_model outside its range is put in it, an odd one made the next even one, in the
# box itself (and in the link), and said.
d_model = number_box(c1, t("emb.d_model_label"), "pe_d_model", *PE_D_MODEL_RANGE, step=2,
                     default=PE_D_MODEL_DEFAULT, even=True,
                     odd=lambda odd, even: t("emb.odd_d_model", odd=odd, d_model=even))
fit_state("pe_positions", *PE_POSITIONS_RANGE, default=100)  # forged: Streamlit would raise
positions = int(c2.slider(t("emb.positions_label"), *PE_POSITIONS_RANGE, step=10,
                          key="pe_positions"))
table = pe_table(positions, d_model)
default_dims = [d for d in PE_DIMS_DEFAULT if d < d_model] or [0, 1]
st.session_state.setdefault("pe_dims", default_dims)
kept = _clean_dims(st.session_state["pe_dims"], d_model)
if kept != st.session_state["pe_dims"]:  # d_model shrank below a chosen dimension
    st.session_state["pe_dims"] = kept or default_dims
dims = st.multiselect(t("emb.dims_label"), list(range(d_model)), **keep("pe_dims"),
                      max_selections=12)
dims = _clean_dims(dims, d_model) or default_dims
ctx.chart(pe_curves(table, dims, t("emb.curves_title", d_model=d_model), lang=lang),
          "positional_encoding_curves", key="pe_curves", text=False)
chart_as_text(pe_curves_text(table, dims, lang=lang), t("a11y.curves_as_text"))
st.caption(t("emb.curves_caption"))
with st.expander(t("emb.steps_expander", d_model=d_model)):  # a walk-through's printout
    steps, _ = ctx.fixed(("embeddings", "steps", d_model), lambda: pe_steps(d_model))
    st.markdown(t("emb.steps_text", max_len=steps.max_len, half=steps.half, d_model=d_model))
    st.dataframe(steps.corners, hide_index=True, width="stretch")
    st.caption(t("emb.steps_caption", first=f"{steps.printed_last:.5f}",
                 last=f"{steps.last:.5f}", row=f"{steps.max_len - 1:,}"))

t1, t2 = st.columns(2)
with t1:
    st.subheader(t("emb.table_header"))
    ctx.chart(pe_table_heatmap(table, lang=lang), "positional_encoding_table", key="pe_table")
    st.caption(t("emb.table_caption"))
with t2:
    st.subheader(t("emb.sim_header"))
    ctx.chart(pe_similarity(table, lang=lang), "positional_encoding_similarity", key="pe_sim")
    st.caption(t("emb.sim_caption"))

st.header(t("emb.shift_header"))
st.markdown(t("emb.shift_text"))
shift = BY_KEY["pe_k"]
if not shift.valid(st.session_state.get(shift.key), MODEL_FREE):  # unset, or forged
    st.session_state[shift.key] = shift.default
low, high = shift.limits
k = int(st.slider(t("emb.k_label"), low, high, **keep(shift.key)))
m = shift_matrix(d_model, k)
err = shift_error(pe_table(positions + 50, d_model), m, k, positions)  # one table for every k
l1, l2 = st.columns([3, 2])
ctx.chart(shift_matrix_figure(m, k, lang=lang), f"positional_encoding_shift_k{k}",
          key="pe_shift", where=l1)
l2.metric(t("emb.shift_metric"), f"{err:.1e}")
l2.caption(t("emb.shift_caption"))

st.header(t("emb.tokens_header"))
if show_problems(ctx):
    run = ctx.run()
    cfg = ctx.cfg  # the model that runs: the sidebar's, or an imported checkpoint's
    tokens = list(ctx.tokens.src_tokens)
    inp = encoder_input(run.cache, cfg.d_model, cfg.scale_embedding)
    scale = "× √d_model" if cfg.scale_embedding else t("emb.not_scaled")
    lookup = (t("emb.lookup_scaled", d_model=cfg.d_model, sqrt=f"{np.sqrt(cfg.d_model):.2f}")
              if cfg.scale_embedding else t("emb.lookup_unscaled"))
    st.markdown(t("emb.tokens_text", lookup=lookup, d_model=cfg.d_model,
                  dropout=t("emb.dropout_train") if run.train_mode else t("emb.dropout_eval")))
    embedding_title = t("emb.embedding_scaled", scale=scale)
    e1, e2, e3 = st.columns(3)
    ctx.chart(token_vectors(inp.embedding, tokens, embedding_title, inp.limit, lang=lang),
              "embedding_tokens", key="pe_emb", where=e1)
    ctx.chart(token_vectors(inp.pe, tokens, t("emb.positional_encoding"), inp.limit, lang=lang),
              "embedding_positions", key="pe_pe", where=e2)
    ctx.chart(token_vectors(inp.total, tokens, t("emb.sum_title"), inp.limit, lang=lang),
              "embedding_sum", key="pe_sum", where=e3)
    ctx.chart(
        magnitude_bars([t("emb.embedding_raw"), embedding_title, t("emb.positional_encoding")],
                       inp.magnitudes(), lang=lang),
        "embedding_magnitudes", key="pe_mag",
    )
    bound = embedding_range(ctx.model())  # the live (vocab, d_model) table
    xavier = xavier_bound(cfg.d_model, cfg.src_vocab)  # the bound it was initialised within
    st.caption(t("emb.why_scale", bound=f"{bound:.2f}", xavier=f"{xavier:.2f}",
                 vocab=cfg.src_vocab, d_model=cfg.d_model))
    times, divided, pe = divided_scale(inp.raw, inp.pe, cfg.d_model)  # a common mistake
    st.markdown(t("emb.mistake_divide", times=f"{times:.3f}", divided=f"{divided:.4f}",
                  pe=f"{pe:.3f}", d_model=cfg.d_model, ratio=f"{pe / divided:.0f}"))
