"""Five students follow their teacher through every page in six browsers.

After each of the teacher's page changes, every student's page must show the new page's
title and its first chart within FOLLOW_S seconds, and keep showing them (a page that drew
and was then emptied again counts as not shown).

Three of the five students read the server late, as a busy phone does: their browser's
timer for the class look ticks once more before it has read that the page changed. The
test makes that happen every time (`reads_late`): when the server starts the student's new
page, the student's last tick of the class look reaches the server again. That tick names
the page the browser still shows; run as it asks, it would send the browser a new_session
of the old page, and Streamlit's frontend then removes everything the new page drew
(explorer/app/streamlit_internals.py `keep_fragment_reruns_on_their_page`).

The app is served with a class store of its own (SQLite in a temporary folder). The test
waits on what each page shows (conditions), never on fixed sleeps.
"""

from __future__ import annotations

import re
import time

import pytest
from browser_support import ARTIFACTS, chromium
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from serve import after_rerun

from explorer.text.locales import en

FOLLOW_S = 15.0  # from the teacher's click to every student's page drawn
STUDENTS = 5
LATE_READERS = (0, 2, 4)  # the students whose browser reads the page change late
# (URL path, text key of its title, key of the page's first chart), in teaching order
PAGES = [
    ("model", "model.title", "model_architecture"),
    ("embeddings", "emb.title", "pe_curves"),
    ("masks", "mask.title", "mask_sub"),
    ("attention", "attn.title", "attn_grid"),
    ("shapes", "shapes.title", "shape_split"),
    ("train", "train.title", "tr_next"),
]

# Notes each change of the script's run state with the page's path at that moment, from the
# page's first load (installed before Streamlit's own scripts; the test empties the list).
NOTE_RUN_STATES = """
window.__states = [];
new MutationObserver(records => {
  for (const r of records) {
    const state = r.target.getAttribute('data-test-script-state');
    if (state !== r.oldValue) window.__states.push([state, location.pathname]);
  }
}).observe(document, {attributes: true, attributeOldValue: true, subtree: true,
                      attributeFilter: ['data-test-script-state']});
"""
# On page `name`, a run ended and a later one began: the run that follows the page's own run
# has reached the browser (a run's start is drawn after its new_session message).
RAN_AGAIN = """(name) => {
  const states = window.__states.filter(([, path]) => path.endsWith('/' + name))
    .map(([state]) => state);
  const ended = states.indexOf('notRunning');
  return ended >= 0 && states.indexOf('running', ended + 1) > ended;
}"""
# The page `name` is drawn: the address, its title in the main area and its first chart.
DRAWN = """([name, title, chart]) => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (main === null || !location.pathname.endsWith('/' + name)) return false;
  const h1 = main.querySelector('h1');
  return h1 !== null && h1.innerText.trim().startsWith(title)
    && main.querySelector(`.st-key-${chart} .js-plotly-plot .main-svg`) !== null;
}"""


def reads_late(page) -> None:
    """This browser's last tick of a fragment timer reaches the server again when the server
    starts a new page for it, before the browser has read that (its websocket passes
    through Playwright: https://playwright.dev/python/docs/api/class-websocketroute).

    A browser sends a fragment's timer tick with the page it shows (Streamlit's frontend,
    App.tsx `sendRerunBackMsg`: currentPageScriptHash) until it reads the next run of the
    whole page, which stops the timers. A busy browser's tick that went out just before
    that arrives while the server runs the new page: the same message, resent here."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    def route(ws) -> None:
        server = ws.connect_to_server()
        seen = {"page": None, "tick": None}  # the page shown; the last tick sent on it

        def to_server(message) -> None:
            if isinstance(message, bytes):
                back = BackMsg.FromString(message)
                if (back.WhichOneof("type") == "rerun_script"
                        and back.rerun_script.is_auto_rerun and back.rerun_script.fragment_id):
                    seen["tick"] = message
            server.send(message)

        def to_page(message) -> None:
            if isinstance(message, bytes):
                msg = ForwardMsg.FromString(message)
                if msg.WhichOneof("type") == "new_session" and not msg.metadata.run.fragment_ids:
                    shown = msg.new_session.page_script_hash
                    if seen["page"] not in (None, shown):  # the server starts another page
                        if seen["tick"] is not None:
                            server.send(seen["tick"])
                        seen["tick"] = None
                    seen["page"] = shown
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    page.route_web_socket(re.compile(r".*/_stcore/stream$"), route)


class Room:
    """A teacher and their students, each in a browser context of their own."""

    def __init__(self, browser, url: str) -> None:
        self.browser, self.url = browser, url
        self.teacher = None
        self.students: list = []

    def open(self, path: str, late: bool = False):
        context = self.browser.new_context(viewport={"width": 1100, "height": 800})
        context.add_init_script(NOTE_RUN_STATES)
        page = context.new_page()
        if late:
            reads_late(page)
        page.goto(f"{self.url}{path}")
        return page

    def describe_pages(self, name: str) -> str:
        """What each page shows (conftest.py adds it to a failed test's report), with a
        screenshot of each in test-artifacts/."""
        said = []
        for i, page in enumerate([self.teacher, *self.students]):
            if page is None:
                continue
            page.screenshot(path=str(ARTIFACTS / f"failed_{name}_{i}.png"))
            h1 = page.locator("[data-testid='stMain'] h1")
            runs = page.evaluate("() => (window.__states || []).slice(-8)")
            said.append(f"page {i}: {page.url} title "
                        f"{h1.first.inner_text() if h1.count() else '(none)'}, charts "
                        f"{page.locator('[data-testid=stMain] .js-plotly-plot').count()}, "
                        f"last run states {runs}")
        return "\n".join(said)


@pytest.fixture
def room(class_url):
    with chromium() as browser:
        yield Room(browser, class_url)


def go_to(page, name: str, title: str, chart: str) -> None:
    """Click page `name` in the page menu and wait until it is drawn."""
    after_rerun(page, page.locator(f".st-key-nav a[href^='{name}']").first.click)
    page.wait_for_function(DRAWN, arg=[name, title, chart], timeout=120_000)


def start_class(room: Room) -> str:
    """The teacher goes through the lesson's pages, as one does before a class (the server
    has then built what each page shows once), and starts a class on the last: its code."""
    name, title_key, chart = PAGES[0]
    teacher = room.teacher = room.open(f"/{name}")
    teacher.wait_for_function(DRAWN, arg=[name, en.TEXT[title_key], chart], timeout=120_000)
    for name, title_key, chart in PAGES[1:]:
        go_to(teacher, name, en.TEXT[title_key], chart)
    teacher.get_by_text(en.TEXT["class.title"]).click()
    start = teacher.locator(".st-key-class_start button")
    for _ in range(3):  # a busy browser may drop the click (tests/test_e2e_classroom.py)
        after_rerun(teacher, start.click)
        try:
            teacher.locator(".st-key-class_teacher").wait_for(timeout=20_000)
            break
        except PlaywrightTimeout:
            continue
    teacher.wait_for_function("() => /[?&]class=[0-9A-Z]{6}/.test(location.search)",
                              timeout=60_000)
    return re.search(r"class=([0-9A-Z]{6})", teacher.url).group(1)


def shown_and_kept(student, name: str, title: str, chart: str, deadline: float) -> None:
    """Wait until `student`'s page shows page `name` (by `deadline`, time.monotonic()), and
    until the run after that page's run has begun, after which it must still show it: that
    run is the one that could empty it (`reads_late`). Call `forget_runs` before the change."""
    args = [name, title, chart]
    left = deadline - time.monotonic()
    if left > 0:
        student.wait_for_function(DRAWN, arg=args, timeout=left * 1000)
    else:  # the teacher's own page took the time: it must be drawn by now
        assert student.evaluate(DRAWN, args), f"{name} not drawn in time"
    student.wait_for_function(RAN_AGAIN, arg=name, timeout=30_000)
    assert student.evaluate(DRAWN, args), f"{name} was drawn, then emptied"


def forget_runs(pages) -> None:
    """From here on, `shown_and_kept` reads only the runs that come after."""
    for page in pages:
        page.evaluate("() => { window.__states = []; }")


@pytest.mark.timeout(600)  # about 1 min; more when other work shares the machine
def test_five_students_follow_the_teacher_through_every_page(room):
    code = start_class(room)  # on the last page
    room.students = [room.open(f"/?class={code}", late=i in LATE_READERS)
                     for i in range(STUDENTS)]
    name, title_key, chart = PAGES[-1]
    for student in room.students:  # each lands on the teacher's page
        shown_and_kept(student, name, en.TEXT[title_key], chart, time.monotonic() + 120)

    # once through: three late readers on six page changes make the race 18 times
    for visit, (name, title_key, chart) in enumerate(PAGES):
        forget_runs(room.students)
        clicked = time.monotonic()
        go_to(room.teacher, name, en.TEXT[title_key], chart)
        for i, student in enumerate(room.students):
            try:
                shown_and_kept(student, name, en.TEXT[title_key], chart, clicked + FOLLOW_S)
            except (PlaywrightTimeout, AssertionError) as exc:
                raise AssertionError(f"visit {visit} ({name}): student {i} "
                                     f"({'late' if i in LATE_READERS else 'prompt'} "
                                     f"reader): {exc}") from None
    for page in (room.teacher, *room.students):
        assert page.locator("[data-testid='stException']").count() == 0
