"""A lesson step's question as a page asks it (`Asked`): a teacher's choice or poll in the
learner's language, or "where does this query look?" and "which token comes next?"
answered from the live model. The
self-check (explorer/sections/lesson.py) and the class (explorer/sections/lesson_class.py)
ask the same."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from transformer.hook_paths import generator_hook

from ..app.context import Context
from ..app.sources import token_mode
from ..core.exports import model_vocabs
from ..core.kinds import KINDS
from ..state.lesson import OPTIONS_RANGE, Question, text_in
from ..state.urlstate import params_to_state
from ..state.view import BY_KEY
from ..text.i18n import percent, t
from .classroom import token_label


@dataclass(frozen=True)
class Asked:
    """A step's question as the page asks it: the prompt, the options, the right one (None:
    a poll), and what is said once answered."""

    prompt: str
    options: tuple[str, ...]
    truth: int | None
    explain: str


def step_asked(ctx: Context, question: Question, view: Mapping[str, str], lang: str,
               on_step: bool) -> Asked | None:
    """A step's question as this session asks it (`lang`); None when it cannot be: an
    attention question off its step's view, or one that does not fit the model shown."""
    if question.kind == "attention":
        return (attention_question(ctx, question, params_to_state(view)[0], lang)
                if on_step else None)
    if question.kind == "next":
        return next_question(ctx, question, lang) if on_step else None
    return own_question(question, lang)


def not_asked(on_step: bool) -> str:
    """Why `step_asked` gave no question (a text key): a measured question's answer is read
    from its step's own view, which is not shown, or the model shown has no such position,
    layer or head."""
    return "lesson.q_does_not_fit" if on_step else "lesson.q_needs_step"


def own_question(question: Question, lang: str) -> Asked:
    """A teacher's choice or poll, in `lang`."""
    return Asked(prompt=text_in(question.prompt, lang),
                 options=tuple(text_in(o, lang) for o in question.options),
                 truth=question.answer if question.kind == "choice" else None,
                 explain=text_in(question.explain, lang))


def attention_question(ctx: Context, question: Question, state: Mapping[str, object],
                       lang: str) -> Asked | None:
    """"Which key does this query attend to most?" in the kind, layer and head of the step's
    view (`state`: its widgets' values), with the answer and the two largest weights read
    from the live model; None when the question does not fit the model shown (no such
    position, layer or head)."""
    if not ctx.ok or ctx.cfg is None or ctx.tokens is None:
        return None
    kind = KINDS.get(state.get("attn_kind", BY_KEY["attn_kind"].default))
    layer, head = state.get("attn_layer", 0), state.get("attn_head", 0)
    if kind is None or not (isinstance(layer, int) and 0 <= layer < ctx.cfg.N
                            and isinstance(head, int) and 0 <= head < ctx.cfg.h):
        return None
    tokens = {"src": list(ctx.tokens.src_tokens), "tgt": list(ctx.tokens.tgt_in_tokens)}
    q_tok, k_tok = tokens[kind.queries], tokens[kind.keys]
    if not 0 <= question.query < len(q_tok):
        return None
    # the head's softmax weights of that query, as the Attention page draws them
    weights = ctx.run().cache[kind.hook(layer, "hook_pattern")][0, head, question.query]
    order = np.argsort(-weights, kind="stable")
    labels = tuple(f"{i}: {tok}" for i, tok in enumerate(k_tok))
    top, second = int(order[0]), int(order[1]) if len(order) > 1 else None
    prompt = text_in(question.prompt, lang) or t(
        "lesson.q_attention", query=f"{question.query}: {q_tok[question.query]}",
        kind=kind.label, layer=layer, head=head)
    explain = t("lesson.attention_truth", key=labels[top], share=percent(float(weights[top])))
    if second is not None:
        explain += " " + t("lesson.attention_second", key=labels[second],
                           share=percent(float(weights[second])))
    extra = text_in(question.explain, lang)
    return Asked(prompt=prompt, options=labels, truth=top,
                 explain=explain + ("\n\n" + extra if extra else ""))


NEXT_OPTIONS = OPTIONS_RANGE[1]  # a "next" question offers this many tokens, as a choice does


def next_question(ctx: Context, question: Question, lang: str) -> Asked | None:
    """"Which token does the decoder give the highest probability next?" once it has read
    the step's target up to position `query` (teacher forcing, as in training: the
    generator's output at that position). Options: the NEXT_OPTIONS tokens the live model
    finds most likely, in vocabulary order (the order gives no hint); the answer and the
    two largest probabilities read from the same run. None when the target is shorter."""
    if not ctx.ok or ctx.tokens is None:
        return None
    read = ctx.tokens.tgt_in_tokens  # <s> y1 .. ym: what the decoder reads
    if not 0 <= question.query < len(read):
        return None
    _, itos = model_vocabs(ctx.tokens)
    # (tgt_vocab,) the generator's log-probabilities after reading read[:query + 1]
    log_probs = ctx.run().cache[generator_hook("hook_log_probs")][0, question.query]
    probs = np.exp(log_probs.astype(np.float64))
    order = np.argsort(-probs, kind="stable")
    ids = sorted(int(i) for i in order[:NEXT_OPTIONS])
    top, second = int(order[0]), int(order[1]) if len(order) > 1 else None
    mode = ctx.settings.token_mode if ctx.loaded is None else token_mode(
        ctx.loaded, ctx.settings.token_mode)
    joiner = "" if mode == "char" else " "
    prompt = text_in(question.prompt, lang) or t(
        "lesson.q_next", read=joiner.join(read[:question.query + 1]), n=question.query + 1)
    explain = t("lesson.next_truth", token=token_label(itos[top]),
                share=percent(float(probs[top])))
    if second is not None:
        explain += " " + t("lesson.attention_second", key=token_label(itos[second]),
                           share=percent(float(probs[second])))
    extra = text_in(question.explain, lang)
    return Asked(prompt=prompt, options=tuple(token_label(itos[i]) for i in ids),
                 truth=ids.index(top), explain=explain + ("\n\n" + extra if extra else ""))
