"""The shared sidebar: language, presenter mode, the learner's text and the model's settings.

`render_sidebar()` draws the controls, validates every value again in Python (a modified
client can send anything), and returns the page `Context`. The widget keys are the names
of the `Settings` fields, so the link, the validation and the widgets share one list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pyarrow as pa
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from transformer import dates as D
from transformer.config import TransformerConfig
from transformer.tasks import DIGITS, TASKS
from transformer.tokenize import (
    MAX_TEXT_CHARS,
    SPECIALS,
    TokenizeError,
    tokenize,
    writes_without_spaces,
)

from ..core.runs import ImportedTokens, Tokens
from ..core.settings import (
    CHOICES,
    DEFAULT_PRESET,
    LIMITS,
    MAX_DROPOUT,
    PRESETS,
    SETTING_NAMES,
    SIZE_FIELDS,
    Settings,
    estimate_params,
    parse_settings,
    preset_of,
    settings_values,
)
from ..state.view import MODEL_SOURCE_KEY, PAGE_CHOICES, keep, shown_key
from ..text.glossary import glossary_rows
from ..text.i18n import LANG_NAMES, LANGS, get_lang, set_lang, t
from ..training.task import DEFAULT_DIGITS, WORD_MIN_LEN, date_probe_example
from .context import Context, build_context
from .import_panel import checkpoint_panel, current_import, take_pending_source
from .links import mark_lang_chosen, publish_view, take_notices
from .memo import remember
from .numbers import fit_note, fit_state
from .shelves import TABLES
from .sources import (
    SOURCES,
    TRAINED_SOURCES,
    answers_of,
    date_examples,
    resolve_source,
    shipped_answer,
    token_mode,
)
from .train_state import trained_state

PRESENTER_KEY = "presenter"  # the presenter-mode toggle's session-state key

# Radios, selectboxes and multiselects (every page's) whose option labels are translated.
# Streamlit sends such a widget's value between browser and server as the option's label, so
# after a language change the browser's old label matches no new one and the choice would
# be lost.
# The language selector's callback therefore writes each of these values back from Python,
# and Streamlit sends the browser the label in the new language.
TRANSLATED_CHOICES = (
    MODEL_SOURCE_KEY, "preset", *CHOICES, *(c.key for c in PAGE_CHOICES if c.values is not None),
    "attn_layer", "attn_head", "ko_layer", "ko_head", "model_component",
    shown_key("tr_which"), shown_key("tr_layer"),
)

PRESENTER_CSS = """<style>
html { font-size: 21px; }
[data-testid="stMainBlockContainer"] { max-width: 100%; padding-left: 2rem; padding-right: 2rem;
  padding-top: 4rem; }
[data-testid="stWidgetLabel"] p { font-size: 1rem; }
[data-testid="stCode"] code, [data-testid="stDataFrame"] { font-size: 1.05rem; }
</style>"""


def _keep_choices_on_language_change() -> None:
    """Write every translated choice back, so the browser gets its label in the new language."""
    mark_lang_chosen()
    _rewrite_choices()


def _rewrite_choices() -> None:
    for key in TRANSLATED_CHOICES:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def start_in(lang: str | None) -> None:
    """The session goes on in `lang` (None: as it is), from this point of the run: a student
    who just joined a class starts in the class's language (the choices' labels too)."""
    if lang in LANGS and lang != st.session_state.get("lang"):
        st.session_state["lang"] = lang
        _rewrite_choices()
        use_session_lang()


def _clear_target() -> None:
    """A trained model's decoder then reads the model's own answer."""
    st.session_state["target"] = ""


def _apply_preset() -> None:
    preset = PRESETS.get(st.session_state.get("preset", ""))
    if preset is not None:
        for key in SIZE_FIELDS:
            st.session_state[key] = getattr(preset, key)


def _mark_custom() -> None:
    st.session_state["preset"] = preset_of(st.session_state)


def _number_names() -> dict[str, str]:
    """The sidebar's number boxes (their ranges are LIMITS'), by key: their labels."""
    return {"N": t("sidebar.N"), "h": t("sidebar.h"), "d_model": "d_model", "d_ff": "d_ff",
            "seed": t("sidebar.seed")}


def _fit_numbers() -> list[str]:
    """Put every number of the sidebar's model in its range before anything reads it (the
    boxes give the browser no bounds: explorer/app/numbers.py); what was changed, said in
    the learner's language."""
    base = Settings()
    notes = []
    for key, name in _number_names().items():
        low, high = LIMITS[key]
        note = fit_note(fit_state(key, low, high, default=getattr(base, key)), name, low, high)
        if note:
            notes.append(note)
    if notes:  # a number put back in its range may be a preset's again
        _mark_custom()
    return notes


def _init_state() -> None:
    for key, value in settings_values(Settings()).items():
        st.session_state.setdefault(key, value)
    st.session_state.setdefault("preset", DEFAULT_PRESET)
    pending = take_pending_source()
    if pending in SOURCES:
        st.session_state[MODEL_SOURCE_KEY] = pending
    if st.session_state.get(MODEL_SOURCE_KEY) not in SOURCES:  # unset, or tampered with
        st.session_state[MODEL_SOURCE_KEY] = SOURCES[0]
    if st.session_state.get("lang") not in LANGS:  # unset, or tampered with
        st.session_state["lang"] = LANGS[0]
    if not isinstance(st.session_state.get(PRESENTER_KEY), bool):
        st.session_state[PRESENTER_KEY] = False


def presenting() -> bool:
    """Whether this session's presenter mode is on (the sidebar's switch): its screen is
    projected. For a fragment's own rerun too, which runs without the page's context."""
    return st.session_state.get(PRESENTER_KEY) is True


def use_session_lang() -> str:
    """This session's interface language (the sidebar's choice), made this run's."""
    return set_lang(st.session_state.get("lang"))


def show_sentence(source: str, model: str | None = None) -> None:
    """`source` becomes the sidebar's sentence, the target box blank (a trained model's
    own answer), and `model`, if given, the model shown. For a widget's callback: the
    sidebar is drawn after it."""
    st.session_state["source"] = source
    st.session_state["target"] = ""
    if model is not None:
        st.session_state[MODEL_SOURCE_KEY] = model


def next_seed() -> None:
    """The sidebar's seed goes up by one (after the highest, back to the lowest). For a
    widget's callback: the sidebar is drawn after it."""
    low, high = LIMITS["seed"]
    seed = st.session_state.get("seed")
    seed = seed if isinstance(seed, int) and low <= seed <= high else low
    st.session_state["seed"] = seed + 1 if seed < high else low


def render_sidebar(statuses: Sequence[Callable[[DeltaGenerator], None]] = (),
                   following: bool = False) -> Context:
    """Draw the shared controls, validate them again in Python, and return the context.

    `statuses`: what goes on in the background for this learner (a training, an
    experiment), each drawn by its section's function, in the container it is handed,
    under the language and presenter switches, on every page. `following`: a student who
    follows a class sees the model's size folded into one line (`_folded`)."""
    _init_state()
    imported = current_import()
    sb = st.sidebar
    sb.selectbox(t("sidebar.language"), LANGS, **keep("lang"), format_func=LANG_NAMES.get,
                 on_change=_keep_choices_on_language_change)
    sb.toggle(t("sidebar.presenter"), **keep(PRESENTER_KEY), help=t("sidebar.presenter_help"))
    # Each status has its own container on every run, drawn or not: the browser keeps a
    # block of an earlier run until this run writes one at its place, and a new block of the
    # same kind takes over the old one's children until its own arrive. Had a status been
    # drawn only while something trains, the run that first draws it would have put its
    # empty container where the share box was (which then showed the old share box, beside
    # the new one a place further down) until the page's end: after a Train click, all the
    # while the click's run waits for the training.
    for status in statuses:
        status(sb.container())
    share_slot = sb.empty()  # filled last, once the whole view is known
    presenter = st.session_state.get(PRESENTER_KEY) is True
    if presenter:
        st.markdown(PRESENTER_CSS, unsafe_allow_html=True)  # a constant: no user text
    for notice in take_notices():
        sb.warning(notice, icon=":material/link_off:")
    source, loaded, missing = resolve_source(st.session_state.get(MODEL_SOURCE_KEY), imported,
                                             trained_state())
    sb.radio(t("source.label"), SOURCES, **keep(MODEL_SOURCE_KEY), format_func=source_name,
             help=t("source.help", languages=len(D.LANGUAGES)))
    if missing is not None:
        sb.info(t(missing), icon=":material/info:")
    sb.text_input(
        t("sidebar.source"), **keep("source"), max_chars=MAX_TEXT_CHARS,
        help=t("sidebar.source_help"),
    )
    sb.text_input(
        t("sidebar.target"), **keep("target"), max_chars=MAX_TEXT_CHARS,
        placeholder=(t("source.target_placeholder")
                     if loaded is not None and source in TRAINED_SOURCES
                     else t("sidebar.target_placeholder")),
        help=t("sidebar.target_help"),
    )
    typed = st.session_state.get("target")
    if (loaded is not None and source in TRAINED_SOURCES and isinstance(typed, str)
            and typed.strip()):  # a target left from before: the decoder reads it, not the answer
        sb.info(t("source.reads_target", name=source_name(source)), icon=":material/input:")
        sb.button(t("source.clear_target"), on_click=_clear_target, key="clear_target",
                  icon=":material/backspace:")
    # filled once the sentence is read in the model's vocabulary; drawn on every run, so that
    # the sidebar's blocks below keep their places (see the statuses above)
    unknown_slot = sb.container()
    mode_names = {"word": t("sidebar.tokens_word"), "char": t("sidebar.tokens_char")}.get
    fixed_mode = loaded.meta.get("token_mode") if loaded is not None else None
    if fixed_mode in CHOICES["token_mode"]:  # the model was trained on text read this way
        sb.radio(t("sidebar.tokens"), CHOICES["token_mode"], horizontal=True, disabled=True,
                 index=CHOICES["token_mode"].index(fixed_mode), format_func=mode_names,
                 help=t("source.tokens_fixed"))
    else:
        sb.radio(t("sidebar.tokens"), CHOICES["token_mode"], **keep("token_mode"), horizontal=True,
                 format_func=mode_names)
    texts = [st.session_state.get(k) for k in ("source", "target")]
    if any(isinstance(x, str) and writes_without_spaces(x[:MAX_TEXT_CHARS]) for x in texts):
        sb.caption(t("sidebar.tokens_unspaced"))
    fitted = _fit_numbers()
    settings = parse_settings({k: st.session_state.get(k) for k in SETTING_NAMES})
    if st.session_state.get("dropout") != settings.dropout:  # refused (its message below):
        st.session_state["dropout"] = settings.dropout  # a slider takes no value off its range
    # folded and closed (None): not drawn, the values stay as the class set them
    where = _folded(loaded.config if loaded is not None else settings) if following else sb
    if where is not None and loaded is not None:
        _imported_model_widgets(loaded.config, source, where)
    elif where is not None:
        _model_widgets(where)
    for note in fitted:  # under the boxes, which show the number used
        (where or sb).warning(note, icon=":material/rule:")
    for message in settings.errors:
        sb.error(message)
    wrap = checkpoint_panel() and source == "imported"
    answer = None
    if loaded is not None and source == "dates":
        answer = shipped_answer  # the same model for everyone: answers are shared
    elif loaded is not None and source in TRAINED_SOURCES:
        answer = answers_of(loaded)
    ctx = build_context(settings, loaded, presenter, source, answer, wrap)
    _offer_known_example(ctx, unknown_slot)
    _summary(ctx)
    # The page's own selections (layer, head, ...) are already in session_state: widgets
    # write a learner's change there before the rerun starts, so the link is complete now.
    publish_view(ctx, share_slot)
    _glossary()  # the last thing in the sidebar
    return ctx


def known_example(source: str, meta: Mapping[str, Any]) -> tuple[str, str] | None:
    """A sentence whose every token the trained model `source` (with its checkpoint's
    `meta`) knows, and the token mode to read it in: its task's own example (the digits
    "3 1 4 1 5 9 2", the words it was trained on, a date); None for a model of another task."""
    if source == "dates":
        return date_examples()[0], "char"
    task, symbols = meta.get("task"), meta.get("symbols")
    if task == "dates":
        return date_probe_example().text, "char"
    if task not in TASKS or not isinstance(symbols, list) or not symbols:
        return None
    words = [str(s) for s in symbols]
    if tuple(words) == DIGITS:
        return DEFAULT_DIGITS, "word"
    return " ".join(words[:WORD_MIN_LEN]), "word"


def sentence_tokens(ctx: Context) -> list[str]:
    """The sentence's tokens as the learner wrote them, read as the shown trained model
    reads (its token mode): before its vocabulary turns the ones it lacks into `<unk>`."""
    if ctx.loaded is None or not isinstance(ctx.tokens, ImportedTokens):
        return []
    try:
        return tokenize(ctx.settings.source, token_mode(ctx.loaded, ctx.settings.token_mode))
    except TokenizeError:
        return []


def unknown_tokens(tokens: Sequence[str], vocab: Sequence[str]) -> list[str]:
    """The tokens a model's (source) vocabulary `vocab` lacks, each once, in order: the model
    reads each as `<unk>`."""
    known = set(vocab)
    return list(dict.fromkeys(tok for tok in tokens if tok not in known and tok not in SPECIALS))


def _use_known_example(text: str, mode: str) -> None:
    """The button's callback: the example becomes the sentence, read as the model reads it."""
    show_sentence(text)
    st.session_state["token_mode"] = mode


MAX_UNKNOWN_SHOWN = 12  # unknown tokens listed (the count says how many in all)


def _offer_known_example(ctx: Context, where: DeltaGenerator) -> None:
    """When the trained model shown does not know tokens of the sentence (every token of
    "the cat sat on the mat" is `<unk>` to a model trained on digits): say which, and offer
    its task's own example in one click."""
    tokens = sentence_tokens(ctx)
    unknown = unknown_tokens(tokens, ctx.loaded.src_vocab) if ctx.loaded is not None else []
    if not unknown:
        return
    words = [tok for tok in tokens if tok not in SPECIALS]
    where.warning(t("source.unknown_tokens", name=source_name(ctx.source),
                    n=sum(tok in set(unknown) for tok in words), total=len(words)),
                  icon=":material/help:")
    # the learner's own text: shown as plain text, never as Markdown or HTML
    shown = unknown[:MAX_UNKNOWN_SHOWN]
    where.code("  ".join(shown) + (" …" if len(unknown) > len(shown) else ""),
               language=None, wrap_lines=True)
    example = known_example(ctx.source, ctx.loaded.meta)
    if example is not None:
        where.button(t("source.use_known_example"), key="use_known_example",
                     on_click=_use_known_example, args=example, icon=":material/input:",
                     help=t("source.use_known_example_help"))


def _folded(shown: Settings | TransformerConfig) -> DeltaGenerator | None:
    """A following student's model size, in one line that opens to the usual widgets; the
    widgets' container while it is open, else None.

    The class sets these values, and drawing them costs every run of the thirty that a
    teacher's change starts at once (bench/classroom.py (a)): while closed, only the line
    is drawn, and `keep` holds the values."""
    names = {"N": "N", "h": "h", "d_model": "d_model", "d_ff": "d_ff"}
    if isinstance(shown, Settings):  # the sidebar's own model (a trained one's are fixed)
        names |= {"dropout": "dropout", "seed": t("sidebar.seed_short")}
    values = " · ".join(f"{name} {getattr(shown, key)}" for key, name in names.items())
    box = st.sidebar.expander(t("sidebar.following_size", values=values), key="size_open",
                              icon=":material/tune:", on_change="rerun")
    if not box.open:
        return None
    box.caption(t("sidebar.following_size_note"))
    return box


def _teaching_options(cfg: TransformerConfig | None = None,
                      where: DeltaGenerator | None = None) -> None:
    """The teaching options: the sidebar's own (cfg None), or read-only copies of `cfg`'s;
    in `where` (the sidebar by default)."""
    fixed = cfg is not None

    def own(name: str) -> dict:
        """Widget arguments: the session key of the sidebar's model, or cfg's value, disabled."""
        if not fixed:
            return keep(name)
        value = getattr(cfg, name)
        if name in CHOICES:
            return {"index": CHOICES[name].index(value), "disabled": True}
        return {"value": value, "disabled": True}

    # drawn only while open, like the tables below: closed, its widgets still cost every
    # run (bench/classroom.py), and keep() holds their values meanwhile
    options = (st.sidebar if where is None else where).expander(
        t("sidebar.teaching"), key="teaching_open", on_change="rerun")
    if not options.open:
        return
    with options:
        st.radio(t("sidebar.norm_placement"), CHOICES["norm_placement"], horizontal=True,
                 format_func={"pre": t("sidebar.norm_pre"), "post": t("sidebar.norm_post")}.get,
                 help=t("sidebar.norm_placement_help"), **own("norm_placement"))
        st.radio(t("sidebar.layer_norm"), CHOICES["layer_norm"], horizontal=True,
                 format_func={"annotated": "std + 1e-6", "standard": "nn.LayerNorm"}.get,
                 help=t("sidebar.layer_norm_help"), **own("layer_norm"))
        st.checkbox(t("sidebar.scale_embedding"), **own("scale_embedding"))
        st.selectbox(t("sidebar.tie_weights"), CHOICES["tie_weights"],
                     format_func={"none": t("sidebar.tie_none"),
                                  "decoder": t("sidebar.tie_decoder"),
                                  "all": t("sidebar.tie_all")}.get,
                     help=t("sidebar.tie_weights_help"), **own("tie_weights"))
        if not fixed:
            st.toggle(t("sidebar.train_mode"), **keep("train_mode"))


def _model_widgets(sb: DeltaGenerator) -> None:
    """The size, seed and teaching options of the sidebar's own model, in `sb`."""
    sb.selectbox(t("sidebar.preset"), (*PRESETS, "custom"), **keep("preset"),
                 on_change=_apply_preset, help=t("sidebar.preset_help"),
                 format_func=lambda p: t(f"sidebar.preset_{p.replace(' ', '_')}"))
    # No min or max for the browser: it would keep a number outside them in the box, unused,
    # under Streamlit's English hint; `_fit_numbers` puts it in range and says so instead.
    names = _number_names()
    c1, c2 = sb.columns(2)
    c1.number_input(names["N"], step=1, **keep("N"), on_change=_mark_custom)
    c2.number_input(names["h"], step=1, **keep("h"), on_change=_mark_custom)
    c1.number_input(names["d_model"], step=2, **keep("d_model"), on_change=_mark_custom)
    c2.number_input(names["d_ff"], step=16, **keep("d_ff"), on_change=_mark_custom)
    sb.slider("dropout", 0.0, MAX_DROPOUT, step=0.05, **keep("dropout"), on_change=_mark_custom)
    sb.number_input(names["seed"], step=1, **keep("seed"))
    _teaching_options(where=sb)


def source_name(source: str) -> str:
    """A model source's name in the learner's language."""
    return t(f"source.{source}")


def _imported_model_widgets(cfg: TransformerConfig, source: str, sb: DeltaGenerator) -> None:
    """Read-only copies of the size and options, showing the chosen model's, in `sb`.

    The sidebar's own values are kept (their widgets keep them while not drawn,
    `explorer.state.view.keep`) and come back with "Back to the sidebar's model".
    """
    sb.caption(t("sidebar.fixed_by_checkpoint") if source == "imported"
               else t("source.fixed", name=source_name(source)))
    c1, c2 = sb.columns(2)
    c1.number_input(t("sidebar.N"), value=cfg.N, disabled=True)
    c2.number_input(t("sidebar.h"), value=cfg.h, disabled=True)
    c1.number_input("d_model", value=cfg.d_model, disabled=True)
    c2.number_input("d_ff", value=cfg.d_ff, disabled=True)
    _teaching_options(cfg, sb)


def _summary(ctx: Context) -> None:
    sb = st.sidebar
    if ctx.loaded is not None:
        n = sum(p.numel() for p in ctx.loaded.model.parameters())
        sb.metric(t("sidebar.params_imported") if ctx.source == "imported"
                  else t("source.params", name=source_name(ctx.source)), f"{n:,}")
    elif ctx.cfg is not None and ctx.tokens is not None:
        n = estimate_params(ctx.cfg.N, ctx.cfg.d_model, ctx.cfg.d_ff, len(ctx.tokens.vocab),
                            ctx.cfg.tie_weights, ctx.cfg.norm_placement)
        sb.metric(t("sidebar.params"), f"{n:,}")
    elif ctx.arch_error:
        sb.error(ctx.arch_error, icon=":material/construction:")
    if ctx.tokens is not None:
        # Lazy, like the glossary: drawn only while open (a table's Arrow bytes are written
        # on every run that draws it, about a fifth of a warm page run; bench/classroom.py)
        table = sb.expander(t("sidebar.tokens_table", n=len(ctx.tokens.src_tokens)),
                            key="tokens_open", on_change="rerun")
        if table.open:
            with table:
                _token_tables(ctx.tokens)
    elif ctx.text_error:
        sb.error(ctx.text_error, icon=":material/edit_note:")


def _token_tables(tokens: Tokens) -> None:
    """The sentence's tokens and ids, for the encoder and for the decoder's input."""
    lang = get_lang()
    for side, words, ids in (("sidebar.col_source", tokens.src_tokens, tokens.src_ids),
                             ("sidebar.col_decoder", tokens.tgt_in_tokens, tokens.tgt_in_ids)):
        st.dataframe(_table((side, lang, tuple(words), tuple(ids)),
                            lambda s=side, w=words, i=ids: {t(s): list(w), "id": list(i)}),
                     hide_index=True, width="stretch")


def _glossary() -> None:
    """The glossary at the bottom of the sidebar: an expander holding a plain table, drawn
    only while open."""
    glossary = st.sidebar.expander(t("glossary.title"), icon=":material/translate:",
                                   key="glossary_open", on_change="rerun")
    if not glossary.open:
        return
    with glossary:
        st.caption(t("glossary.caption"))
        # the learner's term first, as wide as its longest (pinned in narrow columns, a
        # phone's sidebar cut both terms short); the other term and the notes scroll in
        st.dataframe(_table(("glossary", get_lang()), glossary_rows), hide_index=True,
                     width="stretch")


# The sidebar's tables as Arrow tables, made once for every session that shows the same
# one: st.dataframe builds a pandas frame from plain columns on every run
# (bench/page_response.py: about a fifth of a rerun of the Attention page).


def _table(name: tuple, columns: Callable[[], dict[str, list]]) -> pa.Table:
    """The Arrow table of `columns()`, kept by `name` (what fixes it, the language too)."""
    return remember(TABLES, name, lambda: pa.table(columns()))
