"""The shared sidebar, the cached compute behind every page, and the per-run page context.

Caching rules: objects returned from `st.cache_resource` are shared by every user and are
never changed (bodies and models have requires_grad off and fixed train/eval mode; a `Run`
holds read-only arrays). Per-user things (a trained model) live in `st.session_state`.
Caches are split by model size so that a few paper-base models cannot fill the memory.
"""

from __future__ import annotations

import contextvars
import html
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from urllib.parse import quote, urlencode

import streamlit as st
import streamlit.components.v1 as components
from streamlit import runtime
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime import Runtime
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx

from transformer.model import EncoderDecoder, TransformerConfig
from transformer.tokenize import MAX_TEXT_CHARS, TokenizeError, Vocab, writes_without_spaces

from .checkpoint import MAX_CHECKPOINT_BYTES, CheckpointError, LoadedCheckpoint, load_checkpoint
from .i18n import LANG_NAMES, LANGS, get_lang, set_lang, t
from .runs import (
    Run,
    Tokens,
    assemble,
    body_config,
    build_body,
    forward,
    imported_tokens,
    make_tokens,
    run_bytes,
)
from .settings import (
    LAYER_NORMS,
    LIMITS,
    MAX_DROPOUT,
    NORM_PLACEMENTS,
    PRESETS,
    TIE_WEIGHTS,
    TOKEN_MODES,
    Settings,
    architecture_problem,
    estimate_params,
    parse_settings,
)
from .urlstate import EXTRAS, params_to_state, settings_to_params

EXPLORER_MAX_LEN = 256  # positions precomputed by the live model (sentences are short)
LARGE_PARAMS = 5_000_000  # models above this go to the caches with few entries
LARGE_RUN_BYTES = 2_000_000  # runs above this go to the run cache with few entries


def _is_large(cfg: TransformerConfig) -> bool:
    return estimate_params(cfg.N, cfg.d_model, cfg.d_ff, 0) > LARGE_PARAMS


# ---- Cached compute -----------------------------------------------------------------


@st.cache_resource(max_entries=16, show_spinner=False)
def _body_small(cfg: TransformerConfig, seed: int, train_mode: bool) -> EncoderDecoder:
    return build_body(cfg, seed, train_mode)


# No spinner of its own: it only runs inside _model_large, and Streamlit shows the spinner
# of the outermost cached function only. Spinner texts are drawn by the callers (in the
# learner's language), never fixed in a decorator.
@st.cache_resource(max_entries=2, show_spinner=False)
def _body_large(cfg: TransformerConfig, seed: int, train_mode: bool) -> EncoderDecoder:
    return build_body(cfg, seed, train_mode)


def _model(cfg: TransformerConfig, seed: int, train_mode: bool, itos: tuple[str, ...]):
    body_fn = _body_large if _is_large(cfg) else _body_small
    body = body_fn(body_config(cfg), seed, train_mode)
    return assemble(body, cfg, seed, Vocab(list(itos)))


@st.cache_resource(max_entries=64, show_spinner=False)
def _model_small(cfg: TransformerConfig, seed: int, train_mode: bool, itos: tuple[str, ...]):
    return _model(cfg, seed, train_mode, itos)


@st.cache_resource(max_entries=4, show_spinner=False)
def _model_large(cfg: TransformerConfig, seed: int, train_mode: bool, itos: tuple[str, ...]):
    return _model(cfg, seed, train_mode, itos)


def get_model(cfg: TransformerConfig, seed: int, train_mode: bool, vocab: Vocab) -> EncoderDecoder:
    """The shared, read-only model for this architecture, seed, mode and vocabulary."""
    fn = _model_large if _is_large(cfg) else _model_small
    return fn(cfg, seed, train_mode, tuple(vocab.itos))


def _run(cfg: TransformerConfig, seed: int, train_mode: bool, tokens: Tokens) -> Run:
    return forward(get_model(cfg, seed, train_mode, tokens.vocab), tokens)


# The cache key is (cfg, seed, source tokens, target tokens); `_tokens` (not hashed) is the
# same text as an object. Only eval-mode runs are cached: with dropout on, every run differs.
@st.cache_resource(max_entries=128, show_spinner=False)
def _run_small(cfg: TransformerConfig, seed: int, src: tuple[str, ...], tgt: tuple[str, ...],
               _tokens: Tokens) -> Run:
    return _run(cfg, seed, False, _tokens)


@st.cache_resource(max_entries=6, show_spinner=False)  # get_run draws the spinner
def _run_large(cfg: TransformerConfig, seed: int, src: tuple[str, ...], tgt: tuple[str, ...],
               _tokens: Tokens) -> Run:
    return _run(cfg, seed, False, _tokens)


def get_run(cfg: TransformerConfig, seed: int, train_mode: bool, tokens: Tokens) -> Run:
    """The read-only forward pass of `tokens` (eval mode: cached and shared)."""
    if train_mode:
        return _run(cfg, seed, True, tokens)  # dropout: a fresh random pattern each time
    size = run_bytes(cfg, len(tokens.src_tokens), len(tokens.tgt_in_tokens))
    if size > LARGE_RUN_BYTES or _is_large(cfg):
        # st.spinner shows after 0.5 s, as a cache's own spinner: only on a slow cache miss
        with st.spinner(t("ui.running_sentence")):
            return _run_large(cfg, seed, tokens.src_tokens, tokens.tgt_tokens, tokens)
    return _run_small(cfg, seed, tokens.src_tokens, tokens.tgt_tokens, tokens)


# ---- Page context -------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What every page gets: validated settings, the tokens, and why anything is missing."""

    settings: Settings
    tokens: Tokens | None  # None when the text cannot be tokenized
    text_error: str | None  # friendly reason the text was refused
    cfg: TransformerConfig | None  # None when no model can be built
    arch_error: str | None  # friendly reason the architecture was refused
    imported: LoadedCheckpoint | None = None  # this session's uploaded model, if any

    @property
    def ok(self) -> bool:
        return self.tokens is not None and self.cfg is not None

    def _require(self) -> tuple[TransformerConfig, Tokens]:
        if self.tokens is None or self.cfg is None:
            raise RuntimeError("No model for these settings: check ctx.ok / show_problems first.")
        return self.cfg, self.tokens

    def model(self) -> EncoderDecoder:
        """The live model (cached, shared: read it, never change it)."""
        cfg, tokens = self._require()
        if self.imported is not None:
            return self.imported.model
        return get_model(cfg, self.settings.seed, self.settings.train_mode, tokens.vocab)

    def run(self) -> Run:
        """The learner's sentence through the live model (cached, shared, read-only)."""
        cfg, tokens = self._require()
        if self.imported is not None:
            return _imported_run(self.imported, tokens)
        return get_run(cfg, self.settings.seed, self.settings.train_mode, tokens)


_IMPORTED_RUNS = "_imported_runs"  # this session's recent runs of its imported model


def _imported_run(imported: LoadedCheckpoint, tokens: Tokens) -> Run:
    """A run of the session's own imported model, remembered in the session (never shared)."""
    key = (id(imported.model), tokens.src_tokens, tokens.tgt_tokens)
    store = st.session_state.setdefault(_IMPORTED_RUNS, {})
    if key not in store:
        if len(store) >= 4:
            store.pop(next(iter(store)))
        store[key] = forward(imported.model, tokens)
    return store[key]


def build_context(settings: Settings, imported: LoadedCheckpoint | None = None) -> Context:
    """Tokenize and check the architecture; never raises."""
    try:
        tokens: Tokens | None = make_tokens(settings.source, settings.target, settings.token_mode)
        text_error = None
    except TokenizeError as exc:
        tokens, text_error = None, str(exc)
    if imported is not None:
        if tokens is not None:
            specials = imported.special_ids("tgt")
            tokens = imported_tokens(tokens, imported.src_vocab, imported.tgt_vocab, specials,
                                     imported.special_ids("src").get("unk"))
            longest = max(len(tokens.src_tokens), len(tokens.tgt_in_tokens))
            if longest > imported.config.max_len:  # a table that is not the formula's
                tokens, text_error = None, t("problems.longer_than_model", n=longest,
                                             max_len=imported.config.max_len)
        return Context(settings, tokens, text_error, imported.config, None, imported)
    vocab_size = len(tokens.vocab) if tokens is not None else 8
    arch_error = architecture_problem(settings, vocab_size)
    cfg = None
    if arch_error is None:
        cfg = replace(settings.model_config(vocab_size), max_len=EXPLORER_MAX_LEN)
    return Context(settings, tokens, text_error, cfg, arch_error)


_CURRENT: contextvars.ContextVar[Context | None] = contextvars.ContextVar("page_context",
                                                                          default=None)


@contextmanager
def page_context(ctx: Context) -> Iterator[Context]:
    """Make `ctx` what `context()` returns while the page runs (the entry script uses this)."""
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)


def current_settings() -> Settings | None:
    """The settings of this run's page context, if the entry script set one."""
    ctx = _CURRENT.get()
    return ctx.settings if ctx is not None else None


def session_disconnected() -> bool:
    """True when this run's browser tab has gone (closed, or lost its connection).

    Streamlit keeps running a script whose client left; a long loop (training) asks this
    to stop early instead of holding a shared core for nobody. Cheap: a dict lookup.
    """
    if not _real_server():
        return False
    run_ctx = get_script_run_ctx()
    return run_ctx is not None and not runtime.get_instance().is_active_session(
        run_ctx.session_id)


def _real_server() -> bool:
    """True under `streamlit run`; False under AppTest, which has its own page routing."""
    return runtime.exists() and type(runtime.get_instance()) is Runtime


def context() -> Context:
    """The context of this run: the entry script's, or (a page run on its own) a fresh one."""
    ctx = _CURRENT.get()
    if ctx is not None:
        return ctx
    if PagesManager.uses_pages_directory and _real_server():
        # Streamlit starts in its legacy multipage mode because a pages/ folder exists, and
        # stays in it until the entry script calls st.navigation. A first visit straight to
        # a page URL (a shared link to /attention on a server that just woke up) would run
        # this page alone, without app.py. Leave legacy mode and run again through app.py.
        PagesManager.uses_pages_directory = False
        st.rerun()
    load_url_state()  # a page run without app.py (AppTest): the link, then the language
    set_lang(st.session_state.get("lang"))
    return render_sidebar()


def show_problems(ctx: Context, need_text: bool = True, need_model: bool = True) -> bool:
    """Show friendly errors for what this page needs; True if the page can go on."""
    ok = True
    if need_text and ctx.text_error:
        st.error(t("problems.text", reason=ctx.text_error),
                 icon=":material/edit_note:")
        ok = False
    if need_model and ctx.arch_error:
        st.error(t("problems.arch", reason=ctx.arch_error),
                 icon=":material/construction:")
        ok = False
    return ok


# ---- Shareable links: the URL's query parameters <-> session state ----------------------

_URL_LOADED = "_url_loaded"  # set once the link's parameters were read, on the first run
_URL_NOTICES = "_url_notices"  # what the link asked for that was refused


def load_url_state() -> None:
    """On a session's first run, set the widgets to what the link says (never raises)."""
    if st.session_state.get(_URL_LOADED):
        return
    st.session_state[_URL_LOADED] = True
    try:
        params = {k: st.query_params.get_all(k) for k in st.query_params}
    except Exception:  # a malformed query string: ignore it, keep the defaults
        params = {}
    if not params:
        return
    written_in = get_lang()
    state, notices = params_to_state(params)
    for key, value in state.items():
        st.session_state[key] = value
    if notices and set_lang(st.session_state.get("lang")) != written_in:
        notices = params_to_state(params)[1]  # again, in the language the link asks for
    st.session_state[_URL_NOTICES] = list(notices)


def view_params(ctx: Context) -> dict[str, str]:
    """The query parameters of what this run shows: the settings and the pages' selections.

    Computed before the page runs (widgets write a learner's change into session_state
    before the rerun starts), so a selection the page will correct is corrected here by the
    same rule: a layer or head the shown model does not have is left out (the page shows
    the default, 0), and an odd PE d_model is rounded up as the Embeddings page does.
    """
    extras: dict[str, object] = {}
    for name, (key, default) in EXTRAS.items():
        value = st.session_state.get(key)
        if isinstance(value, bool) != isinstance(default, bool):
            continue  # only a toggle's value may be a bool
        if isinstance(value, (str, int, float, list, tuple)):
            extras[name] = list(value) if isinstance(value, tuple) else value
    if ctx.cfg is not None:
        for name, limit in (("layer", ctx.cfg.N), ("head", ctx.cfg.h)):
            if not (isinstance(extras.get(name), int) and 0 <= extras[name] < limit):
                extras.pop(name, None)
    if isinstance(extras.get("ped"), int) and extras["ped"] % 2:
        extras["ped"] += 1  # as the Embeddings page rounds it
    try:
        return settings_to_params(ctx.settings, extras)
    except (ValueError, TypeError):
        return settings_to_params(ctx.settings, {})


def share_link(params: dict[str, str]) -> str:
    """The address of this view: the page's URL in the browser plus `params`."""
    base = st.context.url or ""
    query = urlencode(params, quote_via=quote)
    return f"{base}?{query}" if query else base


def publish_view(ctx: Context, share_slot: DeltaGenerator) -> None:
    """Write the view into the address bar and into the sidebar's share box."""
    params = view_params(ctx)
    current = {k: st.query_params.get(k) for k in st.query_params}
    if current != params:
        st.query_params.from_dict(params)
    with share_slot.container():
        components.html(_copy_link_html(t("sidebar.copy_link"), t("sidebar.copied")),
                        height=40)
        with st.expander(t("sidebar.share"), icon=":material/link:"):
            st.caption(t("sidebar.share_help"))
            st.code(share_link(params), language=None, wrap_lines=True)


# One click copies the address bar: the browser's own URL, read when the button is pressed,
# so the page's HTML holds no learner text (only the two labels, JSON-escaped constants).
_COPY_LINK = """<style>body { margin: 0; }</style>
<button id="b" style="width:100%;height:38px;border-radius:8px;cursor:pointer;
border:1px solid rgba(49,51,63,0.2);background:#fff;color:rgb(49,51,63);font:14px
'Source Sans 3','Source Sans Pro',system-ui,sans-serif">__LABEL__</button>
<script>
const b = document.getElementById("b"), label = __LABEL_JS__, done = __DONE_JS__;
b.onclick = async () => {
  try { await navigator.clipboard.writeText(window.parent.location.href); b.textContent = done; }
  catch (e) { b.textContent = label; }
  setTimeout(() => { b.textContent = label; }, 2000);
};
</script>"""


def _copy_link_html(label: str, done: str) -> str:
    """The copy button's page: `label` and `done` are the app's own texts."""
    return (_COPY_LINK.replace("__LABEL_JS__", json.dumps(label))
            .replace("__DONE_JS__", json.dumps(done))
            .replace("__LABEL__", html.escape(label)))


PRESENTER_CSS = """<style>
html { font-size: 21px; }
[data-testid="stMainBlockContainer"] { max-width: 100%; padding-left: 2rem; padding-right: 2rem; }
[data-testid="stCode"] code, [data-testid="stDataFrame"] { font-size: 1.05rem; }
</style>"""


# ---- The shared sidebar ---------------------------------------------------------------

_MODEL_KEYS = ("N", "d_model", "h", "d_ff", "dropout")
# Widgets whose values the sidebar shows only for its own model: while a checkpoint is
# active they are replaced by read-only copies of the checkpoint's values.
_OWN_MODEL_KEYS = ("preset", *_MODEL_KEYS, "seed", "norm_placement", "layer_norm",
                   "scale_embedding", "tie_weights", "train_mode")

# Radios and selectboxes (every page's) whose option labels are translated. Streamlit sends
# a radio's or selectbox's value between browser and server as the option's label, so after
# a language change the browser's old label matches no new one and the choice would be lost
# (issue 15, item 2). The language selector's callback therefore writes each of these values
# back from Python, and Streamlit sends the browser the label in the new language.
TRANSLATED_CHOICES = (
    "token_mode", "preset", "norm_placement", "layer_norm", "tie_weights",
    "attn_kind", "attn_layer", "attn_head", "shape_stack", "shape_layer", "model_component",
    "tr_task", "tr_symbols", "tr_model", "tr_schedule", "tr_which", "tr_kind", "tr_layer",
    "tr_head",
)


def _keep_choices_on_language_change() -> None:
    """Write every translated choice back, so the browser gets its label in the new language."""
    for key in TRANSLATED_CHOICES:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def _apply_preset() -> None:
    preset = PRESETS.get(st.session_state.get("preset", ""))
    if preset is not None:
        for key in _MODEL_KEYS:
            st.session_state[key] = getattr(preset, key)


def _mark_custom() -> None:
    values = tuple(st.session_state.get(k) for k in _MODEL_KEYS)
    for name, p in PRESETS.items():
        if values == tuple(getattr(p, k) for k in _MODEL_KEYS):
            st.session_state["preset"] = name
            return
    st.session_state["preset"] = "custom"


def _init_state() -> None:
    defaults = Settings()
    for key in ("source", "target", "token_mode", "seed", "norm_placement", "layer_norm",
                "scale_embedding", "tie_weights", "train_mode", *_MODEL_KEYS):
        st.session_state.setdefault(key, getattr(defaults, key))
    st.session_state.setdefault("preset", "tiny")
    if st.session_state.get("lang") not in LANGS:  # unset, or tampered with
        st.session_state["lang"] = LANGS[0]
    if not isinstance(st.session_state.get("presenter"), bool):
        st.session_state["presenter"] = False


def render_sidebar() -> Context:
    """Draw the shared controls, validate them again in Python, and return the context."""
    _init_state()
    imported = _current_import()
    sb = st.sidebar
    sb.selectbox(t("sidebar.language"), LANGS, key="lang", format_func=LANG_NAMES.get,
                 on_change=_keep_choices_on_language_change)
    sb.toggle(t("sidebar.presenter"), key="presenter", help=t("sidebar.presenter_help"))
    share_slot = sb.empty()  # filled last, once the whole view is known
    if st.session_state.get("presenter") is True:
        st.markdown(PRESENTER_CSS, unsafe_allow_html=True)  # a constant: no user text
    for notice in st.session_state.pop(_URL_NOTICES, []):
        sb.warning(notice, icon=":material/link_off:")
    sb.text_input(
        t("sidebar.source"), key="source", max_chars=MAX_TEXT_CHARS,
        help=t("sidebar.source_help"),
    )
    sb.text_input(
        t("sidebar.target"), key="target", max_chars=MAX_TEXT_CHARS,
        placeholder=t("sidebar.target_placeholder"),
        help=t("sidebar.target_help"),
    )
    sb.radio(t("sidebar.tokens"), TOKEN_MODES, key="token_mode", horizontal=True,
             format_func={"word": t("sidebar.tokens_word"), "char": t("sidebar.tokens_char")}.get)
    texts = [st.session_state.get(k) for k in ("source", "target")]
    if any(isinstance(x, str) and writes_without_spaces(x[:MAX_TEXT_CHARS]) for x in texts):
        sb.caption(t("sidebar.tokens_unspaced"))
    if imported is not None:
        _imported_model_widgets(imported.config)
    else:
        _model_widgets()
    raw = {k: st.session_state.get(k) for k in (
        "source", "target", "token_mode", "seed", "norm_placement", "layer_norm",
        "scale_embedding", "tie_weights", "train_mode", *_MODEL_KEYS)}
    settings = parse_settings(raw)
    for message in settings.errors:
        sb.error(message)
    imported = _checkpoint_panel()
    ctx = build_context(settings, imported)
    _summary(ctx)
    # The page's own selections (layer, head, ...) are already in session_state: widgets
    # write a learner's change there before the rerun starts, so the link is complete now.
    publish_view(ctx, share_slot)
    return ctx


def _model_widgets() -> None:
    """The size, seed and teaching options of the sidebar's own model."""
    sb = st.sidebar
    sb.selectbox(t("sidebar.preset"), (*PRESETS, "custom"), key="preset",
                 on_change=_apply_preset, help=t("sidebar.preset_help"),
                 format_func=lambda p: t("sidebar.preset_custom") if p == "custom" else p)
    c1, c2 = sb.columns(2)
    lo, hi = LIMITS["N"]
    c1.number_input(t("sidebar.N"), lo, hi, step=1, key="N", on_change=_mark_custom)
    lo, hi = LIMITS["h"]
    c2.number_input(t("sidebar.h"), lo, hi, step=1, key="h", on_change=_mark_custom)
    lo, hi = LIMITS["d_model"]
    c1.number_input("d_model", lo, hi, step=2, key="d_model", on_change=_mark_custom)
    lo, hi = LIMITS["d_ff"]
    c2.number_input("d_ff", lo, hi, step=16, key="d_ff", on_change=_mark_custom)
    sb.slider("dropout", 0.0, MAX_DROPOUT, step=0.05, key="dropout", on_change=_mark_custom)
    lo, hi = LIMITS["seed"]
    sb.number_input(t("sidebar.seed"), lo, hi, step=1, key="seed")
    with sb.expander(t("sidebar.teaching")):
        st.radio(t("sidebar.norm_placement"), NORM_PLACEMENTS, key="norm_placement",
                 horizontal=True, format_func={"pre": t("sidebar.norm_pre"),
                                               "post": t("sidebar.norm_post")}.get)
        st.radio(t("sidebar.layer_norm"), LAYER_NORMS, key="layer_norm", horizontal=True,
                 format_func={"annotated": "std + 1e-6", "standard": "nn.LayerNorm"}.get)
        st.checkbox(t("sidebar.scale_embedding"), key="scale_embedding")
        st.selectbox(t("sidebar.tie_weights"), TIE_WEIGHTS, key="tie_weights",
                     format_func={"none": t("sidebar.tie_none"),
                                  "decoder": t("sidebar.tie_decoder"),
                                  "all": t("sidebar.tie_all")}.get)
        st.toggle(t("sidebar.train_mode"), key="train_mode")


def _imported_model_widgets(cfg: TransformerConfig) -> None:
    """Read-only copies of the size and options, showing the checkpoint's model.

    The sidebar's own values are kept (written back each run, so Streamlit does not drop the
    state of widgets that are not drawn) and come back with "Back to the sidebar's model".
    """
    for key in _OWN_MODEL_KEYS:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]
    sb = st.sidebar
    sb.caption(t("sidebar.fixed_by_checkpoint"))
    c1, c2 = sb.columns(2)
    c1.number_input(t("sidebar.N"), value=cfg.N, disabled=True)
    c2.number_input(t("sidebar.h"), value=cfg.h, disabled=True)
    c1.number_input("d_model", value=cfg.d_model, disabled=True)
    c2.number_input("d_ff", value=cfg.d_ff, disabled=True)
    with sb.expander(t("sidebar.teaching")):
        st.radio(t("sidebar.norm_placement"), NORM_PLACEMENTS, disabled=True,
                 index=NORM_PLACEMENTS.index(cfg.norm_placement), horizontal=True,
                 format_func={"pre": t("sidebar.norm_pre"), "post": t("sidebar.norm_post")}.get)
        st.radio(t("sidebar.layer_norm"), LAYER_NORMS, disabled=True,
                 index=LAYER_NORMS.index(cfg.layer_norm), horizontal=True,
                 format_func={"annotated": "std + 1e-6", "standard": "nn.LayerNorm"}.get)
        st.checkbox(t("sidebar.scale_embedding"), value=cfg.scale_embedding, disabled=True)
        st.selectbox(t("sidebar.tie_weights"), TIE_WEIGHTS, disabled=True,
                     index=TIE_WEIGHTS.index(cfg.tie_weights),
                     format_func={"none": t("sidebar.tie_none"),
                                  "decoder": t("sidebar.tie_decoder"),
                                  "all": t("sidebar.tie_all")}.get)


def _current_import() -> LoadedCheckpoint | None:
    """This session's imported checkpoint, if any (anything else in its place is dropped)."""
    loaded = st.session_state.get(IMPORT_KEY)
    if loaded is not None and not isinstance(loaded, LoadedCheckpoint):
        st.session_state.pop(IMPORT_KEY, None)
        loaded = None
    return loaded


IMPORT_KEY = "imported_checkpoint"  # this session's LoadedCheckpoint (never shared)
_MAX_VOCAB_BYTES = 5_000_000


def _checkpoint_panel() -> LoadedCheckpoint | None:
    """Upload a checkpoint (The Annotated Transformer's state_dict, or this app's export)."""
    loaded = _current_import()
    with st.sidebar.expander(t("ckpt.title"), expanded=loaded is not None,
                             icon=":material/upload_file:"):
        if loaded is not None:
            cfg = loaded.config
            st.success(t("ckpt.using", N=cfg.N, d_model=cfg.d_model, h=cfg.h, d_ff=cfg.d_ff,
                         src=cfg.src_vocab, tgt=cfg.tgt_vocab), icon=":material/check_circle:")
            for note in loaded.notes:
                st.caption(note)
            if st.button(t("ckpt.forget"), key="ckpt_forget"):
                st.session_state.pop(IMPORT_KEY, None)
                st.session_state.pop(_IMPORTED_RUNS, None)
                st.rerun()
            return loaded
        st.caption(t("ckpt.explain", mb=MAX_CHECKPOINT_BYTES // 2**20))
        upload = st.file_uploader(t("ckpt.file"), type=["pt", "pth", "bin", "ckpt"],
                                  key="ckpt_file",
                                  max_upload_size=MAX_CHECKPOINT_BYTES // 2**20)
        h = st.number_input(t("ckpt.h"), 1, LIMITS["h"][1], value=None, step=1, key="ckpt_h",
                            placeholder=t("ckpt.h_placeholder"), help=t("ckpt.h_help"))
        vocab_file = st.file_uploader(t("ckpt.vocab"), type=["txt"], key="ckpt_vocab",
                                      help=t("ckpt.vocab_help"), max_upload_size=5)
        if st.button(t("ckpt.load"), key="ckpt_load", disabled=upload is None, type="primary"):
            try:
                vocab_text = None
                if vocab_file is not None:
                    raw = vocab_file.getvalue()
                    if len(raw) > _MAX_VOCAB_BYTES:
                        raise CheckpointError(t("ckpt.vocab_too_big"))
                    vocab_text = raw.decode("utf-8", errors="strict")
                h_value = h if isinstance(h, int) and not isinstance(h, bool) else None
                with st.spinner(t("ckpt.loading")):
                    result = load_checkpoint(upload.getvalue(), h_value, vocab_text)
            except UnicodeDecodeError:
                st.error(t("ckpt.vocab_not_utf8"), icon=":material/error:")
            except CheckpointError as exc:
                st.error(str(exc), icon=":material/error:")
            else:
                st.session_state[IMPORT_KEY] = result
                st.rerun()
    return None


def _summary(ctx: Context) -> None:
    sb = st.sidebar
    if ctx.imported is not None:
        n = sum(p.numel() for p in ctx.imported.model.parameters())
        sb.metric(t("sidebar.params_imported"), f"{n:,}")
    elif ctx.cfg is not None and ctx.tokens is not None:
        n = estimate_params(ctx.cfg.N, ctx.cfg.d_model, ctx.cfg.d_ff, len(ctx.tokens.vocab),
                            ctx.cfg.tie_weights, ctx.cfg.norm_placement)
        sb.metric(t("sidebar.params"), f"{n:,}")
    elif ctx.arch_error:
        sb.error(ctx.arch_error, icon=":material/construction:")
    if ctx.tokens is not None:
        with sb.expander(t("sidebar.tokens_table", n=len(ctx.tokens.src_tokens))):
            st.dataframe(
                {t("sidebar.col_source"): list(ctx.tokens.src_tokens), "id": ctx.tokens.src_ids},
                hide_index=True, width="stretch",
            )
            st.dataframe(
                {t("sidebar.col_decoder"): list(ctx.tokens.tgt_in_tokens),
                 "id": ctx.tokens.tgt_in_ids},
                hide_index=True, width="stretch",
            )
    elif ctx.text_error:
        sb.error(ctx.text_error, icon=":material/edit_note:")
