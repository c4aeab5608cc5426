"""Decoding with a trained (or untrained) model, step by step, and its attention.

Pure Python and torch. The model is only read (it may be shared): every function here
refuses a model in train mode instead of switching its mode.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from transformer.hook_paths import AttentionModule, Stack, attention_hook
from transformer.model import EncoderDecoder, subsequent_mask
from transformer.tasks import Task
from transformer.tokenize import BOS, PAD
from transformer.train import (
    BeamResult,
    DecodeStep,
    Hypothesis,
    beam_search,
    decode_steps,
    length_penalty,
)

from ..core.checkpoint import LoadedCheckpoint
from ..text.i18n import t
from .task import answer


@dataclass(frozen=True)
class DecodeView:
    """One decoder step: what it read, what it predicts, and its attention weights."""

    prefix: tuple[str, ...]  # decoder input: <s> y1 .. y(k-1)
    probs: np.ndarray  # (V,) next-token probabilities
    next_token: str
    self_attn: np.ndarray  # (N, h, k, k) decoder self-attention of the prefix
    cross_attn: np.ndarray  # (N, h, k, src_len)

    def attention(self, layer: int, head: int | None) -> tuple[np.ndarray, np.ndarray]:
        """(self, cross) attention of one layer: one head's, or the mean of all (head None)."""
        if head is None:
            return self.self_attn[layer].mean(0), self.cross_attn[layer].mean(0)
        return self.self_attn[layer, head], self.cross_attn[layer, head]


@dataclass(frozen=True)
class Decoding:
    """Greedy decoding of one input, step by step."""

    src: tuple[str, ...]  # what the encoder read: the input, then </s>
    itos: tuple[str, ...]
    steps: tuple[DecodeView, ...]
    enc_attn: np.ndarray  # (N, h, src_len, src_len)

    @property
    def output(self) -> tuple[str, ...]:
        """Every token produced, up to and including </s> if it came."""
        return tuple(s.next_token for s in self.steps)


def source_tokens(tokens: Sequence[str]) -> list[str]:
    """What the encoder reads for an input of the task: the symbols, then </s>."""
    return [*tokens, "</s>"]


def _encode_src(task: Task, tokens: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    src = torch.tensor([task.source_ids(task.vocab.encode(list(tokens)))])
    return src, (src != PAD).unsqueeze(-2)


def _layers(cache: dict, stack: Stack, module: AttentionModule, n: int) -> np.ndarray:
    """The attention weights of every layer: (n, h, q_len, k_len), batch item 0."""
    return np.stack([cache[attention_hook(stack, i, module, "hook_pattern")][0].float().numpy()
                     for i in range(n)])


def _check_readable(model: EncoderDecoder) -> None:
    """Models handed to the read-only helpers may be shared: never switch their mode here."""
    if model.training:
        raise ValueError("Expected a model in eval mode (call .eval() on your own copy first).")


def decode_input(model: EncoderDecoder, task: Task, tokens: Sequence[str]) -> Decoding:
    """Greedy-decode `tokens` (task symbols) with an eval-mode `model` (it is only read)."""
    _check_readable(model)
    src, src_mask = _encode_src(task, tokens)
    enc_cache, steps = decode_steps(model, src, src_mask, max_len=task.target_len)
    return _decoding(model, source_tokens(tokens), tuple(task.vocab.itos), enc_cache, steps)


def decode_checkpoint(loaded: LoadedCheckpoint, src_tokens: Sequence[str],
                      max_len: int) -> Decoding:
    """Greedy-decode `src_tokens` (already in the checkpoint's vocabulary, ending as its
    training data did) with a loaded checkpoint's model, at most `max_len` tokens.

    Its special tokens are looked up by name: an imported vocabulary need not put <s> and
    </s> where this app's tasks do (The Annotated Transformer's does not).
    """
    _check_readable(loaded.model)
    src, src_mask = _checkpoint_src(loaded, src_tokens)
    tgt_specials = loaded.special_ids("tgt")
    enc_cache, steps = decode_steps(loaded.model, src, src_mask, max_len=max_len,
                                    start_symbol=loaded.start_id(),
                                    end_symbol=tgt_specials.get("eos"))
    return _decoding(loaded.model, list(src_tokens), tuple(loaded.tgt_vocab), enc_cache, steps)


def _checkpoint_src(loaded: LoadedCheckpoint,
                    src_tokens: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """`src_tokens` in the checkpoint's source vocabulary: (src (1, src_len), mask (1, 1,
    src_len)); unknown tokens read as its <unk>, and without a <pad> nothing is masked."""
    src_specials = loaded.special_ids("src")
    src = torch.tensor([loaded.src_ids(src_tokens)])  # (1, src_len)
    pad = src_specials.get("pad")
    src_mask = (src != pad).unsqueeze(-2) if pad is not None else torch.ones(
        1, 1, src.size(1), dtype=torch.bool)  # (1, 1, src_len)
    return src, src_mask


def _decoding(model: EncoderDecoder, src: list[str], itos: tuple[str, ...],
              enc_cache: dict, steps: list[DecodeStep]) -> Decoding:
    """What `decode_steps` computed, as names and numpy arrays for the page."""
    n = model.config.N if model.config is not None else len(model.encoder.layers)
    views = tuple(
        DecodeView(
            prefix=tuple(itos[i] for i in s.ys),
            probs=s.log_probs.exp().float().numpy(),
            next_token=itos[s.next_id],
            self_attn=_layers(s.cache, "decoder", "self_attn", n),
            cross_attn=_layers(s.cache, "decoder", "src_attn", n),
        )
        for s in steps
    )
    return Decoding(tuple(src), itos, views, _layers(enc_cache, "encoder", "self_attn", n))


# ---- Beam search beside greedy decoding --------------------------------------------------

BEAM_RANGE = (1, 8)  # the widget's limits: 8 already shows the beam's whole idea
DEFAULT_BEAM = 4  # the paper's beam size (section 6.1)
ALPHA_RANGE = (0.0, 1.5)
DEFAULT_ALPHA = 0.6  # the paper's length-penalty alpha (section 6.1)


def parse_beam_size(value: object) -> int | None:
    """A beam size from a widget's session value: an int in BEAM_RANGE, else None.

    Streamlit checks a slider's limits in the browser only; a value set by other means
    (a forged session value) may be anything, and a bool is an int to Python.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if BEAM_RANGE[0] <= value <= BEAM_RANGE[1] else None


def parse_alpha(value: object) -> float | None:
    """An alpha from a widget's session value: a finite number in ALPHA_RANGE, else None.

    Text ("0.6") and bools are refused, not converted: only the slider's own values pass.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    if not math.isfinite(number) or not ALPHA_RANGE[0] <= number <= ALPHA_RANGE[1]:
        return None
    return number


@dataclass(frozen=True)
class BeamNode:
    """One hypothesis of beam search, in tokens (see transformer.train.Hypothesis)."""

    tokens: tuple[str, ...]  # <s> y1 .. yt
    log_prob: float  # log P(y1 .. yt)
    score: float  # log_prob / lp(t)
    parent: int | None  # its prefix's index in the previous step (step 1: the root <s>)
    kept: bool  # stayed in the beam; False: pruned at this step
    finished: bool  # ends with </s>

    @property
    def length(self) -> int:
        """|Y|: the tokens after <s>, </s> included (what the length penalty counts)."""
        return len(self.tokens) - 1


@dataclass(frozen=True)
class BeamDecoding:
    """A beam search of one input: every step's candidates and the final ranking."""

    steps: tuple[tuple[BeamNode, ...], ...]  # per step: kept ones best first, then pruned
    final: tuple[BeamNode, ...]  # best score first
    beam_size: int
    alpha: float

    @property
    def output(self) -> tuple[str, ...]:
        """The best hypothesis after <s>, as `Decoding.output` reads greedy decoding's."""
        return self.final[0].tokens[1:] if self.final else ()


def _beam_decoding(result: BeamResult, itos: Sequence[str]) -> BeamDecoding:
    """`beam_search`'s ids as names, for the page."""
    def node(h: Hypothesis) -> BeamNode:
        return BeamNode(tuple(itos[i] for i in h.tokens), h.log_prob, h.score, h.parent,
                        h.kept, h.finished)

    return BeamDecoding(tuple(tuple(node(h) for h in step) for step in result.steps),
                        tuple(node(h) for h in result.final), result.beam_size, result.alpha)


def beam_input(model: EncoderDecoder, task: Task, tokens: Sequence[str], beam_size: int,
               alpha: float) -> BeamDecoding:
    """Beam-search `tokens` with an eval-mode `model` (only read), as long as
    `decode_input` lets greedy decoding run, so that beam size 1 gives its answer."""
    _check_readable(model)
    src, src_mask = _encode_src(task, tokens)
    result = beam_search(model, src, src_mask, max_len=task.target_len, beam_size=beam_size,
                         alpha=alpha)
    return _beam_decoding(result, task.vocab.itos)


def beam_checkpoint(loaded: LoadedCheckpoint, src_tokens: Sequence[str], max_len: int,
                    beam_size: int, alpha: float) -> BeamDecoding:
    """Beam-search `src_tokens` with a loaded checkpoint's model, as `decode_checkpoint`
    decodes it greedily (its own special tokens, at most `max_len` tokens)."""
    _check_readable(loaded.model)
    src, src_mask = _checkpoint_src(loaded, src_tokens)
    tgt_specials = loaded.special_ids("tgt")
    # no </s> in its vocabulary: an id no token has, so hypotheses run to max_len as greedy's do
    eos = tgt_specials.get("eos", -1)
    result = beam_search(loaded.model, src, src_mask, max_len=max_len, beam_size=beam_size,
                         alpha=alpha, start_symbol=loaded.start_id(), end_symbol=eos)
    return _beam_decoding(result, loaded.tgt_vocab)


@dataclass(frozen=True)
class BeamVsGreedy:
    """Beam search's best answer against greedy decoding's, in numbers."""

    agree: bool
    step: int | None  # the first step (1 = the token after <s>) where they differ
    greedy_log_prob: float
    greedy_score: float  # scored as beam search scores: log P / lp(|Y|, alpha)
    beam_log_prob: float
    beam_score: float


def compare_with_greedy(beam: BeamDecoding, greedy: Decoding) -> BeamVsGreedy:
    """Where beam search's best answer first leaves greedy decoding's, and both scores."""
    ours, theirs = beam.output, greedy.output
    pairs = zip(ours, theirs, strict=False)  # the shorter answer ends the comparison
    step = next((i + 1 for i, (a, b) in enumerate(pairs) if a != b), None)
    if step is None and len(ours) != len(theirs):  # one is the other's beginning
        step = min(len(ours), len(theirs)) + 1
    # greedy picks the most probable token, so each step's log P is log max p
    greedy_log_prob = float(sum(math.log(float(view.probs.max())) for view in greedy.steps))
    best = beam.final[0]
    return BeamVsGreedy(
        agree=step is None, step=step, greedy_log_prob=greedy_log_prob,
        greedy_score=greedy_log_prob / length_penalty(len(theirs), beam.alpha),
        beam_log_prob=best.log_prob, beam_score=best.score)


def answer_text(tokens: Sequence[str], joiner: str = " ") -> str:
    """An answer as text: its tokens joined by `joiner` ("" for the date task's characters),
    with a final </s> set apart so that it never reads as part of the last token."""
    ended = len(tokens) > 0 and tokens[-1] == "</s>"
    body = joiner.join(tokens[:-1] if ended else tokens)
    return " ".join(part for part in (body, "</s>" if ended else "") if part)


def beam_ranking_rows(beam: BeamDecoding, joiner: str = " ") -> dict[str, list]:
    """The final ranking as table columns: rank, the answer, log P, |Y|, lp, score."""
    rows = beam.final
    return {
        t("beam.col_rank"): list(range(1, len(rows) + 1)),
        t("beam.col_tokens"): [answer_text(node.tokens[1:], joiner) for node in rows],
        t("beam.col_log_prob"): [round(node.log_prob, 4) for node in rows],
        t("beam.col_length"): [node.length for node in rows],
        t("beam.col_lp"): [round(length_penalty(node.length, beam.alpha), 4) for node in rows],
        t("beam.col_score"): [round(node.score, 4) for node in rows],
    }


def top_tokens(probs: np.ndarray, itos: Sequence[str], k: int = 10) -> list[tuple[str, float]]:
    """The k most likely next tokens, most likely first."""
    order = np.argsort(-probs, kind="stable")[:k]
    return [(itos[i], float(probs[i])) for i in order]


def attention_pattern(
    model: EncoderDecoder, task: Task, tokens: Sequence[str], kind: str,
    expected: Sequence[str] | None = None,
) -> tuple[np.ndarray, list[str], list[str]]:
    """Last layer's attention, averaged over heads, with the correct answer fed in.

    kind "cross": rows are the decoder input `<s> y1 .. ym` (teacher forcing with the
    task's answer, or `expected`), columns the source; kind "enc": the source against itself.
    """
    _check_readable(model)
    n = model.config.N if model.config is not None else len(model.encoder.layers)
    src, src_mask = _encode_src(task, tokens)
    tgt_tokens = ["<s>", *(answer(task, tokens) if expected is None else expected)]
    tgt = torch.tensor([[BOS, *task.vocab.encode(tgt_tokens[1:])]])
    _, cache = model.run_with_cache(src, tgt, src_mask, subsequent_mask(tgt.size(1)))
    last = n - 1
    if kind == "enc":
        w = cache[attention_hook("encoder", last, "self_attn", "hook_pattern")][0]
        return w.mean(0).float().numpy(), source_tokens(tokens), source_tokens(tokens)
    w = cache[attention_hook("decoder", last, "src_attn", "hook_pattern")][0]
    return w.mean(0).float().numpy(), tgt_tokens, source_tokens(tokens)


def teacher_forcing_rows(task: Task, tokens: Sequence[str],
                         expected: Sequence[str] | None = None) -> dict[str, list[str]]:
    """The decoder input and the labels for `tokens`, as `Batch` builds tgt and tgt_y;
    `expected` is the answer (default: the toy task's rule, `answer`)."""
    target = ["<s>", *(answer(task, tokens) if expected is None else expected), "</s>"]
    return {t("train.col_position"): [str(i) for i in range(len(target) - 1)],
            t("train.col_input"): target[:-1], t("train.col_label"): target[1:]}
