"""Mask figures: boolean matrices with token labels, and masking's effect on softmax."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import torch
from plotly.subplots import make_subplots

from transformer.model import (
    MASK_FILL,
    Embeddings,
    PositionalEncoding,
    attention,
    attention_hook,
)
from transformer.tokenize import BOS, PAD, Vocab
from transformer.train import Batch

from ..i18n import t
from .common import (
    FONT,
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
    title_html,
)

ALLOWED = "#2e86c1"
BLOCKED = "#ecf0f1"


def mask_figure(
    mask: np.ndarray,
    row_tokens: Sequence[str],
    col_tokens: Sequence[str],
    title: str = "",
    *,
    blocked_is_one: bool = False,
    row_noun: str | None = None,
    col_noun: str | None = None,
) -> go.Figure:
    """A boolean mask (True = may attend) drawn as 1/0 cells with token axes.

    With `blocked_is_one`, the numbers follow the opposite convention (1 = masked), but the
    colours still show where attention is allowed. The axis titles default to query (rows)
    and key (columns); the hover text uses their first word ("query 2 → key 1").
    """
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
    # width leaves no room: plotly picks the angle, and makes room above them): the top
    # margin holds the longest, the right margin whatever the last ones reach past the last
    # column (plotly hides a tick label that would leave the figure).
    size = label_size(len(cols)) or TICK_SIZE
    widths = [0.71 * text_px(lab, size) for lab in cols] or [0.0]
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
        xaxis=dict(tickmode="array", tickvals=list(range(mask.shape[1])),
                   ticktext=cols, side="top", autotickangles=[-45, -90], ticks="",
                   tickfont=dict(size=label_size(len(cols))) if label_size(len(cols))
                   else None,
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


def _qk_hover(suffix: str = "") -> str:
    """"query %{y} → key %{x}" in the run's language, then `suffix`."""
    return (f"{t('fig.masks.query')} %{{y}} → {t('fig.masks.key')} %{{x}}{suffix}"
            "<extra></extra>")


def batch_masks_figure(
    masks: np.ndarray, tokens: Sequence[Sequence[str]], titles: Sequence[str]
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
                hovertemplate=_qk_hover(),
            ),
            row=1, col=i + 1,
        )
        outer_right = n == 2 and i == 1
        fig.update_xaxes(tickmode="array", tickvals=list(range(m.shape[1])),
                         ticktext=labels[i], tickangle=-45, ticks="", row=1, col=i + 1)
        fig.update_yaxes(tickmode="array", tickvals=list(range(m.shape[0])),
                         ticktext=labels[i], autorange="reversed", ticks="",
                         side="right" if outer_right else "left", row=1, col=i + 1)
    fig.update_traces(textfont_color="black")
    left = int(20 + widths[0])
    right = int(20 + widths[-1]) if n == 2 else 10
    below = int(20 + 0.71 * max(widths, default=0.0))  # the rotated column labels
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
    scores: np.ndarray, mask: np.ndarray, tokens: Sequence[str]
) -> go.Figure:
    """Four panels, two by two: scores and masked scores (-1e9) above, the softmax without
    and with the mask below, so each column compares without and with the mask.

    Two by two rather than four in a row: each panel gets half the width, so its numbers
    and the panels' titles stay apart, also in presenter mode.
    """
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
    # the column labels under each panel: upright at worst (plotly picks the angle)
    label_px = int(20 + max((text_px(lab, size or TICK_SIZE) for lab in labels), default=0.0))
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
                hovertemplate=_qk_hover(": %{text}"),
            ),
            row=row, col=col,
        )
        fig.update_xaxes(tickmode="array", tickvals=list(range(n)), ticktext=labels,
                         autotickangles=[-60, -90], ticks="", tickfont_size=size,
                         row=row, col=col)
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


def inverted_fill_weights(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A common mistake, computed: softmax of `scores` after `masked_fill(mask == 1, -1e9)`
    on the lower-triangular mask of 1s (this app's True = may attend). That blocks the past
    and the diagonal instead of the future; the last row, every key blocked, is uniform."""
    return softmax_rows(np.where(mask, MASK_FILL, scores))
