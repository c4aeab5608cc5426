"""End-to-end: break the subsequent mask, train both models, and see the gap.

In a real browser, the Train page's experiment with its default break (no subsequent mask)
trains the correct and the broken model; the page then says, with measured numbers, that
the broken model gets nearly every token right with the answer fed in and almost no
sequence right on its own.
"""

from __future__ import annotations

import re

from browser_support import no_exception, open_page

TIMEOUT_MS = 180_000
# The experiment has run and its measured paragraph is drawn (not while a run is going on).
MEASURED = """() => {
  const idle = document.querySelector("[data-test-script-state='notRunning']") !== null;
  const text = document.querySelector("[data-testid='stMain']").innerText;
  return idle && text.includes('Measured on the same');
}"""


def test_breaking_the_mask_shows_the_gap(page, app_url):
    open_page(page, app_url, "train")
    run = page.locator(".st-key-exp_run button").first
    run.scroll_into_view_if_needed()
    run.click()
    page.wait_for_function(MEASURED, polling=200, timeout=TIMEOUT_MS)
    no_exception(page)
    text = page.inner_text("[data-testid='stMain']")
    share = r"(\d+(?:\.\d)?)%"  # explorer.text.i18n.percent: 85%, 99.5%
    measured = re.search(r"teacher-forced token accuracy \(the correct answer fed in, as in "
                         rf"training\) {share} for the broken model against {share} for the "
                         rf"correct one; greedy exact accuracy \(the model on its own\) {share} "
                         rf"against {share}", text)
    assert measured, text[-3000:]
    tf_bad, tf_ok, greedy_bad, greedy_ok = (float(x) for x in measured.groups())
    assert tf_bad >= 95 and greedy_bad <= 5 < greedy_ok
    assert "The lesson is the gap." in text
