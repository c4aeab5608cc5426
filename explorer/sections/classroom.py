"""The class panel at the top of the sidebar: start or join a class; the teacher's code, join
link, QR code and who follows; a student's "Follow the teacher" and the way back to the
class's view. The seat and the store are explorer/app/classroom.py's."""

from __future__ import annotations

import csv
import io
import ipaddress
import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import segno
import streamlit as st
from streamlit.components.v2 import component

from ..app import classroom as C
from ..app import lesson as L
from ..app.charts import show_chart
from ..app.context import Context
from ..app.memo import remember
from ..app.page import draw_last
from ..app.shelves import TALLY_CHARTS
from ..app.sidebar import presenting, use_session_lang
from ..app.streamlit_internals import fragment_rerun, timed_fragment
from ..classroom.store import (
    CLOSED,
    MAX_CHOICES,
    MAX_LABEL_CHARS,
    NICKNAME_CHARS,
    OPEN,
    REVEALED,
    AlreadyAnsweredError,
    ClassNotFoundError,
    ClassroomError,
    ClassState,
    ClassStore,
    NotTeacherError,
    OnStep,
    PublicQuestion,
    Question,
    Tally,
    clean_text,
)
from ..core.kinds import KINDS
from ..figures.attention import guesses_chart
from ..text.i18n import MARKDOWN_SPECIALS, percent, plain, t

# Keeps a seat in its browser for this browser session (a cookie with no expiry, sent only
# to this server's pages, `_keep_seat`): the teacher key and presenter mode (a teacher who
# closes the tab and opens the class's link again gets the class back as it was), a
# student's id (a reload or a second tab is the same student). The name and the value
# travel as the component's data and are only ever assigned to document.cookie, never
# written into the page.
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
SHOW_NAMES = "class_show_names"  # the teacher's "show names on the projector" switch
BANNER_FOLDED = "_class_banner_folded"  # the code of the class whose banner is folded
END_ASKED = "_class_end_asked"  # the code of the class the teacher asked to end (to confirm)
COUNTDOWN_PICK = "class_countdown_pick"  # the teacher's "close them in 15, 30, 60 s"
_keep_key = component("transformer_explorer_class_key", html="<span></span>", js=_COOKIE_JS)
# The answers' countdown, counted in the browser (no run of the server's a second): from the
# seconds left when the page was drawn; the texts are the app's own, set as text, never HTML.
_COUNTDOWN_JS = """
export default function ({ parentElement, data }) {
  const el = parentElement.querySelector('span');
  if (!el) return;
  const end = Date.now() + 1000 * Math.max(0, Number(data && data.seconds) || 0);
  const text = String(data && data.text || ''), done = String(data && data.done || '');
  const draw = () => {
    const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    el.textContent = left > 0 ? text.replace('{s}', String(left)) : done;
    return left;
  };
  draw();
  const timer = setInterval(() => { if (draw() <= 0) clearInterval(timer); }, 250);
  return () => clearInterval(timer);
}
"""
_countdown = component("transformer_explorer_countdown", js=_COUNTDOWN_JS,
                       html='<span role="timer" style="font-weight: 600"></span>')


def join_link(page_url: str, code: str, public: str | None = None) -> str:
    """The address students open, with only the class code: at the `public` address when
    one is set (`C.public_url`, `public_address`), else this page's."""
    parts = urlsplit(public or page_url or "")
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", f"{C.CLASS_PARAM}={code}",
                       ""))


def public_address(setting: str | None) -> str | None:
    """The public address setting if it is one (http or https, with a host), else None."""
    parts = urlsplit(setting or "")
    return setting if parts.scheme in ("http", "https") and parts.hostname else None


def is_loopback(url: str) -> bool:
    """Whether `url` names this computer itself (localhost, 127.0.0.1, ::1, 0.0.0.0): an
    address no student's phone can open."""
    host = (urlsplit(url or "").hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def short_link(link: str, pages: Sequence[str] = ()) -> str:
    """A join link as a room reads it aloud: without its scheme, nor the page it was made
    on (one of `pages`' URL paths: a student goes to the class's page anyway)."""
    parts = urlsplit(link)
    head, _, last = parts.path.rpartition("/")
    path = head + "/" if last in pages else parts.path
    return urlunsplit(("", parts.netloc, path, parts.query, "")).lstrip("/")


def _class_link(code: str) -> str:
    """This class's join link: at the public address when the setting gives one."""
    return join_link(st.context.url or "", code, public_address(C.public_url()))


def _link_warnings(link: str) -> None:
    """Tell the teacher when students cannot open `link`: a setting that is not an address,
    or this computer's own address (the app opened as localhost)."""
    if C.public_url() is not None and public_address(C.public_url()) is None:
        st.warning(t("class.public_url_bad", setting=C.PUBLIC_URL_SETTING),
                   icon=":material/link_off:")
    if is_loopback(link):
        st.warning(t("class.loopback", setting=C.PUBLIC_URL_SETTING),
                   icon=":material/wifi_off:")


def qr_png(text: str) -> bytes:
    """`text` as a QR code (PNG), for a classroom's projector and students' phones."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=6, border=2)
    return out.getvalue()


def class_panel(store: ClassStore | None) -> None:
    """The sidebar's class panel for this session: no class (or the one this teacher just
    ended), teaching one, or in one. The teacher's roster, a timed fragment, is drawn in
    its place but sent after the page (`draw_last`); a student's look at the class is at
    the top of the page (`class_banner`)."""
    notice = C.take_notice()
    if notice is not None:
        st.warning(t(notice[0], **notice[1]), icon=":material/school:")
    s = C.seat()
    if s is None:
        _ended_class()
        _start_or_join(store)
    elif store is None:
        st.warning(t("class.unavailable"), icon=":material/cloud_off:")
    elif s.teaching:
        _teacher(store, s)
    else:
        _student(store, s)


def class_banner(store: ClassStore | None, presenter: bool,
                 page_names: dict[str, str]) -> None:
    """The top of the page, for this session's class: in presenter mode, the teacher's
    class code and join link (`_teacher_banner`); for a student, what the class does that
    they would miss (`_student_notices`): the sidebar is folded away on a phone.
    `page_names`: each page's URL path and its name in the learner's language."""
    s = C.seat()
    if s is None:
        return
    if s.teaching and presenter:
        _teacher_banner(s, tuple(page_names))
    elif not s.teaching and store is not None:
        _student_notices(store, s, page_names)


def _teacher_banner(s: C.Seat, pages: Sequence[str]) -> None:
    """The class code and join link across the top of the page, large enough for the back of
    a classroom, with the QR code one click away; folded by the teacher, one line: the
    short link (`short_link` of `pages`' URL paths), its code in bold."""
    link = _class_link(s.code)
    with st.container(border=True, key="class_banner"):
        if st.session_state.get(BANNER_FOLDED) == s.code:
            with st.container(horizontal=True, vertical_alignment="center", wrap=False):
                # the code is [0-9A-Z] only (codes.py); the address is the request's: escaped
                address = _quoted(short_link(link, pages).removesuffix(s.code))
                st.markdown(t("class.banner_line", link=f"{address}**{s.code}**"),
                            width="stretch")
                _qr_button(link)
                st.button(t("class.banner_unfold"), key="class_banner_unfold",
                          icon=":material/unfold_more:", on_click=_fold_banner, args=(None,))
            return  # the class panel says what is wrong with the address, if anything
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.markdown(f"# {t('class.banner', code=s.code)}")
        left.code(link, language=None)
        with right:
            _qr_button(link)
            st.button(t("class.banner_fold"), key="class_banner_fold",
                      icon=":material/unfold_less:", on_click=_fold_banner, args=(s.code,))
        if is_loopback(link):  # the class panel explains; here, one line
            st.warning(t("class.loopback_short"), icon=":material/wifi_off:")


def _qr_button(link: str) -> None:
    """The join link's QR code, one click away."""
    with st.popover(t("class.qr_button"), icon=":material/qr_code_2:"):
        st.image(qr_png(link), width=360, alt=t("class.qr_alt", link=link))


def _fold_banner(code: str | None) -> None:
    """Fold's and Unfold's callback: the banner of class `code` is one line (None: large)."""
    st.session_state[BANNER_FOLDED] = code


def _student_notices(store: ClassStore, s: C.Seat, page_names: dict[str, str]) -> None:
    """A student's notices at the top of the page, where a phone shows them: a question to
    answer on this page, and (the student's look at the class, `_watch`) that they explore
    and where the class is, with the way back, or that the class has ended."""
    with st.container(key="class_notice"):
        if C.take_locked_back():  # a change of their own, taken back
            st.toast(t("class.locked_back"), icon=":material/lock:")
        _where_to_answer(store, s)
        draw_last(lambda: _watch_for(s.version)(store, page_names))


def _start_or_join(store: ClassStore | None) -> None:
    # a key: its place moves when a notice comes above it, and it stays open for a retype
    with st.expander(t("class.title"), icon=":material/school:", key="class_join_box"):
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
    link = _class_link(s.code)
    with st.container(border=True, key="class_teacher"):
        st.caption(t("class.teaching"))
        st.markdown(f"## {s.code}")  # [0-9A-Z] only (codes.py): nothing to escape
        st.code(link, language=None, wrap_lines=True)
        _link_warnings(link)
        st.image(qr_png(link), caption=t("class.qr_caption"), width="stretch",
                 alt=t("class.qr_alt", link=link))
        if presenting():  # the room sees this screen
            st.toggle(t("class.show_names"), key=SHOW_NAMES, help=t("class.show_names_help"))
        paced = L.self_paced()  # a student-paced lesson: where each student is
        roster = _roster_paced if paced else _roster
        draw_last(lambda: roster(store, s.code, s.teacher_key or ""))
        _end_button(store, s)
    _keep_seat(s)


def _keep_seat(s: C.Seat) -> None:
    """This browser keeps the seat (`_COOKIE_JS`): the teacher's key and presenter mode, a
    student's id."""
    if s.teaching:
        _keep_key(key="class_key", data={"name": C.TEACHER_COOKIE + s.code,
                                         "value": s.teacher_key or ""}, height=0)
        presents = presenting()
        _keep_key(key="class_presenter", data={"name": C.PRESENTER_COOKIE + s.code,
                                               "value": "1" if presents else "0"}, height=0)
    else:
        _keep_key(key="class_student_key", data={"name": C.STUDENT_COOKIE + s.code,
                                                 "value": s.student_id}, height=0)


def steps_line(steps: Sequence[OnStep], names: bool) -> str:
    """Where a student-paced class is: how many students on each step (the nicknames they
    gave, when `names` may be shown), in the teacher's language; or that no student has
    opened the lesson yet."""
    if not steps:
        return t("class.roster_no_steps")
    parts = []
    for on in steps:
        part = t("class.roster_step", i=on.step + 1, n=on.students)
        if names and on.names:
            part += " (" + ", ".join(_quoted(n) for n in on.names) + ")"
        parts.append(part)
    return t("class.roster_steps", steps=" · ".join(parts))


def names_shown(presenter: bool) -> bool:
    """Whether the teacher's screen shows students' nicknames: always, but on a projector
    (`presenter`) only once the teacher switches them on (`SHOW_NAMES`)."""
    return not presenter or st.session_state.get(SHOW_NAMES) is True


def _end_button(store: ClassStore, s: C.Seat) -> None:
    """End the class, once the teacher confirms it: every student's class ends with it."""
    if st.session_state.get(END_ASKED) != s.code:
        st.button(t("class.end"), key="class_end", icon=":material/stop_circle:",
                  width="stretch", on_click=_ask_end, args=(s.code,))
        return
    st.warning(t("class.end_confirm"), icon=":material/stop_circle:")
    yes, no = st.columns(2)
    yes.button(t("class.end_yes"), key="class_end_yes", type="primary", width="stretch",
               on_click=_end_now, args=(store,))
    no.button(t("class.end_no"), key="class_end_no", width="stretch", on_click=_ask_end,
              args=(None,))


def _ask_end(code: str | None) -> None:
    """End's callback (and Cancel's, with None): ask to confirm the end of class `code`."""
    st.session_state[END_ASKED] = code


def _end_now(store: ClassStore) -> None:
    """The confirmed end's callback: the class ends for everyone; its questions and their
    answers stay on the teacher's page (`_ended_class`), to look at and download."""
    s = C.seat()
    st.session_state.pop(END_ASKED, None)
    if s is None or not s.teaching:
        return
    code, key = s.code, s.teacher_key or ""
    lesson = L.lesson_key()
    C.leave_class(store, True)
    C.keep_ended(store, code, key, ended_here=True)
    if lesson is not None:  # the students' self-checks, if any, stay with the lesson
        try:
            checks = store.self_checks(code, key, lesson)
        except ClassroomError:
            checks = ()  # forgotten meanwhile: nothing to keep
        if checks:
            L.keep_ended_checks(code, checks)
    st.session_state.pop(BANNER_FOLDED, None)


def _ended_class() -> None:
    """The class this teacher ended: said so (not as an error), with its questions and
    answers to look at and download, until the teacher closes it."""
    ended = C.ended_class()
    if ended is None:
        return
    code, asked = ended
    with st.container(border=True, key="class_ended"):
        st.info(t("class.ended_teacher", code=code), icon=":material/event_busy:")
        if asked:
            _asked(list(asked), code, expanded=True)
        else:
            st.caption(t("class.ended_none"))
        st.button(t("class.ended_close"), key="class_ended_close", icon=":material/close:",
                  width="stretch", on_click=C.close_ended)


def _roster_now(store: ClassStore, code: str, key: str, paced: bool) -> None:
    """Who is in the class; `paced`: the class's lesson is student-paced, and the roster
    says who is on which step."""
    use_session_lang()  # a run of a fragment alone skips app.py's
    try:
        roster = store.roster(code, key, time.time())
    except (ClassNotFoundError, NotTeacherError):
        st.warning(t("class.ended"), icon=":material/event_busy:")
        return
    st.caption(t("class.roster", connected=roster.connected, following=roster.following,
                 exploring=roster.exploring))
    # who explores, by the names they gave
    if roster.explorers and names_shown(presenting()):
        st.caption(t("class.roster_explorers",
                     names=", ".join(_quoted(n) for n in roster.explorers)))
    if paced:
        st.caption(steps_line(roster.steps, names_shown(presenting())))
    try:
        _asked(store.questions(code, key), code)
    except (ClassNotFoundError, NotTeacherError):
        pass  # ended meanwhile: the next redraw says so


@timed_fragment(C.ROSTER_EVERY)
def _roster(store: ClassStore, code: str, key: str) -> None:
    """The roster, redrawn on its own every ROSTER_EVERY seconds."""
    _roster_now(store, code, key, paced=False)


@timed_fragment(C.ROSTER_PACED_EVERY)
def _roster_paced(store: ClassStore, code: str, key: str) -> None:
    """The roster of a student-paced lesson's class, with each student's step, redrawn
    every ROSTER_PACED_EVERY seconds (a student's Next is news sooner)."""
    _roster_now(store, code, key, paced=True)


def _asked(questions: list[Tally], code: str, expanded: bool = False) -> None:
    """The teacher's dashboard: every question asked so far, newest first, with how many
    answered and, once revealed, the share right; the whole as CSV and JSON. A prompt holds
    the learner's tokens: its markdown characters are escaped."""
    if not questions:
        return
    with st.expander(t("class.asked", n=len(questions)), icon=":material/quiz:",
                     expanded=expanded):
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
        name = f"class_{code}_questions"
        st.download_button("CSV", data=lambda: results_csv(questions),
                           file_name=f"{name}.csv", mime="text/csv", key="class_results_csv",
                           on_click="ignore", icon=":material/download:", width="stretch",
                           help=t("class.results_help"))
        st.download_button(t("class.results_students"),
                           data=lambda: results_by_student_csv(questions),
                           file_name=f"class_{code}_answers_by_student.csv", mime="text/csv",
                           key="class_results_students", on_click="ignore",
                           icon=":material/download:", width="stretch",
                           help=t("class.results_students_help"))
        st.download_button("JSON", data=lambda: results_json(code, questions),
                           file_name=f"{name}.json", mime="application/json",
                           key="class_results_json", on_click="ignore",
                           icon=":material/download:", width="stretch",
                           help=t("class.results_help"))


def results_table(questions: Sequence[Tally]) -> list[dict[str, Any]]:
    """Every question of a class as a record: its prompt, status, how many answered, its
    choices with their counts and the right one (none for a poll or a truth never measured).
    Nicknames stay out: the file leaves the teacher's screen."""
    return [{"question": q.question_id, "prompt": q.prompt, "status": q.status,
             "answered": q.answered, "truth": q.truth,
             "choices": [{"choice": i, "label": q.choices[i] if i < len(q.choices) else "",
                          "count": n, "right": q.truth == i}
                         for i, n in enumerate(q.counts)]}
            for q in questions]


def results_json(code: str, questions: Sequence[Tally]) -> bytes:
    """The class's questions and answers as JSON (`results_table`), and every answer by
    student (`results_by_student`) without the names: the student's number only."""
    answers = [{k: v for k, v in r.items() if k != "nickname"}
               for r in results_by_student(questions)]
    return json.dumps({"class": code, "questions": results_table(questions),
                       "answers": answers}, ensure_ascii=False, indent=1).encode("utf-8")


def csv_cell(value: object) -> object:
    """A CSV cell that a spreadsheet will not run as a formula (a label may be any token)."""
    return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t",
                                                                   "\r") else value


def student_numbers(questions: Sequence[Tally]) -> dict[str, int]:
    """Each student who answered, numbered from 1 in the order of their first answer in the
    class (`questions` oldest first): the export never shows the class's id of a student."""
    numbers: dict[str, int] = {}
    for q in questions:
        for a in q.by_student:
            numbers.setdefault(a.student, len(numbers) + 1)
    return numbers


def results_by_student(questions: Sequence[Tally]) -> list[dict[str, Any]]:
    """Every answer of the class as a record, by student (their number, `student_numbers`)
    then question: the name they gave with it, the choice and its label, whether it was
    right (None: no right answer), when (UTC, ISO 8601)."""
    numbers = student_numbers(questions)
    rows = [{"student": numbers[a.student], "nickname": a.nickname or "",
             "question": q.question_id, "prompt": q.prompt, "choice": a.choice,
             "label": q.choices[a.choice] if 0 <= a.choice < len(q.choices) else "",
             "right": None if q.truth is None else a.choice == q.truth,
             "answered_at": datetime.fromtimestamp(a.at, UTC).isoformat(timespec="seconds")
             if a.at > 0 else ""}
            for q in questions for a in q.by_student]
    return sorted(rows, key=lambda r: (r["student"], r["question"]))


def results_by_student_csv(questions: Sequence[Tally]) -> bytes:
    """Every answer of the class as CSV, one row each (`results_by_student`)."""
    return csv_file(["student", "nickname", "question", "prompt", "choice", "label", "right",
                 "answered_at_utc"],
                ([r["student"], csv_cell(r["nickname"]), r["question"], csv_cell(r["prompt"]),
                  r["choice"], csv_cell(r["label"]), "" if r["right"] is None else int(r["right"]),
                  r["answered_at"]] for r in results_by_student(questions)))


def results_csv(questions: Sequence[Tally]) -> bytes:
    """The class's questions and answers as CSV: one row per choice (`results_table`)."""
    return csv_file(["question", "prompt", "status", "answered", "choice", "label", "count",
                 "right"],
                ([q["question"], csv_cell(q["prompt"]), q["status"], q["answered"], c["choice"],
                  csv_cell(c["label"]), c["count"], "" if q["truth"] is None else int(c["right"])]
                 for q in results_table(questions) for c in q["choices"]))


def csv_file(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """A CSV file of `header` and `rows`, with a BOM: a spreadsheet reads it as UTF-8."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def _student(store: ClassStore, s: C.Seat) -> None:
    with st.container(border=True, key="class_student"):
        st.caption(t("class.in_class", code=s.code))
        # Drawn from the seat's own flag each run (`C.following`), under a key that
        # changes when the app turns following on or off (`C.follow_toggle_key`): the
        # widget's value is never what says whether the student follows. A page change
        # (st.switch_page, to the class's page) drops every widget's value; the flag stays.
        key = C.follow_toggle_key(s)
        locked = s.locked and C.following()  # the teacher locks the class's view
        with st.container(key=C.FOLLOW_TOGGLE):
            st.toggle(t("class.follow"), value=C.following(), key=key, disabled=locked,
                      help=t("class.follow_locked_help" if locked else "class.follow_help"),
                      on_change=C.toggled, args=(key,))
        st.button(t("class.leave"), key="class_leave", icon=":material/logout:",
                  on_click=C.leave_class, args=(store, False))
    _keep_seat(s)


def _where_to_answer(store: ClassStore, s: C.Seat) -> None:
    """A following student's pointer to the open question they have not answered: the
    question sits in its section, which may be far down the page."""
    question = current_question(store, s) if C.following() else None
    about = about_of(question) if question is not None else None
    if about is None or question.status != OPEN or answered(store, s, question.id):
        return
    st.info(t(_WHERE[about]), icon=":material/quiz:")
    toast_once(("asked", s.code, question.id), t(_WHERE[about]), ":material/quiz:")


TOASTED = "_class_toasted"  # what this student was told in a toast already


def toast_once(event: tuple, text: str, icon: str) -> None:
    """`text` in a toast, once per `event`: a notice at the top of the page is out of sight
    of a student scrolled down it (a phone's page is long); the toast shows where they are."""
    told = st.session_state.setdefault(TOASTED, set())
    if event not in told:
        told.add(event)
        st.toast(text, icon=icon)


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
    return timed_fragment(C.WATCH_EVERY, name=f"_watch.v{max(version, -1) + 1}")(_watch)


def _watch(store: ClassStore, page_names: dict[str, str]) -> None:
    """A student's look at the class every WATCH_EVERY seconds: one number read (the class's
    version); the whole page runs again only when a followed class changed. A following
    student's timed run then waits for the class to change (`C.wait_for_class`), so a
    change shows at once; a run of the whole page never waits."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    s = C.seat()
    if s is None:
        return
    held = L.current() if L.from_class() else None
    step = held[1] if held is not None else None  # where the student is in the class's lesson
    C.heartbeat(store, s, step)
    version, following = store.version(s.code), C.following()
    state = store.state(s.code) if version is not None and (
        version != s.version or not following) else None
    if version is None or (state is not None and state.ended):
        st.warning(t("class.ended"), icon=":material/event_busy:")
        toast_once(("ended", s.code), t("class.ended"), ":material/event_busy:")
        return
    if following:
        if version != s.version or (fragment_rerun() and C.wait_for_class(store, s, step)):
            st.rerun(scope="app")  # the class moved on: the page follows
        return
    if state is not None and C.locks(state.view):  # everyone looks here now
        C.locked_back()
        st.rerun(scope="app")
    _exploring(store, s, state, page_names)


def _exploring(store: ClassStore, s: C.Seat, state: ClassState | None,
               page_names: dict[str, str]) -> None:
    """An exploring student's notice: where the class is, a question they have not answered
    yet, and "Back to the class" one tap away."""
    where = (state.view.get(C.PAGE_PARAM, "") if state is not None else "")
    question = state.question if state is not None else None
    if (question is not None and question.status == OPEN and about_of(question) is not None
            and store.answer_of(s.code, question.id, s.student_id) is None):
        st.warning(t("class.q_open_exploring"), icon=":material/quiz:")
        toast_once(("asked", s.code, question.id), t("class.q_open_exploring"),
                   ":material/quiz:")
    st.info(t("class.elsewhere", page=page_names.get(where, where)), icon=":material/groups:")
    toast_once(("exploring", s.code, s.turns), t("class.explore_toast"), ":material/groups:")
    st.button(t("class.back"), key="class_back", icon=":material/u_turn_left:",
              on_click=C.follow_again, width="stretch", type="primary")


# What a question asks about: where a token looks, which token comes next (token
# questions), which break hurts most (an option question whose truth is measured later), a
# lesson step's question (an option question: explorer/sections/lesson.py)
ABOUT_ATTENTION, ABOUT_NEXT, ABOUT_BREAK, ABOUT_LESSON = "attention", "next", "break", "lesson"


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
                 presenter: bool,
                 labels: Callable[[PublicQuestion], tuple[str, ...]] = lambda q: q.choices,
                 ) -> bool:
    """A following student's side of the class's question about `about` (`about_of`), drawn
    under `heading(fields)`: answer once, then the truth beside the class's guesses; the
    choices shown as `labels(question)` gives them (a break's name or a lesson's options in
    the student's language; by default as asked). True while the page must hide what would
    give the answer away."""
    s = C.seat()
    store = C.store_or_none() if s is not None and C.following() else None
    question = current_question(store, s) if store is not None and s is not None else None
    if question is None or about_of(question) != about:
        return False
    with st.container(border=True, key="class_question"):
        heading(question.fields)
        return _answer(store, s, question, tuple(labels(question)), lang, presenter, about)


def student_question(kind_labels: dict[str, str], lang: str, presenter: bool) -> bool:
    """A following student's side of the class's "where will it look?" on the Attention
    page. True when the page must hide its heatmaps (before the reveal: they would give the
    answer away)."""
    def heading(fields: Mapping[str, str]) -> None:
        st.subheader(t("class.q_token", query=_quoted(query_label(fields)),
                       layer=fields.get("layer", "?"), head=fields.get("head", "?"),
                       kind=kind_labels.get(fields.get("kind", ""), "")))
        st.caption(t("class.q_numbering"))

    return student_side(ABOUT_ATTENTION, heading, lang, presenter)


def query_label(fields: Mapping[str, str]) -> str:
    """The query token of a "where will it look?" question as its choices name tokens,
    position:token ("1:2": the output may hold several 2s); a question asked without its
    position, by the token alone."""
    token, position = fields.get("token", ""), fields.get("query", "")
    return f"{position}:{token}" if position.isdigit() else token


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
         ABOUT_BREAK: "class.q_break_sent", ABOUT_LESSON: "class.q_lesson_sent"}
_HIDDEN = {ABOUT_ATTENTION: "class.q_hidden", ABOUT_NEXT: "class.q_next_hidden",
           ABOUT_BREAK: "class.q_break_hidden", ABOUT_LESSON: "class.q_lesson_hidden"}
_TRUTH = {ABOUT_ATTENTION: "class.q_truth", ABOUT_NEXT: "class.q_next_truth",
          ABOUT_BREAK: "class.q_break_truth", ABOUT_LESSON: "class.q_lesson_truth"}
_MARK = {ABOUT_ATTENTION: "class.q_model_pick", ABOUT_NEXT: "class.q_model_pick",
         ABOUT_BREAK: "class.q_hurt_most",
         ABOUT_LESSON: "class.q_right_one"}  # the truth's mark on the answers chart
# what a question revealed without a truth was: a race that stopped, or a poll
_NO_TRUTH = {ABOUT_LESSON: "class.q_poll_revealed"}
# where on its page each kind waits for a student's answer (the class panel points there)
_WHERE = {ABOUT_ATTENTION: "class.q_open_attention", ABOUT_NEXT: "class.q_open_next",
          ABOUT_BREAK: "class.q_open_break", ABOUT_LESSON: "class.q_open_lesson"}


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
            _own_answer(store.answer_of(s.code, question.id, s.student_id), results.truth,
                        labels)
            _results(results.counts, labels, results.truth, results.answered,
                     lang, presenter, about, revealed=True)
        return False
    if answered(store, s, question.id):
        st.info(t(_SENT[about]), icon=":material/hourglass_top:")
        return True
    if question.status == CLOSED:  # the teacher closed the answers: the reveal comes
        st.info(t("class.q_closed_wait"), icon=":material/timer_off:")
        return True
    countdown(C.countdown_of(s.closes, question.id), "class_countdown")
    # no answer preselected: a first choice (often <pad> or <s>) would be sent by a student
    # who only pressed Send
    choice = st.selectbox(t("class.q_your_answer"), range(len(labels)), index=None,
                          format_func=lambda i: labels[i], key="class_answer",
                          placeholder=t("class.q_pick"))
    picked = choice if isinstance(choice, int) and 0 <= choice < len(question.choices) else None
    nickname_input(s)
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


def answered(store: ClassStore, s: C.Seat, question_id: int) -> bool:
    """Whether this student answered the question: in this session, or as the same student
    in another tab or before a reload (the store knows their id's answer)."""
    if st.session_state.get(ANSWERED_KEY) == (s.code, question_id):
        return True
    if store.answer_of(s.code, question_id, s.student_id) is None:
        return False
    st.session_state[ANSWERED_KEY] = (s.code, question_id)
    return True


def _own_answer(choice: int | None, truth: int | None, labels: tuple[str, ...]) -> None:
    """After the reveal, a student's own answer and whether it was right (the class's
    chart shows only counts)."""
    def label(i: int) -> str:
        return _quoted(labels[i]) if 0 <= i < len(labels) else "?"

    if choice is None:
        st.info(t("class.q_you_none"), icon=":material/person:")
    elif truth is None:  # a truth never measured: nothing to be right about
        st.info(t("class.q_you_picked", answer=label(choice)), icon=":material/person:")
    elif choice == truth:
        st.success(t("class.q_you_right", answer=label(choice)), icon=":material/thumb_up:")
    else:
        st.warning(t("class.q_you_wrong", answer=label(choice), truth=label(truth)),
                   icon=":material/school:")


NICKNAME = "class_nick"  # the nickname box's key under a class question


def nickname_input(s: C.Seat, key: str = NICKNAME) -> None:
    """The nickname box (`key`) a student sends with an answer, starting as the one sent
    last."""
    if key not in st.session_state and s.nickname:
        st.session_state[key] = s.nickname
    st.text_input(t("class.q_nickname"), key=key, max_chars=NICKNAME_CHARS,
                  help=t("class.q_nickname_help"))


def given_nickname(key: str = NICKNAME) -> str | None:
    """The nickname box's text as typed (None: empty, or no text); the store cleans it."""
    nickname = st.session_state.get(key)
    return nickname if isinstance(nickname, str) and nickname else None


def _send(store: ClassStore, code: str, question_id: int, student_id: str,
          choices: int) -> None:
    """Send's callback: the answer picked, once, with the values of the click's own rerun."""
    choice = st.session_state.get("class_answer")
    nickname = given_nickname()
    if not (isinstance(choice, int) and 0 <= choice < choices):  # forged, or none picked
        st.session_state[_SEND_PROBLEM] = "class.q_pick_first"
        return
    try:
        store.answer(code, question_id, student_id, choice, nickname, time.time())
        C.keep_nickname(nickname)  # the next question starts with it
    except AlreadyAnsweredError:
        pass  # sent from another tab of this browser, or before a reload: one answer
    except ClassroomError:
        st.session_state[_SEND_PROBLEM] = "class.q_closed"
        return
    st.session_state[ANSWERED_KEY] = (code, question_id)


# The teacher's "Ask the class" panel of each kind of question (an expander's key: whether
# it is open), and the fields that say what a question of that kind asks about
ASK_PANELS = {ABOUT_ATTENTION: "class_ask_open", ABOUT_NEXT: "class_ask_next_open"}
_ABOUT_FIELDS = {ABOUT_ATTENTION: ("kind", "layer", "head", "query"),
                 ABOUT_NEXT: ("step", "source", "prefix")}


def teacher_hides(about: str, presenter: bool, shown: Mapping[str, str] | None = None) -> bool:
    """Whether the teacher's own page, on a projector (`presenter`), hides what would give
    the answer away, the whole room seeing the teacher's screen: while the class's question
    about `about` (`ABOUT_ATTENTION`, `ABOUT_NEXT`, `ABOUT_BREAK`) is open, and while the
    teacher prepares one in its open "Ask the class" panel, until a question about what the
    page shows (`shown`, the fields the panel would ask with) is asked and revealed."""
    here = teaching() if presenter else None
    if here is None:
        return False
    question = current_question(*here)
    asked = question if question is not None and about_of(question) == about else None
    if asked is not None and asked.status != REVEALED:
        return True
    if about not in ASK_PANELS or st.session_state.get(ASK_PANELS[about]) is not True:
        return False
    return not (asked is not None and shown is not None and all(
        asked.fields.get(name) == clean_text(shown.get(name, ""), MAX_LABEL_CHARS)
        for name in _ABOUT_FIELDS[about]))


def teaching() -> tuple[ClassStore, C.Seat] | None:
    """The store and this session's seat, when this session teaches a class."""
    s = C.seat()
    store = C.store_or_none() if s is not None and s.teaching else None
    return (store, s) if store is not None and s is not None else None


def teacher_question(weights: np.ndarray, q_tok: list[str], k_tok: list[str], kind: str,
                     lang: str, presenter: bool) -> dict[str, str] | None:
    """The teacher's side on the Attention page, above the heatmaps it asks about: ask which
    key token a query token will attend to most in a layer and head of attention `kind`
    (`weights`: every layer's and head's (N, h, q_len, k_len) patterns, whose row maxima
    are the truths); then the answers as they arrive, and Reveal. The fields of the
    question the panel would ask now (`teacher_hides`), None when this session teaches no
    class."""
    here = teaching()
    return _ask(*here, weights, q_tok, k_tok, kind, lang, presenter) if here else None


def next_token_choices(itos: Sequence[str], probs: np.ndarray) -> list[int]:
    """The token ids a "which token next?" question offers, in vocabulary order: every
    token, or the MAX_CHOICES most likely of a larger vocabulary (the order gives no hint)."""
    if len(itos) <= MAX_CHOICES:
        return list(range(len(itos)))
    return sorted(int(i) for i in np.argsort(-np.asarray(probs), kind="stable")[:MAX_CHOICES])


def token_label(token: str) -> str:
    """A vocabulary token as a choice or option: a blank one made visible (labels are one
    line)."""
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
    # opened, it hides the decoding on a projector until the question is revealed
    # (`teacher_hides`); its widgets are drawn closed too (the Ask button of a run's click)
    with st.expander(t("class.ask_next_title"), icon=":material/quiz:",
                     expanded=question is not None, key=ASK_PANELS[ABOUT_NEXT],
                     on_change="rerun"):
        st.caption(t("class.ask_next_help", k=len(prefix)))
        ids = next_token_choices(itos, probs)
        picked = [i for i in ids if itos[i] == next_token]
        fields = {"about": ABOUT_NEXT, **next_fields(src, prefix, step, joiner)}
        st.button(t("class.ask"), key="class_ask_next", icon=":material/help:",
                  on_click=ask_now, args=(store, s, Question(
                      "token", t("class.q_next", step=step),
                      tuple(token_label(itos[i]) for i in ids),
                      ids.index(picked[0]) if picked else None, fields)))
        if question is not None:  # its timer starts once the page is drawn
            teacher_tally(store, s, question, question.choices, lang, presenter)


def next_fields(src: Sequence[str], prefix: Sequence[str], step: int,
                joiner: str) -> dict[str, str]:
    """What a "which token next?" question asks about: the step, the source and the prefix
    as text (their ends: a label is at most MAX_LABEL_CHARS)."""
    return {"step": str(step), "source": _tail(joiner.join(src)),
            "prefix": _tail(joiner.join(prefix))}


def _quoted(text: str) -> str:
    """A token, as text inside a heading: markdown's special characters escaped."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIALS else ch for ch in text)


# The Ask panel's own layer and head, and the page's focus (pages/attention.py) they start
# from and show once asked
_ASK_LAYER, _ASK_HEAD = "class_ask_layer", "class_ask_head"
_FOCUS = {_ASK_LAYER: "attn_layer", _ASK_HEAD: "attn_head"}


def _ask(store: ClassStore, s: C.Seat, weights: np.ndarray, q_tok: list[str],
         k_tok: list[str], kind: str, lang: str, presenter: bool) -> dict[str, str]:
    """The teacher's side: ask about a query token of a layer and head; then the tally.
    The question's fields as the panel shows them now."""
    question = asked_about(ABOUT_ATTENTION, store, s)
    n_layers, n_heads = weights.shape[:2]
    for key, n in ((_ASK_LAYER, n_layers), (_ASK_HEAD, n_heads), ("class_query", len(q_tok))):
        if not _index_in(st.session_state.get(key), n):  # unset, or a model made smaller
            focus = st.session_state.get(_FOCUS[key]) if key in _FOCUS else None
            st.session_state[key] = focus if _index_in(focus, n) else 0
    # opened, it hides the heatmaps on a projector until the question is revealed
    # (`teacher_hides`); its widgets are drawn closed too (the Ask button of a run's click)
    with st.expander(t("class.ask_title"), icon=":material/quiz:",
                     expanded=question is not None, key=ASK_PANELS[ABOUT_ATTENTION],
                     on_change="rerun"):
        st.caption(t("class.ask_help"))
        c1, c2, c3 = st.columns([2, 1, 1])
        query = c1.selectbox(t("class.q_query"), range(len(q_tok)), key="class_query",
                             format_func=lambda i: f"{i}:{q_tok[i]}")
        layer = c2.selectbox(t("attn.layer"), range(n_layers), key=_ASK_LAYER,
                             format_func=lambda i: t("fig.attention.layer", i=i))
        head = c3.selectbox(t("attn.head"), range(n_heads), key=_ASK_HEAD,
                            format_func=lambda j: t("fig.attention.head", j=j))
        query = query if _index_in(query, len(q_tok)) else 0
        layer = layer if _index_in(layer, n_layers) else 0
        head = head if _index_in(head, n_heads) else 0
        truth = int(np.argmax(weights[layer, head, query]))
        labels = tuple(f"{i}:{tok}" for i, tok in enumerate(k_tok))
        fields = {"about": ABOUT_ATTENTION, "token": q_tok[query], "query": str(query),
                  "layer": str(layer), "head": str(head), "kind": kind}
        # the prompt, in the teacher's words, is what the teacher's dashboard lists;
        # students read the question from its fields, in their own language
        prompt = t("class.q_token", query=query_label(fields), layer=layer, head=head,
                   kind=KINDS[kind].label if kind in KINDS else kind)
        st.button(t("class.ask"), key="class_ask", icon=":material/help:", on_click=ask_now,
                  args=(store, s, Question("token", prompt, labels, truth, fields),
                        {"attn_layer": layer, "attn_head": head}))
        if question is not None:  # its timer starts once the page is drawn
            teacher_tally(store, s, question, question.choices, lang, presenter)
    return fields


def _index_in(value: object, n: int) -> bool:
    """Whether `value` is an index of a sequence of `n` (a bool is not)."""
    return type(value) is int and 0 <= value < n


def ask_now(store: ClassStore, s: C.Seat, question: Question,
             focus: Mapping[str, int] | None = None) -> None:
    """Ask's callback: the class is asked `question`, the one the teacher's page showed when
    they clicked; the page's `focus` choices (the layer and head asked about) then show
    what it asks about, to the class too once revealed."""
    store.ask(s.code, s.teacher_key or "", question, time.time())
    C.end_countdown(store, s)  # (one for the question before)
    st.session_state.pop(COUNTDOWN_PICK, None)
    for key, value in (focus or {}).items():
        st.session_state[key] = value


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


@timed_fragment(C.TALLY_EVERY)
def _tally(store: ClassStore, code: str, key: str, question_id: int,
           labels: tuple[str, ...], about: str, lang: str, presenter: bool,
           measured: Callable[[], tuple[bool, int | None]] | None = None) -> None:
    """The answers as they arrive, redrawn on their own; Reveal shows every student.
    `presenter` is handed in: a fragment's own reruns run without the page's context."""
    use_session_lang()  # a run of this fragment alone skips app.py's
    s = C.seat()
    closes = C.countdown_of(s.closes, question_id) if s is not None else None
    try:
        tally = store.tally(code, key, question_id)
        if _countdown_over(store, code, key, question_id, tally.status, s, closes):
            tally, closes = store.tally(code, key, question_id), None
    except ClassroomError:
        return
    shown = tally.truth if tally.status == REVEALED else None
    _results(tally.counts, labels, shown, tally.answered, lang, presenter, about,
             revealed=tally.status == REVEALED)
    named = [f"{_quoted(labels[i])}: {', '.join(_quoted(n) for n in names)}"
             for i, names in enumerate(tally.nicknames) if names and i < len(labels)]
    if named and names_shown(presenter):  # only the teacher sees who answered what (students see
        st.caption(t("class.q_names", names="; ".join(named)))  # counts), on a projector
    elif named:  # only when they choose to
        st.caption(t("class.q_names_hidden", n=sum(len(n) for n in tally.nicknames)))
    if tally.status == REVEALED:
        return
    ready, truth = measured() if measured is not None else (True, None)
    if not ready:
        st.caption(t("class.reveal_waits"))
    reveal, close = st.columns(2)
    reveal.button(t("class.reveal"), key="class_reveal", type="primary",
                  icon=":material/visibility:", disabled=not ready, on_click=_reveal_now,
                  args=(store, code, key, question_id, ready, truth), width="stretch")
    if tally.status == OPEN:  # no more answers; those in stay, and Reveal when ready
        close.button(t("class.close_answers"), key="class_close", icon=":material/timer_off:",
                     help=t("class.close_answers_help"), width="stretch",
                     on_click=_close_now, args=(store, code, key, question_id))
        if closes is not None:  # still running (`_countdown_over` ended a finished one)
            countdown(closes, "class_countdown")
        else:  # or in so many seconds, every student's page counting down
            st.segmented_control(
                t("class.countdown_start"), C.COUNTDOWNS, key=COUNTDOWN_PICK,
                format_func=lambda n: t("class.countdown_seconds", n=n),
                help=t("class.countdown_help"), on_change=_countdown_chosen,
                args=(store, question_id))
    else:
        close.caption(t("class.answers_closed"))


def countdown(closes: float | None, key: str) -> None:
    """The seconds left to answer, counting down in the browser (`closes`: when the answers
    close, as time.time(); None: no countdown)."""
    if closes is None:
        return
    left = max(0, math.ceil(closes - time.time()))
    _countdown(key=key, data={"seconds": left, "text": t("class.countdown"),
                              "done": t("class.countdown_done")}, height="content")


def _countdown_over(store: ClassStore, code: str, key: str, question_id: int,
                    status: str, s: C.Seat | None, closes: float | None) -> bool:
    """The teacher's countdown for this question is up: the answers close (once). Whether
    the answers were closed now. `closes`: when the countdown `s` keeps for this question
    ends (`countdown_of`; None: none runs)."""
    if s is None or closes is None:
        return False
    if status == OPEN and time.time() < closes:
        return False
    if status == OPEN:
        _close_now(store, code, key, question_id)
    C.end_countdown(store, s)
    return status == OPEN


def _countdown_chosen(store: ClassStore, question_id: int) -> None:
    """The countdown's callback: the class has the seconds chosen to answer."""
    s = C.seat()
    if s is not None:
        C.start_countdown(store, s, question_id, st.session_state.get(COUNTDOWN_PICK))


def _close_now(store: ClassStore, code: str, key: str, question_id: int) -> None:
    """Close answers' callback: no more answers; every student's page says so."""
    try:
        store.close_answers(code, key, question_id, time.time())
    except ClassroomError:  # ended meanwhile: the next redraw says so
        pass


def _reveal_now(store: ClassStore, code: str, key: str, question_id: int, ready: bool,
                truth: int | None) -> None:
    """Reveal's callback: every student sees the answers; the teacher's whole page runs
    again (on a projector it showed the heatmaps hidden)."""
    if not ready:  # a forged click: the truth is not measured yet
        return
    store.reveal(code, key, question_id, time.time(), truth)
    s = C.seat()
    if s is not None:
        C.end_countdown(store, s)
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
    show_chart(fig, "class_guesses", None, presenter, key="class_guesses", lang=lang,
               share=share, text=False)  # said under it: each answer and its count
    # the chart's text alternative: each answer given and how many gave it (the labels are
    # tokens and the teacher's options: shown as written)
    given = " · ".join(f"{labels[i]}: {n}" for i, n in enumerate(counts) if n and i < len(labels))
    st.caption(plain(t("a11y.answers_given", given=given or "–")))
    if truth is None and revealed:
        st.info(t(_NO_TRUTH.get(about, "class.q_no_truth"), n=answered), icon=":material/help:")
    elif truth is None:
        st.caption(t("class.q_answered", n=answered))
    else:
        right = counts[truth] if 0 <= truth < len(counts) else 0
        st.success(t(truth_key, token=_quoted(labels[truth]) if 0 <= truth < len(labels)
                     else "",
                     right=right, n=answered,
                     share=percent(right / answered) if answered else "0%"),
                   icon=":material/check_circle:")
