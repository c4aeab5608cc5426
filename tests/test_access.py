"""The page's accessibility fixes as data (explorer/app/access.py): the `<html lang>` table,
what its script accepts, and the text colours' contrast against the theme's backgrounds
(WCAG 1.4.3), checked once here rather than on every run; the browser audit
(tests/test_e2e_accessibility.py) checks the page as drawn."""

from __future__ import annotations

import re

import pytest

from explorer.app.access import (
    CAPTION_COLOR,
    CODE_COLORS,
    HTML_LANG,
    JS,
    LANG_CODE,
    SCROLLERS,
    access_data,
)
from explorer.text.i18n import LANGS

# The light theme's backgrounds a caption or code sits on: the page, the sidebar, a code
# block and an info box (Streamlit 1.67's light theme).
BACKGROUNDS = ("#ffffff", "#f0f2f6", "#fcfcfb", "#e8f2fc")
AA_TEXT = 4.5  # WCAG 2.2 1.4.3, text below 18 pt


def _luminance(colour: str) -> float:
    """WCAG's relative luminance of an sRGB colour written #rrggbb."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours, from 1 to 21."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_is_computed_as_wcag_defines_it():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_every_language_has_a_page_language_code_the_script_accepts():
    assert set(HTML_LANG) == set(LANGS)
    for code in HTML_LANG.values():
        assert re.fullmatch(LANG_CODE, code)
    assert f"/{LANG_CODE}/.test(lang)" in JS  # the script tests the same pattern


@pytest.mark.parametrize("lang", LANGS)
def test_the_component_gets_the_language_and_a_label_per_scrolling_kind(lang):
    data = access_data(lang)
    assert data["lang"] == HTML_LANG[lang]
    assert set(data["labels"]) == {kind for _, kind in SCROLLERS}
    assert all(label.strip() for label in data["labels"].values())


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError):
        access_data("fr")


@pytest.mark.parametrize("colour", [CAPTION_COLOR, *CODE_COLORS])
def test_caption_and_code_colours_reach_aa_contrast_on_every_background(colour):
    assert min(contrast(colour, bg) for bg in BACKGROUNDS) >= AA_TEXT
