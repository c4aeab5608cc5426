"""End-to-end: a click during training stops it, and the numbers shown stay put (issue 15, 3).

Streamlit starts the new script run at once when the learner clicks (runner.fastReruns),
while the old run's thread is still training. The page must stop that thread and wait
for it before it evaluates the model and shows numbers, so a later rerun with nothing
running shows exactly the same step, loss and accuracy.
"""

from __future__ import annotations

from browser_support import no_exception, open_page

TIMEOUT_MS = 120_000

# The progress bar shows a training step (the old run is inside run_training).
TRAINING = """() => {
  const p = document.querySelector("[data-testid='stProgress']");
  return p !== null && / \\/ \\d+ · loss /.test(p.innerText);
}"""
# The run is over, its metrics are drawn, and presenter mode is on (`on`) or off.
SETTLED = """on => {
  const idle = document.querySelector("[data-test-script-state='notRunning']") !== null;
  const big = getComputedStyle(document.documentElement).fontSize === '21px';
  const metrics = document.querySelectorAll("[data-testid='stMetric']").length >= 4;
  const progress = document.querySelector("[data-testid='stProgress']") !== null;
  return idle && big === on && metrics && !progress;
}"""
METRICS = """() => Object.fromEntries([...document.querySelectorAll("[data-testid='stMetric']")]
  .map(m => [m.querySelector("[data-testid='stMetricLabel']").innerText.trim(),
             m.querySelector("[data-testid='stMetricValue']").innerText.trim()]))"""


def _presenter(page, on: bool) -> dict[str, str]:
    page.locator(".st-key-presenter label").first.click()
    page.wait_for_function(SETTLED, arg=on, polling=100, timeout=TIMEOUT_MS)
    no_exception(page)
    return page.evaluate(METRICS)


def test_a_click_during_training_stops_it_and_the_numbers_stay(page, app_url):
    open_page(page, app_url, "train")
    early = page.locator(".st-key-tr_early label").first
    early.click()  # "Stop when learned" off: 1000 steps, far longer than the test needs
    page.wait_for_function(
        "() => !document.querySelector('.st-key-tr_early input').checked", timeout=TIMEOUT_MS)
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=TIMEOUT_MS)
    page.locator(".st-key-tr_train button").first.click()
    page.wait_for_function(TRAINING, polling=50, timeout=TIMEOUT_MS)

    first = _presenter(page, on=True)  # a click while the model trains
    steps = next(v for k, v in first.items() if k.startswith("Steps"))
    done, total = (int(x) for x in steps.split("/"))
    assert 0 < done < total == 1000, first  # it was stopped, not run to the end
    text = page.inner_text("[data-testid='stMain']")
    assert f"Training stopped at step {done} of {total}" in text

    second = _presenter(page, on=False)  # a click with nothing running
    assert second == first
    assert f"Training stopped at step {done} of {total}" in page.inner_text(
        "[data-testid='stMain']")
