"""End-to-end: two learners press Train with the same settings and see the same trained model
. The server trains once and gives each a copy, so every number of the results,
the training's own time included, is the same on both pages.
"""

from __future__ import annotations

from browser_support import no_exception, open_page

TIMEOUT_MS = 120_000

SETTLED = """() => {
  const idle = document.querySelector("[data-test-script-state='notRunning']") !== null;
  const metrics = document.querySelectorAll("[data-testid='stMetric']").length >= 4;
  const progress = document.querySelector("[data-testid='stMain'] [data-testid='stProgress']")
    !== null;
  return idle && metrics && !progress;
}"""
METRICS = """() => Object.fromEntries([...document.querySelectorAll("[data-testid='stMetric']")]
  .map(m => [m.querySelector("[data-testid='stMetricLabel']").innerText.trim(),
             m.querySelector("[data-testid='stMetricValue']").innerText.trim()]))"""
DECODED = """() => [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stCode']")]
  .map(c => c.innerText.trim())"""


def test_two_learners_with_the_same_settings_get_the_same_training(browser, app_url):
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
    try:
        pages = [c.new_page() for c in contexts]
        for page in pages:
            open_page(page, app_url, "train?seed=7")  # a seed no other test trains
        for page in pages:  # one click after the other, without waiting in between
            page.locator(".st-key-tr_train button").first.click()
        for page in pages:
            page.wait_for_function(SETTLED, polling=100, timeout=TIMEOUT_MS)
            no_exception(page)
        first, second = (page.evaluate(METRICS) for page in pages)
        assert len(first) >= 4 and first == second  # accuracy, loss, steps and seconds
        assert pages[0].evaluate(DECODED) == pages[1].evaluate(DECODED)
    finally:
        for c in contexts:
            c.close()
