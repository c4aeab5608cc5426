"""The lessons the app ships (lessons/*.json), read as the app reads them: each parses, is
written in English and Chinese, gives every page the view its notes describe, asks questions
the model shown can answer clearly, and every number its texts state is what the code computes
for the model that step shows (the FACTS table: step -> the fact -> how it is computed).

Rerun: `.venv/bin/python -m pytest -q tests/test_lesson_content.py`. No browser: each step's
view is read with `params_to_state` and turned into the page's context as the sidebar does.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from explorer.app.context import Context, build_context
from explorer.app.sources import answer_tokens, resolve_source, shipped_dates
from explorer.core.exports import model_vocabs
from explorer.core.kinds import KINDS, AttentionKind
from explorer.core.settings import SETTING_NAMES, parse_settings
from explorer.core.shape_table import ShapeRow, filter_rows, shape_rows
from explorer.core.sized import CONFIG_SIZES, WALK_SIZES, SizedModel, sized_config, sized_model
from explorer.figures.attention import GRID_CELL_BUDGET, patterns, scaling_effect
from explorer.figures.masks import PaddedPair, example_words, head_axis_rows, padded_pair
from explorer.state.lesson import (
    MAX_LINK_CHARS,
    SHIPPED,
    SHIPPED_DIR,
    Lesson,
    Step,
    dumps,
    from_link,
    parse_lesson,
    shipped,
    to_link,
)
from explorer.state.urlstate import params_to_state
from explorer.state.view import BY_KEY, MODEL_SOURCE_KEY, SIZED_KEY, SIZED_URL
from explorer.text.glossary import misnamed_pages, misused_terms
from explorer.text.i18n import LANGS, TABLES
from transformer.hook_paths import generator_hook
from transformer.model import MASK_FILL, DecoderLayer, MultiHeadedAttention, subsequent_mask

ATTENTION, MASKS = SHIPPED  # "attention_step_by_step", "masks_and_shapes"
DATE = "Nov 23, 2026"  # the attention lesson's sentence, read by the date translator
SENTENCE = "the cat sat on the mat"  # the masks lesson's, read by the untrained tiny model
STEPS_RANGE = (6, 9)  # steps per lesson
QUESTIONS_RANGE = (2, 4)  # questions per lesson
CLEAR_MARGIN = 0.05  # an attention question's top weight beats the second by at least this


@functools.cache
def lesson(name: str) -> Lesson:
    return shipped(name)


# ---- What a step shows: its view, read as a link is, and the page's context ------------------


@dataclass(frozen=True)
class Shown:
    """A step's view as its page gets it: the widgets' values and the context of the model."""

    step: Step
    state: dict[str, Any]
    notices: tuple[str, ...]
    ctx: Context

    # -- the Attention page (pages/attention.py) --
    @property
    def kind(self) -> AttentionKind:
        return KINDS[self.state.get("attn_kind", BY_KEY["attn_kind"].default)]

    @property
    def layer(self) -> int:
        return self.state.get("attn_layer", 0)

    @property
    def head(self) -> int:
        return self.state.get("attn_head", 0)

    def tokens(self, side: str) -> list[str]:
        """"src": the source tokens; "tgt": the decoder input (<s> first), as the page has them."""
        return list(self.ctx.tokens.src_tokens if side == "src" else self.ctx.tokens.tgt_in_tokens)

    @property
    def q_tok(self) -> list[str]:
        return self.tokens(self.kind.queries)

    @property
    def k_tok(self) -> list[str]:
        return self.tokens(self.kind.keys)

    @property
    def weights(self) -> np.ndarray:
        """The weights the page draws: patterns(run.cache, kind, N), (N, h, q_len, k_len)."""
        return patterns(self.ctx.run().cache, self.kind, self.ctx.cfg.N)

    def point(self, name: str, head: int | None = None) -> np.ndarray:
        """One head's tensor at a hook point of the view's attention (the focus section's)."""
        head = self.head if head is None else head
        return self.ctx.run().cache[self.kind.hook(self.layer, name)][0, head]

    @property
    def scaling(self) -> dict[str, float]:
        """The page's caption under the scores: scaling_effect of the focused head."""
        return scaling_effect(self.point("hook_scores"), self.point("hook_masked_scores"),
                              self.ctx.cfg.d_k)

    # -- the Masks page (pages/masks.py) --
    @property
    def subsequent(self) -> np.ndarray:
        """The subsequent mask the page draws: of the size asked for, else the decoder input's."""
        size = self.state.get("mask_size") or len(self.tokens("tgt"))
        return subsequent_mask(size)[0].numpy()

    @property
    def pair(self) -> PaddedPair:
        """The padding example of the page: two sentences of the lengths asked for."""
        return padded_pair(example_words(self.tokens("tgt")), self.state["mask_len_a"],
                           self.state["mask_len_b"])

    # -- the Shapes page (pages/shapes.py) --
    @property
    def shape_rows(self) -> list[ShapeRow]:
        """The rows the page's table shows through its three filters."""
        rows = shape_rows(self.ctx.run().cache, self.ctx.cfg)
        return filter_rows(rows, self.state["shape_stack"], self.state["shape_layer"],
                           self.state["shape_attn"])

    def shape_of(self, suffix: str) -> tuple[int, ...]:
        (row,) = [r for r in self.shape_rows if r.name.endswith(suffix)]
        return row.shape

    # -- the Model page's "at sizes of your own" (explorer/sections/sized.py) --
    @property
    def sizes(self) -> dict[str, int]:
        return {name: self.state.get(SIZED_KEY + name, WALK_SIZES[name]) for name in WALK_SIZES}

    @property
    def sized(self) -> SizedModel:
        s = self.sizes
        return sized_model(sized_config(**{n: s[n] for n in CONFIG_SIZES}), s["batch"],
                           s["length"])

    def sized_step(self, point: str) -> tuple[int, ...]:
        return dict(self.sized.attention)[point]

    def sized_weight(self, kind: str) -> tuple[int, ...]:
        names = ("src_embed", "tgt_embed", "w_q", "w_k", "w_v", "w_o", "generator")
        return self.sized.weights[names.index(kind)][1]


@functools.cache
def shown(name: str, index: int) -> Shown:
    """Step `index` of lesson `name` as its page gets it: the view read as a link is
    (`params_to_state`), the sidebar's settings parsed, the model source resolved and the
    context built as explorer/app/sidebar.py does (the date translator answers a blank target)."""
    step = lesson(name).steps[index]
    state, notices = params_to_state(step.view)
    settings = parse_settings({k: state[k] for k in SETTING_NAMES})
    source, loaded, _ = resolve_source(state.get(MODEL_SOURCE_KEY), None, None)
    answer = (lambda src: answer_tokens(loaded, src)) if source == "dates" else None
    ctx = build_context(settings, loaded, source=source, answer=answer)
    return Shown(step, state, tuple(notices), ctx)


def every_step() -> list[tuple[str, int]]:
    return [(name, i) for name in SHIPPED for i in range(len(lesson(name).steps))]


def shape(dims: tuple[int, ...] | Any) -> str:
    """(2, 1, 4) as the lessons write a shape."""
    return "(" + ", ".join(str(int(d)) for d in tuple(dims)) + ")"


def by(rows: int, cols: int) -> str:
    """11 × 16 as the lessons write a matrix's size."""
    return f"{rows} × {cols}"


def texts_of(step: Step, lang: str) -> list[str]:
    """A step's note, and its question's prompt and explanation, in `lang`."""
    out = [step.note.get(lang, "")]
    if step.question is not None:
        out += [step.question.prompt.get(lang, ""), step.question.explain.get(lang, "")]
    return [x for x in out if x]


def all_texts(name: str) -> list[tuple[str, str, str]]:
    """(where, lang, text) of every text of a lesson: title, notes, prompts, options, explains."""
    found = []
    les = lesson(name)
    for lang in LANGS:
        found.append(("title", lang, les.title.get(lang, "")))
        for i, step in enumerate(les.steps):
            found.append((f"step {i + 1} note", lang, step.note.get(lang, "")))
            q = step.question
            if q is None:
                continue
            found += [(f"step {i + 1} prompt", lang, q.prompt.get(lang, "")),
                      (f"step {i + 1} explain", lang, q.explain.get(lang, ""))]
            found += [(f"step {i + 1} option {j + 1}", lang, o.get(lang, ""))
                      for j, o in enumerate(q.options)]
    return found


# ---- The files ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_lesson_reads_as_any_lesson_file_and_fits_in_a_link(name):
    assert (SHIPPED_DIR / f"{name}.json").is_file()
    les = shipped(name)  # raises LessonError if anything is refused
    assert len(to_link(les)) <= MAX_LINK_CHARS
    low, high = STEPS_RANGE
    assert low <= len(les.steps) <= high
    asked = [s.question for s in les.steps if s.question is not None]
    low, high = QUESTIONS_RANGE
    assert low <= len(asked) <= high
    kinds = {q.kind for q in asked}
    assert "choice" in kinds and (name != ATTENTION or "attention" in kinds)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_lesson_comes_back_whole_from_its_link_and_its_file(name):
    les = shipped(name)  # its attention questions have an explanation of their own
    assert from_link(to_link(les)) == les
    assert parse_lesson(dumps(les)) == les


@pytest.mark.parametrize("name", SHIPPED)
def test_every_text_is_written_in_english_and_in_chinese(name):
    for where, lang, text in all_texts(name):
        assert text.strip(), f"{name}, {where}: no {lang} text"
    for i, step in enumerate(lesson(name).steps):
        assert set(step.note) == set(LANGS), f"{name}, step {i + 1}"
        if step.question is not None and step.question.kind == "choice":
            # the options are numbers and shapes: the same in both languages, in the same order
            assert all(o["en"] == o["zh"] for o in step.question.options)


ENGLISH_END = re.compile(r"[.!?](?=\s|$)")
CHINESE_END = re.compile(r"[。！？]")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_note_is_two_to_four_sentences(name):
    for i, step in enumerate(lesson(name).steps):
        en, zh = step.note["en"], step.note["zh"]
        assert 2 <= len(ENGLISH_END.findall(en)) <= 4 and en.rstrip().endswith("."), (name, i)
        assert 2 <= len(CHINESE_END.findall(zh)) <= 4 and zh.rstrip().endswith("。"), (name, i)


# The app shows every text as typed (i18n.plain escapes markdown), so a special character
# would show as itself: only the ones meant are allowed. The tokens' own names (<s>, </s>,
# <pad>) and code names with an underscore (d_k, src_mask) are meant; nothing else is.
MEANT = re.compile(r"</?s>|<pad>|\b[A-Za-z]\w*_\w+\b")
NOT_MEANT = re.compile(r"[*`#\[\]{}|~$\\_<>]|&#?\w+;|https?:|www\.|@")
LINE_MARKUP = re.compile(r"^\s*(?:[-+*>#]|\d+[.)])\s", re.M)  # a list, a heading, a quote


@pytest.mark.parametrize("name", SHIPPED)
def test_texts_hold_no_markdown_or_html_they_do_not_mean(name):
    for where, lang, text in all_texts(name):
        rest = MEANT.sub(" ", text)
        assert not NOT_MEANT.search(rest), f"{name}, {where} ({lang}): {NOT_MEANT.search(rest)}"
        assert not LINE_MARKUP.search(text), f"{name}, {where} ({lang})"
        assert "\n" not in text  # one paragraph each


@pytest.mark.parametrize("name", SHIPPED)
def test_the_chinese_texts_use_the_glossarys_words_and_the_english_says_later(name):
    for where, lang, text in all_texts(name):
        if lang == "zh":
            assert misused_terms(text) == [], f"{name}, {where}: {misused_terms(text)}"
            assert misnamed_pages(text) == [], f"{name}, {where}"
            if "option" not in where:  # the options are numbers and shapes
                assert re.search(r"[\u4e00-\u9fff]", text), f"{name}, {where}: not Chinese"
        else:  # the glossary: English says later positions, not future ones
            assert "future" not in text.lower(), f"{name}, {where}"


# ---- The views: each step gives its page the state it describes -----------------------------

ATTENTION_VIEWS = {  # step -> (page, the Attention page's (kind, layer, head), or None)
    0: ("model", None), 1: ("attention", ("enc", 0, 1)), 2: ("attention", ("enc", 0, 1)),
    3: ("masks", None), 4: ("attention", ("dec", 0, 1)), 5: ("attention", ("dec", 1, 0)),
    6: ("attention", ("enc", 0, 3)), 7: ("attention", ("cross", 1, 0)), 8: ("model", None),
}
MASK_VIEWS = {  # step -> (page, the widgets' values its note describes)
    0: ("masks", {"mask_size": 5}),
    1: ("masks", {"mask_len_a": 3, "mask_len_b": 4}),
    2: ("masks", {"mask_len_a": 2, "mask_len_b": 5}),
    3: ("shapes", {"shape_stack": "Encoder", "shape_layer": "layer 0", "shape_attn": True}),
    4: ("shapes", {"shape_stack": "Decoder", "shape_layer": "layer 0", "shape_attn": True}),
    5: ("model", {SIZED_KEY + n: v for n, v in WALK_SIZES.items()}),
    6: ("model", {SIZED_KEY + n: v for n, v in {**WALK_SIZES, "d_v": 32}.items()}),
}


def test_the_tables_cover_every_step():
    assert set(ATTENTION_VIEWS) == set(range(len(lesson(ATTENTION).steps)))
    assert set(MASK_VIEWS) == set(range(len(lesson(MASKS).steps)))


@pytest.mark.parametrize("name, index", every_step())
def test_every_view_reads_without_a_notice_and_its_page_can_draw_it(name, index):
    s = shown(name, index)
    assert s.notices == ()
    assert s.ctx.ok and s.ctx.text_error is None and s.ctx.arch_error is None
    assert set(s.step.view) <= set(
        {"model", "src", "kind", "layer", "head", "ms", "la", "lb", "part", "sl", "sattn",
         *SIZED_URL.values()})  # only what the lessons mean to set: no stray setting


@pytest.mark.parametrize("index", sorted(ATTENTION_VIEWS))
def test_the_attention_lesson_shows_the_date_translator_reading_its_date(index):
    s = shown(ATTENTION, index)
    page, focus = ATTENTION_VIEWS[index]
    assert s.step.page == page
    assert s.state[MODEL_SOURCE_KEY] == "dates" and s.ctx.source == "dates"
    assert s.ctx.loaded is shipped_dates() and s.state["source"] == DATE
    loaded = s.ctx.loaded
    assert all(tok in loaded.src_vocab for tok in s.ctx.tokens.src_tokens)  # no unknown token
    assert s.ctx.answered  # the decoder reads the model's own answer
    if focus is not None:
        kind, layer, head = focus
        assert (s.state["attn_kind"], s.state["attn_layer"], s.state["attn_head"]) == focus
        assert (s.kind.key, s.layer, s.head) == (kind, layer, head)
        assert 0 <= layer < s.ctx.cfg.N and 0 <= head < s.ctx.cfg.h


@pytest.mark.parametrize("index", sorted(MASK_VIEWS))
def test_the_masks_lesson_shows_the_untrained_model_at_the_sizes_it_names(index):
    s = shown(MASKS, index)
    page, widgets = MASK_VIEWS[index]
    assert s.step.page == page
    assert s.ctx.source == "untrained" and s.ctx.loaded is None
    assert {k: s.state.get(k) for k in widgets} == widgets
    if page != "model":
        assert s.state["source"] == SENTENCE


# ---- The questions ----------------------------------------------------------------------------

# An attention question's answer is read from the live model; the explanations the lessons add
# rely on which key wins: step -> (key position, key token, why it is that one).
ATTENTION_ANSWERS = {
    (ATTENTION, 2): (0, "N", "o's largest score"),
    (ATTENTION, 7): (3, "2", "the first digit of the day in the source"),
}


def attention_steps() -> list[tuple[str, int]]:
    return [(n, i) for n, i in every_step()
            if (q := lesson(n).steps[i].question) is not None and q.kind == "attention"]


def test_every_attention_question_has_its_answer_pinned():
    assert set(attention_steps()) == set(ATTENTION_ANSWERS)


# A "which token comes next?" question's answer is read from the live model too: step ->
# (the decoder position, the token the explanation says it writes)
NEXT_ANSWERS = {(ATTENTION, 8): (6, "1")}


def test_every_next_question_has_its_answer_pinned_and_it_is_clear():
    asked = {(n, i) for n, i in every_step()
             if (q := lesson(n).steps[i].question) is not None and q.kind == "next"}
    assert asked == set(NEXT_ANSWERS)
    for (name, index), (query, token) in NEXT_ANSWERS.items():
        s = shown(name, index)
        q = s.step.question
        assert q.query == query and 0 <= query < len(s.tokens("tgt"))
        # the generator's output at that position, as the page's run captured it
        probs = np.exp(s.ctx.run().cache[generator_hook("hook_log_probs")][0, query])
        _, itos = model_vocabs(s.ctx.tokens)
        order = np.argsort(-probs, kind="stable")
        assert itos[int(order[0])] == token and s.tokens("tgt")[query + 1] == token
        assert probs[order[0]] - probs[order[1]] >= CLEAR_MARGIN


@pytest.mark.parametrize("name, index", sorted(ATTENTION_ANSWERS))
def test_an_attention_question_asks_a_query_the_view_has_and_its_top_key_is_clear(name, index):
    s = shown(name, index)
    q = s.step.question
    assert s.step.page == "attention"  # the learner sees the heatmaps the question is about
    assert 0 <= q.query < len(s.q_tok)
    row = s.weights[s.layer, s.head, q.query]  # as the page draws it: (k_len,)
    assert row.shape == (len(s.k_tok),) and row.sum() == pytest.approx(1, abs=1e-5)
    order = np.argsort(-row, kind="stable")  # as the lesson's self-check orders them
    top, second = int(order[0]), int(order[1])
    assert row[top] - row[second] >= CLEAR_MARGIN
    key, token, _ = ATTENTION_ANSWERS[(name, index)]
    assert (top, s.k_tok[top]) == (key, token)


def test_the_softmax_keeps_the_order_of_the_scores_as_the_first_question_explains():
    s = shown(ATTENTION, 2)
    q = s.step.question
    scores, weights = s.point("hook_scores")[q.query], s.point("hook_pattern")[q.query]
    assert np.array_equal(np.argsort(-scores, kind="stable"), np.argsort(-weights, kind="stable"))
    assert s.q_tok[q.query] == "o"


# A choice question's right option is what the code computes: step -> (what, how).
CHOICE_TRUTHS: dict[tuple[str, int], tuple[str, Callable[[Shown], str]]] = {
    (ATTENTION, 1): ("the date translator's d_k", lambda s: str(s.ctx.cfg.d_k)),
    (MASKS, 0): ("keys position 2 may attend to in the mask of the view's size",
                 lambda s: str(int(s.subsequent[2].sum()))),
    (MASKS, 2): ("the source mask's shape inside MultiHeadedAttention (unsqueeze(1))",
                 lambda s: shape(head_axis_rows(s.pair.batch, s.ctx.cfg.h)[0].right)),
    (MASKS, 5): ("the logits' shape at the walk-through's sizes", lambda s: shape(s.sized.logits)),
}


def test_every_choice_question_has_its_truth_in_the_table():
    choices = {(n, i) for n, i in every_step()
               if (q := lesson(n).steps[i].question) is not None and q.kind == "choice"}
    assert choices == set(CHOICE_TRUTHS)


@pytest.mark.parametrize("name, index", sorted(CHOICE_TRUTHS))
def test_a_choice_questions_right_answer_is_what_the_code_computes(name, index):
    s = shown(name, index)
    q = s.step.question
    _, how = CHOICE_TRUTHS[(name, index)]
    truth = how(s)
    options = [o["en"] for o in q.options]
    assert options[q.answer] == truth
    assert options.count(truth) == 1 and len(set(options)) == len(options)


def test_the_wrong_shapes_offered_are_the_other_masks_and_unsqueeze_0():
    """The masks lesson's shape question offers Batch's mask, the target's and unsqueeze(0)'s."""
    s = shown(MASKS, 2)
    src, tgt = head_axis_rows(s.pair.batch, s.ctx.cfg.h)
    offered = {o["en"] for o in s.step.question.options}
    assert offered == {shape(src.mask), shape(src.right), shape(tgt.right), shape(src.wrong)}


# ---- The numbers in the texts ------------------------------------------------------------------

# A number as the lessons write it: the model's answer (or its beginning), a call such as
# unsqueeze(1), a shape, a matrix size, a mask's row, −1e9, a number or a percentage.
NUMBER = re.compile(r"""
    \d{4}-\d{2}-(?:\d{2})?
  | [A-Za-z_][\w.]*\(\d+\)
  | \((?:\d+,\ )+\d+\)
  | \d+\ ×\ \d+
  | [01](?:\ [01]){2,}
  | −?\d+e\d+
  | \d+(?:\.\d+)?%?
""", re.X)


def numbers(text: str, source: str) -> set[str]:
    """The numbers `text` states, the view's own sentence (e.g. a date) left out."""
    return set(NUMBER.findall(text.replace(source, " ")))


def rows_of(src_mask: Any) -> list[str]:
    """Each sentence's row of a (batch, 1, S) source mask, as the lessons write it: 1 1 1 0."""
    return [" ".join(str(int(x)) for x in row) for row in src_mask[:, 0]]


def page_step(key: str, lang: str) -> str:
    """The number a page's text gives one of its steps ("**2. Scores" -> "2")."""
    return re.match(r"\**(\d+)\.", TABLES[lang][key]).group(1)


def top_token(s: Shown, position: int) -> str:
    """The token the generator gives the highest probability at decoder `position`."""
    _, itos = model_vocabs(s.ctx.tokens)
    return itos[int(s.ctx.run().cache[generator_hook("hook_log_probs")][0, position].argmax())]


def ok(claim: bool, text: str) -> str:
    """`text` when `claim` holds (a fact that is a bound, e.g. "at least 95%")."""
    return text if claim else f"not {text}"


Fact = tuple[str, str, Callable[[Shown], object]]  # (as written, what it is, how computed)

# step -> the facts its note, prompt and explanation state, each computed for that step's view
FACTS: dict[tuple[str, int], list[Fact]] = {
    (ATTENTION, 0): [
        ("11", "source tokens, </s> included", lambda s: len(s.tokens("src"))),
        ("11", "decoder input tokens, <s> included", lambda s: len(s.tokens("tgt"))),
        ("2026-11-23", "the model's own answer", lambda s: "".join(s.ctx.tokens.tgt_tokens)),
        ("2", "layers in the encoder and in the decoder", lambda s: s.ctx.cfg.N),
        ("64", "d_model", lambda s: s.ctx.cfg.d_model),
        ("4", "h", lambda s: s.ctx.cfg.h),
    ],
    (ATTENTION, 1): [
        ("1", "the head shown", lambda s: s.head),
        ("0", "the layer shown", lambda s: s.layer),
        ("4", "heads each projection is cut into",
         lambda s: s.ctx.run().cache[s.kind.hook(s.layer, "hook_q")].shape[1]),
        ("11", "rows of the Q, K and V charts", lambda s: s.point("hook_q").shape[0]),
        ("64", "d_model", lambda s: s.ctx.cfg.d_model),
        ("16", "d_k = d_model / h, the charts' columns", lambda s: s.point("hook_q").shape[1]),
    ],
    (ATTENTION, 2): [
        ("2", "the page's step of the scores", lambda s: page_step("attn.step2", "en")),
        ("11 × 11", "the scores of this head", lambda s: by(*s.point("hook_scores").shape)),
        ("4", "√d_k", lambda s: f"{np.sqrt(s.ctx.cfg.d_k):g}"),
        ("16", "variance without the division / with it", lambda s: round(
            s.scaling["var_unscaled"] / s.scaling["var_scaled"])),
        ("1", "the question's query row (the token o)", lambda s: ok(
            s.q_tok[s.step.question.query] == "o", str(s.step.question.query))),
        ("leans harder", "the top weight per row grows without the division", lambda s: ok(
            s.scaling["max_unscaled"] > s.scaling["max_scaled"], "leans harder")),
        ("shrink", "the softmax's gradient size falls without the division", lambda s: ok(
            s.scaling["grad_unscaled"] < s.scaling["grad_scaled"], "shrink")),
    ],
    (ATTENTION, 3): [
        ("11", "positions of the decoder input: the mask's size",
         lambda s: s.subsequent.shape[0] == len(s.tokens("tgt")) and s.subsequent.shape[0]),
        ("0", "row i may attend to positions 0 to i", lambda s: ok(all(
            list(np.flatnonzero(row)) == list(range(i + 1))
            for i, row in enumerate(s.subsequent)), "0")),
        ("66", "pairs that may attend", lambda s: int(s.subsequent.sum())),
        ("121", "pairs in all", lambda s: s.subsequent.size),
        ("nothing", "the encoder's mask blocks nothing", lambda s: ok(
            bool(s.ctx.run().src_mask.all()), "nothing")),
    ],
    (ATTENTION, 4): [
        ("0", "the layer shown", lambda s: s.layer),
        ("1", "the head shown", lambda s: s.head),
        ("55", "blocked scores (the masked chart's title)",
         lambda s: int((s.point("hook_masked_scores") == MASK_FILL).sum())),
        ("55", "cells above the diagonal", lambda s: int(np.triu(
            np.ones_like(s.subsequent), 1).sum())),
        ("−1e9", "the value the mask writes", lambda s: "−1e9" if MASK_FILL == -1e9 else MASK_FILL),
        ("0", "the blocked weights, exactly", lambda s: ok(
            (s.point("hook_pattern")[~s.subsequent.astype(bool)] == 0).all(), "0")),
        ("1", "every row's weights add up to", lambda s: ok(np.allclose(
            s.point("hook_pattern").sum(-1), 1, atol=1e-5), "1")),
        ("0", "row 0 is <s> and gives itself all of its weight", lambda s: ok(
            s.q_tok[0] == "<s>" and s.point("hook_pattern")[0, 0] == 1, "0")),
    ],
    (ATTENTION, 5): [
        ("4", "the page's step of the weighted sum", lambda s: page_step("attn.z_title", "en")),
        ("11 × 16", "the output p_attn @ V, the shape of Q", lambda s: ok(
            s.point("hook_z").shape == s.point("hook_q").shape, by(*s.point("hook_z").shape))),
        ("1", "the layer shown", lambda s: s.layer),
        ("0", "the head shown", lambda s: s.head),
        ("95%", "every row but the last gives at least this to one key", lambda s: ok(
            (s.point("hook_pattern")[:-1].max(-1) >= 0.95).all()
            and s.point("hook_pattern")[-1].max() < 0.95, "95%")),
        ("almost a copy", "those rows' outputs are within 10% of their top key's V row",
         lambda s: ok(all(
             np.abs(s.point("hook_z")[i] - s.point("hook_v")[top]).max()
             <= 0.1 * np.abs(s.point("hook_v")[top]).max()
             for i, top in enumerate(s.point("hook_pattern").argmax(-1)[:-1])), "almost a copy")),
        ("0", "row 0 of the output is exactly V's row 0", lambda s: ok(
            np.array_equal(s.point("hook_z")[0], s.point("hook_v")[0]), "0")),
    ],
    (ATTENTION, 6): [
        ("2", "layers in the grid", lambda s: s.weights.shape[0]),
        ("4", "heads per layer in the grid", lambda s: s.weights.shape[1]),
        ("every head", "the grid draws each head, not their mean", lambda s: ok(
            s.weights.size <= GRID_CELL_BUDGET and s.state.get("attn_average") is None,
            "every head")),
        ("0", "the layer shown", lambda s: s.layer),
        ("1", "head 1 gives most of o's weight to N", lambda s: ok(
            s.k_tok[int(s.point("hook_pattern", 1)[1].argmax())] == "N"
            and s.point("hook_pattern", 1)[1].max() > 0.5 and s.q_tok[1] == "o", "1")),
        ("3", "the head shown gives almost all of o's weight to v", lambda s: ok(
            s.k_tok[int(s.point("hook_pattern")[1].argmax())] == "v"
            and s.point("hook_pattern")[1].max() >= 0.9, str(s.head))),
        ("11 × 16", "one head's output", lambda s: by(*s.point("hook_z").shape)),
        ("11 × 64", "the heads side by side", lambda s: by(
            *s.ctx.run().cache[s.kind.hook(s.layer, "hook_concat")].shape[1:])),
        ("64", "d_model", lambda s: s.ctx.cfg.d_model),
    ],
    (ATTENTION, 7): [
        ("11", "decoder input tokens: the rows", lambda s: len(s.q_tok)),
        ("11", "source tokens: the columns", lambda s: len(s.k_tok)),
        ("memory", "K and V come from the encoder's output", lambda s: ok(
            s.kind.keys == "src" and s.kind.queries == "tgt", "memory")),
        ("no subsequent mask", "nothing is blocked in cross-attention here", lambda s: ok(
            not (s.point("hook_masked_scores") == MASK_FILL).any(), "no subsequent mask")),
        ("1", "the layer shown", lambda s: s.layer),
        ("0", "the head shown", lambda s: s.head),
        ("the year", "the rows writing 2026 look at 2, 0, 2, 6 in the source, in order",
         lambda s: ok([s.k_tok[int(k)] for k in s.point("hook_pattern")[:4].argmax(-1)]
                      == list(s.ctx.tokens.tgt_tokens[:4]) == list("2026")
                      and list(s.point("hook_pattern")[:4].argmax(-1))
                      == [s.k_tok.index("2", 5) + i for i in range(4)], "the year")),
        ("8", "the query: the second hyphen", lambda s: ok(
            [i for i, tok in enumerate(s.q_tok) if tok == "-"][1] == s.step.question.query,
            str(s.step.question.query))),
        ("2026-11-", "what the decoder has written before row 8", lambda s: "".join(
            s.q_tok[1:s.step.question.query + 1])),
        ("23", "the day in the source, where the digit row 8 writes comes from", lambda s: ok(
            s.ctx.tokens.tgt_tokens[s.step.question.query] == s.k_tok[3],
            "".join(s.k_tok[3:5]))),
    ],
    (ATTENTION, 8): [
        ("generator", "what every decoder position ends in", lambda s: ok(
            hasattr(s.ctx.model(), "generator"), "generator")),
        ("0", "the decoder input's position 0 is <s>", lambda s: ok(
            s.tokens("tgt")[0] == "<s>", "0")),
        ("6", "the position asked about", lambda s: s.step.question.query),
        ("2026", "the year the decoder has read", lambda s: "".join(s.tokens("tgt")[1:5])),
        ("1", "read at position 6, and written next", lambda s: ok(
            s.tokens("tgt")[6] == "1" == top_token(s, 6), "1")),
        ("11", "the month of the translator's answer", lambda s: "".join(
            s.ctx.tokens.tgt_tokens[5:7])),
        ("2", "December's second month digit (12)", lambda s: f"{12:02d}"[1]),
    ],
    (MASKS, 0): [
        ("5", "the mask's size", lambda s: s.subsequent.shape[0]),
        ("0", "positions are counted from 0", lambda s: ok(s.subsequent[0, 0], "0")),
        ("15", "pairs that may attend", lambda s: int(s.subsequent.sum())),
        ("25", "pairs in all", lambda s: s.subsequent.size),
        ("2", "the position asked about", lambda s: ok(s.subsequent[2, 2], "2")),
        ("0", "position 2 may attend to 0", lambda s: ok(s.subsequent[2, 0], "0")),
        ("1", "position 2 may attend to 1", lambda s: ok(s.subsequent[2, 1], "1")),
        ("3", "position 2 may not attend to 3", lambda s: ok(not s.subsequent[2, 3], "3")),
        ("4", "position 2 may not attend to 4", lambda s: ok(not s.subsequent[2, 4], "4")),
    ],
    (MASKS, 1): [
        ("3", "sentence A's length", lambda s: s.pair.lengths[0]),
        ("4", "sentence B's length", lambda s: s.pair.lengths[1]),
        ("1 1 1 0", "sentence A's row of src_mask", lambda s: rows_of(s.pair.batch.src_mask)[0]),
        ("1 1 1 1", "sentence B's row of src_mask", lambda s: rows_of(s.pair.batch.src_mask)[1]),
        ("1", "a real token", lambda s: ok(bool(s.pair.batch.src_mask[1].all()), "1")),
        ("0", "padding", lambda s: ok(not s.pair.batch.src_mask[0, 0, -1], "0")),
        ("(2, 1, 4)", "src_mask's shape", lambda s: shape(s.pair.batch.src_mask.shape)),
        ("1", "the middle axis of src_mask", lambda s: s.pair.batch.src_mask.shape[1]),
    ],
    (MASKS, 2): [
        ("2", "sentence A's length", lambda s: s.pair.lengths[0]),
        ("5", "sentence B's length", lambda s: s.pair.lengths[1]),
        ("5 × 5", "one target matrix per sentence", lambda s: by(*s.pair.batch.tgt_mask.shape[1:])),
        ("(2, 5, 5)", "tgt_mask's shape", lambda s: shape(s.pair.batch.tgt_mask.shape)),
        ("mask.unsqueeze(1)", "what MultiHeadedAttention does to the mask", lambda s: ok(
            "mask.unsqueeze(1)" in inspect.getsource(MultiHeadedAttention.forward),
            "mask.unsqueeze(1)")),
        ("unsqueeze(1)", "the same call, in the question", lambda s: ok(
            "mask.unsqueeze(1)" in inspect.getsource(MultiHeadedAttention.forward),
            "unsqueeze(1)")),
        ("(2, 1, 5, 5)", "the target mask inside MultiHeadedAttention",
         lambda s: shape(head_axis_rows(s.pair.batch, s.ctx.cfg.h)[1].right)),
        ("3", "sentence A's padded source positions, blocked in cross-attention too", lambda s: ok(
            "self.src_attn(x, m, m, src_mask)" in inspect.getsource(DecoderLayer.forward),
            str(int((~s.pair.batch.src_mask[0]).sum())))),
        ("(2, 1, 1, 5)", "the source mask inside MultiHeadedAttention",
         lambda s: shape(head_axis_rows(s.pair.batch, s.ctx.cfg.h)[0].right)),
        ("5", "keys per sentence", lambda s: s.pair.batch.src_mask.shape[-1]),
        ("1", "the head and query axes' size", lambda s: ok(
            head_axis_rows(s.pair.batch, s.ctx.cfg.h)[0].right[1:3] == (1, 1), "1")),
        ("(2, 4, 5, 5)", "the scores it is broadcast against",
         lambda s: shape(head_axis_rows(s.pair.batch, s.ctx.cfg.h)[0].right_result)),
        ("4", "this model's heads", lambda s: s.ctx.cfg.h),
    ],
    (MASKS, 3): [
        ("1", "the batch", lambda s: s.shape_of("self_attn.hook_q")[0]),
        ("9", "tensors the filters keep", lambda s: len(s.shape_rows)),
        ("0", "the layer", lambda s: s.state["shape_layer"].split()[1]),
        ("(1, 4, 6, 8)", "Q, K and V", lambda s: ok(len({s.shape_of(f"self_attn.hook_{p}")
                                                         for p in "qkv"}) == 1,
                                                    shape(s.shape_of("self_attn.hook_q")))),
        ("4", "h", lambda s: s.ctx.cfg.h),
        ("6", "source tokens", lambda s: len(s.tokens("src"))),
        ("8", "d_k", lambda s: s.ctx.cfg.d_k),
        ("(1, 4, 6, 6)", "the scores", lambda s: shape(s.shape_of("self_attn.hook_scores"))),
        ("(1, 6, 32)", "the heads side by side", lambda s: ok(
            s.shape_of("self_attn.hook_concat")[-1] == s.ctx.cfg.d_model,
            shape(s.shape_of("self_attn.hook_concat")))),
    ],
    (MASKS, 4): [
        ("0", "the layer", lambda s: s.state["shape_layer"].split()[1]),
        ("18", "tensors the filters keep", lambda s: len(s.shape_rows)),
        ("6", "target tokens after <s>", lambda s: len(s.ctx.tokens.tgt_tokens)),
        ("(1, 4, 7, 7)", "the masked self-attention's scores",
         lambda s: shape(s.shape_of("self_attn.hook_scores"))),
        ("6", "source positions", lambda s: len(s.tokens("src"))),
        ("(1, 4, 6, 8)", "the cross-attention's K", lambda s: shape(s.shape_of("src_attn.hook_k"))),
        ("(1, 4, 7, 6)", "the cross-attention's scores",
         lambda s: shape(s.shape_of("src_attn.hook_scores"))),
        ("7", "queries", lambda s: s.shape_of("src_attn.hook_scores")[2]),
    ],
    (MASKS, 5): [
        ("500", "source vocabulary", lambda s: s.sized_weight("src_embed")[0]),
        ("1000", "target vocabulary", lambda s: s.sized_weight("generator")[0]),
        ("6", "N", lambda s: s.sized.cfg.N),
        ("512", "d_model", lambda s: s.sized.cfg.d_model),
        ("8", "h", lambda s: s.sized.cfg.h),
        ("2048", "d_ff", lambda s: s.sized.cfg.d_ff),
        ("2", "sequences in the batch", lambda s: s.sized.batch),
        ("4", "tokens per sequence", lambda s: s.sized.length),
        ("0", "the layer whose attention the table follows", lambda s: ok(
            s.sized.weights[2][0].startswith("encoder.layers.0.self_attn."), "0")),
        ("(2, 8, 4, 64)", "Q", lambda s: shape(s.sized_step("hook_q"))),
        ("(2, 8, 4, 4)", "the scores", lambda s: shape(s.sized_step("hook_scores"))),
        ("(2, 4, 1000)", "the logits", lambda s: shape(s.sized.logits)),
        ("2 × 4", "positions of the batch", lambda s: by(*s.sized.logits[:2])),
        ("walk-through", "these are the walk-through's sizes", lambda s: ok(
            s.sizes == WALK_SIZES, "walk-through")),
    ],
    (MASKS, 6): [
        ("32", "d_v", lambda s: s.sized.cfg.value_dim),
        ("64", "d_k", lambda s: s.sized.cfg.d_k),
        ("keep their shapes", "Q and the scores as at the walk-through's d_v", lambda s: ok(
            all(s.sized_step(p) == dict(sized_model(sized_config(
                **{n: WALK_SIZES[n] for n in CONFIG_SIZES}), 2, 4).attention)[p]
                for p in ("hook_q", "hook_scores")), "keep their shapes")),
        ("(2, 8, 4, 32)", "V", lambda s: shape(s.sized_step("hook_v"))),
        ("8 × 32", "h × d_v", lambda s: by(s.sized.cfg.h, s.sized.cfg.value_dim)),
        ("256", "the heads side by side", lambda s: s.sized_step("hook_concat")[-1]),
        ("(512, 256)", "W^O as stored (out_features, in_features)",
         lambda s: shape(s.sized_weight("w_o"))),
        ("512", "d_model", lambda s: s.sized_step("hook_out")[-1]),
    ],
}

# Facts stated in words: looked for in the English text only (the numbers in both).
WORDS = re.compile(r"[a-z]")


def test_every_step_has_its_row_in_the_facts_table():
    assert set(FACTS) == set(every_step())


@pytest.mark.parametrize("name, index", every_step())
def test_every_fact_of_the_table_is_what_the_code_computes(name, index):
    s = shown(name, index)
    for text, what, how in FACTS[(name, index)]:
        assert str(how(s)) == text, f"{name}, step {index + 1}: {what}"


@pytest.mark.parametrize("name, index", every_step())
def test_every_number_in_a_steps_texts_is_a_checked_fact_in_both_languages(name, index):
    s = shown(name, index)
    step = s.step
    source = s.state["source"]
    facts = {text for text, _, _ in FACTS[(name, index)]}
    found = {lang: set().union(*(numbers(x, source) for x in texts_of(step, lang)))
             for lang in LANGS}
    assert found["en"] == found["zh"], f"{name}, step {index + 1}: the languages differ"
    assert found["en"] <= facts, f"{name}, step {index + 1}: unchecked {found['en'] - facts}"
    english = " ".join(texts_of(step, "en")).lower()
    for text in facts:  # every fact of the table is stated: none is left from an old text
        assert text in (found["en"] if not WORDS.search(text) else english), (name, index, text)
    if source.lower() in english:  # the view's own sentence, quoted as the view gives it
        assert all(source in x for x in (step.note["en"], step.note["zh"]))
