"""The Model page's "at sizes of your own": a walk-through's model of 500 source and 1000
target tokens (or any sizes typed), its parameters' and tensors' shapes (explorer/core/sized.py)."""

from __future__ import annotations

import streamlit as st

from ..app.numbers import number_box
from ..core.sized import CONFIG_SIZES, LIMITS, WALK_SIZES, WEIGHT_KINDS, sized_config, sized_model
from ..state.view import SIZED_KEY
from ..text.i18n import learner_message, t


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(f"{n:,}" for n in shape) + ")"


def show_sized_model() -> None:
    """Number boxes for the sizes, then the shapes of the model they build, in an expander."""
    with st.expander(t("sized.expander")):
        st.markdown(t("sized.intro"))
        names, sizes = list(WALK_SIZES), {}
        for row in range(0, len(names), 3):  # a row of three: on a phone, one under another
            for where, name in zip(st.columns(3), names[row:row + 3], strict=False):
                low, high = LIMITS[name]
                sizes[name] = number_box(where, t(f"sized.{name}"), SIZED_KEY + name, low,
                                         high, step=1, default=WALK_SIZES[name])
        try:
            cfg = sized_config(**{name: int(sizes[name]) for name in CONFIG_SIZES})
        except ValueError as exc:  # a ConfigError: its reason in the learner's language
            st.warning(learner_message(exc), icon=":material/rule:")
            return
        sized = sized_model(cfg, int(sizes["batch"]), int(sizes["length"]))
        col_what, col_name, col_shape = (t("sized.col_what"), t("model.col_name"),
                                         t("model.col_shape"))
        st.dataframe({col_what: [t(f"sized.w.{kind}") for kind in WEIGHT_KINDS],
                      col_name: [name for name, _ in sized.weights],
                      col_shape: [_shape(shape) for _, shape in sized.weights]},
                     hide_index=True, width="stretch")
        st.dataframe({t("sized.col_step"): [t(f"sized.step.{point}")
                                            for point, _ in sized.attention],
                      col_shape: [_shape(shape) for _, shape in sized.attention]},
                     hide_index=True, width="stretch")
        st.markdown(t("sized.result", logits=_shape(sized.logits),
                      params=f"{sized.parameters:,}", d_k=cfg.d_k, d_v=cfg.value_dim, h=cfg.h,
                      hd_v=cfg.h * cfg.value_dim, d_model=cfg.d_model,
                      tgt_vocab=f"{cfg.tgt_vocab:,}"))
