"""In the browser: the date translator that ships with the app, chosen in the sidebar.

A learner picks "Trained: date translator", clicks an example date, and sees the model's
answer and its cross-attention; the link carries the choice. Waits are on conditions.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from browser_support import no_exception, settled


def test_choose_the_date_translator_and_an_example_date(page, app_url):
    page.goto(f"{app_url}/attention")
    page.wait_for_selector(".st-key-model_source", timeout=60_000)
    settled(page)
    page.locator(".st-key-model_source label").filter(has_text="date translator").click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('model') "
                           "=== 'dates'", timeout=60_000)
    settled(page)
    page.locator(".st-key-date_example button").filter(has_text="2026年11月23日星期一").click()
    page.wait_for_function("() => document.body.innerText.includes('2026-11-23')",
                           timeout=60_000)
    settled(page)
    assert page.locator(".st-key-source input").input_value() == "2026年11月23日星期一"
    query = parse_qs(urlparse(page.url).query)
    assert query["model"] == ["dates"] and query["src"] == ["2026年11月23日星期一"]
    # the encoder's rows are the date's characters and </s>, drawn as text, not markup
    ticks = page.locator(".js-plotly-plot .ytick text").evaluate_all(
        "els => els.map(e => e.textContent)")
    assert "0:2" in ticks and any(t.endswith("</s>") for t in ticks)
    no_exception(page)


def test_a_link_opens_the_date_translator_on_its_date(page, app_url):
    page.goto(f"{app_url}/attention?model=dates&src=Nov+23%2C+2026&kind=cross")
    page.wait_for_function("() => document.body.innerText.includes('2026-11-23')",
                           timeout=60_000)
    settled(page)
    checked = page.locator(".st-key-model_source label:has(input:checked)").inner_text()
    assert "date translator" in checked
    no_exception(page)
