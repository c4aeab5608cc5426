"""The Masks page's notes on walk-throughs' examples and claims, computed: a self-attention
of 4 tokens without and with every key blocked, whether a -1e9 fill lets "a little" of the
future through (it does not in float32), and the two conventions of a mask's True."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st
import torch

from transformer.model import subsequent_mask

from ..app.context import Context
from ..figures.common import heatmap
from ..figures.masks import (
    FillCheck,
    PaddedPair,
    fill_table,
    fill_text,
    head_axis_rows,
    head_axis_table,
    inverted_fill_weights,
    mask_figure,
    minus_inf_weights,
    self_attention_example,
    shape_text,
    underflow_below,
    walkthrough_head_axis,
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


def show_conventions(ctx: Context, scores: np.ndarray, sub: np.ndarray, tokens: list[str],
                     lang: str, of_scores: Callable[[tuple, Callable[[], Any]], tuple]) -> None:
    """The two mask conventions side by side (True = may attend, or True = blocked), and a
    walk-throughs' mistake: this app's mask with the other convention's fill, on the
    learner's scores (`of_scores` shares a figure of them as the page does)."""
    size = len(tokens)
    st.header(t("mask.conv_header"))
    st.markdown(t("mask.conv_text"))
    c1, c2 = st.columns(2)
    small = subsequent_mask(4)[0].numpy()
    for where, title, other, key in ((c1, "mask.conv_this_app", False, "mask_c1"),
                                     (c2, "mask.conv_other", True, "mask_c2")):
        fig, name = ctx.fixed(("masks", key, lang), lambda title=title, other=other:
                              mask_figure(small, list("abcd"), list("abcd"), t(title),
                                          lang=lang, blocked_is_one=other))
        ctx.chart(fig, "mask_convention_masked" if other else "mask_convention_may_attend",
                  key=key, where=where, share=name)
    st.caption(t("mask.conv_caption"))

    # A common mistake of walk-throughs (this app's mask with the other convention's fill), on
    # the learner's own scores from the section above.
    st.subheader(t("mask.mistake_header"))
    st.markdown(t("mask.mistake_text", section=t("mask.effect_header")))
    wrong = inverted_fill_weights(scores, sub)  # (T, T)
    fig, name = of_scores(("mask_mistake", lang), lambda: heatmap(
        wrong, tokens, tokens, t("mask.mistake_title"), lang=lang,
        x_title=t("fig.masks.key_axis"), y_title=t("fig.masks.query_axis"), zmin=0.0, zmax=1.0))
    ctx.chart(fig, "mask_mistake_inverted", key="mask_mistake", share=name)
    if size > 1:
        st.caption(t("mask.mistake_caption", first=f"{wrong[0, 1:].sum():.2f}", n=size,
                     last=f"{wrong[-1, 0]:.3f}", uniform=f"{1 / size:.3f}"))


def show_head_axis(ctx: Context, pair: PaddedPair, pair_of: tuple, lang: str) -> None:
    """A walk-through's mistake, mask.unsqueeze(0) where the head axis is 1, on the padding
    example's masks (`pair`, fixed by `pair_of`) and the model's h, and on its own shapes."""
    heads = ctx.cfg.h if ctx.cfg is not None else 8
    axes, _ = ctx.fixed(("masks", "axes", *pair_of, heads),
                        lambda: head_axis_rows(pair.batch, heads))
    st.markdown(t("mask.unsqueeze_text"))
    # The mask and what each unsqueeze makes of it first (a phone shows only the first columns).
    axis_table = head_axis_table(axes, lang=lang)
    key_columns = [t("mask.col_mask"), "unsqueeze(1)", "unsqueeze(0)"]
    st.dataframe(axis_table, hide_index=True, width="stretch",
                 column_order=[*key_columns, *(c for c in axis_table if c not in key_columns)])
    (seed_mask, seed_batch), _ = ctx.fixed(("masks", "walk-through axes"), walkthrough_head_axis)
    st.caption(t("mask.unsqueeze_caption", batch=pair.batch.src.size(0), h=heads,
                 verdict=t("mask.unsqueeze_fails" if axes[0].wrong_result is None
                           else "mask.unsqueeze_mixes"),
                 seed_mask=shape_text(seed_mask.mask, lang=lang),
                 seed_wrong=shape_text(seed_mask.wrong, lang=lang),
                 seed_result=shape_text(seed_mask.wrong_result, lang=lang),
                 batch_mask=shape_text(seed_batch.mask, lang=lang),
                 batch_wrong=shape_text(seed_batch.wrong, lang=lang),
                 scores=shape_text(seed_batch.scores, lang=lang),
                 batch_right=shape_text(seed_batch.right, lang=lang),
                 batch_result=shape_text(seed_batch.right_result, lang=lang)))
