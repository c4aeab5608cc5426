"""The Attention page's "Knock out a head" section: remove one head (or a whole sublayer) of
the model the sidebar shows, and see the learner's answer and the task accuracy change.

Compute is in explorer/training/knockout.py, figures in explorer/figures/attention.py. Results are
remembered by the model's content and the input (shared by sessions, but an imported model's);
the model itself is only read: knock-outs are interventions at hook points, so the
shared, cached models (the shipped date translator above all) are never changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st

from transformer.model import EncoderDecoder
from transformer.tokenize import BOS, EOS

from ..app import memo
from ..app.cache import shared_model
from ..app.context import Context
from ..app.shelves import KNOCKOUTS_OWN, KNOCKOUTS_SHARED
from ..app.sources import MAX_ANSWER, token_mode
from ..app.train_state import trained_state
from ..core.kinds import KINDS
from ..core.runs import Run
from ..figures.attention import knockout_grid
from ..figures.common import heatmap
from ..state.view import WHOLE, Model, keep, refit
from ..text.i18n import get_lang, percent, sentences, t
from ..training.knockout import (
    ATTENTION_PARTS,
    FRESH,
    PARTS,
    Unit,
    accuracy,
    answer_pair,
    edits_for,
    fresh_inputs,
    head_grid,
    is_unit_of,
    task_of,
)
from ..training.run import TrainedState
from ..training.task import evaluated_text

KEYS = {"part": "ko_part", "layer": "ko_layer", "head": "ko_head"}  # the menus' widget keys
OPEN_KEY = "ko_open"  # the expander that holds the experiment (a choice of the view)

# Results are kept by what fixes them: the model's content and the input (app/shelves.py).


def _shelf(kind: str, subject: dict[str, Any]) -> memo.Shelf:
    return (KNOCKOUTS_SHARED if subject["shared"] else KNOCKOUTS_OWN)[kind]


def _remember(kind: str, subject: dict[str, Any], key: tuple, compute: Callable[[], Any]) -> Any:
    """The result of `kind` for `key` (which starts with the subject's key), computed once."""
    return memo.remember(_shelf(kind, subject), key, compute)


def _known(kind: str, subject: dict[str, Any], key: tuple) -> Any:
    """A result remembered earlier, or None."""
    return memo.known(_shelf(kind, subject), key)


def _timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """`fn(*args)` and the seconds it took."""
    start = time.perf_counter()
    return fn(*args), time.perf_counter() - start


def _part_label(part: str) -> str:
    return KINDS[part].label if part in KINDS else t(f"ko.part_{part}")


def _head_label(head: int) -> str:
    return t("ko.whole") if head == WHOLE else t("fig.attention.head", j=head)


def _unit_label(unit: Unit) -> str:
    where = t("fig.attention.layer", i=unit.layer)
    what = t("ko.whole") if unit.head is None else t("fig.attention.head", j=unit.head)
    return t("ko.unit", part=_part_label(unit.part), layer=where, head=what)


def _check_choices(n_layers: int, n_heads: int) -> None:
    """Put back any menu value this model cannot take (a link or a forged request), with a
    friendly warning; a head left over from an attention when the feed-forward network is
    chosen simply becomes the whole sublayer."""
    state = st.session_state
    refused = refit(state, KEYS.values(), Model(N=n_layers, h=n_heads))
    part, head = state.get(KEYS["part"]), state.get(KEYS["head"])
    if head not in (None, WHOLE) and part not in ATTENTION_PARTS and part is not None:
        state[KEYS["head"]] = WHOLE
    if refused:
        st.warning(t("ko.refused"), icon=":material/block:")


def _choose(ctx: Context) -> Unit:
    """The three menus: which sublayer, which layer, which head (or all of it)."""
    cfg = ctx.cfg
    _check_choices(cfg.N, cfg.h)
    c1, c2, c3 = st.columns(3)
    part = c1.selectbox(t("ko.part"), list(PARTS), format_func=_part_label, **keep(KEYS["part"]))
    layer = c2.selectbox(t("attn.layer"), range(cfg.N), **keep(KEYS["layer"]),
                         format_func=lambda i: t("fig.attention.layer", i=i))
    heads = [*range(cfg.h), WHOLE] if part in ATTENTION_PARTS else [WHOLE]
    head = c3.selectbox(t("attn.head"), heads, format_func=_head_label, **keep(KEYS["head"]))
    unit = Unit(part, layer, None if head == WHOLE else head)
    if not is_unit_of(unit, cfg):  # the menus offer nothing else; checked all the same
        st.warning(t("ko.refused"), icon=":material/block:")
        unit = Unit(next(iter(PARTS)), 0, 0 if cfg.h else None)
    return unit


def _subject(ctx: Context) -> dict[str, Any]:
    """The model to knock out and how to read it: ids of <s>/</s>, its tokens, its task."""
    loaded = ctx.loaded
    if loaded is None:
        # The sidebar's untrained model; with dropout on (train mode) its eval twin, so that
        # with and without differ by the knock-out alone.
        model = shared_model(ctx.cfg, ctx.settings.seed, False, ctx.tokens.vocab)
        return dict(model=model, itos=ctx.tokens.vocab.itos, bos=BOS, eos=EOS,
                    joiner="" if ctx.settings.token_mode == "char" else " ",
                    key=(*ctx.model_name(), tuple(ctx.tokens.vocab.itos)),
                    shared=True, task=None, why="ko.no_task_untrained",
                    twin=ctx.settings.train_mode, made=None)
    specials = loaded.special_ids("tgt")
    state = trained_state()
    trained = state.task if ctx.source == "yours" and isinstance(state, TrainedState) else None
    task, why = task_of(loaded.meta, loaded.src_vocab, loaded.tgt_vocab, trained,
                        loaded.config.max_len)
    joiner = "" if token_mode(loaded, ctx.settings.token_mode) == "char" else " "
    key = ctx.model_name()  # what fixes the weights: sessions showing the same share
    shared = key is not None
    if key is None:
        key = (ctx.source, loaded.model)  # a model only this session has
    return dict(model=loaded.model, itos=loaded.tgt_vocab, bos=loaded.start_id(),
                eos=specials.get("eos"), joiner=joiner, key=key, shared=shared, task=task,
                why=why, twin=False, made=_made(ctx))


def _made(ctx: Context) -> tuple[float, int] | None:
    """The shipped translator's accuracy on held-out dates when it was made, and on how many
    (what the Attention page's box at the top says), or None for any other model."""
    if ctx.source != "dates" or ctx.loaded is None:
        return None
    meta = ctx.loaded.meta
    try:
        return float(meta["held_out_exact"]), int(meta["held_out_n"])
    except (KeyError, TypeError, ValueError):
        return None


def _answer_text(ids: tuple[int, ...], subject: dict[str, Any]) -> str:
    itos, eos = subject["itos"], subject["eos"]
    words = [itos[i] if 0 <= i < len(itos) else "?" for i in ids]
    if ids[-1:] == (eos,):
        return subject["joiner"].join(words[:-1]) + " </s>"
    return subject["joiner"].join(words)


def _answers(ctx: Context, subject: dict[str, Any], unit: Unit) -> None:
    """The learner's own input decoded with and without the unit."""
    model: EncoderDecoder = subject["model"]
    src = tuple(ctx.tokens.src_ids)
    max_len = min(MAX_ANSWER + 1, ctx.cfg.max_len)
    if ctx.loaded is None:  # the sidebar's model: as long as its target (it rarely ends by
        max_len = min(max_len, len(ctx.tokens.tgt_in_tokens) + 1)  # itself; every step costs)

    before, after = _remember(
        "answer", subject, (subject["key"], src, unit, max_len),
        lambda: answer_pair(model, src, bos=subject["bos"], eos=subject["eos"], max_len=max_len,
                            edits=edits_for([unit])))
    a1, a2 = st.columns(2)
    a1.markdown(t("ko.answer_intact"))
    a1.code(_answer_text(before, subject) or " ", language=None, wrap_lines=True)
    a2.markdown(t("ko.answer_without", unit=_unit_label(unit)))
    a2.code(_answer_text(after, subject) or " ", language=None, wrap_lines=True)
    if before == after:
        st.caption(t("ko.answer_same"))
    else:
        differ = sum(a != b for a, b in zip(before, after, strict=False))
        differ += abs(len(before) - len(after))
        st.caption(t("ko.answer_changed", n=differ, total=max(len(before), len(after))))
    if subject["twin"]:
        st.caption(t("ko.train_mode"))


def _accuracies(subject: dict[str, Any], unit: Unit) -> None:
    """Exact accuracy on fresh inputs of the model's task, with and without the unit."""
    task, model, key = subject["task"], subject["model"], subject["key"]
    if task is None:
        st.info(t(subject["why"]), icon=":material/info:")
        return
    with st.spinner(t("ko.measuring")):
        fresh = _remember("fresh", subject, key, lambda: fresh_inputs(task))
        intact, _ = _remember("accuracy", subject, (key, ()),
                              lambda: _timed(accuracy, model, fresh))
        without, _ = _remember("accuracy", subject, (key, (unit,)),
                               lambda: _timed(accuracy, model, fresh, edits_for([unit])))
    shown = percent(intact), percent(without)
    m1, m2 = st.columns(2)
    m1.metric(t("ko.acc_intact", n=fresh.n), shown[0])
    m2.metric(t("ko.acc_without", n=fresh.n), shown[1], delta=t("ko.points", d=points(*shown)))
    st.caption(t("ko.acc_caption_dates" if task.name == "dates" else "ko.acc_caption",
                 n=fresh.n, task=t(f"train.task_{task.name}"), sequences=evaluated_text(task)))
    made = subject["made"]
    if made is not None:
        st.caption(t("ko.acc_vs_made", made_n=made[1], made=percent(made[0])))


def points(before: str, after: str) -> str:
    """The change between two shown percentages ("99.3%", "93.7%"), in points with a sign,
    from the shown (rounded) values, so that the numbers on the page add up ("-5.6")."""
    change = float(after.rstrip("%")) - float(before.rstrip("%"))
    return f"{change:+.1f}".replace("-0.0", "0.0").replace("+0.0", "0.0")


def _grid(ctx: Context, subject: dict[str, Any], unit: Unit) -> Any:
    """The button that measures every head, and the grid once measured (or None)."""
    task, model, key, cfg = subject["task"], subject["model"], subject["key"], ctx.cfg
    count = len(ATTENTION_PARTS) * cfg.N * cfg.h
    grid = _known("grid", subject, key)
    known = _known("accuracy", subject, (key, ()))  # (intact accuracy, seconds it took) or None
    intact = None if known is None else known[0]
    if st.button(t("ko.measure", count=count), key="ko_measure",
                 icon=":material/grid_on:", disabled=grid is not None):
        fresh = _remember("fresh", subject, key, lambda: fresh_inputs(task))
        bar = st.progress(0.0, text=t("ko.progress", done=0, total=count + (known is None)))

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=t("ko.progress", done=done, total=total))

        grid = _remember("grid", subject, key,
                         lambda: head_grid(model, fresh, cfg, progress, intact))
        bar.empty()
    if grid is None and known is not None:
        seconds = max(count * known[1], 1)  # never "about 0 s"
        st.caption(t("ko.measure_help", count=count, n=FRESH, seconds=f"{seconds:.0f}"))
    return grid


def _pattern(run: Run, ctx: Context, unit: Unit, where: Any) -> None:
    """The chosen head's attention pattern for the learner's input (heads averaged for a
    whole attention; nothing for a feed-forward network, which has none)."""
    if unit.part not in KINDS:
        where.caption(t("ko.no_pattern"))
        return
    kind = KINDS[unit.part]
    tokens = {"src": list(ctx.tokens.src_tokens), "tgt": list(ctx.tokens.tgt_in_tokens)}
    lang = get_lang()

    def build() -> Any:
        weights = run.cache[kind.hook(unit.layer, "hook_pattern")][0]  # (h, q_len, k_len)
        pattern = weights.mean(axis=0) if unit.head is None else weights[unit.head]
        return heatmap(pattern, tokens[kind.keys], tokens[kind.queries],
                       t("ko.pattern_title", unit=_unit_label(unit)), lang=lang, zmin=0,
                       zmax=1)

    # made once for every session that shows the same run (a class following its teacher)
    fig, share = ctx.from_run(("ko_pattern", unit, lang), build)
    ctx.chart(fig, f"knockout_pattern_{unit.part}_L{unit.layer}", key="ko_pattern",
              where=where, share=share)


def knockout_section(ctx: Context, run: Run) -> None:
    """The section "Knock out a head", below the Attention page's step-by-step view: its
    title and what it does, then the experiment in an expander drawn only while open.

    Closed, the experiment's two dozen elements cost no page run anything: a teacher's
    change starts thirty students' runs at once, each paying Streamlit's cost per element
    (bench/classroom.py (a)). Whether it is open is a choice of the view (`OPEN_KEY`), so a
    class sees the experiment when its teacher opens it."""
    st.header(t("ko.header"))
    own = ctx.source in ("yours", "imported")  # in this session only
    st.markdown(sentences(t("ko.intro"), t("ko.whose_session" if own else "ko.whose_shared")))
    if not isinstance(st.session_state.get(OPEN_KEY, False), bool):  # forged: closed
        st.session_state[OPEN_KEY] = False
    box = st.expander(t("ko.open"), key=OPEN_KEY, icon=":material/content_cut:",
                      on_change="rerun")
    if box.open:
        with box:
            _experiment(ctx, run)


def _experiment(ctx: Context, run: Run) -> None:
    """The menus, the answers with and without the knock-out, the accuracies and the grid."""
    unit = _choose(ctx)
    st.caption(t("ko.how", hook=unit.hook()))
    subject = _subject(ctx)
    _answers(ctx, subject, unit)
    _accuracies(subject, unit)
    g1, g2 = st.columns([3, 2])
    if subject["task"] is None:  # nothing to measure: the pattern alone
        _pattern(run, ctx, unit, g1)
        return
    with g1:
        grid = _grid(ctx, subject, unit)
    if grid is not None:
        titles = {part: KINDS[part].label for part in grid.order}
        chosen = (unit.part, unit.layer, unit.head) if unit.head is not None else None
        ctx.chart(knockout_grid(grid.lost, titles, grid.intact, chosen, lang=get_lang()),
                  "knockout_grid", key="ko_grid", where=g1)
        best, lost = grid.most_important()
        g1.caption(t("ko.grid_caption", n=grid.n, count=sum(a.size for a in grid.lost.values()),
                     seconds=f"{grid.seconds:.1f}", best=_unit_label(best),
                     lost=f"{lost:.1%}", intact=f"{grid.intact:.1%}",
                     unchanged=int(sum(np.sum(a == 0) for a in grid.lost.values()))))
    _pattern(run, ctx, unit, g2)
