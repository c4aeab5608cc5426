"""End-to-end: the real app in headless Chromium, as a learner uses it.

A module fixture starts `streamlit run app.py` on a free 127.0.0.1 port and stops it after
the tests. Screenshots land in test-artifacts/. Without a browser the tests are skipped
with a message, except under CI (CI=true), where a missing browser is a failure:
`make test` installs Debian's Chromium when it is missing and the user is root.
"""

from __future__ import annotations

import pytest
from browser_support import (
    INJECTED,
    PAGES,
    chart_ticks,
    heatmap_count,
    no_exception,
    open_page,
    set_number,
    settled,
)
from serve import after_rerun, free_port, serve, set_text, wait_idle
from shared_inputs import bad_input_texts


@pytest.mark.parametrize("name", PAGES)
def test_every_page_follows_new_text_and_hyperparameters(page, app_url, name):
    open_page(page, app_url, name)
    no_exception(page)
    set_text(page, "source", "a dog saw a cat")
    set_number(page, "h", 2)
    no_exception(page)
    alerts = page.locator("[data-testid='stAlert']").all()
    assert not [a for a in alerts if "could not" in a.inner_text()]  # no error, infos are fine
    assert page.locator(".js-plotly-plot").count() >= 1
    if name == "attention":
        assert heatmap_count(page, 0) == 2 * 2  # N=2 layers x h=2 heads
        assert chart_ticks(page, 0)[:5] == ["0:a", "1:dog", "2:saw", "3:a", "4:cat"]
    if name == "masks":
        assert chart_ticks(page, 0) == ["0:<s>", "1:a", "2:dog", "3:saw", "4:a", "5:cat"]
    if name == "shapes":
        assert "112 of 112 tensors" in page.inner_text("[data-testid='stMain']")
    if name == "model":
        assert "EncoderDecoder(" in page.inner_text("[data-testid='stMain']")


def test_first_visit_to_a_page_url_on_a_fresh_server_runs_the_whole_app(browser):
    """Regression: Streamlit's legacy pages/ mode ran the page without app.py (no sidebar
    navigation titles, no page config) when a fresh server's first visit was a page URL."""
    with serve(free_port()) as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        p = context.new_page()
        p.goto(f"{url}/attention")
        # the first run on a fresh server is slow (imports, legacy-mode rerun): wait for the
        # grid itself rather than a fixed time
        p.wait_for_function("() => document.querySelectorAll('.st-key-attn_grid g.hm')"
                            ".length >= 8", timeout=120_000)
        wait_idle(p)
        nav = [a.inner_text() for a in p.locator(".st-key-nav a").all()]
        assert p.title() == "Transformer Explorer"
        assert any(item.endswith("Attention") for item in nav) and not any(
            item == "app" for item in nav)
        assert p.locator("h1").first.inner_text() == "Attention"
        assert heatmap_count(p, 0) == 2 * 4
        context.close()


def test_repeated_tokens_and_chinese_in_the_attention_grid(page, app_url):
    open_page(page, app_url, "attention")
    set_text(page, "source", "我爱自然语言处理")
    assert chart_ticks(page, 0)[:3] == ["0:我", "1:爱", "2:自"]
    assert heatmap_count(page, 0) == 2 * 4


def _bad_texts() -> list[str]:
    texts = ["<b>bold</b> and <i>italic</i>", '<a href="https://example.com">click me</a>',
             '<span style="font-size:999px">huge</span>', "<script>alert(1)</script>",
             "[click](javascript:alert(1))", "", "\u200b\u200b", "a" * 1200]
    return list(dict.fromkeys(texts + bad_input_texts()))


@pytest.mark.parametrize("field", ["source", "target"])
def test_hostile_text_renders_or_explains_and_never_becomes_markup(page, app_url, field):
    open_page(page, app_url, "attention")
    for text in _bad_texts():
        set_text(page, field, text)
        no_exception(page)
        assert page.evaluate(INJECTED) == 0, text
        main = page.inner_text("[data-testid='stMain']")
        assert "Attention" in main  # the page is still there
        charts = page.locator(".js-plotly-plot").count()
        errors = page.locator("[data-testid='stAlert']").count()
        assert charts > 0 or errors > 0, text  # drawn, or a message says why not


def test_train_from_the_browser(page, app_url):
    open_page(page, app_url, "train")
    after_rerun(page, page.locator(".st-key-tr_train button").first.click)
    # on a busy server the click's run may end first (INLINE_WAIT): the training goes on in
    # the background and the page draws its results once it has ended
    page.get_by_text("Exact-sequence accuracy").first.wait_for(timeout=120_000)
    settled(page)
    no_exception(page)
    text = page.inner_text("[data-testid='stMain']")
    assert "Model's answer" in text
    assert page.locator(".js-plotly-plot").count() >= 3  # loss curve, decoding, before/after
