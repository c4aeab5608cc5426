"""What every page does, beyond Streamlit's own, for a student who uses a screen reader, only
a keyboard, or low vision (WCAG 2.2 AA, audited by bench/accessibility.py):

- the page's language: `<html lang>` says the language the page is written in, so a screen
  reader speaks Chinese pages in Chinese (3.1.1 Language of Page); Streamlit writes "en"
  whatever the app's language;
- wide code and formulas reachable by keyboard: a code block or a display formula wider
  than its column scrolls sideways, and a region that scrolls must take the keyboard's
  focus to be read (2.1.1 Keyboard; axe-core's scrollable-region-focusable). Only those
  that do scroll get a tab stop, with a label saying what they hold;
- text contrast at least 4.5:1 (1.4.3): Streamlit's light theme draws captions and some
  code colours lighter than that (#828180 captions: 3.9:1; the code's blue keywords 3.8:1
  and grey comments 3.6:1 on its code background).

It is a Streamlit custom component (`st.components.v2.component`), run in the page itself
(no iframe); its data is the language code and two of the app's own texts, set as
attributes, never as markup.
"""

from __future__ import annotations

import streamlit as st
from streamlit.components.v2 import component

from ..text.i18n import Text

# The language of the page as `<html lang>` names it (BCP 47); the script sets only a code
# of LANG_CODE's form (tests/test_access.py checks the table against it once).
HTML_LANG: dict[str, str] = {"en": "en", "zh": "zh"}
LANG_CODE = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
KEY = "page_access"  # the component's widget key: its element is hidden (ACCESS_CSS)

# Text colours of at least 4.8:1 on every background of the light theme that they sit on
# (white, the sidebar's #f0f2f6, the code blocks' #fcfcfb, an info box's #e8f2fc), in the
# hues Streamlit uses; the primary colour (#c0392b) is 5.4:1 on white already. Streamlit
# draws a caption in the text colour at 60% opacity (3.9:1 on white) and its code's
# strings, numbers, keywords and comments in colours of 2.3:1 to 3.8:1.
CAPTION_COLOR = "#5f5e5b"  # 6.5:1 on white
CODE_COLORS: dict[str, tuple[str, ...]] = {  # a colour -> the code tokens (Prism's) in it
    "#31333f": ("token",),  # every other token: the text colour
    "#0b63b5": ("keyword", "function", "builtin", "class-name", "decorator", "atrule",
                "selector", "important"),  # blue, 5.9:1 on #fcfcfb
    "#137333": ("string", "triple-quoted-string", "char", "attr-value", "regex",
                "inserted"),  # green, 5.8:1
    "#107569": ("number", "boolean", "constant", "symbol"),  # teal, 5.4:1
    "#5c5f70": ("comment", "prolog", "doctype", "cdata"),  # grey, 6.2:1
    "#b42318": ("tag", "deleted", "property", "variable"),  # red, 6.4:1
}
# The focus ring of a scrolling region and of every link (Streamlit's page links, the
# lessons' Back and Next among them, show focus only as a faint tint): the theme's primary
# colour, as Streamlit's own focus rings (WCAG 2.4.7 Focus Visible); `!important` over the
# page links' own "outline: none"
FOCUS_COLOR = "#c0392b"
MIN_TARGET_PX = 24  # WCAG 2.2 2.5.8: a control at least 24 x 24 px (a multiselect's input)
_CODE_CSS = "\n".join(
    ", ".join(f".stCode .token{'' if name == 'token' else '.' + name}" for name in names)
    + f" {{ color: {color}; }}" for color, names in CODE_COLORS.items())
ACCESS_CSS = f"""<style>
.st-key-{KEY} {{ display: none; }}
[data-testid="stCaptionContainer"] {{ opacity: 1; color: {CAPTION_COLOR}; }}
{_CODE_CSS}
.stMultiSelect input {{ min-width: {MIN_TARGET_PX}px; }}
[data-access-scroll]:focus-visible, a:focus-visible {{
  outline: 2px solid {FOCUS_COLOR} !important; outline-offset: 2px; }}
</style>"""

# What may scroll sideways, and the label (a text of `data`) of each kind.
SCROLLERS = ((".stCode pre", "code"), (".katex-display", "formula"))

JS = """
export default function ({ data }) {
  const lang = String(data && data.lang || "");
  if (/__LANG_CODE__/.test(lang)) document.documentElement.lang = lang;
  const labels = (data && data.labels) || {};
  const scrollers = __SCROLLERS__;
  const mark = () => {
    for (const [selector, kind] of scrollers) {
      for (const el of document.querySelectorAll(selector)) {
        const scrolls = el.scrollWidth > el.clientWidth + 1
          || el.scrollHeight > el.clientHeight + 1;
        if (scrolls) {
          el.tabIndex = 0;
          el.setAttribute("role", "region");
          el.setAttribute("aria-label", String(labels[kind] || ""));
          el.setAttribute("data-access-scroll", kind);
        } else if (el.hasAttribute("data-access-scroll")) {
          for (const name of ["tabindex", "role", "aria-label", "data-access-scroll"]) {
            el.removeAttribute(name);
          }
        }
      }
    }
  };
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; mark(); });
  };
  const observer = new MutationObserver(soon);
  observer.observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  mark();
  return () => { observer.disconnect(); window.removeEventListener("resize", soon); };
}
""".replace("__SCROLLERS__", "[" + ", ".join(f'["{s}", "{k}"]' for s, k in SCROLLERS) + "]"
           ).replace("__LANG_CODE__", LANG_CODE)

_mount = component("transformer_explorer_access", html="<span></span>", js=JS)


def access_data(lang: str) -> dict[str, object]:
    """The component's data for a page in `lang`: its `<html lang>` and the labels of the
    regions that scroll (`SCROLLERS`), in that language."""
    if lang not in HTML_LANG:
        raise ValueError(f"no page language for {lang!r}")
    text = Text(lang)
    return {"lang": HTML_LANG[lang],
            "labels": {kind: text(f"access.{kind}_region") for _, kind in SCROLLERS}}


def page_access(lang: str) -> None:
    """The page's language, its scrolling regions' tab stops, and its text colours: once a
    run, before the page (explorer/app/page.py `page_frame`)."""
    st.html(ACCESS_CSS)  # only a style: Streamlit puts it where it takes no room
    _mount(key=KEY, data=access_data(lang), height=0)
