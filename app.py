"""Transformer Explorer: build the encoder-decoder Transformer live and look inside it.

Entry point: page config, the shared sidebar (drawn here, before the page, so that switching
pages never resets it; its code is in explorer/app/sidebar.py), and navigation over pages/.
"""

import plotly.graph_objects as go
import streamlit as st

# Streamlit's frontend fetches and runs plotly.js (a 4.7 MB script: about a second of
# headless Chromium on this 2-core host) only when the first chart arrives; a page's first
# chart comes after torch is imported and the model built. A blank chart sent before those
# imports (the session's first run only) lets the browser load plotly.js while the server
# works; it is removed before the page draws (bench/browser.py (a): the first page fully
# drawn about 1 s sooner).
PLOTLY_REQUESTED = "_plotly_requested"
NAV_PAGES = "_nav_pages"  # this session's st.Page objects: (language, pages, home)
plotly_warm_up = st.empty()  # on every run, so the page's elements keep their places
if PLOTLY_REQUESTED not in st.session_state:
    st.session_state[PLOTLY_REQUESTED] = True
    plotly_warm_up.plotly_chart(go.Figure(layout={"height": 10, "width": 10}),
                                config={"staticPlot": True}, width="content")

import torch  # noqa: E402 (after the warm-up: this import alone takes ~0.7 s)

from explorer.app import classroom, lesson  # noqa: E402
from explorer.app.heap import freeze_imports  # noqa: E402
from explorer.app.links import first_lang, lang_chosen, load_url_state  # noqa: E402
from explorer.app.page import page_frame  # noqa: E402
from explorer.app.sidebar import start_in, use_session_lang  # noqa: E402
from explorer.app.train_state import train_asked  # noqa: E402
from explorer.classroom.store import MAX_VIEW_VALUE_CHARS  # noqa: E402
from explorer.sections.classroom import class_banner, class_panel  # noqa: E402
from explorer.sections.frame import draw_sidebar  # noqa: E402
from explorer.sections.lesson import lesson_box, lesson_panel  # noqa: E402
from explorer.state.view import PAGE_PATHS  # noqa: E402
from explorer.text.i18n import LANGS, get_lang, t  # noqa: E402

# One intra-op thread per forward pass: on a 2-core server shared by a class, sessions run
# in parallel threads, and more torch threads per pass only make them fight (README).
torch.set_num_threads(1)

load_url_state()  # a shared link's settings, on the session's first run
lesson.follow_address(st.query_params.to_dict())  # a lesson's Back or Next link: its step
first_lang()  # a first visit: the browser's language, unless the link names one
use_session_lang()  # the interface language of this run
store = classroom.store_or_none()  # the class store (explorer/app/classroom.py)
classroom.enter_from_link(store, st.query_params.to_dict())  # a class's join link
start_in(classroom.take_class_lang(store, LANGS, lang_chosen()))  # a joiner's, the class's
# The browser tab's title, in the learner's language (set here, it names the tab on every page)
st.set_page_config(page_title=t("app.title"), page_icon=":material/neurology:", layout="wide")

# (file, text key of the title, icon, URL path): the six pages, in teaching order.
ICONS = {"model": ":material/account_tree:", "embeddings": ":material/waves:",
         "masks": ":material/grid_on:", "attention": ":material/visibility:",
         "shapes": ":material/straighten:", "train": ":material/model_training:"}
PAGES = [(f"pages/{path}.py", f"nav.{path}", ICONS[path], path) for path in PAGE_PATHS]


def make_pages() -> tuple[list[st.Page], st.Page]:
    """The six pages in the learner's language, and the default page ("/")."""
    pages = [st.Page(path, title=t(title), icon=icon, url_path=url)
             for path, title, icon, url in PAGES]
    # Streamlit serves the default page at "/" only, so "/model" (a link a teacher types from
    # the page's name) would show "Page not found". The default is therefore the Model page
    # under another name, and /model is a page of its own; the menu below shows one entry.
    home = st.Page(PAGES[0][0], title=t(PAGES[0][1]), icon=PAGES[0][2], url_path="home",
                   default=True)
    return pages, home


# Made once per session and language, not on every run: st.Page looks its script up on the
# disk, and under a class's load each such system call hands the interpreter to another
# session's run and back (seven pages: 2.6 ms of CPU a run, timed in bench/classroom.py's class).
# Never shared between sessions: st.navigation marks the page it runs on the object.
made = st.session_state.get(NAV_PAGES)
if not (isinstance(made, tuple) and len(made) == 3 and made[0] == get_lang()):
    made = st.session_state[NAV_PAGES] = (get_lang(), *make_pages())
_, pages, home = made
page = st.navigation([home, *pages], position="hidden")
by_path = {url: entry for (*_, url), entry in zip(PAGES, pages, strict=True)}
here = page.url_path if page.url_path in by_path else PAGES[0][3]  # "/" shows the Model page
seat = classroom.seat()
if seat is not None and store is not None:
    # a following student: the class's view, before any of its widgets is drawn; a teacher
    # who took the class back (a reopened link): the page the class is on
    target = (classroom.resumed_page(seat, here) if seat.teaching
              else classroom.follow(store, seat, here, lesson.paced_alone))
    lesson.take_class(classroom.take_view(seat))  # the class's lesson, at the class's step
    if target in by_path:  # the view goes along: one history entry, Back returns to it
        st.switch_page(by_path[target], query_params=st.query_params.to_dict())
step_page = lesson.take_page()  # a lesson opened by a link, a step shown again: its page
if step_page in by_path and step_page != here:
    st.switch_page(by_path[step_page], query_params=st.query_params.to_dict())
# the frame draws every timed fragment after the page (explorer/app/page.py `draw_last`)
with page_frame() as frame:
    menu = st.sidebar.container(key="nav")  # filled once the sidebar has written the link
    class_slot = st.sidebar.container(key="class")
    lesson_slot = st.sidebar.container(key="lessons")
    st.sidebar.divider()
    plotly_warm_up.empty()  # the page draws from here on
    # the sidebar also writes the view into the link
    frame.ctx = ctx = draw_sidebar(following=classroom.following())
    view = st.query_params.to_dict()
    shown = {k: v for k, v in view.items()  # the view alone: no class, no lesson
             if k not in (*lesson.LINK_PARAMS, classroom.CLASS_PARAM)}
    if seat is not None and store is not None:
        classroom.count_training(seat, train_asked())
        # the class follows the view and the lesson the teacher teaches, at its step; a
        # student-paced lesson alone (each student's view is their own)
        taught = lesson.class_params(MAX_VIEW_VALUE_CHARS)
        own_pace = lesson.PACE_PARAM in taught
        followed = classroom.class_view(taught if own_pace else {**shown, **taught}, here,
                                        seat.trainings, seat.closes if seat.teaching else None)
        if seat.teaching:
            classroom.steer(store, seat, followed, get_lang())  # the class sees it
        elif classroom.following() and not own_pace:
            # a change of their own: they explore (the sidebar unfolds), or, the class's
            # view locked, it goes back to the class's
            if classroom.notice_exploring(seat, followed):
                st.rerun()
    page_names = {url: t(title) for _, title, _, url in PAGES}
    with class_slot:
        class_panel(store)
    lesson.step_after_history(here, shown)
    with lesson_slot:
        lesson_box(here, shown, st.context.url or "", get_lang())
    with menu:
        for entry in pages:
            # Each entry carries the view, so going to another page keeps it in the address
            # bar (one history entry per page change, and Back returns to the view as it
            # was). The Model entry points at the page being shown, so it is highlighted on
            # "/" too.
            st.page_link(home if entry is pages[0] and page is home else entry,
                         query_params=view)
    # a teacher in presenter mode: the class code, large; a student: where the class is
    class_banner(store, ctx.presenter, page_names)
    lesson_panel(ctx, here, shown, get_lang(), page_names, by_path,  # a lesson's step
                 {k: v for k, v in view.items() if k in classroom.OWN_PARAMS})
    page.run()
freeze_imports()  # after a run that imported modules: they leave the GC's scans
