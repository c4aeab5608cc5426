"""Model: the architecture drawn from the live settings, its modules, parameters and code."""

import streamlit as st

from explorer.context import context, show_problems
from explorer.figures.architecture import architecture_figure, parameter_chart, share
from explorer.i18n import t
from explorer.introspect import (
    COMPONENTS,
    ShapeRow,
    component_source,
    component_summary,
    group_label,
    module_tree,
    parameter_groups,
    parameter_rows,
    shape_rows,
    tied_names,
)

PAPER_VOCAB = 37_000  # the paper's shared English-German BPE vocabulary (section 5.1)
PAPER_PARAMS = "65M"  # base model, Table 3

st.title(t("model.title"))
st.markdown(t("model.intro"))

ctx = context()
if ctx.cfg is None:  # invalid architecture: nothing to draw
    show_problems(ctx)
    st.stop()
text_ok = show_problems(ctx)
cfg = ctx.cfg
pre = cfg.norm_placement == "pre"
src_len = len(ctx.tokens.src_tokens) if ctx.tokens is not None else 0
tgt_len = len(ctx.tokens.tgt_in_tokens) if ctx.tokens is not None else 0

# ---- 1. The architecture ----------------------------------------------------------------
st.header(t("model.arch_header"))
ctx.chart(architecture_figure(cfg, src_len, tgt_len, show_vocab=text_ok), "model_architecture",
           key="model_architecture", theme=None)
lengths = (t("model.lengths_known", src_len=src_len, tgt_len=tgt_len) if text_ok
           else t("model.lengths_unknown"))
st.caption(t("model.arch_caption", lengths=lengths,
             norm_text=t("model.norm_pre") if pre else t("model.norm_post")))

if not ctx.ok:
    st.info(t("model.need_text"), icon=":material/info:")
    st.stop()

model = ctx.model()  # shared and cached: only read from it below

# ---- 2. The module tree -------------------------------------------------------------------
st.header(t("model.tree_header"))
tree = module_tree(model)
st.markdown(t("model.tree_intro", N=cfg.N))
with st.expander(t("model.tree_expander", lines=tree.count(chr(10)) + 1), expanded=True):
    st.code(tree, language="text", height=420)
    st.caption(t("model.tree_caption"))

# ---- 3. Parameters ------------------------------------------------------------------------
st.header(t("model.params_header"))
groups = parameter_groups(model)  # keyed by group identifiers; group_label() for display
total = sum(groups.values())
embedding_groups = ("Source embedding", "Target embedding", "Generator (output layer)")
stacks = sum(n for g, n in groups.items() if g not in embedding_groups)
enc = sum(n for g, n in groups.items() if g.startswith("Encoder"))
dec = stacks - enc
# The vocabulary of the model that runs: the learner's sentences (one table for source and
# target), or an imported checkpoint's, whose two vocabularies may differ in size.
vocab = (str(cfg.tgt_vocab) if cfg.src_vocab == cfg.tgt_vocab
         else f"{cfg.src_vocab} / {cfg.tgt_vocab}")
vocab_text = (t("model.vocab_checkpoint", src=cfg.src_vocab, tgt=cfg.tgt_vocab)
              if ctx.imported is not None else t("model.vocab_sentences", vocab=cfg.tgt_vocab))

m1, m2, m3, m4 = st.columns(4)
m1.metric(t("model.metric_total"), f"{total:,}", help=t("model.metric_total_help"))
m2.metric(t("model.metric_enc"), f"{enc:,}")
m3.metric(t("model.metric_dec"), f"{dec:,}")
m4.metric(t("model.metric_embed", vocab=vocab), f"{total - stacks:,}")

col_component, col_parameters = t("model.col_component"), t("model.col_parameters")
c1, c2 = st.columns([2, 3])
c1.dataframe(
    {
        col_component: [group_label(g) for g in groups],
        col_parameters: list(groups.values()),
        t("model.col_share"): [share(n, total) for n in groups.values()],
    },
    hide_index=True, width="stretch",
    column_config={col_parameters: st.column_config.NumberColumn(format="localized")},
)
ctx.chart(parameter_chart(groups), "model_parameters", key="model_params", where=c2,
           theme=None)

ties = tied_names(model)
if ties:
    pairs = t("model.tie_sep").join(t("model.tie_pair", a=a, b=b) for a, b in ties)
    st.info(t("model.ties", pairs=pairs, tie=repr(cfg.tie_weights)), icon=":material/link:")

paper_total = stacks + PAPER_VOCAB * cfg.d_model + PAPER_VOCAB  # one shared table + bias
note = t("model.paper_note", stacks=f"{stacks:,}", share=share(stacks, total),
         vocab_text=vocab_text,
         paper_vocab=f"{PAPER_VOCAB:,}", paper_total=f"{paper_total / 1e6:.1f}")
if (cfg.N, cfg.d_model, cfg.d_ff, cfg.h) == (6, 512, 2048, 8):
    note += t("model.paper_base_note", stacks=f"{stacks / 1e6:.1f}",
              paper_vocab=f"{PAPER_VOCAB:,}", d_model=cfg.d_model,
              table=f"{PAPER_VOCAB * cfg.d_model / 1e6:.1f}",
              paper_total=f"{paper_total / 1e6:.1f}", paper_params=PAPER_PARAMS)
st.markdown(note)

with st.expander(t("model.every_param")):
    rows = parameter_rows(model)
    col_count = t("model.col_count")
    st.dataframe(
        {
            t("model.col_name"): [r.name for r in rows],
            t("model.col_shape"): [" × ".join(str(s) for s in r.shape) for r in rows],
            col_count: [r.count for r in rows],
            col_component: [group_label(r.group) for r in rows],
        },
        hide_index=True, width="stretch", height=360,
        column_config={col_count: st.column_config.NumberColumn(format="localized")},
    )
    st.caption(t("model.every_param_caption", n=len(rows)))


# ---- 4. Read the code ---------------------------------------------------------------------
def relevant_rows(component: str, rows: list[ShapeRow]) -> list[ShapeRow]:
    """The captured tensors that show what `component` does (layer 0 where it repeats)."""
    enc_out = "sublayer.1." + ("hook_resid" if pre else "hook_normed")
    dec_out = "sublayer.2." + ("hook_resid" if pre else "hook_normed")
    attn_inner = ("hook_q", "hook_k", "hook_v", "hook_scores", "hook_masked_scores",
                  "hook_pattern", "hook_z")
    norm_in = "hook_in" if pre else "hook_resid"

    def keep(n: str) -> bool:
        hook = n.rsplit(".", 1)[-1]
        if component == "Embeddings":
            return n in ("src_embed.0.hook_out", "tgt_embed.0.hook_out")
        if component == "PositionalEncoding":
            return n.startswith(("src_embed.1.", "tgt_embed.1."))
        if component == "attention":
            return (n.startswith(("encoder.layers.0.self_attn.", "decoder.layers.0.src_attn."))
                    and hook in attn_inner)
        if component == "MultiHeadedAttention":
            return n.startswith(("encoder.layers.0.self_attn.", "decoder.layers.0.self_attn.",
                                 "decoder.layers.0.src_attn."))
        if component == "PositionwiseFeedForward":
            return n.startswith(("encoder.layers.0.feed_forward.",
                                 "decoder.layers.0.feed_forward."))
        if component == "LayerNorm":
            return ((n.startswith("encoder.layers.0.sublayer.") and hook in (norm_in,
                                                                             "hook_normed"))
                    or (pre and n in ("encoder.hook_out", "decoder.hook_out")))
        if component == "SublayerConnection":
            return n.startswith("encoder.layers.0.sublayer.")
        if component in ("EncoderLayer", "DecoderLayer"):
            prefix = "encoder.layers.0." if component == "EncoderLayer" else "decoder.layers.0."
            return n.startswith(prefix) and (".sublayer." in n or hook == "hook_out"
                                             or n.endswith("src_attn.hook_k"))
        if component == "Encoder":
            return (n == "encoder.layers.0.sublayer.0.hook_in" or n == "encoder.hook_out"
                    or (n.startswith("encoder.layers.") and n.endswith(enc_out)))
        if component == "Decoder":
            return (n == "decoder.layers.0.sublayer.0.hook_in" or n == "decoder.hook_out"
                    or (n.startswith("decoder.layers.") and n.endswith(dec_out)))
        if component == "Generator":
            return n.startswith("generator.")
        if component == "EncoderDecoder":
            return n in ("src_embed.1.hook_out", "encoder.hook_out", "tgt_embed.1.hook_out",
                         "decoder.hook_out", "generator.hook_log_probs")
        if component == "subsequent_mask":
            return n.startswith("decoder.layers.0.self_attn.") and hook in (
                "hook_scores", "hook_masked_scores", "hook_pattern")
        return False

    return [r for r in rows if keep(r.name)]


st.header(t("model.code_header"))
st.markdown(t("model.code_intro"))
component = st.selectbox(
    t("model.component_label"), list(COMPONENTS), key="model_component",
    format_func=lambda name: f"{name}: {component_summary(name)}",
)
if component not in COMPONENTS:  # a tampered client
    component = "EncoderDecoder"
left, right = st.columns([5, 4])
left.code(component_source(component), language="python")

with right:
    st.subheader(t("model.live_shapes"))
    if component == "make_model":
        st.caption(t("model.make_model_caption"))
        fields = ("src_vocab", "tgt_vocab", "N", "d_model", "d_ff", "h", "dropout",
                  "norm_placement", "layer_norm", "scale_embedding", "tie_weights")
        st.dataframe({t("model.col_argument"): list(fields),
                      t("model.col_value"): [str(getattr(cfg, f)) for f in fields]},
                     hide_index=True, width="stretch")
    else:
        run = ctx.run()
        shown = relevant_rows(component, shape_rows(run.cache, cfg))
        # the hook first: it is what tells the rows apart in a narrow column
        tensors = [" · ".join(reversed(r.name.rsplit(".", 1))) for r in shown]
        dims = [r.dims for r in shown]
        ops = [r.op for r in shown]
        if component == "subsequent_mask":
            n = run.tgt_mask.shape[-1]
            tensors.insert(0, "tgt_mask")
            dims.insert(0, f"(batch=1, tgt_len={n}, tgt_len={n})")
            ops.insert(0, f"subsequent_mask({n}): tril(ones(1, {n}, {n}))")
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
