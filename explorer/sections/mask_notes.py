"""Two notes of the Masks page on walk-throughs' examples and claims, computed: a
self-attention of 4 tokens without and with every key blocked, and whether a -1e9 fill
lets "a little" of the future through (it does not in float32)."""

from __future__ import annotations

import numpy as np
import streamlit as st
import torch

from ..app.context import Context
from ..figures.masks import (
    FillCheck,
    fill_table,
    fill_text,
    minus_inf_weights,
    self_attention_example,
    underflow_below,
)
from ..text.i18n import t


def show_seed_example(ctx: Context) -> None:
    """A walk-through's example: q = k = v = embedding + PE of 4 tokens, without and with
    every key blocked, side by side (the weights are shared by every session)."""
    (p_none, s_none), _ = ctx.fixed(("masks", "example", False),  # (4, 4) each
                                    lambda: self_attention_example(blocked=False))
    (p_all, _), _ = ctx.fixed(("masks", "example", True),
                              lambda: self_attention_example(blocked=True))
    st.markdown(t("mask.seed_example"))
    a1, a2 = st.columns(2)
    for where, p, title in ((a1, p_none, "mask.no_mask"), (a2, p_all, "mask.all_blocked")):
        where.markdown(f"**{t(title)}**")
        where.dataframe({t("mask.key_col", j=j): p[:, j].round(4) for j in range(4)},
                        width="stretch")
    off = ~np.eye(4, dtype=bool)
    a1.caption(t("mask.none_caption", own=f"{np.diag(s_none).mean():,.0f}",
                 other=f"{np.abs(s_none[off]).mean():,.0f}",
                 diag=f"{np.diag(p_none).min():.4f}"))
    a2.caption(t("mask.all_caption", weight=f"{p_all.mean():.2f}"))
    a2.caption(t("mask.inf_caption", row=" ".join(map(str, minus_inf_weights(s_none)[0]))))


def show_fill_leak(checks: list[FillCheck], lang: str) -> None:
    """On the learner's scores (`fill_checks`): in float32 every blocked weight is exactly 0
    with -1e9; the fills and formats where a blocked weight would not be."""
    if not checks[0].blocked:
        return
    st.subheader(t("mask.leak_header"))
    f16 = torch.finfo(torch.float16)
    largest = t("mask.col_largest")
    st.markdown(t("mask.leak_text", zeros=checks[0].exact_zeros, blocked=checks[0].blocked,
                  cut32=f"{underflow_below(torch.float32):.1f}".replace("-", "−"),
                  tiny=f"{float(torch.finfo(torch.float32).smallest_normal) * 2.0 ** -23:.1e}",
                  small=fill_text(checks[1].fill),
                  small_leak=fill_table(checks[1:2], lang=lang)[largest][0],
                  f16max=f"{float(f16.max):,.0f}", f16min=fill_text(float(f16.min)),
                  cut16=f"{underflow_below(torch.float16):.1f}".replace("-", "−"),
                  small16_leak=fill_table(checks[4:], lang=lang)[largest][0]))
    st.dataframe(fill_table(checks, lang=lang), hide_index=True, width="stretch")
