"""End-to-end: a click during training leaves it training; Stop ends it, and the numbers
shown then stay put. Train and Stop are pressed by keyboard (reached by Tab, the focus shown,
Enter), as a keyboard-only learner does.

Streamlit starts a new script run at once when the learner clicks (runner.fastReruns),
while the run that waits for the training is still waiting. The training itself runs in
the server's hub (a worker process), so the click only ends that wait: the page draws
again with the training's progress, which goes on until Stop. Stop keeps the model as it
is then, evaluated, so a later rerun with nothing running shows exactly the same step,
loss and accuracy.
"""

from __future__ import annotations

from browser_support import keyboard_focus, no_exception, open_page

TIMEOUT_MS = 120_000

# Section 2's progress bar (the sidebar has its own) shows a training step: the number of
# steps done, or null.
STEP = """() => {
  const p = document.querySelector("[data-testid='stMain'] [data-testid='stProgress']");
  const m = p === null ? null : / (\\d+) \\/ \\d+ · loss /.exec(p.innerText);
  return m === null ? null : Number(m[1]);
}"""
# Presenter mode is on (`on`) or off, the script is idle, and the training's progress shows.
TRAINING_AFTER_CLICK = """on => {
  const idle = document.querySelector("[data-test-script-state='notRunning']") !== null;
  const big = getComputedStyle(document.documentElement).fontSize === '21px';
  const p = document.querySelector("[data-testid='stMain'] [data-testid='stProgress']");
  return idle && big === on && p !== null && / \\d+ \\/ \\d+ · loss /.test(p.innerText);
}"""
# The run is over, its metrics are drawn, and presenter mode is on (`on`) or off.
SETTLED = """on => {
  const idle = document.querySelector("[data-test-script-state='notRunning']") !== null;
  const big = getComputedStyle(document.documentElement).fontSize === '21px';
  const metrics = document.querySelectorAll("[data-testid='stMetric']").length >= 4;
  const bar = document.querySelector("[data-testid='stMain'] [data-testid='stProgress']");
  return idle && big === on && metrics && bar === null;
}"""
METRICS = """() => Object.fromEntries([...document.querySelectorAll("[data-testid='stMetric']")]
  .map(m => [m.querySelector("[data-testid='stMetricLabel']").innerText.trim(),
             m.querySelector("[data-testid='stMetricValue']").innerText.trim()]))"""


def _presenter(page) -> None:
    page.locator(".st-key-presenter label").first.click()


def test_a_click_during_training_leaves_it_training_and_stop_ends_it(page, app_url):
    open_page(page, app_url, "train")
    early = page.locator(".st-key-tr_early label").first
    early.click()  # "Stop when learned" off: 1000 steps, far longer than the test needs
    page.wait_for_function(
        "() => !document.querySelector('.st-key-tr_early input').checked", timeout=TIMEOUT_MS)
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=TIMEOUT_MS)
    keyboard_focus(page, ".st-key-tr_train button")  # Train and Stop by keyboard alone
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ({STEP})() !== null", polling=50, timeout=TIMEOUT_MS)

    _presenter(page)  # a click while the model trains: the page draws again ...
    page.wait_for_function(TRAINING_AFTER_CLICK, arg=True, polling=100, timeout=TIMEOUT_MS)
    no_exception(page)
    before = page.evaluate(STEP)
    # ... and the training goes on: its progress, redrawn by itself, counts more steps
    page.wait_for_function(f"() => ({STEP})() > {before}", polling=100, timeout=TIMEOUT_MS)
    assert "Training stopped" not in page.inner_text("[data-testid='stMain']")

    keyboard_focus(page, ".st-key-tr_stop button")  # only Stop ends it
    page.keyboard.press("Enter")
    page.wait_for_function(SETTLED, arg=True, polling=100, timeout=TIMEOUT_MS)
    no_exception(page)
    first = page.evaluate(METRICS)
    steps = next(v for k, v in first.items() if k.startswith("Steps"))
    done, total = (int(x) for x in steps.split("/"))
    assert before < done < total == 1000, first
    text = page.inner_text("[data-testid='stMain']")
    assert f"Training stopped at step {done} of {total} (the Stop button)" in text

    _presenter(page)  # a click with nothing running: the same numbers
    page.wait_for_function(SETTLED, arg=False, polling=100, timeout=TIMEOUT_MS)
    assert page.evaluate(METRICS) == first
    assert f"Training stopped at step {done} of {total}" in page.inner_text(
        "[data-testid='stMain']")
