"""The Train & decode page's attention film, drawn with streamlit: the attention of one probe
input at 20-40 moments of training (every layer and head), and how close each
cross-attention head came to the task's ideal pattern.

The film is recorded by the training run (`transformer/film.py`, `explorer/training/run.py`)
and kept in the learner's `TrainedState`; this module only draws it.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from transformer.film import Film

from ..app.charts import show_chart
from ..app.context import Context
from ..app.memo import remember
from ..app.shelves import TRAINED_RESULTS
from ..app.train_state import set_default
from ..core.kinds import KINDS
from ..figures.train import closeness_figure, film_figure
from ..state.view import keep
from ..text.i18n import get_lang, percent, sentences, t
from ..training.run import TrainedState, content_id

GETS_IT = 0.8  # a head "gets it" once this share of its weight is on the ideal positions


def film_weights(film: Film, kind: str, n_layers: int) -> np.ndarray:
    """Attention `kind` ("enc", "dec", "cross") over the film: (frames, N, h, q, k)."""
    return np.stack([film.weights(KINDS[kind].hook(layer, "hook_pattern"))
                     for layer in range(n_layers)], axis=1).astype(np.float32)


def film_closeness(film: Film, n_layers: int) -> np.ndarray:
    """Each cross-attention head's weight on the ideal source positions: (frames, N, h)."""
    return np.stack([film.closeness(KINDS["cross"].hook(layer, "hook_pattern"))
                     for layer in range(n_layers)], axis=1)


def even_baseline(film: Film) -> float:
    """The closeness of attention spread evenly over the probe's source."""
    rows = [len(keys) for keys in film.probe.ideal if keys]
    return float(np.mean(rows)) / len(film.probe.src) if rows else 0.0


def first_step_above(steps: list[int], values: np.ndarray, level: float) -> int | None:
    """The first recorded step at which `values` (one per step) reached `level`."""
    hits = np.flatnonzero(values >= level)
    return int(steps[hits[0]]) if hits.size else None


def film_section(ctx: Context, state: TrainedState | None) -> None:
    """Section: the attention film of the learner's last training run, if it has one."""
    st.header(t("train.film_header"))  # always: the sections keep their numbers
    if state is None or state.film is None or len(state.film.steps) < 2:
        st.caption(t("train.film_none"))
        return
    film, cfg, vocab = state.film, state.key.config, state.task.vocab
    st.markdown(t("train.film_intro"))
    st.code(" ".join(vocab.decode(film.probe.src)), language=None)  # the learner's words: data
    set_default("tr_film_kind", "cross")
    kind = st.radio(t("train.film_kind"), tuple(KINDS), **keep("tr_film_kind"), horizontal=True,
                    format_func=lambda k: KINDS[k].label)
    kind = kind if kind in KINDS else "cross"  # a modified client may send anything
    tokens = {"src": vocab.decode(film.probe.src), "tgt": vocab.decode(film.probe.tgt)}
    # built once per training, attention and language: building its animation frames costs
    # ~50 ms (dates), the page reruns on every click of its other sections, and the copies
    # of one training (a class with the same settings) share it
    lang = get_lang()  # one variable: the figures are drawn in it and their names hold it
    name = ("film", content_id(state), film.probe, kind, lang)
    fig = remember(TRAINED_RESULTS, name,
                   lambda: film_figure(film_weights(film, kind, cfg.N), film.steps,
                                       tokens[KINDS[kind].queries],
                                       tokens[KINDS[kind].keys],
                                       t("train.film_title", kind=KINDS[kind].label),
                                       lang=lang))
    show_chart(fig, f"film_{state.key.task}_{kind}", cfg, ctx.presenter, key=f"tr_film_{kind}",
               lang=lang,
               share=name)
    st.caption(t("train.film_caption", frames=len(film.steps), last=film.steps[-1],
                 every=film.every, cap=film.cap, kb=f"{film.nbytes / 1024:.0f}"))

    closeness = film_closeness(film, cfg.N)
    final = closeness[-1].reshape(-1)
    if np.isnan(final).all():  # no output position has an ideal source position
        return
    pattern = t(f"train.film_ideal_{state.key.task}")
    baseline = even_baseline(film)
    name = ("closeness", content_id(state), film.probe, lang)
    fig = remember(TRAINED_RESULTS, name,
                   lambda: closeness_figure(film.steps, closeness, baseline,
                                            t("train.film_closeness_title"), lang=lang))
    show_chart(fig, f"film_closeness_{state.key.task}", cfg, ctx.presenter, lang=lang,
               key="tr_film_close", share=name)
    layer, head = divmod(int(np.nanargmax(final)), cfg.h)
    reached = first_step_above(film.steps, closeness[:, layer, head], GETS_IT)
    summary = t("train.film_best", i=layer, j=head,
                share=percent(float(closeness[-1, layer, head])))
    summary = sentences(summary, t("train.film_reached", level=percent(GETS_IT), step=reached)
                        if reached is not None else
                        t("train.film_not_reached", level=percent(GETS_IT)))
    st.markdown(summary)
    st.caption(t("train.film_closeness_caption", pattern=pattern,
                 baseline=percent(float(baseline))))
