"""The copy-link button (explorer/app/copy_link.py).

Without a browser: the button's texts travel as the component's JSON data, never as markup,
and the component's HTML and script are constants that write text only.

In the browser, on a tiny app of its own (this module's `app_url` fixture, which the shared
`browser` fixture then uses): one click copies the page's address with its query string,
the texts show exactly as given, and the server logs no deprecation warning. Every wait is
on a condition (the address bar, an element, Streamlit's run state), never a fixed sleep.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlparse

import pytest
from browser_support import ARTIFACTS, INJECTED, ROOT, need_browser, settled
from serve import free_port, serve
from shared_inputs import bad_input_params, bad_input_texts
from streamlit.testing.v1 import AppTest

from explorer.app import copy_link
from explorer.app.copy_link import copy_link_button, copy_link_data
from explorer.text.locales import en, zh

# Our own hostile texts, so the tests still run where ../shared is absent: a script end tag
# inside a script, a JS string break, a template, line separators, markup and entities.
OWN_HOSTILE = [
    "</script><script>alert(1)</script>",
    '"; alert(1); "',
    "'); alert(1); ('",
    "${alert(1)}`",
    "line\u2028separator\u2029paragraph",
    '<img src=x onerror="alert(1)">',
    "&amp; &lt;b&gt;",
    "\\u003c/script\\u003e",
]


def hostile_params() -> list:
    own = [pytest.param(text, id=f"own-{i}") for i, text in enumerate(OWN_HOSTILE)]
    return own + bad_input_params()


# ---- without a browser --------------------------------------------------------------------


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_the_markup_is_one_empty_button_and_the_script_writes_only_text():
    markup = _Markup()
    markup.feed(copy_link.HTML)
    assert [tag for tag, _ in markup.tags] == ["button"]
    assert markup.tags[0][1]["type"] == "button"
    assert "".join(markup.text) == ""  # the label is not in the markup
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "Function(", "srcdoc"):
        assert sink not in copy_link.JS
    assert "button.textContent = label" in copy_link.JS
    assert "window.location.href" in copy_link.JS  # the address, read at click time
    assert "__" not in copy_link.JS  # no placeholder left unfilled


@pytest.mark.parametrize("text", hostile_params())
def test_a_hostile_text_travels_as_data_and_never_as_markup(monkeypatch, text):
    calls: list[dict] = []
    monkeypatch.setattr(copy_link, "_mount", lambda **kwargs: calls.append(kwargs))
    copy_link_button(text, text + " ✓")
    assert calls == [{"key": None, "data": {"label": text, "done": text + " ✓"},
                      "width": "stretch", "height": "content"}]
    sent = json.dumps(calls[0]["data"])  # as Streamlit sends it
    assert json.loads(sent) == {"label": text, "done": text + " ✓"}


def test_texts_that_are_not_strings_are_refused():
    with pytest.raises(TypeError):
        copy_link_data(None, "Copied")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        copy_link_data("Copy", 1)  # type: ignore[arg-type]


def _many_buttons(texts: list[str]) -> None:
    from explorer.app.copy_link import copy_link_button

    for i, text in enumerate(texts):
        copy_link_button(text, "done: " + text, key=f"b{i}")


def test_streamlit_sends_the_constant_markup_and_the_texts_as_json():
    texts = OWN_HOSTILE + bad_input_texts()
    at = AppTest.from_function(_many_buttons, args=(texts,)).run()
    assert not at.exception
    protos = [element.proto for element in at.get("bidi_component")]
    assert len(protos) == len(texts)
    for proto, text in zip(protos, texts, strict=True):
        assert proto.component_name == copy_link.COMPONENT_NAME
        assert proto.html_content == copy_link.HTML
        assert json.loads(proto.json) == {"label": text, "done": "done: " + text}


# ---- in the browser -----------------------------------------------------------------------

# The app under test: the button in the sidebar with the app's texts (or, with ?hostile=1,
# one button per hostile text), a real Streamlit button to compare sizes with, and a number
# input whose value goes into the address bar.
APP = '''
import json
from pathlib import Path

import streamlit as st

from explorer.app.copy_link import copy_link_button
from explorer.text.locales import en, zh

table = zh.TEXT if st.query_params.get("lang") == "zh" else en.TEXT
with st.sidebar:
    if st.query_params.get("hostile"):
        texts = json.loads((Path(__file__).parent / "texts.json").read_text(encoding="utf-8"))
        for i, text in enumerate(texts):
            copy_link_button(text, "done: " + text, key=f"hostile{i}")
    else:
        copy_link_button(table["sidebar.copy_link"], table["sidebar.copied"])
    st.button("A Streamlit button", width="stretch")
n = st.number_input("n", 0, 10, key="n")
if n:
    st.query_params["n"] = str(n)
st.title("Copy link")
'''

BUTTON = "[data-testid='stSidebar'] button.copy-link"  # CSS locators reach into shadow roots
HOSTILE_TEXTS = OWN_HOSTILE + bad_input_texts()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The tiny app, served on a free 127.0.0.1 port: (its address, its server's log)."""
    need_browser()
    folder = tmp_path_factory.mktemp("copy_link_app")
    (folder / "app.py").write_text(APP, encoding="utf-8")
    (folder / "texts.json").write_text(json.dumps(HOSTILE_TEXTS), encoding="utf-8")
    log = folder / "server.log"
    with serve(free_port(), {"PYTHONPATH": str(ROOT)}, folder / "app.py", log) as url:
        yield url, log


@pytest.fixture(scope="module")
def app_url(served):
    """This module's app (the shared `browser` fixture waits on `app_url`)."""
    return served[0]


@pytest.fixture
def clip_page(browser, app_url, request):
    """A page allowed to read and write the clipboard; its screenshot is kept."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    page = context.new_page()
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
    context.close()


def open_app(page, url: str) -> None:
    page.goto(url)
    page.locator(BUTTON).first.wait_for(timeout=60_000)
    settled(page)


def wait_label(page, text: str, index: int = 0) -> None:
    page.wait_for_function(
        "([i, text]) => document.querySelectorAll('[data-testid=stBidiComponentIsolated]')"
        "[i]?.shadowRoot?.querySelector('button.copy-link')?.textContent === text",
        arg=[index, text], timeout=30_000)


@pytest.mark.parametrize("table", [en.TEXT, zh.TEXT], ids=["en", "zh"])
def test_one_click_copies_the_address_of_the_view(clip_page, app_url, table):
    page = clip_page
    lang = "&lang=zh" if table is zh.TEXT else ""
    open_app(page, f"{app_url}/?src=a+b%20c&x=%3Cb%3E{lang}")
    button = page.locator(BUTTON)
    assert button.text_content() == table["sidebar.copy_link"]

    # a rerun changes the address bar: the click copies the address shown at click time.
    # (The tiny app's run is too quick for after_rerun's run counter: wait on the address.)
    box = page.locator("[data-testid='stNumberInput'] input")
    box.fill("3")
    box.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('n') === '3'",
                           timeout=30_000)
    settled(page)
    button.click()
    wait_label(page, table["sidebar.copied"])
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == page.url
    query = parse_qs(urlparse(copied).query)
    assert {"src": ["a b c"], "x": ["<b>"], "n": ["3"]}.items() <= query.items()
    wait_label(page, table["sidebar.copy_link"])  # the label comes back

    # a second copy, from the keyboard
    page.evaluate("() => navigator.clipboard.writeText('')")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("async () => (await navigator.clipboard.readText()) === location.href",
                           timeout=10_000)


def test_it_looks_like_a_streamlit_button_filling_the_sidebar(clip_page, app_url):
    page = clip_page
    open_app(page, app_url)
    ours = page.locator(BUTTON).bounding_box()
    theirs = page.locator("[data-testid='stSidebar'] [data-testid='stBaseButton-secondary']"
                          ).bounding_box()
    assert 38 <= ours["height"] <= 41
    assert abs(ours["height"] - theirs["height"]) <= 1
    assert (ours["x"], ours["width"]) == (theirs["x"], theirs["width"])  # a stretch button's
    style = ["borderRadius", "borderTopWidth", "borderTopColor", "color", "fontFamily",
             "paddingLeft"]
    read = "(e, props) => { const s = getComputedStyle(e); return props.map(k => s[k]); }"
    assert page.locator(BUTTON).evaluate(read, style) == page.locator(
        "[data-testid='stSidebar'] [data-testid='stBaseButton-secondary']").evaluate(read, style)


def test_hostile_texts_show_as_text(clip_page, app_url):
    page = clip_page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_app(page, f"{app_url}/?hostile=1")
    buttons = page.locator(BUTTON)
    assert buttons.count() == len(HOSTILE_TEXTS)
    shown = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')].map(h => {"
        "  const b = h.shadowRoot.querySelector('button.copy-link');"
        "  return [b.textContent, b.children.length, h.shadowRoot.querySelectorAll("
        "    'script, img, a, b, i, span').length]; })")
    assert [text for text, _, _ in shown] == HOSTILE_TEXTS
    assert all(children == 0 and extra == 0 for _, children, extra in shown)
    assert page.evaluate(INJECTED) == 0
    index = HOSTILE_TEXTS.index(OWN_HOSTILE[0])
    buttons.nth(index).click()
    wait_label(page, "done: " + OWN_HOSTILE[0], index)
    assert page.evaluate("() => navigator.clipboard.readText()") == page.url
    assert dialogs == []


def test_without_the_async_clipboard_the_copy_command_copies(clip_page, app_url):
    """An http address other than localhost is no secure context: navigator.clipboard is
    not offered there, and the button falls back to the copy command."""
    page = clip_page
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false});")
    open_app(page, f"{app_url}/?src=plain+http")
    page.locator(BUTTON).click()
    wait_label(page, en.TEXT["sidebar.copied"])
    assert page.evaluate("() => navigator.clipboard.readText()") == page.url


def test_the_server_logs_no_deprecation_warning(page, served):
    url, log = served
    open_app(page, url)
    text = log.read_text(encoding="utf-8", errors="replace")
    for word in ("deprecat", "will be removed", "Please replace", "Traceback"):
        assert word.lower() not in text.lower(), text
