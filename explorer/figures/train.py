"""Training and decoding figures: loss curve, next-token bars, the beam, Noam schedule, label
smoothing.

Pure functions: data in, `go.Figure` out; every label passes through `esc()`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go
import torch
from plotly.subplots import make_subplots

from transformer.tokenize import BOS, EOS, PAD, SPECIALS, Vocab
from transformer.train import Batch, LabelSmoothing, StepInfo, rate

from ..text.i18n import Text
from .attention import attention_grid
from .common import FONT, MULTILINE_LIFT, esc, fast_figure, heatmap, title_html

if TYPE_CHECKING:  # data in, figure out: the page hands the decoding over
    from ..training.decoding import BeamDecoding

NOAM_REFERENCES: tuple[tuple[int, float, int], ...] = ((512, 1.0, 4000), (512, 1.0, 8000),
                                                       (256, 1.0, 4000))


def loss_figure(history: Sequence[StepInfo], total_steps: int | None = None, *,
                lang: str) -> go.Figure:
    """Loss per target token (top, log scale) and token accuracy (bottom) over the steps."""
    t = Text(lang)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.62, 0.38],
                        vertical_spacing=0.06)
    steps = [h.step for h in history]
    step = t("fig.training.step")
    fig.add_trace(
        go.Scatter(x=steps, y=[h.loss for h in history], mode="lines",
                   name=t("fig.training.loss_name"), line=dict(color="#1f77b4", width=2),
                   hovertemplate=f"{step} %{{x}}<br>{t('fig.training.loss')} %{{y:.4f}}"
                   "<extra></extra>"),
        row=1, col=1,
    )
    fig.add_trace(
        go.Scatter(x=steps, y=[h.token_accuracy for h in history], mode="lines",
                   name=t("fig.training.accuracy_name"),
                   line=dict(color="#2ca02c", width=1.5),
                   hovertemplate=f"{step} %{{x}}<br>{t('fig.training.accuracy')} %{{y:.1%}}"
                   "<extra></extra>"),
        row=2, col=1,
    )
    last = steps[-1] if steps else 1
    fig.update_xaxes(range=[0, max(total_steps or last, last, 1)])
    fig.update_xaxes(title_text=t("fig.training.step_axis"), row=2, col=1)
    fig.update_yaxes(title_text=t("fig.training.loss_axis"), type="log", row=1, col=1)
    fig.update_yaxes(title_text=t("fig.training.accuracy_axis"), range=[0, 1.02],
                     tickformat=".0%",
                     tickvals=[0, 0.25, 0.5, 0.75, 1.0], row=2, col=1)
    fig.update_layout(
        font=FONT, height=400, margin=dict(l=10, r=10, t=40, b=10),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0),
    )
    return fig


def next_token_figure(top: Sequence[tuple[str, float]], chosen: str | None = None, *,
                      lang: str) -> go.Figure:
    """Bar chart of the most likely next tokens; the greedy choice is highlighted."""
    t = Text(lang)
    labels = [esc(tok) for tok, _ in top]
    probs = [p for _, p in top]
    colors = ["#d62728" if tok == chosen else "#1f77b4" for tok, _ in top]
    fig = go.Figure(
        go.Bar(
            x=list(range(len(top))), y=probs, marker_color=colors,
            customdata=labels,
            text=[f"{p:.2f}" for p in probs], textposition="outside",
            hovertemplate=f"{t('fig.training.token')} %{{customdata}}<br>"
            f"{t('fig.training.probability')} %{{y:.4f}}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis=dict(tickmode="array", tickvals=list(range(len(top))), ticktext=labels,
                   title=dict(text=t("fig.training.next_token_axis"))),
        yaxis=dict(title=dict(text=t("fig.training.probability")), range=[0, 1.1]),
        font=FONT, height=320, margin=dict(l=10, r=10, t=30, b=10),
    )
    return fig


BEAM_COLORS = {"kept": "#1f77b4", "finished": "#2ca02c", "pruned": "#b0b0b0",
               "best": "#d62728"}
BEAM_LABEL_CHARS = 10  # longer tokens are cut in the node's label (the hover has them whole)


def _beam_best_path(beam: BeamDecoding) -> list[tuple[int, int]]:
    """(step, index) of the best final hypothesis and of each of its prefixes back to step 1.

    Two candidates of one step never share their tokens (their parents differ or their
    last tokens do), so the tokens find the best one in its step.
    """
    best = beam.final[0] if beam.final else None
    step = best.length if best is not None else 0  # the step that produced its last token
    if best is None or not 1 <= step <= len(beam.steps):  # nothing searched: no path
        return []
    index = next((i for i, node in enumerate(beam.steps[step - 1]) if node.kept
                  and node.tokens == best.tokens), None)
    path: list[tuple[int, int]] = []
    while index is not None and step >= 1:
        path.append((step, index))
        index, step = beam.steps[step - 1][index].parent, step - 1
    return path


def beam_figure(beam: BeamDecoding, *, lang: str) -> go.Figure:
    """The beam as a tree: x = step, one node per hypothesis (its last token), edges to the
    prefix it extends; kept ones coloured, pruned ones grey, finished ones (</s>) squares,
    the best final answer's path in red. Every trace has `meta` naming what it draws."""
    t = Text(lang)
    best = set(_beam_best_path(beam))
    # step 0 is the root <s>; a node of step s at row i hangs from row `parent` of step s - 1
    groups: dict[str, dict[str, list]] = {
        name: dict(x=[], y=[], text=[], hovertext=[], symbol=[])
        for name in ("kept", "finished", "pruned")}
    edges: dict[str, dict[str, list]] = {name: dict(x=[], y=[])
                                         for name in ("pruned", "kept", "best")}
    status = {name: t(f"beam.fig_{name}") for name in ("kept", "finished", "pruned")}
    for s, step in enumerate(beam.steps, start=1):
        for i, node in enumerate(step):
            group = "pruned" if not node.kept else "finished" if node.finished else "kept"
            last = node.tokens[-1]
            label = last if len(last) <= BEAM_LABEL_CHARS else last[:BEAM_LABEL_CHARS - 1] + "…"
            g = groups[group]
            g["x"].append(s)
            g["y"].append(i)
            g["text"].append(esc(label))
            states = [status["kept" if node.kept else "pruned"]]
            states += [status["finished"]] if node.finished else []
            g["hovertext"].append(
                esc(" ".join(node.tokens)) + f"<br>log P = {node.log_prob:.4f}"
                f"<br>{esc(t('beam.fig_score'))} = {node.score:.4f}<br>" + esc(", ".join(states)))
            g["symbol"].append("square" if node.finished else "circle")
            edge = "best" if (s, i) in best else "kept" if node.kept else "pruned"
            parent = node.parent if node.parent is not None else 0
            edges[edge]["x"] += [s - 1, s, None]
            edges[edge]["y"] += [parent, i, None]
    edge_style = {"pruned": dict(color=BEAM_COLORS["pruned"], width=1, dash="dot"),
                  "kept": dict(color=BEAM_COLORS["kept"], width=1.5),
                  "best": dict(color=BEAM_COLORS["best"], width=4)}
    data: list[dict] = [
        dict(type="scatter", x=e["x"], y=e["y"], mode="lines", line=edge_style[name],
             hoverinfo="skip", meta=f"edges_{name}", showlegend=name == "best",
             name=esc(t("beam.fig_best_path")) if name == "best" else None)
        for name, e in edges.items()
    ]
    data.append(dict(type="scatter", x=[0], y=[0], mode="markers+text", text=["&lt;s&gt;"],
                     textposition="middle left", meta="root", showlegend=False,
                     marker=dict(color=BEAM_COLORS["kept"], size=11),
                     hovertemplate="&lt;s&gt;<extra></extra>"))
    for name, g in groups.items():
        grey = name == "pruned"
        data.append(dict(
            type="scatter", x=g["x"], y=g["y"], mode="markers+text", text=g["text"],
            textposition="middle right", hovertext=g["hovertext"],
            hovertemplate="%{hovertext}<extra></extra>", meta=name, name=esc(status[name]),
            textfont=dict(color="#9a9a9a" if grey else "#222222"),
            marker=dict(color=BEAM_COLORS[name], size=9 if grey else 12, symbol=g["symbol"],
                        line=dict(color="white", width=1))))
    n_steps = len(beam.steps)
    rows = max((len(step) for step in beam.steps), default=1)
    # The title wrapped to a phone's chart (330 px) at the top, the legend under it, then the
    # plot: on a phone the title ran off the chart and into the legend beside it. Plotly
    # lifts a title anchored at its top by MULTILINE_LIFT a line after the first: padded so.
    title = title_html(t("beam.fig_title", k=beam.beam_size, alpha=f"{beam.alpha:g}"), 330)
    lift = MULTILINE_LIFT * title.count("<br>")
    lines = title.count("<br>") + 1
    layout = dict(
        title=dict(text=title, x=0, xanchor="left", xref="container", y=1, yref="container",
                   yanchor="top", pad=dict(t=8 + lift, l=4)),
        xaxis=dict(title=dict(text=esc(t("beam.fig_step_axis"))), range=[-0.6, n_steps + 0.9],
                   tickmode="array", tickvals=list(range(n_steps + 1)), zeroline=False),
        yaxis=dict(title=dict(text=esc(t("beam.fig_rank_axis"))), autorange="reversed",
                   tickmode="array", tickvals=list(range(rows)),
                   ticktext=[str(r + 1) for r in range(rows)], zeroline=False),
        font=FONT, height=max(300, 150 + 30 * rows) + 22 * (lines - 1) + lift + 24,
        margin=dict(l=10, r=10, t=8 + lift + 22 * lines + 50, b=10),  # legend: 2 rows at most
        legend=dict(orientation="h", y=1.0, yanchor="bottom", x=0, xanchor="left"),
        hoverlabel=dict(align="left"),
    )
    return fast_figure(data, layout)


def noam_figure(d_model: int, factor: float, warmup: int, steps: int = 20000, *,
                lang: str) -> go.Figure:
    """The Noam learning rate over `steps`: the learner's curve and three references."""
    t = Text(lang)
    curves = [(d_model, factor, warmup, True)] + [(*r, False) for r in NOAM_REFERENCES]
    peaks = [w for _, _, w, _ in curves if w <= steps]  # sample each peak exactly
    x = np.unique(np.concatenate([np.linspace(1, steps, 400).astype(int), peaks]))
    fig = go.Figure()
    step = t("fig.training.step")
    for d, f, w, mine in curves:
        y = [rate(int(s), d, f, w) for s in x]
        name = f"d_model={d}, factor={f:g}, warmup={w}" + (t("fig.training.yours") if mine
                                                            else "")
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines", name=esc(name),
            line=dict(width=3 if mine else 1.5, dash=None if mine else "dot"),
            hovertemplate=esc(name) + f"<br>{step} %{{x}}<br>lr %{{y:.2e}}<extra></extra>",
        ))
    fig.update_layout(
        xaxis=dict(title=dict(text=step)),
        yaxis=dict(title=dict(text=t("fig.training.learning_rate")), exponentformat="e"),
        font=FONT, height=360, margin=dict(l=10, r=10, t=30, b=10),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0),
    )
    return fig


def smoothing_figure(dist: np.ndarray, rows: Sequence[str], columns: Sequence[str],
                     epsilon: float, *, lang: str) -> go.Figure:
    """The smoothed target distributions (rows: labels, columns: vocabulary)."""
    t = Text(lang)
    return heatmap(
        dist, columns, rows, t("fig.training.smoothing_title", epsilon=f"{epsilon:g}"),
        lang=lang, x_title=t("fig.training.vocab_axis"), zmin=0, zmax=1, value_format=".3f",
        show_values=True,
    )


def attention_figure(weights: np.ndarray, q_tokens: Sequence[str], k_tokens: Sequence[str],
                     title: str, *, q_title: str, k_title: str, lang: str) -> go.Figure:
    """One attention matrix (queries x keys) on a 0-1 scale, token labels on both axes."""
    return heatmap(weights, k_tokens, q_tokens, title, lang=lang, x_title=k_title,
                   y_title=q_title, zmin=0, zmax=1, value_format=".2f",
                   height=max(280, 110 + 30 * len(q_tokens)))


# ---- The teaching plots' data ----------------------------------------------------------


def smoothing_example(epsilon: float, size: int = 6, *,
                      lang: str) -> tuple[np.ndarray, list[str], list[str]]:
    """LabelSmoothing.true_dist for a few labels over a small vocabulary (<pad> row last).

    Returns (dist (rows, size), row names, column tokens). The <pad> column is 0, and a
    row whose label is <pad> is all 0 (it is not a real target and adds no loss).
    """
    epsilon = min(max(float(epsilon), 0.0), 0.99) if math.isfinite(epsilon) else 0.0
    size = max(len(SPECIALS) + 1, size)
    crit = LabelSmoothing(size, PAD, epsilon)
    columns = list(SPECIALS) + [f"w{i}" for i in range(size - len(SPECIALS))]
    columns = columns[:size]
    labels = [size - 1, len(SPECIALS), EOS, PAD]
    dist = crit.true_dist(torch.tensor(labels)).numpy()
    t = Text(lang)
    rows = [t("train.smooth_row", token=columns[i]) for i in labels]
    return dist, rows, columns


# The Annotated Transformer's own label-smoothing examples (its "Label Smoothing" section).
AT_SMOOTHING = dict(size=5, padding_idx=0, smoothing=0.4, targets=(2, 1, 0, 3, 3))
AT_CONFIDENCE = dict(size=5, padding_idx=0, smoothing=0.1, xs=tuple(range(1, 100)))


def annotated_smoothing_example(*, lang: str) -> tuple[np.ndarray, list[str], list[str]]:
    """AT's example through this app's LabelSmoothing: LabelSmoothing(5, 0, 0.4) on the
    targets [2, 1, 0, 3, 3]. Returns (true_dist (5, 5), row names, column names)."""
    ex = AT_SMOOTHING
    crit = LabelSmoothing(ex["size"], ex["padding_idx"], ex["smoothing"])
    dist = crit.true_dist(torch.tensor(ex["targets"])).numpy()
    t = Text(lang)
    rows = [t("train.smooth_row", token=str(i)) for i in ex["targets"]]
    columns = [str(i) for i in range(ex["size"])]
    return dist, rows, columns


def confidence_losses() -> tuple[list[int], list[float]]:
    """AT's loss-versus-confidence example: the prediction [0, x/d, 1/d, 1/d, 1/d] with
    d = x + 3 for the label 1, scored by LabelSmoothing(5, 0, 0.1), for x = 1..99 (AT's
    `range(1, 100)`)."""
    ex = AT_CONFIDENCE
    crit = LabelSmoothing(ex["size"], ex["padding_idx"], ex["smoothing"])
    losses = []
    for x in ex["xs"]:
        d = x + 3
        predict = torch.tensor([[0.0, x / d, 1 / d, 1 / d, 1 / d]], dtype=torch.float64)
        losses.append(float(crit(predict.log(), torch.tensor([1]))))
    return list(ex["xs"]), losses


def confidence_figure(xs: Sequence[int], losses: Sequence[float], *, lang: str) -> go.Figure:
    """The loss of ever more confident predictions of the label, under label smoothing."""
    t = Text(lang)
    best = int(np.argmin(losses))
    data = [
        dict(type="scatter", x=list(xs), y=list(losses), mode="lines",
             line=dict(color="#1f77b4", width=2), name=t("fig.training.loss"),
             hovertemplate=f"x = %{{x}}<br>{t('fig.training.loss')} %{{y:.4f}}<extra></extra>"),
        dict(type="scatter", x=[xs[best]], y=[losses[best]], mode="markers",
             marker=dict(color="#c0392b", size=9), name=t("fig.training.confidence_best"),
             hovertemplate=f"x = %{{x}}<br>{t('fig.training.loss')} %{{y:.4f}}<extra></extra>"),
    ]
    layout = dict(
        title=dict(text=esc(t("fig.training.confidence_title"))),
        xaxis=dict(title=dict(text=esc(t("fig.training.confidence_x")))),
        yaxis=dict(title=dict(text=esc(t("fig.training.loss")))),
        font=FONT, height=320, showlegend=False, margin=dict(l=10, r=10, t=50, b=10),
    )
    return fast_figure(data, layout)


# ---- The attention film ----------------------------------------------------------------

FILM_FRAME_MS = 350  # how long the play button shows each frame


def film_figure(weights: np.ndarray, steps: Sequence[int], q_tokens: Sequence[str],
                k_tokens: Sequence[str], title: str, *, lang: str) -> go.Figure:
    """One attention of every layer and head as it trained: weights (frames, N, h, q, k).

    The grid of the Attention page (`attention_grid`) at the last frame, with one animation
    frame per recorded step: the slider scrubs through them and the play button runs them
    from the first (untrained) frame, all in the browser.
    """
    t = Text(lang)
    n_frames, n_layers, n_heads = weights.shape[:3]
    fig = attention_grid(weights[-1], q_tokens, k_tokens, lang=lang, title=title)
    names = [str(s) for s in steps]
    traces = list(range(n_layers * n_heads))  # attention_grid: one heatmap per layer, head
    frames = [dict(name=names[f], traces=traces,
                   data=[dict(type="heatmap", z=weights[f, layer, head])
                         for layer in range(n_layers) for head in range(n_heads)])
              for f in range(n_frames)]
    still = dict(mode="immediate", frame=dict(duration=0, redraw=True),
                 transition=dict(duration=0))
    extra = 100  # px above the grid for the play button and the slider, under the title
    top = fig.layout.margin.t + extra
    fig.update_layout(
        height=fig.layout.height + extra, margin=dict(t=top),
        title=dict(y=1, yref="container", yanchor="top", pad=dict(t=8)),
        sliders=[dict(
            active=n_frames - 1, x=0.16, len=0.84, y=1, yanchor="bottom",
            pad=dict(b=30, t=0, l=0, r=0),
            currentvalue=dict(prefix=t("fig.film.step_prefix"), visible=True),
            steps=[dict(label=name, method="animate", args=[[name], still]) for name in names],
        )],
        updatemenus=[dict(
            type="buttons", direction="left", showactive=False, x=0, xanchor="left", y=1,
            yanchor="bottom", pad=dict(b=45, t=0, l=0, r=0),
            buttons=[
                dict(label="▶ " + t("fig.film.play"), method="animate",
                     args=[None, dict(mode="immediate", fromcurrent=False,
                                      frame=dict(duration=FILM_FRAME_MS, redraw=True),
                                      transition=dict(duration=0))]),
                dict(label=t("fig.film.pause"), method="animate", args=[[None], still]),
            ],
        )],
    )
    # frames built without plotly.py's validation, as attention_grid builds its traces
    # (validating them would take longer than recording the film)
    return go.Figure(data=fig.data, layout=fig.layout, frames=frames, _validate=False)


def closeness_figure(steps: Sequence[int], closeness: np.ndarray, baseline: float,
                     title: str, *, lang: str) -> go.Figure:
    """How close each cross-attention head is to the task's ideal pattern, over training.

    closeness (frames, N, h): the weight on the ideal source positions, averaged over the
    rows that have any (transformer.film.ideal_mass); `baseline`: that of attention spread
    evenly over the source.
    """
    t = Text(lang)
    fig = go.Figure()
    _, n_layers, n_heads = closeness.shape
    step = t("fig.training.step")
    for layer in range(n_layers):
        for head in range(n_heads):
            name = t("fig.film.head_name", i=layer, j=head)
            fig.add_trace(go.Scatter(
                x=list(steps), y=closeness[:, layer, head], mode="lines+markers",
                name=esc(name), marker=dict(size=4),
                line=dict(dash="solid" if layer == n_layers - 1 else "dot"),
                hovertemplate=f"{esc(name)}<br>{step} %{{x}}<br>"
                f"{t('fig.film.closeness')} %{{y:.0%}}<extra></extra>",
            ))
    fig.add_hline(y=baseline, line=dict(color="#888", dash="dash", width=1),
                  annotation_text=esc(t("fig.film.baseline")),
                  annotation_position="bottom right")
    fig.update_layout(
        title=dict(text=esc(title)), font=FONT, height=360,
        margin=dict(l=10, r=10, t=50, b=10),
        xaxis=dict(title=dict(text=t("fig.training.step_axis"))),
        yaxis=dict(title=dict(text=t("fig.film.closeness_axis")), range=[0, 1.02],
                   tickformat=".0%"),
        legend=dict(orientation="h", y=-0.2, yanchor="top", x=0),
    )
    return fig


def comparison_figure(histories: Sequence[Sequence[StepInfo]], names: Sequence[str],
                      total_steps: int, *, lang: str) -> go.Figure:
    """Two (or more) models' training curves on shared axes: loss per target token (top,
    log scale) and teacher-forced token accuracy (bottom), one colour per model."""
    t = Text(lang)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.6, 0.4],
                        vertical_spacing=0.06)
    step = t("fig.training.step")
    for history, name, color in zip(histories, names, ("#1f77b4", "#d62728", "#2ca02c"),
                                    strict=False):
        steps = [h.step for h in history]
        label = esc(name)
        fig.add_trace(go.Scatter(
            x=steps, y=[max(h.loss, 1e-6) for h in history], mode="lines", name=label,
            legendgroup=label, line=dict(color=color, width=2),
            hovertemplate=f"{label}<br>{step} %{{x}}<br>{t('fig.training.loss')} %{{y:.4f}}"
            "<extra></extra>"), row=1, col=1)
        fig.add_trace(go.Scatter(
            x=steps, y=[h.token_accuracy for h in history], mode="lines", name=label,
            legendgroup=label, showlegend=False, line=dict(color=color, width=1.5),
            hovertemplate=f"{label}<br>{step} %{{x}}<br>{t('fig.training.accuracy')} "
            "%{y:.1%}<extra></extra>"), row=2, col=1)
    fig.update_xaxes(range=[0, max(total_steps, 1)])
    fig.update_xaxes(title_text=t("fig.training.step_axis"), row=2, col=1)
    fig.update_yaxes(title_text=t("fig.training.loss_axis"), type="log", row=1, col=1)
    fig.update_yaxes(title_text=t("fig.training.accuracy_axis"), range=[0, 1.02],
                     tickformat=".0%", tickvals=[0, 0.25, 0.5, 0.75, 1.0], row=2, col=1)
    fig.update_layout(font=FONT, height=420, margin=dict(l=10, r=10, t=40, b=10),
                      legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    return fig


# ---- The walk-throughs' loss and teacher-forcing examples, computed ----------------------------


@dataclass(frozen=True)
class NllExample:
    """nn.NLLLoss on the learner's log-probabilities: one position, then the whole sentence."""

    label: int  # y, the label id at position 0
    x_y: float  # x[y]: the log-probability the generator gives the label at position 0
    loss: float  # nn.NLLLoss()(x, y) at position 0: -x[y]
    labels: int  # the sentence's labels, positions 0 .. labels - 1
    mean_x_y: float  # the mean of x[y] over them
    mean_loss: float  # nn.NLLLoss() (reduction "mean") over them: -mean_x_y
    smoothing_zero: float  # this app's LabelSmoothing with eps = 0, summed, / labels


def nll_example(log_probs: np.ndarray, labels: Sequence[int]) -> NllExample:
    """`log_probs` (positions, vocab): the generator's output for one sentence (log_softmax);
    `labels`: the label id of each position from 0 (at most `positions` of them)."""
    m = len(labels)
    x = torch.tensor(np.asarray(log_probs, dtype=np.float32)[:m])
    y = torch.as_tensor(list(labels), dtype=torch.long)
    criterion = torch.nn.NLLLoss()
    picked = x[torch.arange(m), y]
    ours = LabelSmoothing(x.size(1), PAD, 0.0)(x, y) / m
    return NllExample(int(y[0]), float(picked[0]), float(criterion(x[:1], y[:1])), m,
                      float(picked.mean()), float(criterion(x, y)), float(ours))


CE_EXAMPLE = dict(logits=(0.0, 1.0, 2.0, 3.0, 4.0), label=3)  # a walk-through's five classes


def cross_entropy_example() -> dict[str, float]:
    """The logits [0, 1, 2, 3, 4] and the label 3, given to the two losses every way round.

    The right ways, one number: nn.CrossEntropyLoss on the logits ("ce"), nn.NLLLoss on their
    log_softmax ("nll"), -log(e^3 / (e^0 + ... + e^4)) by hand, and CrossEntropyLoss on the
    log-probabilities ("ce_log": log_softmax(log p) = log p, so only work is wasted; "grad_gap"
    is the largest difference of its gradient from NLLLoss's, with respect to the logits).
    The two mistakes, other numbers: CrossEntropyLoss on probabilities ("ce_probs", and
    "ce_probs_floor", what it gives a perfect one-hot prediction: never 0) and NLLLoss on raw
    logits ("nll_logits" = -x[y], below zero and unbounded)."""
    ex = CE_EXAMPLE
    x = torch.tensor([ex["logits"]])  # (1, classes)
    y = torch.tensor([ex["label"]])
    ce, nll = torch.nn.CrossEntropyLoss(), torch.nn.NLLLoss()
    by_hand = -math.log(math.exp(ex["logits"][ex["label"]])
                        / sum(math.exp(v) for v in ex["logits"]))
    grads = []
    for loss in (ce, nll):  # both on the log-probabilities of the same logits
        logits = x.clone().requires_grad_(True)
        loss(torch.log_softmax(logits, dim=-1), y).backward()
        grads.append(logits.grad)
    perfect = torch.nn.functional.one_hot(y, x.size(1)).float()
    return {"ce": float(ce(x, y)),
            "nll": float(nll(torch.log_softmax(x, dim=-1), y)),
            "by_hand": by_hand, "x_y": float(torch.log_softmax(x, dim=-1)[0, ex["label"]]),
            "ce_log": float(ce(torch.log_softmax(x, dim=-1), y)),
            "grad_gap": float((grads[0] - grads[1]).abs().max()),
            "ce_probs": float(ce(torch.softmax(x, dim=-1), y)),
            "ce_probs_floor": float(ce(perfect, y)),
            "nll_logits": float(nll(x, y))}


TF_EXAMPLE = ("it", "is", "a", "good", "day")  # a walk-through's teacher-forcing sentence


def walkthrough_teacher_forcing(*, lang: str) -> tuple[dict[str, list[str]], tuple[int, ...]]:
    """"<s> it is a good day </s>" cut by this app's `Batch` into the decoder input (tgt) and
    the labels (tgt_y): (table columns, tgt_mask's shape)."""
    t = Text(lang)
    vocab = Vocab(list(TF_EXAMPLE))
    ids = [BOS, *vocab.encode(list(TF_EXAMPLE)), EOS]
    b = Batch(torch.tensor([ids]), torch.tensor([ids]))
    tgt, tgt_y = vocab.decode(b.tgt[0].tolist()), vocab.decode(b.tgt_y[0].tolist())
    return ({t("train.col_position"): [str(i) for i in range(len(tgt))],
             t("train.col_input"): tgt, t("train.col_label"): tgt_y},
            tuple(b.tgt_mask.shape))
