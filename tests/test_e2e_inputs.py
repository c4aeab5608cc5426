"""End-to-end: what a learner sees while clicking and typing fast.

- Train pressed five times within a second showed the sidebar's share box (the copy-link
  button and "Link to this view") twice for about three seconds: a run that draws the
  training's status where the share box was drawn made the browser keep the old share box
  in the status's place until the page ended (explorer/app/sidebar.py, `render_sidebar`).
  A watcher in the page counts the share boxes on every change and every frame.
- A number typed outside its box's range stayed there, red, under Streamlit's English
  "Press Enter to apply", and the figure kept the old size: now the box shows the number
  used and a sentence in the learner's language says why (explorer/app/numbers.py).
"""

from __future__ import annotations

from browser_support import no_exception, open_page, set_number, settled
from playwright.sync_api import expect

from explorer.text.locales import zh

TIMEOUT_MS = 120_000

# Counts the sidebar's copy-link buttons (a component in a shadow root) and share boxes on
# every change of the page and on every animation frame, and keeps the largest counts.
WATCH_SHARE_BOXES = """() => {
  const count = () => [
    [...document.querySelectorAll('[data-testid=stSidebar] [data-testid=stBidiComponentIsolated]')]
      .filter(h => h.shadowRoot && h.shadowRoot.querySelector('button.copy-link')).length,
    document.querySelectorAll('[data-testid=stSidebar] .st-key-share_box').length];
  window.__mostShareBoxes = [0, 0];
  const look = () => {
    const now = count();
    window.__mostShareBoxes = window.__mostShareBoxes.map((most, i) => Math.max(most, now[i]));
  };
  new MutationObserver(look).observe(document.body,
    {subtree: true, childList: true, attributes: true});
  const frame = () => { look(); window.__shareFrame = requestAnimationFrame(frame); };
  frame();
  return count();
}"""
TRAINED = """() => document.querySelectorAll("[data-testid='stMetric']").length >= 4
  && document.querySelector("[data-testid='stMain'] [data-testid='stProgress']") === null"""


def test_quick_train_clicks_never_show_the_share_box_twice(page, app_url):
    open_page(page, app_url, "train")
    assert page.evaluate(WATCH_SHARE_BOXES) == [1, 1]
    train = page.locator(".st-key-tr_train button").first
    for _ in range(5):  # as fast as the browser takes them: each click starts a new run
        train.click()
    page.wait_for_function(TRAINED, polling=100, timeout=TIMEOUT_MS)
    settled(page)
    no_exception(page)
    assert page.evaluate("() => window.__mostShareBoxes") == [1, 1]


def test_a_typed_mask_size_out_of_range_is_put_in_range_and_said_in_chinese(page, app_url):
    page.goto(f"{app_url}/masks?lang=zh")
    page.wait_for_selector(".st-key-mask_size input", timeout=TIMEOUT_MS)
    settled(page)
    box = page.locator(".st-key-mask_size input")
    set_number(page, "mask_size", 99)
    expect(box).to_have_value("32", timeout=TIMEOUT_MS)  # the size used, in the box
    said = zh.TEXT["number.above"].format(name=zh.TEXT["mask.size_label"], given="99",
                                          low="1", high="32", used="32")
    expect(page.locator("[data-testid='stMain'] [data-testid='stAlert']").filter(
        has_text=said)).to_have_count(1, timeout=TIMEOUT_MS)
    # the figure and its caption are the size used; no English hint is left by the box
    expect(page.locator("[data-testid='stMain']")).to_contain_text("(1, 32, 32)")
    expect(page.locator(".st-key-mask_size")).not_to_contain_text("Enter")
    set_number(page, "mask_size", -3)
    expect(box).to_have_value("1", timeout=TIMEOUT_MS)
    expect(page.locator("[data-testid='stMain']")).to_contain_text(
        zh.TEXT["number.below"].format(name=zh.TEXT["mask.size_label"], given="-3", low="1",
                                       high="32", used="1"))
    no_exception(page)
