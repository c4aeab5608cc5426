"""The class panel at the top of the sidebar: start or join a class; the teacher's code, join
link, QR code and who follows; a student's "Follow the teacher" and the way back to the
class's view. The seat and the store are explorer/app/classroom.py's."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import segno
import streamlit as st
from streamlit.components.v2 import component

from ..app import classroom as C
from ..app.charts import show_chart
from ..app.context import Context
from ..app.memo import Shelf, remember
from ..app.page import draw_last
from ..app.sidebar import use_session_lang
from ..classroom.store import (
    MAX_CHOICES,
    MAX_LABEL_CHARS,
    NICKNAME_CHARS,
    OPEN,
    REVEALED,
    AlreadyAnsweredError,
    ClassNotFoundError,
    ClassroomError,
    ClassStore,
    NotTeacherError,
    PublicQuestion,
    Question,
    Tally,
)
from ..core.introspect import KINDS
from ..figures.attention import guesses_chart
from ..text.i18n import percent, t

# Keeps the teacher key in the teacher's browser for this browser session (a cookie with no
# expiry, sent only to this server's pages): a teacher who closes the tab and opens the
# class's link again gets the class back. The key and the name travel as the component's
# data and are only ever assigned to document.cookie, never written into the page.
_COOKIE_JS = """
export default function ({ data }) {
  const name = String(data && data.name || "");
  const value = String(data && data.value || "");
  if (/^[A-Za-z0-9_]+$/.test(name) && /^[A-Za-z0-9_-]+$/.test(value)) {
    document.cookie = name + "=" + value + "; path=/; SameSite=Strict";
  }
}
"""
ANSWERED_KEY = "_class_answered"  # (code, question id) this student answered
# the teacher's chart of the answers so far, by what it shows (`_results`)
TALLY_CHARTS = Shelf("the class's answers so far", 2, shared=False)
MARKDOWN_SPECIALS = set("\\`*_{}[]()#+-.!|<>~$")
_keep_key = component("transformer_explorer_class_key", html="<span></span>", js=_COOKIE_JS)


def join_link(page_url: str, code: str) -> str:
    """The address students open: this page's, with only the class code."""
    parts = urlsplit(page_url or "")
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", f"{C.CLASS_PARAM}={code}",
                       ""))


def qr_png(text: str) -> bytes:
    """`text` as a QR code (PNG), for a classroom's projector and students' phones."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=6, border=2)
    return out.getvalue()


def class_panel(store: ClassStore | None, page_names: dict[str, str]) -> None:
    """The sidebar's class panel for this session: no class, teaching one, or in one.
    `page_names`: each page's path and its name in the learner's language. Its timed
    fragment (the teacher's roster, a student's look at the class) is drawn in its place
    but sent after the page (`draw_last`)."""
    notice = C.take_notice()
    if notice is not None:
        st.warning(t(notice[0], **notice[1]), icon=":material/school:")
    s = C.seat()
    if s is None:
        _start_or_join(store)
    elif store is None:
        st.warning(t("class.unavailable"), icon=":material/cloud_off:")
    elif s.teaching:
        _teacher(store, s)
    else:
        _student(store, s, page_names)


def class_banner(presenter: bool) -> None:
    """In presenter mode, the teacher's class code and join link across the top of the
    page, large enough for the back of a classroom, with the QR code one click away."""
    s = C.seat()
    if not presenter or s is None or not s.teaching:
        return
    link = join_link(st.context.url or "", s.code)
    with st.container(border=True, key="class_banner"):
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.markdown(f"# {t('class.banner', code=s.code)}")  # [0-9A-Z] only (codes.py)
        left.code(link, language=None)
        with right.popover(t("class.qr_button"), icon=":material/qr_code_2:"):
            st.image(qr_png(link), width=360)


def _start_or_join(store: ClassStore | None) -> None:
    with st.expander(t("class.title"), icon=":material/school:"):
        if store is None:
            st.caption(t("class.unavailable"))
            return
        st.caption(t("class.start_help"))
        st.button(t("class.start"), key="class_start", icon=":material/co_present:",
                  width="stretch", on_click=C.start_class, args=(store,))
        code = st.text_input(t("class.code_label"), key="class_code", max_chars=20,
                             placeholder="K7Q2XM")
        # in the class, or its notice at the top of the panel
        st.button(t("class.join"), key="class_join", icon=":material/login:",
                  width="stretch", disabled=not code, on_click=_join_typed, args=(store,))


def _join_typed(store: ClassStore) -> None:
    """Join's callback: the class of the code as typed."""
    C.join_class(store, st.session_state.get("class_code"))


def _teacher(store: ClassStore, s: C.Seat) -> None:
    link = join_link(st.context.url or "", s.code)
    with st.container(border=True, key="class_teacher"):
        st.caption(t("class.teaching"))
        st.markdown(f"## {s.code}")  # [0-9A-Z] only (codes.py): nothing to escape
        st.code(link, language=None, wrap_lines=True)
        st.image(qr_png(link), caption=t("class.qr_caption"), width="stretch")
        draw_last(lambda: _roster(store, s.code, s.teacher_key or ""))
        st.button(t("class.end"), key="class_end", icon=":material/stop_circle:",
                  width="stretch", on_click=C.leave_class, args=(store, True))
    _keep_key(key="class_key", data={"name": C.TEACHER_COOKIE + s.code,
                                     "value": s.teacher_key or ""}, height=0)


@st.fragment(run_every=C.ROSTER_EVERY)
def _roster(store: ClassStore, code: str, key: str) -> None:
    """Who is in the class, redrawn on its own every ROSTER_EVERY seconds."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    C.announce_timer(C.ROSTER_EVERY)  # in case the page's announcement was dropped
    try:
        roster = store.roster(code, key, time.time())
    except (ClassNotFoundError, NotTeacherError):
        st.warning(t("class.ended"), icon=":material/event_busy:")
        return
    st.caption(t("class.roster", connected=roster.connected, following=roster.following,
                 exploring=roster.exploring))
    try:
        _asked(store.questions(code, key))
    except (ClassNotFoundError, NotTeacherError):
        pass  # ended meanwhile: the next redraw says so


def _asked(questions: list[Tally]) -> None:
    """The teacher's dashboard: every question asked so far, newest first, with how many
    answered and, once revealed, the share right. A prompt holds the learner's tokens: its
    markdown characters are escaped."""
    if not questions:
        return
    with st.expander(t("class.asked", n=len(questions)), icon=":material/quiz:"):
        for q in reversed(questions):
            if q.status == REVEALED and q.truth is not None and q.answered:
                counts = t("class.asked_right", answered=q.answered,
                           right=percent(q.counts[q.truth] / q.answered))
            elif q.status == REVEALED:  # a poll, or a truth that was never measured
                counts = t("class.asked_no_truth", answered=q.answered)
            else:
                counts = t("class.asked_open", answered=q.answered)
            st.markdown(f"**{q.question_id}.** {counts}")
            st.caption(_quoted(q.prompt))


def _student(store: ClassStore, s: C.Seat, page_names: dict[str, str]) -> None:
    with st.container(border=True, key="class_student"):
        st.caption(t("class.in_class", code=s.code))
        # Drawn from the seat's own flag each run (`C.following`), under a key that
        # changes when the app turns following on or off (`C.follow_toggle_key`): the
        # widget's value is never what says whether the student follows. A page change
        # (st.switch_page, to the class's page) drops every widget's value; the flag stays.
        key = C.follow_toggle_key(s)
        with st.container(key=C.FOLLOW_TOGGLE):
            st.toggle(t("class.follow"), value=C.following(), key=key,
                      help=t("class.follow_help"), on_change=C.toggled, args=(key,))
        _where_to_answer(store, s)
        draw_last(lambda: _watch_for(s.version)(store, page_names))
        st.button(t("class.leave"), key="class_leave", icon=":material/logout:",
                  on_click=C.leave_class, args=(store, False))


def _where_to_answer(store: ClassStore, s: C.Seat) -> None:
    """A following student's pointer to the open question they have not answered: the
    question sits in its section, which may be far down the page."""
    question = current_question(store, s) if C.following() else None
    about = about_of(question) if question is not None else None
    if (about is None or question.status != OPEN
            or st.session_state.get(ANSWERED_KEY) == (s.code, question.id)):
        return
    st.info(t(_WHERE[about]), icon=":material/quiz:")


def _watch_for(version: int) -> Callable[[ClassStore, dict[str, str]], None]:
    """`_watch` as a fragment of its own for each class version the page has taken.

    Streamlit names a fragment after its function's qualified name and place, and ignores
    a timer's rerun for a fragment that the last full run did not draw (app_session.py
    `request_rerun`, streamlit/streamlit#9921). It must: a rerun that reaches the server
    after a full run ended but before the server's event loop sent that run's messages
    starts a new ScriptRunner, and the loop then drops the old runner's messages, so the
    page that took the class's change never reaches the browser (bench/classroom.py with
    30 students: 69 of 150 changes lost). A fresh name per version makes the ticks of a
    browser that has not yet drawn the new version ones Streamlit ignores.
    """
    def watch(store: ClassStore, page_names: dict[str, str]) -> None:
        _watch(store, page_names)

    watch.__qualname__ = f"_watch.v{max(version, -1) + 1}"
    return st.fragment(run_every=C.WATCH_EVERY)(watch)


def _watch(store: ClassStore, page_names: dict[str, str]) -> None:
    """A student's look at the class every WATCH_EVERY seconds: one number read (the class's
    version); the whole page runs again only when a followed class changed. A following
    student's timed run then waits for the class to change (`C.wait_for_class`), so a
    change shows at once; a run of the whole page never waits."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    C.announce_timer(C.WATCH_EVERY)  # in case the page's announcement was dropped
    s = C.seat()
    if s is None:
        return
    C.heartbeat(store, s)
    version, following = store.version(s.code), C.following()
    state = store.state(s.code) if version is not None and (
        version != s.version or not following) else None
    if version is None or (state is not None and state.ended):
        st.warning(t("class.ended"), icon=":material/event_busy:")
        return
    if following:
        if version != s.version or (C.fragment_rerun() and C.wait_for_class(store, s)):
            st.rerun(scope="app")  # the class moved on: the page follows
        return
    where = (state.view.get(C.PAGE_PARAM, "") if state is not None else "")
    st.info(t("class.elsewhere", page=page_names.get(where, where)), icon=":material/groups:")
    st.button(t("class.back"), key="class_back", icon=":material/u_turn_left:",
              on_click=C.follow_again, width="stretch")


# What a question asks about: where a token looks, which token comes next (token
# questions), which break hurts most (an option question whose truth is measured later)
ABOUT_ATTENTION, ABOUT_NEXT, ABOUT_BREAK = "attention", "next", "break"


def current_question(store: ClassStore, s: C.Seat) -> PublicQuestion | None:
    """The question the class was asked last (open, closed or revealed), if any."""
    state = store.state(s.code)
    return state.question if state is not None else None


def asked_about(about: str, store: ClassStore, s: C.Seat) -> PublicQuestion | None:
    """The class's current question if it is about `about`: the place that asks it shows
    its tally (one page may ask two kinds)."""
    question = current_question(store, s)
    return question if question is not None and about_of(question) == about else None


def student_side(about: str, heading: Callable[[Mapping[str, str]], None], lang: str,
                 presenter: bool, label: Callable[[str], str] = str) -> bool:
    """A following student's side of the class's question about `about` (`about_of`), drawn
    under `heading(fields)`: answer once, then the truth beside the class's guesses; each
    choice shown as `label(choice)` (a break's name in the student's language). True while
    the page must hide what would give the answer away."""
    s = C.seat()
    store = C.store_or_none() if s is not None and C.following() else None
    question = current_question(store, s) if store is not None and s is not None else None
    if question is None or about_of(question) != about:
        return False
    with st.container(border=True, key="class_question"):
        heading(question.fields)
        return _answer(store, s, question, tuple(label(c) for c in question.choices), lang,
                       presenter, about)


def student_question(kind_labels: dict[str, str], lang: str, presenter: bool) -> bool:
    """A following student's side of the class's "where will it look?" on the Attention
    page. True when the page must hide its heatmaps (before the reveal: they would give the
    answer away)."""
    def heading(fields: Mapping[str, str]) -> None:
        st.subheader(t("class.q_token", token=_quoted(fields.get("token", "")),
                       layer=fields.get("layer", "?"), head=fields.get("head", "?"),
                       kind=kind_labels.get(fields.get("kind", ""), "")))

    return student_side(ABOUT_ATTENTION, heading, lang, presenter)


def student_next_question(lang: str, presenter: bool) -> bool:
    """A following student's side of the class's "which token comes next?" on the Train
    page, under the source and what the decoder has written so far. True when the page
    must hide its decoding until the reveal."""
    def heading(fields: Mapping[str, str]) -> None:
        st.subheader(t("class.q_next", step=_quoted(fields.get("step", "?"))))
        st.markdown(t("class.q_next_source"))
        st.code(fields.get("source", ""), language=None, wrap_lines=True)  # text, not markup
        st.markdown(t("class.q_next_prefix"))
        st.code(fields.get("prefix", ""), language=None, wrap_lines=True)

    return student_side(ABOUT_NEXT, heading, lang, presenter)


# Per kind of question: what a student who answered reads, what hides what, the truth's words
_SENT = {ABOUT_ATTENTION: "class.q_sent", ABOUT_NEXT: "class.q_next_sent",
         ABOUT_BREAK: "class.q_break_sent"}
_HIDDEN = {ABOUT_ATTENTION: "class.q_hidden", ABOUT_NEXT: "class.q_next_hidden",
           ABOUT_BREAK: "class.q_break_hidden"}
_TRUTH = {ABOUT_ATTENTION: "class.q_truth", ABOUT_NEXT: "class.q_next_truth",
          ABOUT_BREAK: "class.q_break_truth"}
_MARK = {ABOUT_ATTENTION: "class.q_model_pick", ABOUT_NEXT: "class.q_model_pick",
         ABOUT_BREAK: "class.q_hurt_most"}  # the truth's mark on the answers chart
# where on its page each kind waits for a student's answer (the class panel points there)
_WHERE = {ABOUT_ATTENTION: "class.q_open_attention", ABOUT_NEXT: "class.q_open_next",
          ABOUT_BREAK: "class.q_open_break"}


def about_of(question: PublicQuestion) -> str | None:
    """What a question asks about (token questions asked before there was more than one
    kind carry no "about": they are about attention); None for a question no page asks."""
    about = question.fields.get("about", ABOUT_ATTENTION if question.kind == "token" else None)
    return about if about in _TRUTH else None


def _answer(store: ClassStore, s: C.Seat, question: PublicQuestion, labels: tuple[str, ...],
            lang: str, presenter: bool, about: str) -> bool:
    """A student's answer to the open question, once; the class's guesses after the reveal.
    `labels`: the choices as shown. True while the page must hide what would give the
    answer away."""
    if question.status == REVEALED:
        results = store.results(s.code, question.id)
        if results is not None:
            _results(results.counts, labels, results.truth, results.answered,
                     lang, presenter, about, revealed=True)
        return False
    if st.session_state.get(ANSWERED_KEY) == (s.code, question.id):
        st.info(t(_SENT[about]), icon=":material/hourglass_top:")
        return True
    # no answer preselected: a first choice (often <pad> or <s>) would be sent by a student
    # who only pressed Send
    choice = st.selectbox(t("class.q_your_answer"), range(len(labels)), index=None,
                          format_func=lambda i: labels[i], key="class_answer",
                          placeholder=t("class.q_pick"))
    picked = choice if isinstance(choice, int) and 0 <= choice < len(question.choices) else None
    st.text_input(t("class.q_nickname"), key="class_nick", max_chars=NICKNAME_CHARS,
                  help=t("class.q_nickname_help"))
    st.button(t("class.q_send"), key="class_send", type="primary", icon=":material/send:",
              disabled=picked is None, on_click=_send,
              args=(store, s.code, question.id, s.student_id, len(question.choices)))
    problem = st.session_state.pop(_SEND_PROBLEM, None)
    if problem == "class.q_pick_first":
        st.warning(t(problem), icon=":material/touch_app:")
    elif problem == "class.q_closed":
        st.warning(t(problem), icon=":material/timer_off:")
    st.caption(t(_HIDDEN[about]))
    return True


_SEND_PROBLEM = "_class_send_problem"  # why the answer just sent was refused (a text key)


def _send(store: ClassStore, code: str, question_id: int, student_id: str,
          choices: int) -> None:
    """Send's callback: the answer picked, once, with the values of the click's own rerun."""
    choice = st.session_state.get("class_answer")
    nickname = st.session_state.get("class_nick")
    if not (isinstance(choice, int) and 0 <= choice < choices):  # forged, or none picked
        st.session_state[_SEND_PROBLEM] = "class.q_pick_first"
        return
    try:
        store.answer(code, question_id, student_id, choice,
                     nickname if isinstance(nickname, str) and nickname else None, time.time())
    except AlreadyAnsweredError:
        pass
    except ClassroomError:
        st.session_state[_SEND_PROBLEM] = "class.q_closed"
        return
    st.session_state[ANSWERED_KEY] = (code, question_id)


def teacher_hides(about: str, presenter: bool) -> bool:
    """Whether the teacher's own page, on a projector (`presenter`), hides what would give
    the answer away: while the class's question about `about` (`ABOUT_ATTENTION`,
    `ABOUT_NEXT`) is open, the whole room sees the teacher's screen."""
    here = teaching() if presenter else None
    question = current_question(*here) if here is not None else None
    return (question is not None and about_of(question) == about
            and question.status != REVEALED)


def teaching() -> tuple[ClassStore, C.Seat] | None:
    """The store and this session's seat, when this session teaches a class."""
    s = C.seat()
    store = C.store_or_none() if s is not None and s.teaching else None
    return (store, s) if store is not None and s is not None else None


def teacher_question(weights: np.ndarray, q_tok: list[str], k_tok: list[str], kind: str,
                     layer: int, head: int, lang: str, presenter: bool) -> None:
    """The teacher's side on the Attention page: ask which key token a query token will
    attend to most in the head shown (`weights`: its (q_len, k_len) pattern, whose row
    maximum is the truth); then the answers as they arrive, and Reveal."""
    here = teaching()
    if here is not None:
        _ask(*here, weights, q_tok, k_tok, kind, layer, head, lang, presenter)


def next_token_choices(itos: Sequence[str], probs: np.ndarray) -> list[int]:
    """The token ids a "which token next?" question offers, in vocabulary order: every
    token, or the MAX_CHOICES most likely of a larger vocabulary (the order gives no hint)."""
    if len(itos) <= MAX_CHOICES:
        return list(range(len(itos)))
    return sorted(int(i) for i in np.argsort(-np.asarray(probs), kind="stable")[:MAX_CHOICES])


def _token_label(token: str) -> str:
    """A vocabulary token as a choice: a blank one made visible (labels are one line)."""
    return token if token.strip() else "␣"  # U+2423, open box


def _tail(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    """At most `limit` characters of `text`, its end kept: the tokens just written matter."""
    return text if len(text) <= limit else "…" + text[-(limit - 1):]


def teacher_next_question(src: Sequence[str], prefix: Sequence[str], probs: np.ndarray,
                          next_token: str, itos: Sequence[str], step: int, joiner: str,
                          lang: str, presenter: bool) -> None:
    """The teacher's side on the Train page's decoding step: ask which token the decoder
    writes at `step` (it has read `prefix`; `probs` over `itos` is its next-token
    distribution, `next_token` its greedy pick, the truth); then the answers, and Reveal."""
    here = teaching()
    if here is None:
        return
    store, s = here
    question = asked_about(ABOUT_NEXT, store, s)
    with st.expander(t("class.ask_next_title"), icon=":material/quiz:",
                     expanded=question is not None):
        st.caption(t("class.ask_next_help", k=len(prefix)))
        ids = next_token_choices(itos, probs)
        picked = [i for i in ids if itos[i] == next_token]
        fields = {"about": ABOUT_NEXT, "step": str(step),
                  "source": _tail(joiner.join(src)), "prefix": _tail(joiner.join(prefix))}
        st.button(t("class.ask"), key="class_ask_next", icon=":material/help:",
                  on_click=_ask_now, args=(store, s, Question(
                      "token", t("class.q_next", step=step),
                      tuple(_token_label(itos[i]) for i in ids),
                      ids.index(picked[0]) if picked else None, fields)))
        if question is not None:  # its timer starts once the page is drawn
            teacher_tally(store, s, question, question.choices, lang, presenter)


def _quoted(text: str) -> str:
    """A token, as text inside a heading: markdown's special characters escaped."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIALS else ch for ch in text)


def _ask(store: ClassStore, s: C.Seat, weights: np.ndarray, q_tok: list[str],
         k_tok: list[str], kind: str, layer: int, head: int, lang: str,
         presenter: bool) -> None:
    """The teacher's side: ask about a query token of the head shown; then the tally."""
    question = asked_about(ABOUT_ATTENTION, store, s)
    with st.expander(t("class.ask_title"), icon=":material/quiz:",
                     expanded=question is not None):
        st.caption(t("class.ask_help"))
        query = st.selectbox(t("class.q_query"), range(len(q_tok)), key="class_query",
                             format_func=lambda i: f"{i}:{q_tok[i]}")
        query = query if isinstance(query, int) and 0 <= query < len(q_tok) else 0
        truth = int(np.argmax(weights[query]))
        labels = tuple(f"{i}:{tok}" for i, tok in enumerate(k_tok))
        # the prompt, in the teacher's words, is what the teacher's dashboard lists;
        # students read the question from its fields, in their own language
        prompt = t("class.q_token", token=q_tok[query], layer=layer, head=head,
                   kind=KINDS[kind].label if kind in KINDS else kind)
        fields = {"about": ABOUT_ATTENTION, "token": q_tok[query], "layer": str(layer),
                  "head": str(head), "kind": kind}
        st.button(t("class.ask"), key="class_ask", icon=":material/help:", on_click=_ask_now,
                  args=(store, s, Question("token", prompt, labels, truth, fields)))
        if question is not None:  # its timer starts once the page is drawn
            teacher_tally(store, s, question, question.choices, lang, presenter)


def _ask_now(store: ClassStore, s: C.Seat, question: Question) -> None:
    """Ask's callback: the class is asked `question`, the one the teacher's page showed when
    they clicked."""
    store.ask(s.code, s.teacher_key or "", question, time.time())


def teacher_tally(store: ClassStore, s: C.Seat, question: PublicQuestion,
                  labels: tuple[str, ...], lang: str, presenter: bool,
                  measured: Callable[[], tuple[bool, int | None]] | None = None) -> None:
    """The teacher's live tally of `question` (its choices shown as `labels`) and Reveal,
    drawn here and sent after the page (`draw_last`). `measured()`: for a question whose
    truth is measured after it was asked, (whether it is measured, the truth); Reveal
    waits for it."""
    about = about_of(question)
    if about is None:
        return
    draw_last(lambda: _tally(store, s.code, s.teacher_key or "", question.id, labels,
                             about, lang, presenter, measured))


@st.fragment(run_every=C.TALLY_EVERY)
def _tally(store: ClassStore, code: str, key: str, question_id: int,
           labels: tuple[str, ...], about: str, lang: str, presenter: bool,
           measured: Callable[[], tuple[bool, int | None]] | None = None) -> None:
    """The answers as they arrive, redrawn on their own; Reveal shows every student.
    `presenter` is handed in: a fragment's own reruns run without the page's context."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    C.announce_timer(C.TALLY_EVERY)  # in case the page's announcement was dropped
    try:
        tally = store.tally(code, key, question_id)
    except ClassroomError:
        return
    shown = tally.truth if tally.status == REVEALED else None
    _results(tally.counts, labels, shown, tally.answered, lang, presenter, about,
             revealed=tally.status == REVEALED)
    named = [f"{_quoted(labels[i])}: {', '.join(_quoted(n) for n in names)}"
             for i, names in enumerate(tally.nicknames) if names and i < len(labels)]
    if named:  # only the teacher sees who answered what (students see counts)
        st.caption(t("class.q_names", names="; ".join(named)))
    if tally.status == REVEALED:
        return
    ready, truth = measured() if measured is not None else (True, None)
    if not ready:
        st.caption(t("class.reveal_waits"))
    st.button(t("class.reveal"), key="class_reveal", type="primary",
              icon=":material/visibility:", disabled=not ready, on_click=_reveal_now,
              args=(store, code, key, question_id, ready, truth))


def _reveal_now(store: ClassStore, code: str, key: str, question_id: int, ready: bool,
                truth: int | None) -> None:
    """Reveal's callback: every student sees the answers; the teacher's whole page runs
    again (on a projector it showed the heatmaps hidden)."""
    if not ready:  # a forged click: the truth is not measured yet
        return
    store.reveal(code, key, question_id, time.time(), truth)
    st.rerun(scope="app")


def _results(counts: tuple[int, ...], labels: tuple[str, ...], truth: int | None,
             answered: int, lang: str, presenter: bool, about: str,
             revealed: bool = False) -> None:
    """The class's answers (and the truth, once revealed, in the words of the question's
    kind `about`) in a chart drawn like the page's others: large in presenter mode, a PNG
    named after it. `revealed` with no truth: the answer was never measured (a race that
    stopped) and the page says so."""
    truth_key = _TRUTH[about]

    def build() -> Any:
        return guesses_chart(counts, labels, truth, lang=lang, mark=_MARK[about])

    if truth is None:  # the teacher's tally while answers arrive: one session's, redrawn
        # every TALLY_EVERY; built again only when an answer came (it is most of the run)
        fig = remember(TALLY_CHARTS, (counts, labels, lang, about), build)
        share = None
    else:  # the revealed answers: every student of the class draws the same chart
        fig, share = Context.fixed(("class", "guesses", counts, labels, truth, lang, about),
                                   build)
    show_chart(fig, "class_guesses", None, presenter, key="class_guesses", share=share)
    if truth is None and revealed:
        st.info(t("class.q_no_truth", n=answered), icon=":material/help:")
    elif truth is None:
        st.caption(t("class.q_answered", n=answered))
    else:
        right = counts[truth] if 0 <= truth < len(counts) else 0
        st.success(t(truth_key, token=_quoted(labels[truth]) if 0 <= truth < len(labels)
                     else "",
                     right=right, n=answered,
                     share=percent(right / answered) if answered else "0%"),
                   icon=":material/check_circle:")
