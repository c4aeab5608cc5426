"""In the browser: the view (settings, model source, every page's choices) survives what a
learner does: switching to a trained model and back, leaving a page and returning, Back and
Forward, and reopening the address bar's link.

AppTest keeps widget state that a browser drops, so these walks need a real browser. Every
wait is on a condition (the address bar, an element, Streamlit's run state), never a sleep.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from browser_support import no_exception, set_number, settled
from serve import after_rerun, choose


def query(page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def radio(page, key: str, label: str) -> None:
    """Click the option of the radio `key` whose label contains `label`."""
    option = page.locator(f".st-key-{key} label").filter(has_text=label).first
    after_rerun(page, option.click)


def go(page, name: str) -> None:
    """Follow the sidebar's menu entry `name` and wait for that page."""
    link = page.locator(".st-key-nav a").filter(has_text=name).first
    after_rerun(page, link.click)
    page.wait_for_selector("h1")
    settled(page)


def history(page, forward: bool = False) -> None:
    """Press the browser's Back (or Forward) button and wait until the run it starts has
    drawn the page of the new address."""
    before = page.url
    after_rerun(page, page.go_forward if forward else page.go_back)
    page.wait_for_function(f"() => location.href !== {before!r}", timeout=30_000)
    settled(page)


def attention_view(page) -> list[str]:
    """The Attention page's kind, layer and head as the browser shows them."""
    return page.evaluate("""() => [
      ...[...document.querySelectorAll('.st-key-attn_kind label')]
        .filter(l => l.querySelector('input:checked')).map(l => l.innerText.trim()),
      ...['attn_layer', 'attn_head'].map(k =>
        document.querySelector(`.st-key-${k} [role=combobox]`)?.value ??
        document.querySelector(`.st-key-${k}`)?.innerText.split('\\n').pop())]""")


def number(page, key: str) -> str:
    return page.locator(f".st-key-{key} input").first.input_value()


def test_looking_at_the_date_translator_and_back_keeps_the_model_size(page, app_url):
    page.goto(app_url)
    page.wait_for_selector("h1", timeout=120_000)
    settled(page)
    sizes = {k: number(page, k) for k in ("N", "h", "d_model", "d_ff")}
    radio(page, "model_source", "date translator")
    assert query(page).get("model") == "dates"
    radio(page, "model_source", "Untrained")
    radio(page, "token_mode", "haracters")  # any change after coming back
    assert {k: number(page, k) for k in sizes} == sizes
    assert query(page) == {"tok": "char"}  # nothing else differs from the defaults
    no_exception(page)


def test_choices_survive_leaving_a_page_and_back_forward_move_between_views(page, app_url):
    page.goto(f"{app_url}/attention")
    page.wait_for_selector("h1", timeout=120_000)
    settled(page)
    start = attention_view(page)
    radio(page, "attn_kind", "Cross")
    choose(page, "attn_layer", "layer 1")
    choose(page, "attn_head", "head 2")
    chosen = attention_view(page)
    assert chosen[1:] == ["layer 1", "head 2"]

    go(page, "Masks")
    set_number(page, "mask_len_a", 5)
    set_number(page, "mask_len_b", 6)
    go(page, "Attention")
    assert attention_view(page) == chosen
    go(page, "Masks")
    assert (number(page, "mask_len_a"), number(page, "mask_len_b")) == ("5", "6")

    history(page)  # Back: the Attention page as it was left
    assert urlparse(page.url).path == "/attention"
    assert attention_view(page) == chosen
    for a, b in (("5", "6"), ("5", "4"), ("3", "4")):  # Back through the Masks page's changes
        history(page)
        assert (number(page, "mask_len_a"), number(page, "mask_len_b")) == (a, b)
    history(page)
    assert attention_view(page) == chosen
    for view in (chosen[:2] + ["head 0"], [chosen[0], "layer 0", "head 0"], start):
        history(page)  # Back through the head, the layer and the kind
        assert attention_view(page) == view
    assert "kind" not in query(page)
    history(page, forward=True)
    assert attention_view(page) == [chosen[0], "layer 0", "head 0"]
    assert query(page) == {"kind": "cross"}
    no_exception(page)


def test_reopening_the_link_shows_the_same_view(page, app_url):
    page.goto(f"{app_url}/embeddings?k=7&ped=24&lang=zh")
    page.wait_for_selector("h1", timeout=120_000)
    settled(page)
    link = page.url
    assert query(page) == {"k": "7", "ped": "24", "lang": "zh"}
    assert number(page, "pe_d_model") == "24"
    page.goto(f"{app_url}/attention?kind=cross&layer=1&ko=cross&kol=1&koh=-1")
    page.wait_for_selector("h1", timeout=120_000)
    settled(page)
    assert query(page)["ko"] == "cross" and query(page)["koh"] == "-1"
    page.goto(link)
    page.wait_for_selector("h1", timeout=120_000)
    settled(page)
    assert query(page) == {"k": "7", "ped": "24", "lang": "zh"}
    no_exception(page)


def test_a_link_with_a_repeated_key_is_written_back_once(page, app_url):
    page.goto(f"{app_url}/attention?N=3&N=4&N=5")
    page.wait_for_selector("h1", timeout=120_000)
    page.wait_for_function("() => new URLSearchParams(location.search).getAll('N').length == 1",
                           timeout=60_000)
    settled(page)
    assert parse_qs(urlparse(page.url).query)["N"] == ["5"]  # the last, as Streamlit reads it
    assert number(page, "N") == "5"


def checked(page, key: str) -> str:
    return page.locator(f".st-key-{key} label:has(input:checked)").first.inner_text().strip()


def test_the_train_pages_choices_survive_another_page_and_travel_in_the_link(page, app_url):
    page.goto(f"{app_url}/train")
    page.wait_for_selector(".st-key-tr_symbols", timeout=120_000)
    settled(page)
    radio(page, "tr_symbols", "words")
    radio(page, "tr_schedule", "Noam")
    chosen = checked(page, "tr_symbols"), checked(page, "tr_schedule")
    assert {"sym": "words", "sched": "noam"}.items() <= query(page).items()
    go(page, "Attention")
    go(page, "Train")
    assert (checked(page, "tr_symbols"), checked(page, "tr_schedule")) == chosen
    link = page.url
    page.goto(link)  # reopened, as a student opens it: a new session
    page.wait_for_selector(".st-key-tr_symbols", timeout=120_000)
    settled(page)
    assert (checked(page, "tr_symbols"), checked(page, "tr_schedule")) == chosen
    no_exception(page)
