"""The Train page's section on training's arithmetic: the Noam schedule, the loss per token
(NLLLoss, CrossEntropyLoss and their pitfalls) and label smoothing, each in an expander
built only while open."""

from __future__ import annotations

import math

import streamlit as st

from transformer.hook_paths import generator_hook

from ..app.context import Context
from ..app.numbers import number_box
from ..app.train_state import set_default
from ..core.settings import Settings
from ..figures.train import (
    AT_CONFIDENCE,
    AT_SMOOTHING,
    CE_EXAMPLE,
    annotated_smoothing_example,
    confidence_figure,
    confidence_losses,
    cross_entropy_example,
    nll_example,
    noam_figure,
    smoothing_example,
    smoothing_figure,
)
from ..text.i18n import fixed, get_lang, t

# The Noam schedule chart's own numbers (section 6): their boxes' ranges.
NOAM_D_MODEL, NOAM_WARMUP, NOAM_FACTOR = (2, 1024), (1, 20000), (0.1, 5.0)


def schedule_section(ctx: Context, s: Settings) -> None:
    """Section 6: the Noam schedule, the loss and label smoothing, each with its own small
    controls."""
    st.header(t("train.schedule_header"))
    # Lazy expanders: their charts (~60 KB) are built and sent only while open, not on every
    # run of this page (thirty learners' pages after one shared training,
    # bench/class_train.py).
    noam = st.expander(t("train.noam_expander"), key="tr_noam_open", on_change="rerun")
    if noam.open:
        with noam:
            _noam(ctx, s)
    loss = st.expander(t("train.loss_expander"), key="tr_loss_open", on_change="rerun")
    if loss.open:
        with loss:
            _loss(ctx)
    smoothing = st.expander(t("train.smoothing_expander"), key="tr_smoothing_open",
                            on_change="rerun")
    if smoothing.open:
        with smoothing:
            _smoothing(ctx)


def _noam(ctx: Context, s: Settings) -> None:
    """The Noam schedule's chart, with its own d_model, warm-up and factor."""
    st.markdown(t("train.noam_text"))
    n1, n2, n3 = st.columns(3)
    # each number is put in its range in Python, whatever was typed (explorer/app/numbers.py)
    nd = number_box(n1, "d_model", "tr_noam_d", *NOAM_D_MODEL, step=2, kept=False,
                    default=int(min(max(s.d_model, NOAM_D_MODEL[0]), NOAM_D_MODEL[1])))
    nw = number_box(n2, "warmup", "tr_noam_warmup", *NOAM_WARMUP, step=100, kept=False,
                    default=4000)
    nf = number_box(n3, "factor", "tr_noam_factor", *NOAM_FACTOR, step=0.1, kept=False,
                    default=1.0)
    ctx.chart(noam_figure(nd, nf, nw, lang=get_lang()), "noam_schedule", key="tr_noam")


def _loss(ctx: Context) -> None:
    """The loss per token: nn.NLLLoss is -x[y] (a walk-through drops the minus), on the
    sidebar model's log-probabilities for the learner's sentence; then CrossEntropyLoss and
    NLLLoss on a walk-through's logits 0..4, the same number."""
    st.markdown(t("train.nll_text"))
    labels = list(ctx.tokens.tgt_in_ids[1:]) if ctx.ok else []
    if labels:
        run = ctx.run()
        ex = nll_example(run.cache[generator_hook("hook_log_probs")][0], labels)
        st.markdown(t("train.nll_live", y=ex.label,
                      x_y=f"{ex.x_y:.4f}", p=f"{math.exp(ex.x_y):.4f}", loss=f"{ex.loss:.4f}",
                      m=ex.labels, mean_x_y=f"{ex.mean_x_y:.4f}",
                      mean_loss=f"{ex.mean_loss:.4f}", ours=f"{ex.smoothing_zero:.4f}"))
    else:
        st.caption(t("train.nll_no_sentence"))
    ce = cross_entropy_example()
    st.markdown(t("train.ce_example", logits=list(map(int, CE_EXAMPLE["logits"])),
                  label=CE_EXAMPLE["label"], ce=f"{ce['ce']:.4f}", nll=f"{ce['nll']:.4f}",
                  by_hand=f"{ce['by_hand']:.4f}", x_y=f"{ce['x_y']:.4f}",
                  ce_log=f"{ce['ce_log']:.4f}", grad_gap=f"{ce['grad_gap']:.1g}",
                  ce_probs=f"{ce['ce_probs']:.4f}", ce_probs_floor=f"{ce['ce_probs_floor']:.4f}",
                  nll_logits=f"{ce['nll_logits']:.4f}"))


def _smoothing(ctx: Context) -> None:
    """Label smoothing on a small example, then The Annotated Transformer's two."""
    st.markdown(t("train.smoothing_text"))
    set_default("tr_eps_demo", 0.1)
    eps = st.slider("ε", 0.0, 0.9, step=0.05, key="tr_eps_demo")
    try:
        eps = min(max(float(eps), 0.0), 0.9)
    except (TypeError, ValueError):
        eps = 0.1
    lang = get_lang()
    dist, rows, cols = smoothing_example(eps, size=7, lang=lang)
    ctx.chart(smoothing_figure(dist, rows, cols, eps, lang=lang), "label_smoothing",
              key="tr_smooth")
    st.caption(t("train.smoothing_caption", n=len(cols),
                 share=f"{eps / (len(cols) - 2):.3f}"))
    _annotated_smoothing(ctx)


def _annotated_smoothing(ctx: Context) -> None:
    """The Annotated Transformer's two label-smoothing examples, computed by this app."""
    st.markdown(t("train.at_smoothing_text"))
    lang = get_lang()
    dist, rows, cols = annotated_smoothing_example(lang=lang)
    ex = AT_SMOOTHING
    ctx.chart(smoothing_figure(dist, rows, cols, ex["smoothing"], lang=lang),
              "label_smoothing_annotated", key="tr_smooth_at")
    label, other = dist[0, ex["targets"][0]], dist[0, 1]
    st.caption(t("train.at_smoothing_caption", label=f"{label:.1f}", other=f"{other:.3f}",
                 eps=ex["smoothing"], k=ex["size"] - 2))
    xs, losses = confidence_losses()
    ctx.chart(confidence_figure(xs, losses, lang=lang), "label_smoothing_confidence",
              key="tr_confidence")
    best = min(range(len(xs)), key=losses.__getitem__)
    st.caption(t("train.confidence_caption", x=xs[best], p=f"{xs[best] / (xs[best] + 3):.3f}",
                 eps=AT_CONFIDENCE["smoothing"], last=fixed(losses[-1]), top=xs[-1],
                 low=fixed(losses[best])))
