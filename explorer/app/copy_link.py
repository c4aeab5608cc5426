"""A one-click "copy the link to this view" button, drawn as a Streamlit secondary button.

It is a Streamlit custom component (`st.components.v2.component`): its HTML, CSS and
JavaScript are constants, registered once when this module is imported, and run in the app
page itself (no iframe), so the script reads the page's own address, `window.location.href`,
when the button is pressed. No learner text reaches the page's markup.

The two texts, the button's label and the word shown after a copy, are the app's own (its
text tables); they travel as the component's JSON data and the script writes them with
`textContent`, so a text is shown as it is and never parsed as HTML or script.
"""

from __future__ import annotations

from streamlit.components.v2 import component

COMPONENT_NAME = "transformer_explorer_copy_link"
FEEDBACK_MS = 2000  # how long the "done" text stays on the button after a copy

# The label is filled in by the script: the markup holds no text.
HTML = '<button type="button" class="copy-link" aria-live="polite"></button>'

# Streamlit's secondary button (kind="secondary"), in the theme's colours: Streamlit gives a
# component the theme as --st-* properties. The resting colour is the background lightened a
# little (a browser without relative colours uses the background itself); the hover and
# pressed shades are mixed from the theme's text colour, near Streamlit's darkened ones.
CSS = """
.copy-link {
  box-sizing: border-box;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: 2.5rem;
  margin: 0;
  padding: 0.25rem 0.75rem;
  border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  border-radius: var(--st-button-radius, 0.5rem);
  background-color: var(--st-background-color, #fff);
  background-color: hsl(from var(--st-background-color, #fff) h s calc(l + 2.5));
  color: var(--st-text-color, inherit);
  font: inherit;
  font-size: 0.875rem;  /* the size of a widget's label in the sidebar */
  font-weight: var(--st-base-font-weight, 400);
  line-height: 1.6;
  text-align: center;
  overflow-wrap: anywhere;
  cursor: pointer;
  user-select: none;
}
.copy-link:hover, .copy-link:focus-visible {
  background-color: color-mix(in srgb, var(--st-text-color, #31333f) 7%, transparent);
}
.copy-link:active {
  background-color: color-mix(in srgb, var(--st-text-color, #31333f) 12%, transparent);
}
/* Until the script has written its label, the button has no name: hidden from everyone
   (and from the accessibility audit's button-name rule) for that moment. */
.copy-link:empty { visibility: hidden; }
.copy-link:focus { outline: none; }
.copy-link:focus-visible {
  box-shadow: 0 0 0 0.2rem color-mix(in srgb, var(--st-primary-color, #ff4b4b) 50%, transparent);
}
"""

# Runs on every mount and every change of `data`. The address is read at click time, so the
# link is that of the view shown then. navigator.clipboard exists only in secure contexts
# (https, localhost); elsewhere the older copy command is the fallback.
JS = """
export default function ({ parentElement, data }) {
  const button = parentElement.querySelector("button.copy-link");
  if (!button) return;
  const label = String(data && data.label != null ? data.label : "");
  const done = String(data && data.done != null ? data.done : "");
  button.textContent = label;
  let timer = null;

  const copyWithCommand = (text) => {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { return document.execCommand("copy"); } finally { area.remove(); button.focus(); }
  };

  button.onclick = async () => {
    const link = window.location.href;
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(link);
        copied = true;
      }
    } catch (e) { copied = false; }
    if (!copied) {
      try { copied = copyWithCommand(link); } catch (e) { copied = false; }
    }
    clearTimeout(timer);
    button.textContent = copied ? done : label;
    button.dataset.copied = copied ? "true" : "false";
    timer = setTimeout(() => {
      button.textContent = label;
      delete button.dataset.copied;
    }, __FEEDBACK_MS__);
  };

  return () => { clearTimeout(timer); button.onclick = null; };
}
""".replace("__FEEDBACK_MS__", str(FEEDBACK_MS))

_mount = component(COMPONENT_NAME, html=HTML, css=CSS, js=JS)


def copy_link_data(label: str, done: str) -> dict[str, str]:
    """What the component is given: the two texts, as data (never as markup)."""
    if not isinstance(label, str) or not isinstance(done, str):
        raise TypeError("copy_link_button's label and done must be strings")
    return {"label": label, "done": done}


def copy_link_button(label: str, done: str, *, key: str | None = None) -> None:
    """Draw a button filling its container's width that copies the page's address.

    `label` is the button's text; `done` replaces it for a moment after a copy. `key` is
    needed only to draw two such buttons with the same texts on one page.
    """
    _mount(key=key, data=copy_link_data(label, done), width="stretch", height="content")
