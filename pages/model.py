"""Model: the architecture drawn from the live settings, its modules, parameters and code."""

import streamlit as st

from explorer.app.page import end_page, show_problems
from explorer.app.sidebar import source_name
from explorer.core import introspect, shape_table
from explorer.figures.model import architecture_figure, parameter_chart, share
from explorer.sections.frame import context
from explorer.sections.parameters import show_alternative_layout, show_every_parameter
from explorer.sections.preview import show_date_preview
from explorer.sections.sized import show_sized_model
from explorer.text.i18n import get_lang, t
from transformer.hook_paths import sublayer_hook

st.title(t("model.title"))
ctx = context()
lang = get_lang()  # the figures' language, handed to them
st.markdown(t("model.intro", model=source_name(ctx.source)))
show_date_preview(ctx)  # trained attention first, while the sidebar's model is untrained
if ctx.cfg is None:  # invalid architecture: nothing to draw
    show_problems(ctx)
    end_page()
text_ok = show_problems(ctx)
cfg = ctx.cfg
pre = cfg.norm_placement == "pre"
src_len = len(ctx.tokens.src_tokens) if ctx.tokens is not None else 0
tgt_len = len(ctx.tokens.tgt_in_tokens) if ctx.tokens is not None else 0

# ---- 1. The architecture ----------------------------------------------------------------
st.header(t("model.arch_header") if ctx.loaded is None else t("model.arch_header_loaded"))
# Side by side where the page is wide enough, else (a phone) the encoder above the decoder:
# the browser shows the one that fits (explorer.app.charts.show_chart's `narrow`).
ctx.chart(architecture_figure(cfg, src_len, tgt_len, lang=lang, show_vocab=text_ok),
          "model_architecture", key="model_architecture", theme=None,
          narrow=architecture_figure(cfg, src_len, tgt_len, lang=lang, show_vocab=text_ok,
                                     stacked=True))
lengths = (t("model.lengths_known", src_len=src_len, tgt_len=tgt_len) if text_ok
           else t("model.lengths_unknown"))
st.caption(t("model.arch_caption", lengths=lengths,
             norm_text=t("model.norm_pre") if pre else t("model.norm_post")))

if not ctx.ok:
    st.info(t("model.need_text"), icon=":material/info:")
    end_page()

model = ctx.model()  # shared and cached: only read from it below

with st.expander(t("model.ln_expander")):  # The Annotated Transformer's LayerNorm or nn.LayerNorm
    first = ctx.run().cache[sublayer_hook("encoder", 0, 0, "hook_in")][0, 0]  # (d_model,)
    ln = introspect.layer_norm_comparison(first)
    st.markdown(t("model.ln_text", d=ln.d_model, mean=f"{ln.mean:.3f}",
                  su=f"{ln.std_unbiased:.4f}", sb=f"{ln.std_biased:.4f}",
                  ratio=f"{ln.ratio:.4f}", pct=f"{(1 / ln.ratio - 1) * 100:.1f}%",
                  diff=f"{ln.max_diff:.4f}",
                  current=t(f"model.ln_{cfg.layer_norm}")))

# ---- 2. The module tree -------------------------------------------------------------------
st.header(t("model.tree_header"))
tree = introspect.module_tree(model)
st.markdown(t("model.tree_intro", N=cfg.N))
with st.expander(t("model.tree_expander", lines=tree.count(chr(10)) + 1), expanded=True):
    st.code(tree, language="text", height=420)
    st.caption(t("model.tree_caption"))

# ---- 3. Parameters ------------------------------------------------------------------------
st.header(t("model.params_header"))
groups = introspect.parameter_groups(model)  # keyed by identifiers; group_label() to display
params = introspect.summarize_parameters(groups)
total = params.total
# The vocabulary of the model that runs: the learner's sentences (one table for source and
# target), or an imported checkpoint's, whose two vocabularies may differ in size.
vocab = (str(cfg.tgt_vocab) if cfg.src_vocab == cfg.tgt_vocab
         else f"{cfg.src_vocab} / {cfg.tgt_vocab}")
vocab_text = (t("model.vocab_checkpoint", src=cfg.src_vocab, tgt=cfg.tgt_vocab)
              if ctx.loaded is not None else t("model.vocab_sentences", vocab=cfg.tgt_vocab))

m1, m2, m3, m4 = st.columns(4)
m1.metric(t("model.metric_total"), f"{total:,}", help=t("model.metric_total_help"))
m2.metric(t("model.metric_enc"), f"{params.encoder:,}")
m3.metric(t("model.metric_dec"), f"{params.decoder:,}")
m4.metric(t("model.metric_embed", vocab=vocab), f"{params.embeddings:,}")

col_component, col_parameters = t("model.col_component"), t("model.col_parameters")
c1, c2 = st.columns([2, 3])
c1.dataframe(
    {
        col_component: [introspect.group_label(g) for g in groups],
        col_parameters: list(groups.values()),
        t("model.col_share"): [share(n, total) for n in groups.values()],
    },
    hide_index=True, width="stretch",
    column_config={col_parameters: st.column_config.NumberColumn(format="localized")},
)
ctx.chart(parameter_chart(groups, lang=lang), "model_parameters", key="model_params", where=c2,
           theme=None)

ties = introspect.tied_names(model)
if ties:
    pairs = t("model.tie_sep").join(t("model.tie_pair", a=a, b=b) for a, b in ties)
    st.info(t("model.ties", pairs=pairs, tie=repr(cfg.tie_weights)), icon=":material/link:")

note = introspect.paper_comparison(params, cfg, vocab_text, share(params.stacks, total))
st.markdown(note)

show_every_parameter(model, col_component)
show_sized_model()  # a walk-through's 500 -> 1000 token model, d_v: shapes of any sizes
show_alternative_layout(ctx, model, cfg)  # a walk-through's layout beside this one


# ---- 4. Read the code ---------------------------------------------------------------------
st.header(t("model.code_header"))
st.markdown(t("model.code_intro"))
component = st.selectbox(
    t("model.component_label"), list(introspect.COMPONENTS), key="model_component",
    format_func=lambda name: f"{name}: {introspect.component_summary(name, cfg)}",
)
if component not in introspect.COMPONENTS:  # a tampered client
    component = "EncoderDecoder"
left, right = st.columns([5, 4])
left.code(introspect.component_source(component), language="python")

with right:
    st.subheader(t("model.live_shapes"))
    if component in ("Encoder", "Decoder"):  # a walk-through's claim, computed
        check = introspect.module_list_check(getattr(ctx.model(), component.lower()))
        st.caption(t("model.module_list", truth=check.is_module, n=cfg.N,
                     registered=f"{check.registered:,}", in_a_list=f"{check.in_a_list:,}"))
    if component == "make_model":
        st.caption(t("model.make_model_caption"))
        arguments = introspect.make_model_arguments(cfg)
        st.dataframe({t("model.col_argument"): list(arguments),
                      t("model.col_value"): list(arguments.values())},
                     hide_index=True, width="stretch")
    else:
        run = ctx.run()
        rows = shape_table.shape_rows(run.cache, cfg)
        table = shape_table.component_shapes(component, rows, pre, run.tgt_mask.shape[-1])
        tensors, dims, ops = (list(column) for column in zip(*table, strict=True))
        st.caption(t("model.shapes_caption", src_len=src_len, tgt_len=tgt_len,
                     d_model=cfg.d_model, h=cfg.h, d_k=cfg.d_k, d_ff=cfg.d_ff))
        col_tensor, col_dims, col_op = (t("model.col_tensor"), t("model.col_dims"),
                                        t("model.col_operation"))
        text_column = st.column_config.TextColumn
        st.dataframe({col_tensor: tensors, col_dims: dims, col_op: ops}, hide_index=True,
                     width="stretch", key="model_shapes",
                     height=min(38 + 35 * len(tensors), 640),
                     column_config={col_tensor: text_column(width="medium", pinned=True),
                                    col_dims: text_column(width="medium"),
                                    col_op: text_column(width="large")})
