"""The Model page's parameter expanders: every parameter tensor of the model that runs, and a
walk-through's layout of the same model beside this one (bias-free Q/K/V, its LayerNorm)."""

from __future__ import annotations

import streamlit as st
from torch import nn

from transformer.config import TransformerConfig
from transformer.hook_paths import sublayer_hook

from ..app.context import Context
from ..core import introspect
from ..text.i18n import t


def show_every_parameter(model: nn.Module, col_component: str) -> None:
    """Every parameter tensor: name, shape, count and component (tied tensors once)."""
    with st.expander(t("model.every_param")):
        rows = introspect.parameter_rows(model)
        col_count = t("model.col_count")
        st.dataframe(
            {
                t("model.col_name"): [r.name for r in rows],
                t("model.col_shape"): [" × ".join(str(s) for s in r.shape) for r in rows],
                col_count: [r.count for r in rows],
                col_component: [introspect.group_label(r.group) for r in rows],
            },
            hide_index=True, width="stretch", height=360,
            column_config={col_count: st.column_config.NumberColumn(format="localized")},
        )
        st.caption(t("model.every_param_caption", n=len(rows)))


def show_alternative_layout(ctx: Context, model: nn.Module, cfg: TransformerConfig) -> None:
    """A walk-through's layout beside this one, on what encoder layer 0's attention reads."""
    with st.expander(t("model.alt_expander")):
        read = "hook_normed" if cfg.norm_placement == "pre" else "hook_in"
        alt = introspect.alternative_layout(
            model, cfg, ctx.run().cache[sublayer_hook("encoder", 0, 0, read)][0])
        st.markdown(t("model.alt_intro"))
        st.dataframe(introspect.alternative_table(alt, t(f"model.ln_{cfg.layer_norm}")),
                     hide_index=True, width="stretch")
        st.code(alt.tree, language="text", height=320)
        st.markdown(t("model.alt_why", key=f"{alt.key_bias_effect:.1e}",
                      query=f"{alt.query_bias_effect:.3f}",
                      fewer=f"{alt.projection_biases + alt.generator_bias:,}"))
