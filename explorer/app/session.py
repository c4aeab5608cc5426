"""This learner's browser session, as the server sees it: whether a real server runs the
script, and whether the learner's tab is still connected."""

from __future__ import annotations

from collections.abc import Callable

from streamlit import runtime
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx


def real_server() -> bool:
    """True under `streamlit run`; False under AppTest, which has its own page routing."""
    return runtime.exists() and type(runtime.get_instance()) is Runtime


def session_disconnected() -> bool:
    """True when this run's browser tab has gone (closed, or lost its connection).

    Streamlit keeps running a script whose client left; a long loop (training) asks this
    to stop early instead of holding a shared core for nobody. Cheap: a dict lookup.
    """
    if not real_server():
        return False
    run_ctx = get_script_run_ctx()
    return run_ctx is not None and not runtime.get_instance().is_active_session(
        run_ctx.session_id)


def session_alive() -> Callable[[], bool] | None:
    """A check, callable from any thread, that this run's session is still connected (its
    browser tab open): the hub's reaper asks it, and ends the training of a learner who
    has gone. None where there is no server to ask (AppTest, a bare script)."""
    run_ctx = get_script_run_ctx()
    if run_ctx is None or not real_server():
        return None
    server = runtime.get_instance()
    session = run_ctx.session_id
    return lambda: server.is_active_session(session)
