"""In the browser: every page's address works, the address bar always equals the view, and
a language change keeps every setting.

Every wait is on a condition (the address bar, an element, Streamlit's run state), never a
fixed sleep.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from browser_support import PAGES, no_exception, settled
from playwright.sync_api import expect

SHARED_SERVER = True  # never trains: served with the other such modules (browser_support.py)


def query(page) -> dict[str, str]:
    """The address bar's query parameters (last value of each)."""
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def wait_query(page, predicate: str) -> None:
    """Wait until `predicate` (JS over `q`, a URLSearchParams of the address bar) holds."""
    page.wait_for_function(f"() => {{ const q = new URLSearchParams(location.search); "
                           f"return {predicate}; }}", timeout=60_000)


def choose(page, key: str, option: str) -> None:
    """Open the selectbox and pick `option` (again if a rerun redrew it before it opened)."""
    item = page.get_by_role("option", name=option, exact=True)
    for _ in range(6):
        settled(page)
        page.locator(f".st-key-{key} [role='combobox']").first.click()
        try:
            item.wait_for(timeout=5_000)
        except Exception:  # the list closed under a redraw: open it again
            continue
        item.click()
        return
    raise AssertionError(f"the {key} selectbox never offered {option!r}")


def checked_label(page, key: str) -> str:
    """The label of the checked option of the radio whose widget key is `key`."""
    return page.locator(f".st-key-{key} label:has(input:checked)").first.inner_text().strip()


@pytest.mark.parametrize("name", PAGES)
def test_every_page_address_opens_that_page_without_a_not_found_dialog(page, app_url, name):
    for suffix in ("", "?lang=zh"):
        page.goto(f"{app_url}/{name}{suffix}")
        page.wait_for_selector("h1", timeout=60_000)
        settled(page)
        body = page.inner_text("body")
        assert "Page not found" not in body and "does not seem to exist" not in body
        assert urlparse(page.url).path == f"/{name}"
        no_exception(page)


def test_a_language_change_keeps_every_translated_choice(page, app_url):
    page.goto(f"{app_url}/attention?tok=char&norm=post&tie=decoder&kind=dec")
    page.wait_for_selector(".st-key-attn_kind", timeout=60_000)
    settled(page)
    assert checked_label(page, "token_mode") == "characters"
    choose(page, "lang", "中文")
    wait_query(page, "q.get('lang') === 'zh'")
    settled(page)
    assert checked_label(page, "token_mode") == "按字符"  # shown right after the switch
    assert checked_label(page, "attn_kind") != ""
    page.locator(".st-key-presenter label").first.click()  # any other widget
    wait_query(page, "q.get('pres') === '1'")
    settled(page)
    no_exception(page)
    q = query(page)
    assert (q.get("tok"), q.get("kind"), q.get("lang")) == ("char", "dec", "zh")
    page.locator(".st-key-presenter label").first.click()
    wait_query(page, "!q.has('pres')")
    settled(page)
    q = query(page)
    assert (q.get("tok"), q.get("kind")) == ("char", "dec")
    assert checked_label(page, "token_mode") == "按字符"
    # the teaching options are in a collapsed expander: their values travel in the link
    assert (q.get("norm"), q.get("tie")) == ("post", "decoder")


def test_the_address_bar_drops_a_layer_the_smaller_model_does_not_have(page, app_url):
    page.goto(f"{app_url}/attention?preset=paper+base&layer=5&head=7")
    page.wait_for_selector(".st-key-attn_grid g.hm", timeout=120_000)  # paper base drawn
    settled(page)
    assert (query(page).get("layer"), query(page).get("head")) == ("5", "7")
    choose(page, "preset", "tiny")
    wait_query(page, "!q.has('preset')")
    settled(page)
    q = query(page)
    assert "layer" not in q and "head" not in q
    expect(page.locator(".st-key-attn_layer input")).to_have_value("layer 0", timeout=30_000)
    page.reload()  # reopening the link: no notice, nothing refused
    page.wait_for_selector(".st-key-attn_layer", timeout=60_000)
    settled(page)
    assert page.locator("[data-testid='stSidebar'] [data-testid='stAlert']").count() == 0


def test_the_share_box_holds_the_address_of_the_view(page, app_url):
    page.goto(f"{app_url}/masks?la=2&lb=5&pres=1")
    page.wait_for_selector(".st-key-mask_len_a", timeout=60_000)
    settled(page)
    # the widget is drawn before its value arrives: wait for the value, not a fixed time
    expect(page.locator(".st-key-mask_len_a input")).to_have_value("2", timeout=30_000)
    expect(page.locator(".st-key-mask_len_b input")).to_have_value("5", timeout=30_000)
    page.locator(".st-key-share_box summary").first.click()
    code = page.locator(".st-key-share_box code").first
    code.wait_for(timeout=30_000)
    link = code.inner_text().strip()
    assert urlparse(link).path == "/masks"
    assert parse_qs(urlparse(link).query) == parse_qs(urlparse(page.url).query)
    assert {"la": ["2"], "lb": ["5"], "pres": ["1"]}.items() <= parse_qs(
        urlparse(link).query).items()


def test_one_click_copies_the_link_of_the_view(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/attention?layer=1&src=a+b+c")
        page.wait_for_selector(".st-key-attn_layer", timeout=60_000)
        settled(page)
        button = page.locator("[data-testid='stSidebar'] button.copy-link")
        button.click()
        expect(button).to_contain_text("Copied", timeout=10_000)
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == page.url
        assert parse_qs(urlparse(copied).query) == {"layer": ["1"], "src": ["a b c"]}
    finally:
        context.close()


def test_a_language_change_keeps_the_train_pages_schedule(page, app_url):
    page.goto(f"{app_url}/train")
    page.wait_for_selector(".st-key-tr_schedule", timeout=120_000)
    settled(page)
    page.locator(".st-key-tr_schedule label").filter(
        has_text="linear warm-up, then constant").click()
    page.wait_for_selector(".st-key-tr_warmup", timeout=60_000)  # warm-up's own input
    settled(page)
    assert checked_label(page, "tr_schedule") == "linear warm-up, then constant"
    choose(page, "lang", "中文")
    wait_query(page, "q.get('lang') === 'zh'")
    settled(page)
    assert checked_label(page, "tr_schedule") == "线性预热，然后恒定"
    page.locator(".st-key-presenter label").first.click()  # any other widget
    wait_query(page, "q.get('pres') === '1'")
    settled(page)
    assert checked_label(page, "tr_schedule") == "线性预热，然后恒定"
    assert page.locator(".st-key-tr_warmup").count() == 1
    no_exception(page)
