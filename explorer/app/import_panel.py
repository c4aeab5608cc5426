"""The sidebar's checkpoint import: upload, load, and this session's imported model.

An imported model belongs to the session that uploaded it (kept in `st.session_state`,
never in a shared cache), and so do the runs of the learner's text through it.
"""

from __future__ import annotations

import streamlit as st

from ..core.checkpoint import (
    MAX_CHECKPOINT_BYTES,
    CheckpointError,
    LoadedCheckpoint,
    load_checkpoint,
)
from ..core.runs import Run, Tokens, forward
from ..core.settings import LIMITS
from ..text.i18n import get_lang, t
from .memo import forget, remember
from .numbers import number_box
from .shelves import CHECKPOINT_RUNS

IMPORT_KEY = "imported_checkpoint"  # this session's LoadedCheckpoint (never shared)
# whether the imported model reads the sentence between its <s> and </s>, as The Annotated
# Transformer's data gives every source (`LoadedCheckpoint.source_marks`)
WRAP_KEY = "ckpt_wrap"
# The model source to show from the next run on (the source radio is drawn before this
# panel, so its value can only change before it is drawn again: the sidebar applies this).
_PENDING_SOURCE = "_pending_source"
_MAX_VOCAB_BYTES = 5_000_000


def uploader_css(button: str, limits: dict[str, str]) -> str:
    """CSS that shows the file uploaders' button and size line in the learner's language
    (Streamlit draws them in English): `limits` maps an uploader's widget key to its line.
    The texts are the app's own, never a learner's; CSS syntax in them is refused."""
    for text in (button, *limits.values()):
        if any(c in text for c in '"\\<>{};'):
            raise ValueError("uploader texts must not hold CSS syntax")
    instructions = '[data-testid="stFileUploaderDropzoneInstructions"] span'
    css = [f".st-key-{key} {instructions} {{ font-size: 0; }} "
           f'.st-key-{key} {instructions}::after {{ content: "{limit}"; font-size: 0.8rem; }}'
           for key, limit in limits.items()]
    word = '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p'
    css.append(f'{word} {{ font-size: 0; }} {word}::after {{ content: "{button}"; '
               f"font-size: 0.875rem; }}")
    return "<style>" + " ".join(css) + "</style>"


def current_import() -> LoadedCheckpoint | None:
    """This session's imported checkpoint, if any (anything else in its place is dropped)."""
    loaded = st.session_state.get(IMPORT_KEY)
    if loaded is not None and not isinstance(loaded, LoadedCheckpoint):
        st.session_state.pop(IMPORT_KEY, None)
        loaded = None
    return loaded


def imported_run(imported: LoadedCheckpoint, tokens: Tokens) -> Run:
    """A run of a checkpoint whose content is not known, kept in the session by its model
    and `meta["version"]` (one with a content is shared by it: `Context.run`)."""
    key = (imported.model, imported.meta.get("version"), tokens.src_tokens, tokens.tgt_tokens)
    return remember(CHECKPOINT_RUNS, key, lambda: forward(imported.model, tokens))


def checkpoint_panel() -> bool:
    """Upload a checkpoint (The Annotated Transformer's state_dict, or this app's export).
    Whether the imported model reads the sentence between its start and end tokens (the
    learner's choice, offered when its vocabulary has them)."""
    loaded = current_import()
    # drawn only while open (or while a checkpoint is loaded), like the sidebar's tables:
    # closed, its uploaders and buttons would still cost every run (bench/classroom.py)
    panel = st.sidebar.expander(t("ckpt.title"), expanded=loaded is not None,
                                icon=":material/upload_file:", key="import_open",
                                on_change="rerun")
    if loaded is None and not panel.open:
        return False
    with panel:
        if loaded is not None:
            cfg = loaded.config
            st.success(t("ckpt.using", N=cfg.N, d_model=cfg.d_model, h=cfg.h, d_ff=cfg.d_ff,
                         src=cfg.src_vocab, tgt=cfg.tgt_vocab), icon=":material/check_circle:")
            for note in loaded.notes:
                st.caption(note)
            if not loaded.start_named:
                st.caption(t("ckpt.start_nameless", start=loaded.start_id()))
            marks = loaded.source_marks()
            wrap = False
            if marks is not None:
                st.caption(t("ckpt.wrap_note", start=marks[0], end=marks[1]))
                wrap = st.toggle(t("ckpt.wrap", start=marks[0], end=marks[1]),
                                 key=WRAP_KEY) is True  # a tampered value: not wrapped
            if st.button(t("ckpt.forget"), key="ckpt_forget"):
                st.session_state.pop(IMPORT_KEY, None)
                st.session_state.pop(WRAP_KEY, None)
                forget(CHECKPOINT_RUNS)
                st.session_state[_PENDING_SOURCE] = "untrained"
                st.rerun()
            return wrap
        st.caption(t("ckpt.explain", mb=MAX_CHECKPOINT_BYTES // 2**20))
        if get_lang() != "en":  # Streamlit writes the upload box's own words in English only
            limits = {"ckpt_file": t("ckpt.upload_limit", mb=MAX_CHECKPOINT_BYTES // 2**20,
                                     types=".pt .pth .bin .ckpt"),
                      "ckpt_vocab": t("ckpt.upload_limit", mb=_MAX_VOCAB_BYTES // 10**6,
                                      types=".txt")}
            st.markdown(uploader_css(t("ckpt.upload_button"), limits), unsafe_allow_html=True)
        upload = st.file_uploader(t("ckpt.file"), type=["pt", "pth", "bin", "ckpt"],
                                  key="ckpt_file",
                                  max_upload_size=MAX_CHECKPOINT_BYTES // 2**20)
        # in range in Python, whatever was typed (explorer/app/numbers.py); empty: from the file
        h = number_box(st, t("ckpt.h"), "ckpt_h", 1, LIMITS["h"][1], step=1, default=None,
                       kept=False, blank=t("ckpt.h_placeholder"), value=None,
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
                st.session_state[_PENDING_SOURCE] = "imported"  # show what was just loaded
                st.session_state.pop(WRAP_KEY, None)  # a new model: as its file reads, first
                st.rerun()
    return False


def take_pending_source() -> str | None:
    """The model source a load or a removal asked the sidebar to show, once."""
    return st.session_state.pop(_PENDING_SOURCE, None)
