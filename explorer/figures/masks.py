"""Mask figures: boolean matrices with token labels, and masking's effect on softmax."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import torch
from plotly.subplots import make_subplots

from transformer.hook_paths import attention_hook
from transformer.model import MASK_FILL, Embeddings, PositionalEncoding, attention
from transformer.tokenize import BOS, PAD, Vocab
from transformer.train import Batch

from ..text.i18n import Text
from .common import (
    FONT,
    MAX_LABELLED,
    MODEBAR_PX,
    MULTILINE_LIFT,
    TICK_SIZE,
    axis_labels,
    esc,
    fast_figure,
    fitting_title,
    head_word,
    label_size,
    text_px,
    tick_array,
    title_html,
)

ALLOWED = "#2e86c1"
BLOCKED = "#ecf0f1"
SIDE_BY_SIDE_ROOM = MAX_LABELLED // 2  # column labels under each of two panels side by side
# ... of a mask in half the page on a projector (presenter mode at 1280 px: a plot about
# 210 px wide for labels of 18 px, upright)
HALF_ROOM_WIDE = 12


def sentence_positions(tokens: Sequence[str], size: int, *, lang: str) -> list[str]:
    """The tokens at positions 0 .. size - 1 of a sentence of `tokens`: a position past its
    end has none, and is named so (never a number that reads as a token: "15:15")."""
    none = Text(lang)("fig.masks.no_token")
    return [tokens[i] if i < len(tokens) else none for i in range(size)]


def mask_figure(
    mask: np.ndarray,
    row_tokens: Sequence[str],
    col_tokens: Sequence[str],
    title: str = "",
    *,
    lang: str,
    blocked_is_one: bool = False,
    row_noun: str | None = None,
    col_noun: str | None = None,
    room: int = MAX_LABELLED,
) -> go.Figure:
    """A boolean mask (True = may attend) drawn as 1/0 cells with token axes.

    `room`: column labels written side by side at most (`written`: every step-th beyond).

    With `blocked_is_one`, the numbers follow the opposite convention (1 = masked), but the
    colours still show where attention is allowed. The axis titles default to query (rows)
    and key (columns); the hover text uses their first word ("query 2 → key 1").
    """
    t = Text(lang)
    row_noun = row_noun if row_noun is not None else t("fig.masks.query_axis")
    col_noun = col_noun if col_noun is not None else t("fig.masks.key_axis")
    mask = np.asarray(mask, dtype=bool)
    shown = (~mask if blocked_is_one else mask).astype(int)
    trace = dict(
            type="heatmap",
            z=mask.astype(int),
            x=list(range(mask.shape[1])),
            y=list(range(mask.shape[0])),
            zmin=0,
            zmax=1,
            colorscale=[[0, BLOCKED], [1, ALLOWED]],
            showscale=False,
            text=shown,
            texttemplate="%{text}",
            textfont=dict(color="black"),  # no size: plotly fits it to the drawn cells
            customdata=np.where(mask, t("fig.masks.may_attend"), t("fig.masks.blocked")),
            hovertemplate=f"{esc(head_word(row_noun))} %{{y}} → {esc(head_word(col_noun))} "
            "%{x}: %{customdata}<extra></extra>",
            xgap=2,
            ygap=2,
    )
    cols = axis_labels(col_tokens)
    rows = axis_labels(row_tokens)
    # The column labels stand rotated by 45 degrees above the matrix (upright when the drawn
    # width leaves no room: plotly picks the angle, and makes room above them), every
    # step-th of a long sentence's (`written`): the top margin holds the longest, the right
    # margin whatever the last ones reach past the last column (plotly hides a tick label
    # that would leave the figure).
    x_ticks = tick_array(list(range(mask.shape[1])), cols, room)
    size = label_size(len(x_ticks["ticktext"])) or TICK_SIZE
    widths = [0.71 * text_px(lab, size) for lab in x_ticks["ticktext"]] or [0.0]
    top = int(max(MODEBAR_PX, 36 + max(widths)))
    right = int(max(10, 10 + widths[-1], 10 + max(widths[-2:]) - 30))
    lines = title_html(title).count("<br>") + 1 if title else 0
    lift = MULTILINE_LIFT * max(lines - 1, 0)
    bottom = 20 + lift + 24 * lines if title else 10
    row_px = 34 if mask.shape[0] <= 12 else 24
    layout = dict(
        # under the matrix, its lines flowing down (anchored at its top)
        title=dict(text=title_html(title), x=0.5, xanchor="center", y=0, yref="paper",
                   yanchor="top", pad=dict(t=16 + lift)) if title else None,
        xaxis=dict(**x_ticks, side="top", autotickangles=[-45, -90], ticks="",
                   title=dict(text=esc(col_noun))),
        yaxis=dict(tickmode="array", tickvals=list(range(mask.shape[0])),
                   ticktext=rows, autorange="reversed", ticks="",
                   tickfont=dict(size=label_size(len(rows))) if label_size(len(rows))
                   else None,
                   title=dict(text=esc(fitting_title(row_noun, row_px * mask.shape[0])))),
        font=FONT,
        height=max(240, top + bottom + row_px * mask.shape[0]),
        margin=dict(l=10, r=right, t=top, b=bottom),
    )
    return fast_figure([trace], layout)


def _qk_hover(t: Text, suffix: str = "") -> str:
    """"query %{y} → key %{x}" in `t`'s language, then `suffix`."""
    return (f"{t('fig.masks.query')} %{{y}} → {t('fig.masks.key')} %{{x}}{suffix}"
            "<extra></extra>")


def batch_masks_figure(
    masks: np.ndarray, tokens: Sequence[Sequence[str]], titles: Sequence[str], *, lang: str
) -> go.Figure:
    """Several (T, T) masks side by side, one per sentence of a batch.

    A title may have two lines ("\n"): side by side, long one-line titles ran into each other.

    The first matrix has its row labels on the left, the last on the right: no label stands
    between two matrices (where it would cover the other one), and the outer margins are
    as wide as the longest label.
    """
    n = len(masks)
    labels = [axis_labels(tokens[i]) for i in range(n)]
    widths = [max((text_px(lab) for lab in labs), default=0.0) for labs in labels]
    fig = make_subplots(rows=1, cols=n, horizontal_spacing=0.08 if n == 2 else 0.12,
                        subplot_titles=[esc(title).replace("\n", "<br>") for title in titles])
    size = 0
    for i in range(n):
        m = np.asarray(masks[i], dtype=bool)
        size = max(size, m.shape[0])
        fig.add_trace(
            go.Heatmap(
                z=m.astype(int), zmin=0, zmax=1, colorscale=[[0, BLOCKED], [1, ALLOWED]],
                showscale=False, text=m.astype(int), texttemplate="%{text}", xgap=2, ygap=2,
                x=list(range(m.shape[1])), y=list(range(m.shape[0])),
                hovertemplate=_qk_hover(Text(lang)),
            ),
            row=1, col=i + 1,
        )
        outer_right = n == 2 and i == 1
        # side by side: half the width each, so half as many column labels (`written`),
        # in the font of all of them side by side
        columns = tick_array(list(range(m.shape[1])), labels[i], SIDE_BY_SIDE_ROOM)
        across = label_size(n * len(columns["ticktext"]))
        columns["tickfont"] = dict(size=across) if across else None
        fig.update_xaxes(**columns, autotickangles=[-45, -90], ticks="", row=1, col=i + 1)
        fig.update_yaxes(tickmode="array", tickvals=list(range(m.shape[0])),
                         ticktext=labels[i], autorange="reversed", ticks="",
                         side="right" if outer_right else "left", row=1, col=i + 1)
    fig.update_traces(textfont_color="black")
    left = int(20 + widths[0])
    right = int(20 + widths[-1]) if n == 2 else 10
    below = int(20 + max(widths, default=0.0))  # the column labels, upright at worst
    top = 70 if any("\n" in title for title in titles) else 50
    fig.update_layout(font=FONT, height=max(300, top + 10 + below + 30 * size),
                      margin=dict(l=left, r=right, t=top, b=below))
    return fig


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable for MASK_FILL (-1e9) entries."""
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def masking_effect_figure(
    scores: np.ndarray, mask: np.ndarray, tokens: Sequence[str], *, lang: str
) -> go.Figure:
    """Four panels, two by two: scores and masked scores (-1e9) above, the softmax without
    and with the mask below, so each column compares without and with the mask.

    Two by two rather than four in a row: each panel gets half the width, so its numbers
    and the panels' titles stay apart, also in presenter mode.
    """
    t = Text(lang)
    masked = np.where(mask, scores, MASK_FILL)
    panels = [
        (t("fig.masks.scores"), scores),
        ("masked_fill(mask == 0, -1e9)", masked),
        (t("fig.masks.softmax_without"), softmax_rows(scores)),
        (t("fig.masks.softmax_with"), softmax_rows(masked)),
    ]
    labels = axis_labels(tokens)
    lim = float(np.abs(scores).max()) or 1.0
    n = len(tokens)
    panel = max(150, 28 * n)  # pixels per panel row
    size = label_size(n)
    # two panels side by side: each writes half as many column labels (`written`), in the
    # font of as many again side by side
    columns = tick_array(list(range(n)), labels, SIDE_BY_SIDE_ROOM)
    across = label_size(2 * len(columns["ticktext"]))
    columns["tickfont"] = dict(size=across) if across else None
    # the column labels under each panel: upright at worst (plotly picks the angle)
    label_px = int(20 + max((text_px(lab, across or TICK_SIZE)
                             for lab in columns["ticktext"]), default=0.0))
    # a panel is half the width (a phone: ~140 px): longer titles take two lines
    titles = [title_html(p[0], 160) for p in panels]
    two = 22 * max(title.count("<br>") for title in titles)
    top, gap, bottom = 40 + two, 50 + two + label_px, label_px
    plot = 2 * panel + gap
    fig = make_subplots(rows=2, cols=2, subplot_titles=titles,
                        horizontal_spacing=0.06, vertical_spacing=gap / plot)
    for i, (_, z) in enumerate(panels):
        row, col = i // 2 + 1, i % 2 + 1
        is_prob = i >= 2
        text = np.where(z == MASK_FILL, "-1e9", np.vectorize(lambda v: f"{v:.2f}")(z))
        fig.add_trace(
            go.Heatmap(
                z=np.clip(z, -lim, lim) if not is_prob else z,
                zmin=0 if is_prob else -lim,
                zmax=1 if is_prob else lim,
                colorscale="Blues" if is_prob else "RdBu",
                showscale=False,
                text=text,
                texttemplate="%{text}" if n <= 8 else None,  # sized by plotly to the cells
                x=list(range(n)), y=list(range(n)),
                hovertemplate=_qk_hover(t, ": %{text}"),
            ),
            row=row, col=col,
        )
        fig.update_xaxes(**columns, autotickangles=[-60, -90], ticks="", row=row, col=col)
        fig.update_yaxes(tickmode="array", tickvals=list(range(n)),  # same rows left, right
                         ticktext=labels, showticklabels=col == 1, ticks="",
                         tickfont_size=size, autorange="reversed", row=row, col=col)
    fig.update_layout(font=FONT, height=top + plot + bottom,
                      margin=dict(l=10, r=10, t=top, b=bottom))
    return fig


# ---- The examples' data (pure torch/numpy; the Masks page draws them) ----------------------


EXAMPLE_WORDS = ("a", "b", "c", "d")  # the padding example's words without a target
EFFECT_SCORES = attention_hook("decoder", 0, "self_attn", "hook_scores")  # (1, h, T, T)


def example_words(tokens: Sequence[str]) -> list[str]:
    """The padding example's words: the target's tokens after <s> (`tokens` is the decoder
    input), or a, b, c, d without any, repeated until there are at least four."""
    words = list(tokens[1:]) or list(EXAMPLE_WORDS)
    while len(words) < 4:
        words = words + words
    return words


@dataclass(frozen=True)
class PaddedPair:
    """Two sentences of different lengths padded into one batch, as `Batch` masks them."""

    batch: Batch  # src (2, width); tgt (2, width) decoder input, tgt_y the labels
    src_tokens: tuple[list[str], list[str]]  # each sentence's source row, <pad> included
    tgt_tokens: list[list[str]]  # each decoder input row, <pad> included
    lengths: tuple[int, int]  # the sentences' lengths, A then B

    @property
    def longer_src_tokens(self) -> list[str]:
        """The source row of the longer sentence (B when they are equal): the padding mask's
        column labels, with a word in every column the mask may allow."""
        len_a, len_b = self.lengths
        return self.src_tokens[1] if len_b >= len_a else self.src_tokens[0]


def padded_pair(words: Sequence[str], len_a: int, len_b: int) -> PaddedPair:
    """Sentences A and B of `len_a` and `len_b` tokens drawn from `words`, padded to one width.

    Each decoder input starts with <s> and has as many tokens as its sentence; a last
    column of <pad> is added for `Batch` to split off as the labels.
    """
    width = max(len_a, len_b)
    vocab = Vocab(list(words))
    src_rows, tgt_rows = [], []
    for n in (len_a, len_b):
        ids = vocab.encode([words[i % len(words)] for i in range(n)])
        src_rows.append(ids + [PAD] * (width - n))
        tgt_rows.append([BOS, *ids[: n - 1]] + [PAD] * (width - n))  # decoder input: n tokens
    labels = torch.full((2, 1), PAD)
    batch = Batch(torch.tensor(src_rows), torch.cat([torch.tensor(tgt_rows), labels], dim=1))
    return PaddedPair(batch, (vocab.decode(src_rows[0]), vocab.decode(src_rows[1])),
                      [vocab.decode(r.tolist()) for r in batch.tgt], (len_a, len_b))


def effect_scores(cache: Mapping[str, np.ndarray] | None, size: int) -> np.ndarray:
    """The (size, size) scores of the masking-effect example: head 0 of the learner's decoder
    self-attention in layer 0 (before masking) when there is a run (`cache`), else
    standard-normal numbers from seed 0."""
    if cache is not None:
        return cache[EFFECT_SCORES][0, 0]
    return np.random.default_rng(0).normal(size=(size, size))


def self_attention_example(blocked: bool, n: int = 4,
                           d_model: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """A walk-through's example, computed: attention(x, x, x) as (weights, scores), each (n, n),
    where x is the embedding (x sqrt(d_model)) plus positional encoding of tokens 1..n at
    d_model 512, with no projections, as the walk-through has it.

    blocked=False (no mask): a row's score with itself, |x|^2 / sqrt(d_model), is far above
    its scores with the others, so each row puts ~1 on its own position. blocked=True
    (every key masked): every score is MASK_FILL, so the softmax sees equal numbers and
    gives 1/n each (not NaN, as -inf would give).
    """
    gen = torch.Generator().manual_seed(0)
    # Only tokens 0..n are looked up: a table of n + 1 rows (the walk-through's has 10,000,
    # i.i.d. like these; building those on every rerun of the page would cost 0.1 s).
    embed = Embeddings(d_model, n + 1)
    with torch.no_grad():
        embed.lut.weight.normal_(generator=gen)  # nn.Embedding's own N(0, 1) initialisation
        x = PositionalEncoding(d_model, 0.0, max_len=n)(embed(torch.arange(1, n + 1)[None]))
    mask = torch.zeros(1, n, n, dtype=torch.bool) if blocked else None
    scores: dict[str, torch.Tensor] = {}

    def keep(name: str, value: torch.Tensor) -> torch.Tensor:
        scores[name] = value
        return value

    _, p = attention(x, x, x, mask=mask, hook=keep)  # (1, n, n)
    return p[0].detach().numpy(), scores["scores"][0].detach().numpy()


def minus_inf_weights(scores: np.ndarray) -> np.ndarray:
    """A walk-through's fill, computed: softmax of `scores` (n, n) with every key blocked by
    `masked_fill(mask == 0, float("-inf"))`: exp(-inf - (-inf)) is NaN, on every row."""
    s = torch.tensor(scores).masked_fill(torch.ones(scores.shape, dtype=torch.bool),
                                         float("-inf"))
    return s.softmax(-1).numpy()


def inverted_fill_weights(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A common mistake, computed: softmax of `scores` after `masked_fill(mask == 1, -1e9)`
    on the lower-triangular mask of 1s (this app's True = may attend). That blocks the past
    and the diagonal instead of the future; the last row, every key blocked, is uniform."""
    return softmax_rows(np.where(mask, MASK_FILL, scores))


# ---- A walk-through's claim: the -1e9 fill still lets "a little" of the future through ----

@dataclass(frozen=True)
class FillCheck:
    """Softmax of the scores with the blocked ones overwritten by `fill`, in `dtype`."""

    dtype: str  # "float32" or "float16"
    fill: float
    blocked: int  # how many weights the mask blocks
    exact_zeros: int  # how many of them are exactly 0.0 after the softmax
    largest: float | None  # the largest blocked weight; None when the fill cannot be written
    error: str | None = None  # torch's refusal, when `fill` does not fit in `dtype`


def underflow_below(dtype: torch.dtype) -> float:
    """The exponent below which torch.exp in `dtype` gives exactly 0 (to 0.01): softmax
    computes exp(score - row max), so a blocked weight is 0 when fill - max is below it."""
    lo, hi = -1000.0, 0.0  # exp(lo) == 0, exp(hi) == 1 in both dtypes
    while hi - lo > 1e-3:
        mid = (lo + hi) / 2
        if torch.exp(torch.tensor(mid, dtype=dtype)).item() > 0:
            hi = mid
        else:
            lo = mid
    return hi


def fill_check(scores: np.ndarray, mask: np.ndarray, fill: float,
               dtype: torch.dtype = torch.float32) -> FillCheck:
    """`scores.masked_fill(mask == 0, fill).softmax(-1)` computed by torch in `dtype`, as the
    model does: how many blocked weights are exactly 0, and the largest one."""
    name = str(dtype).removeprefix("torch.")
    blocked = ~np.asarray(mask, dtype=bool)
    s = torch.tensor(np.asarray(scores, dtype=np.float64), dtype=dtype)
    try:
        p = s.masked_fill(torch.from_numpy(blocked), fill).softmax(dim=-1)
    except RuntimeError as exc:  # the fill overflows the dtype
        return FillCheck(name, fill, int(blocked.sum()), 0, None, str(exc))
    leaked = p.double().numpy()[blocked]
    return FillCheck(name, fill, int(blocked.sum()), int((leaked == 0.0).sum()),
                     float(leaked.max()) if leaked.size else 0.0)


SMALL_FILL = -10.0  # a fill too small for scores of a few units


def fill_checks(scores: np.ndarray, mask: np.ndarray) -> list[FillCheck]:
    """The fill -1e9 in float32 (this app), a fill too small (SMALL_FILL), and float16 with
    -1e9 (it does not fit), with its own lowest number, and with SMALL_FILL."""
    f16_min = float(torch.finfo(torch.float16).min)  # -65504
    return [fill_check(scores, mask, MASK_FILL), fill_check(scores, mask, SMALL_FILL),
            fill_check(scores, mask, MASK_FILL, torch.float16),
            fill_check(scores, mask, f16_min, torch.float16),
            fill_check(scores, mask, SMALL_FILL, torch.float16)]


# ---- A walk-through's unsqueeze(0): the mask's head axis in the wrong place --------------------

@dataclass(frozen=True)
class HeadAxis:
    """One mask given a head axis with unsqueeze(1) (right) and unsqueeze(0) (wrong), each
    broadcast against the scores (batch, h, q_len, k_len)."""

    name: str
    mask: tuple[int, ...]
    scores: tuple[int, ...]
    right: tuple[int, ...]  # mask.unsqueeze(1)
    right_result: tuple[int, ...] | None  # the broadcast shape; None: the shapes do not fit
    wrong: tuple[int, ...]  # mask.unsqueeze(0)
    wrong_result: tuple[int, ...] | None
    wrong_same: bool  # unsqueeze(0) gives every head the same mask as unsqueeze(1) does


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    try:
        return tuple(torch.broadcast_shapes(a, b))
    except RuntimeError:
        return None


def head_axis(name: str, mask: torch.Tensor, scores: tuple[int, ...]) -> HeadAxis:
    """`mask`'s two unsqueezes and what broadcasting makes of each against `scores`.

    unsqueeze(0) puts the mask's batch axis where the heads are: torch refuses when the batch
    and h differ (neither 1); when they fit, head j of every sentence gets mask[j]. Only a
    batch of one gives every head the right mask."""
    right, wrong = mask.unsqueeze(1), mask.unsqueeze(0)
    return HeadAxis(name, tuple(mask.shape), tuple(scores), tuple(right.shape),
                    _broadcast(tuple(right.shape), scores), tuple(wrong.shape),
                    _broadcast(tuple(wrong.shape), scores), mask.size(0) == 1)


WALKTHROUGH_HEAD_MASK = dict(batch=2, h=8, seq=4)  # its test: 2 sentences, 8 heads, 4 tokens


def head_axis_rows(batch: Batch, h: int) -> list[HeadAxis]:
    """The padded pair's source mask (encoder self-attention) and target mask (decoder
    self-attention) with the model's h heads."""
    n, width = batch.src.shape
    t_len = batch.tgt.size(1)
    return [head_axis("src_mask", batch.src_mask, (n, h, width, width)),
            head_axis("tgt_mask", batch.tgt_mask, (n, h, t_len, t_len))]


def walkthrough_head_axis() -> tuple[HeadAxis, HeadAxis]:
    """The walk-through's test: its (h, seq, seq) mask of zeros, one matrix per *head*, which
    is why its unsqueeze(0) runs; and a per-sentence mask (batch, 1, seq) of the same sizes,
    with which it fails."""
    ex = WALKTHROUGH_HEAD_MASK
    scores = (ex["batch"], ex["h"], ex["seq"], ex["seq"])
    return (head_axis("walk", torch.zeros(ex["h"], ex["seq"], ex["seq"]), scores),
            head_axis("walk_batch", torch.ones(ex["batch"], 1, ex["seq"], dtype=torch.bool),
                      scores))


def shape_text(shape: Sequence[int] | None, *, lang: str) -> str:
    """(2, 1, 4) as text; None (shapes that do not broadcast) as the localized error."""
    t = Text(lang)
    if shape is None:
        return t("mask.unsqueeze_error")
    return "(" + ", ".join(map(str, shape)) + ")"


def head_axis_table(rows: Sequence[HeadAxis], *, lang: str) -> dict[str, list[str]]:
    """The unsqueeze(1) / unsqueeze(0) rows as table columns: each unsqueeze's shape, and
    after the arrow what broadcasting it with the scores gives."""
    t = Text(lang)

    def shape(value: Sequence[int] | None) -> str:
        return shape_text(value, lang=lang)

    def outcome(result: tuple[int, ...] | None, same: bool) -> str:
        if result is None or same:
            return shape(result)
        return t("mask.unsqueeze_mixed", shape=shape(result))

    return {t("mask.col_mask"): [t(f"mask.unsqueeze_{r.name}") for r in rows],
            t("mask.col_shape"): [shape(r.mask) for r in rows],
            t("mask.col_scores"): [shape(r.scores) for r in rows],
            "unsqueeze(1)": [f"{shape(r.right)} → {shape(r.right_result)}" for r in rows],
            "unsqueeze(0)": [f"{shape(r.wrong)} → {outcome(r.wrong_result, r.wrong_same)}"
                             for r in rows]}


def fill_text(fill: float) -> str:
    """-1e9 as "−1e9", -65504 as "−65504", -10 as "−10"."""
    text = f"{fill:.0e}".replace("e+0", "e") if abs(fill) >= 1e6 else f"{fill:g}"
    return text.replace("-", "−")


def fill_table(checks: Sequence[FillCheck], *, lang: str) -> dict[str, list[str]]:
    """The fill checks as table columns: dtype, fill, exact zeros, the largest blocked weight."""
    t = Text(lang)
    return {t("mask.col_dtype"): [c.dtype for c in checks],
            t("mask.col_fill"): [fill_text(c.fill) for c in checks],
            t("mask.col_zeros"): ["—" if c.error else f"{c.exact_zeros} / {c.blocked}"
                                  for c in checks],
            t("mask.col_largest"): [t("mask.leak_overflow") if c.error
                                    else ("0.0" if c.largest == 0 else f"{c.largest:.2e}")
                                    for c in checks]}


# ---- A mask as text (its text alternative, read from the same matrix) ---------------------


def _spans(indices: Sequence[int]) -> str:
    """Positions as runs: [0, 1, 2, 5] -> "0–2, 5"."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def mask_text(mask: np.ndarray, row_tokens: Sequence[str], *, lang: str,
              row_noun: str | None = None) -> list[str]:
    """A boolean mask (True = may attend), (rows, cols), as a sentence per row: which
    columns it may attend to and which are blocked. Plain text (the tokens are the
    learner's): the page shows it as written."""
    t = Text(lang)
    noun = row_noun if row_noun is not None else t("fig.masks.query_axis")
    lines = []
    for r, row in enumerate(np.asarray(mask, dtype=bool)):
        label = f"{head_word(noun)} {r} \u201c{row_tokens[r]}\u201d"
        allowed, blocked = np.flatnonzero(row).tolist(), np.flatnonzero(~row).tolist()
        line = t("a11y.mask_row", row=label, allowed=_spans(allowed) or t("a11y.none"))
        if blocked:
            line = t.sentences(line, t("a11y.mask_blocked", blocked=_spans(blocked)))
        lines.append(line)
    return lines
