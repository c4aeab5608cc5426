"""Model: the architecture drawn from the live settings, its modules, parameters and code."""

import streamlit as st

from explorer.figures.architecture import architecture_figure, parameter_chart, share
from explorer.introspect import (
    COMPONENTS,
    ShapeRow,
    component_source,
    module_tree,
    parameter_groups,
    parameter_rows,
    shape_rows,
    tied_names,
)
from explorer.ui import context, show_problems

PAPER_VOCAB = 37_000  # the paper's shared English-German BPE vocabulary (section 5.1)
PAPER_PARAMS = "65M"  # base model, Table 3

st.title("Model")
st.markdown(
    "The Transformer is an **encoder-decoder**. The encoder reads the whole source sentence "
    "at once and turns it into `memory`: one vector of width d_model per source token. The "
    "decoder then produces the target one token at a time, attending to the tokens it has "
    "produced so far (masked self-attention) and to `memory` (cross-attention); a final "
    "`generator` turns each of its vectors into log-probabilities for the next token. In the "
    "code that is one line, `EncoderDecoder.forward = decode(encode(src, src_mask), src_mask, "
    "tgt, tgt_mask)`, and everything on this page is read from the model built with the "
    "sidebar's settings."
)

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
st.header("The architecture, from your settings")
st.plotly_chart(architecture_figure(cfg, src_len, tgt_len, show_vocab=text_ok),
                width="stretch", theme=None,
                key="model_architecture", config={"displayModeBar": False})
lengths = (
    f"src_len = {src_len} source tokens and tgt_len = {tgt_len} decoder inputs (`<s>` + the "
    "target) come from your sentence"
    if text_ok else "the sentence lengths are shown as symbols until your text can be used"
)
norm_text = (
    "**Pre-norm** (The Annotated Transformer): each sublayer computes "
    "`x + dropout(sublayer(LayerNorm(x)))`, so the residual path skips the LayerNorm and "
    "each stack needs one final LayerNorm."
    if pre else
    "**Post-norm** (the paper's \"Add & Norm\"): each sublayer computes "
    "`LayerNorm(x + dropout(sublayer(x)))`, so every layer already ends normalised and the "
    "stacks have no final LayerNorm."
)
st.caption(
    f"Data flows upwards. Shapes are (batch, …) with batch = 1; {lengths}. Every ⊕ is a "
    f"residual addition: the arrow around each sublayer carries its input past it. "
    f"{norm_text} Purple: the mask each attention receives (True = may attend). Dropout is "
    "not drawn; it follows every sublayer and the embedding + positional encoding sum."
)

if not ctx.ok:
    st.info("The module tree, parameter counts and live shapes appear once the source and "
            "target text can be used.", icon="ℹ️")
    st.stop()

model = ctx.model()  # shared and cached: only read from it below

# ---- 2. The module tree -------------------------------------------------------------------
st.header("The module tree")
tree = module_tree(model)
st.markdown(
    f"What `print(model)` shows: {cfg.N} clones of `EncoderLayer` in `encoder.layers`, {cfg.N} "
    f"of `DecoderLayer` in `decoder.layers`, the two embedding `Sequential`s "
    "(`Embeddings` then `PositionalEncoding`) and the `Generator`."
)
with st.expander(f"print(model): {tree.count(chr(10)) + 1} lines", expanded=True):
    st.code(tree, language="text", height=420)
    st.caption("The hook points are hidden: they are identity modules (`HookPoint`) this app "
               "uses to capture the tensors shown on the other pages; they have no parameters "
               "and change nothing.")

# ---- 3. Parameters ------------------------------------------------------------------------
st.header("Parameters")
groups = parameter_groups(model)
total = sum(groups.values())
embedding_groups = ("Source embedding", "Target embedding", "Generator (output layer)")
stacks = sum(n for g, n in groups.items() if g not in embedding_groups)
enc = sum(n for g, n in groups.items() if g.startswith("Encoder"))
dec = stacks - enc
vocab = cfg.tgt_vocab

m1, m2, m3, m4 = st.columns(4)
m1.metric("Parameters (distinct tensors)", f"{total:,}",
          help="Every parameter tensor counted once, even when two modules share it.")
m2.metric("Encoder stack", f"{enc:,}")
m3.metric("Decoder stack", f"{dec:,}")
m4.metric(f"Embeddings + generator (vocab {vocab})", f"{total - stacks:,}")

c1, c2 = st.columns([2, 3])
c1.dataframe(
    {
        "component": list(groups),
        "parameters": list(groups.values()),
        "share": [share(n, total) for n in groups.values()],
    },
    hide_index=True, width="stretch",
    column_config={"parameters": st.column_config.NumberColumn(format="localized")},
)
c2.plotly_chart(parameter_chart(groups), width="stretch", theme=None, key="model_params",
                config={"displayModeBar": False})

ties = tied_names(model)
if ties:
    st.info(
        "Weight tying: " + "; ".join(f"`{b}` is the same tensor as `{a}`" for a, b in ties)
        + f" (tie_weights = {cfg.tie_weights!r}). Each shared table is counted once, under "
        "its first name.",
        icon="🔗",
    )

paper_total = stacks + PAPER_VOCAB * cfg.d_model + PAPER_VOCAB  # one shared table + bias
note = (
    f"The two stacks hold {stacks:,} parameters ({share(stacks, total)}). The embedding "
    f"tables and the generator grow with the vocabulary, which here is only the {vocab} "
    f"tokens of your sentences (4 special tokens included). With the paper's shared "
    f"vocabulary of about {PAPER_VOCAB:,} tokens and one table shared by both embeddings and "
    f"the output layer (section 3.4), this architecture would have about "
    f"{paper_total / 1e6:.1f}M parameters."
)
if (cfg.N, cfg.d_model, cfg.d_ff, cfg.h) == (6, 512, 2048, 8):
    note += (
        f" This is the paper's base model: its stacks alone are {stacks / 1e6:.1f}M, the "
        f"{PAPER_VOCAB:,} × {cfg.d_model} shared table adds "
        f"{PAPER_VOCAB * cfg.d_model / 1e6:.1f}M, and the {paper_total / 1e6:.1f}M total is "
        f"close to the {PAPER_PARAMS} the paper reports in Table 3."
    )
st.markdown(note)

with st.expander("Every parameter tensor"):
    rows = parameter_rows(model)
    st.dataframe(
        {
            "name": [r.name for r in rows],
            "shape": [" × ".join(str(s) for s in r.shape) for r in rows],
            "count": [r.count for r in rows],
            "component": [r.group for r in rows],
        },
        hide_index=True, width="stretch", height=360,
        column_config={"count": st.column_config.NumberColumn(format="localized")},
    )
    st.caption(f"{len(rows)} distinct tensors. `named_parameters()` lists a tied tensor only "
               "once, under the first name it was registered with.")


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


st.header("Read the code")
st.markdown("Pick a component of `transformer/model.py`: its source on the left, and on the "
            "right the tensors it produced when your sentence went through the model.")
component = st.selectbox(
    "Component", list(COMPONENTS), key="model_component",
    format_func=lambda name: f"{name}: {COMPONENTS.get(name, '')}",
)
if component not in COMPONENTS:  # a tampered client
    component = "EncoderDecoder"
left, right = st.columns([5, 4])
left.code(component_source(component), language="python")

with right:
    st.subheader("Live shapes")
    if component == "make_model":
        st.caption("`make_model` builds the modules; these are the values it was called with "
                   "(`TransformerConfig`).")
        fields = ("src_vocab", "tgt_vocab", "N", "d_model", "d_ff", "h", "dropout",
                  "norm_placement", "layer_norm", "scale_embedding", "tie_weights")
        st.dataframe({"argument": list(fields),
                      "value": [str(getattr(cfg, f)) for f in fields]},
                     hide_index=True, width="stretch")
    else:
        run = ctx.run()
        shown = relevant_rows(component, shape_rows(run.cache, cfg))
        table = {  # the hook first: it is what tells the rows apart in a narrow column
            "tensor": [" · ".join(reversed(r.name.rsplit(".", 1))) for r in shown],
            "dims": [r.dims for r in shown],
            "operation": [r.op for r in shown],
        }
        if component == "subsequent_mask":
            t = run.tgt_mask.shape[-1]
            table["tensor"].insert(0, "tgt_mask")
            table["dims"].insert(0, f"(batch=1, tgt_len={t}, tgt_len={t})")
            table["operation"].insert(0, f"subsequent_mask({t}): tril(ones(1, {t}, {t}))")
        st.caption(
            f"batch = 1, src_len = {src_len}, tgt_len = {tgt_len}, d_model = {cfg.d_model}, "
            f"h = {cfg.h}, d_k = {cfg.d_k}, d_ff = {cfg.d_ff}. Tensors are named hook · "
            "module path (their key in `run_with_cache`'s cache is `path.hook`). Where a "
            "component repeats in every layer, layer 0 is shown; the Shapes page lists every "
            "tensor."
        )
        text_column = st.column_config.TextColumn
        st.dataframe(table, hide_index=True, width="stretch", key="model_shapes",
                     height=min(38 + 35 * len(table["tensor"]), 640),
                     column_config={"tensor": text_column(width="medium", pinned=True),
                                    "dims": text_column(width="medium"),
                                    "operation": text_column(width="large")})
