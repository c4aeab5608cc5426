"""The Train & decode page's last sections, drawn with streamlit: decoding step by step,
beam search beside greedy decoding, attention before and after training, and the schedule
and label-smoothing explainers.

Each section is a function taking what it needs; `pages/train.py` calls them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from transformer import dates as D
from transformer.tasks import DIGITS, Task, make_task

from ..app.classroom import following
from ..app.context import Context
from ..app.memo import remember
from ..app.shelves import MINE, TRAINED_RESULTS
from ..app.sources import MAX_ANSWER, expected_date, shipped_dates_model
from ..app.train_state import set_default, untrained
from ..core.checkpoint import LoadedCheckpoint
from ..figures.train import (
    attention_figure,
    beam_figure,
    next_token_figure,
)
from ..state.view import MEAN_OF_HEADS, keep, shown_key
from ..text.i18n import get_lang, t
from ..training.decoding import (
    ALPHA_RANGE,
    BEAM_RANGE,
    DEFAULT_ALPHA,
    DEFAULT_BEAM,
    BeamDecoding,
    Decoding,
    answer,
    answer_text,
    attention_pattern,
    beam_checkpoint,
    beam_input,
    beam_ranking_rows,
    compare_with_greedy,
    decode_checkpoint,
    decode_input,
    parse_alpha,
    parse_beam_size,
    top_tokens,
)
from ..training.run import ModelKey, TrainedState, content_id
from ..training.settings import TRAIN_TASKS
from ..training.task import (
    DEFAULT_DIGITS,
    MAX_INPUT_CHARS,
    MAX_WORDS,
    WORD_MAX_LEN,
    TrainTask,
    date_probe_example,
    input_fit,
    is_dates,
    parse_date_input,
    parse_sequence,
    sentence_fit,
    sentence_input,
    t_count,
    unknown_characters,
)
from .classroom import (
    ABOUT_NEXT,
    next_fields,
    student_next_question,
    teacher_hides,
    teacher_next_question,
)
from .train import Trained


def _decode_tokens(task: Task, source: str) -> list[str] | None:
    """The input to decode: the learner's sentence (words task) or the digits they type."""
    if task.symbols != DIGITS:  # the words task: the learner's sentence
        tokens = sentence_input(task, source)
        st.markdown(t("train.input_sentence"))
        st.code(" ".join(tokens), language=None)
        fit = sentence_fit(task, source)
        if fit.cut:
            st.caption(t("train.first_words", got=fit.words, n=task.max_len,
                         cap=WORD_MAX_LEN, positions=task.max_len + 2))
        if fit.dropped:
            st.caption(t_count("train.dropped_words", fit.dropped, k=fit.dropped,
                               limit=MAX_WORDS))
        return tokens
    set_default("tr_digits", DEFAULT_DIGITS)
    text = st.text_input(t("train.digits_input"), **keep("tr_digits"), max_chars=MAX_INPUT_CHARS)
    tokens, input_error = parse_sequence(text, task)
    if input_error:
        st.error(input_error, icon=":material/edit:")
    return tokens


def _answer(decoding: Decoding, task: Task, tokens: list[str],
            trained: TrainedState | None) -> None:
    """The expected and the produced answer, and how the input compares with training."""
    expected = answer(task, tokens)
    produced = [tok for tok in decoding.output if tok != "</s>"]
    right = produced == expected and decoding.output[-1:] == ("</s>",)
    o1, o2 = st.columns(2)
    o1.markdown(t("train.expected"))
    o1.code(" ".join(expected), language=None)
    o2.markdown(t("train.answer_right" if right else "train.answer_wrong"))
    o2.code(" ".join(decoding.output), language=None)
    fits = input_fit(task, tokens)
    unknown = t_count("train.n_unknown", len(fits.unknown)) if fits.unknown else ""
    st.caption(t("train.input_inside" if fits.inside else "train.input_outside",
                 length=fits.length, min_len=fits.min_len, max_len=fits.max_len,
                 unknown=unknown))
    if trained is not None and not right and fits.inside and trained.held_out is not None:
        r, n_len = trained.held_out.by_length.get(fits.length, (0, 0))
        st.caption(t("train.wrong_inside", length=fits.length, right=r, total=n_len)
                   if n_len else t("train.wrong_inside_none", length=fits.length))


def _shown(key: str, value: Any) -> dict[str, Any]:
    """Widget arguments for a choice of the view whose default the page picks (None in the
    view: the whole answer, the last layer, the sidebar's model), showing `value`
    (`shown_key`). The page's pick never reads as the learner's: a following student would
    seem to explore (explorer/app/classroom.py `notice_exploring`)."""
    shown = shown_key(key)
    st.session_state[shown] = value
    return {"key": shown, "on_change": _chosen, "args": (key, shown)}


def _chosen(key: str, shown: str) -> None:
    st.session_state[key] = st.session_state.get(shown)


def _picked(key: str, allowed: Sequence[Any], pick: Any) -> Any:
    """The view's value of `key` when `allowed` has it, else the page's `pick`."""
    value = st.session_state.get(key)
    return value if value in allowed and not isinstance(value, bool) else pick


def _step_view(ctx: Context, decoding: Decoding, name: tuple | None = None,
               joiner: str = " ", presenting: bool = False) -> None:
    """One decoding step: what it reads, what it picks, and its attention; a teacher may ask
    the class which token it picks.

    `name`: what fixes `decoding` (its name on the TRAINED_RESULTS shelf), so that the step's
    charts are built once for every session that shows the same step; None builds them here.
    `joiner` writes the tokens as text ("" for characters). `presenting`: a teacher's
    projector while the class's question is open, which does not show the pick.
    """
    n_steps = len(decoding.steps)
    k = 1
    if n_steps > 1:  # the whole answer first (the view's None); slide back to step 1
        k = st.slider(t("train.step"), 1, n_steps, help=t("train.step_help"),
                      **_shown("tr_step", _picked("tr_step", range(1, n_steps + 1), n_steps)))
    k = min(max(int(k), 1), n_steps)
    view = decoding.steps[k - 1]
    lang = get_lang()  # one variable: the charts are drawn in it and their names hold it
    teacher_next_question(decoding.src, view.prefix, view.probs, view.next_token,
                          decoding.itos, k, joiner, lang, ctx.presenter)

    def chart(build: Callable[[], Any], part: tuple, file: str, key: str) -> None:
        """Draw the figure `build()` makes of step k (`part` names which one)."""
        if name is None:
            ctx.chart(build(), file, key=key)
            return
        shared = (*name, "step", k, *part, lang)
        ctx.chart(remember(TRAINED_RESULTS, shared, build), file, key=key, share=shared)

    d1, d2 = st.columns([2, 3])
    with d1:
        st.markdown(t_count("train.step_reads", len(view.prefix), k=k))
        st.code(" ".join(view.prefix), language=None)
        st.markdown(t("train.picks"))
        if presenting:
            st.caption(t("class.hidden_on_projector"))
        else:
            st.code(view.next_token, language=None)
            chart(lambda: next_token_figure(top_tokens(view.probs, decoding.itos, 10),
                                            view.next_token, lang=lang),
                  ("next",), f"decode_step{k}_next_token", "tr_next")
    with d2:
        n_layers, n_heads = view.self_attn.shape[:2]
        a1, a2 = st.columns(2)
        layer = a1.selectbox(t("train.layer"), range(n_layers),
                             format_func=lambda i: t("fig.attention.layer", i=i),
                             **_shown("tr_layer", _picked("tr_layer", range(n_layers),
                                                          n_layers - 1)))
        heads = [MEAN_OF_HEADS, *range(n_heads)]
        st.session_state["tr_head"] = _picked("tr_head", heads, MEAN_OF_HEADS)
        head = a2.selectbox(t("train.heads"), heads, **keep("tr_head"),
                            format_func=lambda j: t("fig.attention.mean_of_heads")
                            if j == MEAN_OF_HEADS else t("fig.attention.head", j=j))
        layer = layer if isinstance(layer, int) and 0 <= layer < n_layers else n_layers - 1
        head = head if isinstance(head, int) and 0 <= head < n_heads else None
        self_w, cross_w = view.attention(layer, head)
        which = (t("fig.attention.mean_of_heads") if head is None
                 else t("fig.attention.head", j=head))
        prefix = list(view.prefix)
        chart(lambda: attention_figure(self_w, prefix, prefix,
                                       t("train.self_title", layer=layer, which=which, q=k,
                                         k=k),
                                       q_title=t("train.q_decoder"),
                                       k_title=t("train.k_decoder"), lang=lang),
              ("self", layer, head), f"decode_step{k}_self_L{layer}", "tr_self")
        chart(lambda: attention_figure(cross_w, prefix, list(decoding.src),
                                       t("train.cross_title", layer=layer, which=which, q=k,
                                         k=len(decoding.src)),
                                       q_title=t("train.q_decoder"),
                                       k_title=t("train.k_source"), lang=lang),
              ("cross", layer, head), f"decode_step{k}_cross_L{layer}", "tr_cross")
        st.caption(t("train.no_cache_caption"))


WHICH_SEEN_KEY = "tr_which_seen"  # the trained model the decoding choice last saw
# score(Y) = log P(Y) / lp(Y), GNMT's length penalty (Wu et al. 2016), the paper's section 6.1
# (one above the other: side by side they were wider than a phone's page)
BEAM_FORMULA = (r"\begin{gathered}\mathrm{score}(Y) = \frac{\log P(Y)}{lp(Y)}, \\ "
                r"lp(Y) = \frac{(5 + |Y|)^{\alpha}}{(5 + 1)^{\alpha}}\end{gathered}")


def _beam_settings() -> tuple[int, float]:
    """The beam size and alpha widgets, their values checked in Python as well.

    Streamlit checks a slider's limits in the browser only, and a session value it does
    not expect (99, NaN, "4") stops the script with an error: a refused value is replaced
    by the default before the slider is drawn, with a warning that says so.
    """
    checks = (("tr_beam", parse_beam_size, DEFAULT_BEAM, "beam.bad_size", BEAM_RANGE),
              ("tr_alpha", parse_alpha, DEFAULT_ALPHA, "beam.bad_alpha", ALPHA_RANGE))
    for key, parse, default, message, (low, high) in checks:
        value = parse(st.session_state.get(key, default))
        if value is None:
            st.warning(t(message, low=f"{low:g}", high=f"{high:g}", default=f"{default:g}"),
                       icon=":material/build:")
        st.session_state[key] = default if value is None else value  # alpha 1 -> 1.0
    b1, b2 = st.columns(2)
    size = parse_beam_size(b1.slider(t("beam.size"), *BEAM_RANGE, **keep("tr_beam"),
                                     help=t("beam.size_help")))
    alpha = parse_alpha(b2.slider(t("beam.alpha"), *ALPHA_RANGE, step=0.1, **keep("tr_alpha"),
                                  help=t("beam.alpha_help")))
    return (DEFAULT_BEAM if size is None else size,
            DEFAULT_ALPHA if alpha is None else round(alpha, 6))  # 0.30000000000000004


def _beam_verdict(beam: BeamDecoding, greedy: Decoding, joiner: str) -> None:
    """Both answers side by side, and whether and where they differ, in numbers."""
    vs = compare_with_greedy(beam, greedy)
    g1, g2 = st.columns(2)
    g1.markdown(t("beam.greedy_answer"))
    g1.code(answer_text(greedy.output, joiner), language=None)
    g2.markdown(t("beam.beam_answer"))
    g2.code(answer_text(beam.output, joiner), language=None)
    k, alpha = beam.beam_size, f"{beam.alpha:g}"
    if vs.agree:
        st.markdown(t("beam.agree", k=k, alpha=alpha, log_prob=f"{vs.beam_log_prob:.3f}",
                      score=f"{vs.beam_score:.3f}"))
        return
    st.markdown(t("beam.differ", k=k, alpha=alpha, step=vs.step,
                  greedy_log_prob=f"{vs.greedy_log_prob:.3f}",
                  greedy_score=f"{vs.greedy_score:.3f}",
                  beam_log_prob=f"{vs.beam_log_prob:.3f}", beam_score=f"{vs.beam_score:.3f}"))
    if vs.beam_score < vs.greedy_score:  # greedy's answer was pruned on the way
        st.caption(t("beam.why_pruned"))
    elif vs.beam_log_prob > vs.greedy_log_prob:
        st.caption(t("beam.why_more_probable"))
    else:  # less probable, yet a better score: only a longer answer can be (alpha > 0)
        st.caption(t("beam.why_length", alpha=alpha))


def _beam_section(ctx: Context, greedy: Decoding, name: tuple,
                  run: Callable[[int, float], BeamDecoding], joiner: str = " ",
                  keep: object = None) -> None:
    """Beam search on the input and with the model that `greedy` decoded: the tree, the
    final ranking and how it compares with greedy decoding.

    `name` names the model and the input in the memo; `run(beam_size, alpha)` searches;
    `keep`, an object whose id is in `name`, is held by the entry so its id names no other.
    Without `keep`, `name` says what fixes the model, and the search is shared.
    """
    st.subheader(t("beam.header"))
    st.markdown(t("beam.text"))
    size, alpha = _beam_settings()
    st.markdown(t("beam.formula_text"))
    st.latex(BEAM_FORMULA)
    st.caption(t("beam.formula_caption"))

    with st.spinner(t("beam.running")):  # shown only when it takes a while
        if keep is None:
            beam = remember(TRAINED_RESULTS, (*name, "beam", size, alpha), lambda: run(size, alpha))
        else:
            _, beam = remember(MINE, (*name, "beam", size, alpha), lambda: (keep, run(size, alpha)))
    ctx.chart(beam_figure(beam, lang=get_lang()), f"beam_k{size}", key="tr_beam_tree")
    st.caption(t("beam.tree_caption", shown=size))
    st.markdown(t("beam.ranking"))
    st.dataframe(beam_ranking_rows(beam, joiner), hide_index=True)
    _beam_verdict(beam, greedy, joiner)


def _before_after(ctx: Context, key: ModelKey, task: TrainTask, tokens: list[str],
                  trained: TrainedState | None, expected: list[str] | None = None) -> None:
    """Section 4: the same input's attention in the untrained and the trained model.

    The decoder reads the right answer (teacher forcing): the task's rule, or `expected`.
    """
    st.header(t("train.before_after_header"))
    kind = st.radio(t("train.attention"), ("cross", "enc"), **keep("tr_kind"), horizontal=True,
                    format_func=lambda name: t(f"train.kind_{name}"))
    kind = kind if kind in ("cross", "enc") else "cross"
    st.caption(t("train.before_after_caption"))
    base = untrained(key)
    target = tuple(expected) if expected is not None else None
    before = remember(TRAINED_RESULTS, ("before", key, kind, tuple(tokens), target),
                      lambda: attention_pattern(base, task, tokens, kind, target))
    q_title = t("train.q_decoder") if kind == "cross" else t("train.q_source")
    lang = get_lang()
    p1, p2 = st.columns(2)
    ctx.chart(attention_figure(*before, t("train.untrained_title", seed=key.seed),
                               q_title=q_title, k_title=t("train.k_source"), lang=lang),
              f"{kind}_attention_untrained", key="tr_before", where=p1)
    if trained is None:
        p2.info(t("train.train_first"), icon=":material/fitness_center:")
        return
    after = remember(TRAINED_RESULTS,
                     ("after", content_id(trained), kind, tuple(tokens), target),
                     lambda: attention_pattern(trained.model, task, tokens, kind, target))
    ctx.chart(attention_figure(*after, t_count("train.trained_title", trained.step,
                                               steps=trained.step),
                               q_title=q_title, k_title=t("train.k_source"), lang=lang),
              f"{kind}_attention_trained", key="tr_after", where=p2)
    p2.caption(t("train.pattern_caption", task=t(f"train.task_{task.name}"),
                 pattern=t(f"train.pattern_{task.name}")))


def _date_tokens(task: D.DateTask) -> list[str] | None:
    """The date to decode, typed by the learner (characters; unknown ones read as <unk>)."""
    set_default("tr_date", date_probe_example().text)
    text = st.text_input(t("train.date_input"), **keep("tr_date"), max_chars=MAX_INPUT_CHARS,
                         help=t("train.date_input_help"))
    tokens, error = parse_date_input(text, task)
    if error:
        st.error(error, icon=":material/edit:")
        return None
    unknown = unknown_characters(task, tokens or [])
    if unknown:
        st.caption(t_count("train.date_unknown", unknown))
    return tokens


def _date_answer(decoding: Decoding, expected: list[str] | None) -> None:
    """The model's ISO answer beside the right one (when the app knows it)."""
    produced = [tok for tok in decoding.output if tok != "</s>"]
    ended = decoding.output[-1:] == ("</s>",)
    o1, o2 = st.columns(2)
    o1.markdown(t("train.expected"))
    if expected is None:
        o1.info(t("train.date_no_expected"), icon=":material/help:")
        o2.markdown(t("train.answer_plain"))
    else:
        o1.code("".join(expected), language=None)
        o2.markdown(t("train.answer_right" if produced == expected and ended
                      else "train.answer_wrong"))
    o2.code("".join(produced) + (" </s>" if ended else ""), language=None)
    st.caption(t("train.date_inside" if expected is not None else "train.date_outside"))


def _imported_expected(loaded: LoadedCheckpoint, task: str | None,
                       src: tuple[str, ...]) -> list[str] | None:
    """The right answer to `src` when the checkpoint's file names one of this app's tasks
    and the text is an input of that task; else None."""
    body = [tok for tok in src if tok != "</s>"]
    if task is None or not body:
        return None
    if task == "dates":
        return expected_date(body)
    symbols = loaded.meta.get("symbols")
    if not isinstance(symbols, list) or not all(tok in symbols for tok in body):
        return None
    return answer(make_task(task, [str(s) for s in symbols]), body)


def _empty_section_4(why: str) -> None:
    """Section 4's header, and the text of key `why` that says why it is empty: the
    sections keep their numbers."""
    st.header(t("train.before_after_header"))
    st.caption(t(why))


def _class_asks(ctx: Context) -> bool:
    """A following student's side of the class's "which token comes next?": True while it
    is open, and the decoding, which would give the answer away, is left out."""
    if not student_next_question(get_lang(), ctx.presenter):
        return False
    _empty_section_4("class.hidden_for_now")
    return True


def _step_shown(decoding: Decoding) -> int:
    """The decoding step the page shows (`_step_view`'s slider): the view's, else the last."""
    n_steps = len(decoding.steps)
    return int(_picked("tr_step", range(1, n_steps + 1), n_steps)) if n_steps > 1 else 1


def _projector_hides(ctx: Context, decoding: Decoding, joiner: str) -> bool:
    """Whether a teacher's projector hides the decoding's answer: while the class's "which
    token next?" is open, or prepared in its panel until one about the step shown is
    revealed (`teacher_hides`)."""
    k = _step_shown(decoding)
    return teacher_hides(ABOUT_NEXT, ctx.presenter,
                         next_fields(decoding.src, decoding.steps[k - 1].prefix, k, joiner))


def _imported_decoding(ctx: Context, loaded: LoadedCheckpoint) -> None:
    """The imported checkpoint decodes the sidebar's text, read in its own vocabulary."""
    if ctx.tokens is None:  # the sidebar says why the text cannot be read
        st.info(t("train.imported_no_text"), icon=":material/edit:")
        return
    src = tuple(ctx.tokens.src_tokens)
    st.markdown(t("train.imported_input"))
    st.code(" ".join(src), language=None)
    if _class_asks(ctx):
        return
    max_len = min(MAX_ANSWER + 1, loaded.config.max_len)
    # the entry holds `loaded` too, so its id cannot name another import while it is kept
    _, decoding = remember(MINE, ("imported", id(loaded), src, max_len),
                       lambda: (loaded, decode_checkpoint(loaded, src, max_len)))
    presenting = _projector_hides(ctx, decoding, " ")
    task = loaded.meta.get("task") if isinstance(loaded.meta, Mapping) else None
    task = task if task in TRAIN_TASKS else None  # a task of this app, named by its file
    expected = _imported_expected(loaded, task, src)
    eos = loaded.special_ids("tgt").get("eos")
    ended = eos is not None and decoding.output[-1:] == (loaded.tgt_vocab[eos],)
    produced = list(decoding.output[:-1] if ended else decoding.output)
    if not presenting:
        _imported_answer(decoding, task, expected, produced, ended)
    _step_view(ctx, decoding, presenting=presenting)  # its tokens: words or characters, spaced
    if presenting:  # the beam's answer waits for the reveal too
        st.caption(t("class.hidden_on_projector"))
    else:
        _beam_section(ctx, decoding, ("imported", id(loaded), src, max_len),
                      lambda k, alpha: beam_checkpoint(loaded, src, max_len, k, alpha),
                      keep=loaded)
    st.header(t("train.before_after_header"))
    st.info(t("train.imported_no_before_after"), icon=":material/info:")


def _imported_answer(decoding: Decoding, task: str | None, expected: list[str] | None,
                     produced: list[str], ended: bool) -> None:
    """An imported model's answer, and the expected one when its task says what it is."""
    o1, o2 = st.columns(2)
    if expected is not None:
        o1.markdown(t("train.expected"))
        o1.code(" ".join(expected), language=None)
        right = produced == expected and ended
        o2.markdown(t("train.answer_right" if right else "train.answer_wrong"))
    else:
        o2.markdown(t("train.answer_plain"))
    o2.code(" ".join(decoding.output), language=None)
    if task is None:
        st.caption(t("train.imported_caption"))
    else:
        st.caption(t("train.imported_caption_task" if expected is not None
                     else "train.imported_caption_outside", task=t(f"train.task_{task}")))


def decoding_section(ctx: Context, result: Trained, task: TrainTask) -> None:
    """Sections 3 and 4: greedy decoding step by step and beam search beside it, then
    attention before and after."""
    key, trained = result.key, result.trained
    st.header(t("train.decode_header"))
    if key is None:  # the sections keep their numbers: say why they are empty
        st.caption(t("train.no_model_here"))
        _empty_section_4("train.no_model_here")
        return
    st.markdown(t("train.decode_text"))
    dates = is_dates(task)
    shipped = shipped_dates_model() if dates else None
    imported = ctx.loaded if ctx.source == "imported" else None
    choices = [c for c, ok in (("trained", trained is not None), ("untrained", True),
                               ("shipped", shipped is not None),
                               ("imported", imported is not None)) if ok]
    which = "untrained"
    if trained is not None and st.session_state.get(WHICH_SEEN_KEY) is not trained:
        # a model trained since the choice was last drawn: decode with it (a following
        # student's choice is the class's: the teacher's page makes the same one)
        st.session_state[WHICH_SEEN_KEY] = trained
        if not following():
            st.session_state["tr_which"] = "trained"
    if len(choices) > 1:
        # unchosen (the view's None): the sidebar's model, or the one just trained
        pick = ("imported" if imported is not None
                else "shipped" if ctx.source == "dates" and shipped is not None
                else choices[0])
        which = st.radio(t("train.decode_with"), choices, horizontal=True,
                         format_func=lambda w: t(f"train.which_{w}"),
                         **_shown("tr_which", _picked("tr_which", choices, pick)))
        which = which if which in choices else choices[0]
    if which == "imported" and imported is not None:
        _imported_decoding(ctx, imported)
        return
    if which == "untrained" and trained is None:
        st.caption(t("train.untrained_caption"))
    tokens = _date_tokens(task) if dates else _decode_tokens(task, ctx.settings.source)
    if not tokens:
        _empty_section_4("train.no_input_here")
        return
    if _class_asks(ctx):
        return
    use_trained = which == "trained" and trained is not None
    if use_trained:
        model, version = trained.model, ("trained", content_id(trained))
    elif which == "shipped" and shipped is not None:
        model, version = shipped, ("shipped",)  # shared and read-only: only decoded
    else:
        model, version = untrained(key), ("untrained",)  # a spinner when the model is large
    name = (*version, key, tuple(tokens))
    # copies of one training share it
    decoding = remember(TRAINED_RESULTS, name, lambda: decode_input(model, task, tokens))
    presenting = _projector_hides(ctx, decoding, "" if dates else " ")
    expected = None
    if dates:
        expected = remember(MINE, ("expected", tuple(tokens)), lambda: expected_date(tokens))
        if not presenting:
            _date_answer(decoding, expected)
    elif not presenting:
        _answer(decoding, task, tokens, trained if use_trained else None)
    _step_view(ctx, decoding, name, joiner="" if dates else " ", presenting=presenting)
    if presenting:  # the beam's answer and the trained attention wait for the reveal too
        st.caption(t("class.hidden_on_projector"))
        _empty_section_4("class.hidden_on_projector")
        return
    _beam_section(ctx, decoding, name, lambda k, alpha: beam_input(model, task, tokens, k, alpha),
                  joiner="" if dates else " ")
    if dates and expected is None:  # no right answer to feed in: the model's own
        expected = [tok for tok in decoding.output if tok != "</s>"]
    _before_after(ctx, key, task, tokens, trained, expected)
