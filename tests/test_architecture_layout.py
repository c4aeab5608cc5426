"""The architecture drawn for the page it is shown on: side by side where the page is wide
enough, the encoder above the decoder in one column on a phone, and the page's style that
shows the one that fits (the browser check is tests/test_e2e_phone.py)."""

from __future__ import annotations

import html
import json
import re

import pytest
from apptest_helpers import ROOT
from streamlit.testing.v1 import AppTest

from explorer.app.charts import CHART_CSS, MODEBAR_BAND_PX, fit_css, min_width_css, sized_spec
from explorer.figures.common import text_px
from explorer.figures.model import (
    CODE_EM,
    NARROW_EM,
    SUB_SIZE,
    WIDE,
    architecture_figure,
    stacked_columns,
)
from transformer.model import TransformerConfig

PHONE_PAGE = 328  # px of a 360 px phone's page column (16 px margins)
BESIDE_SIDEBAR = 820  # px of the page column of a 1280 px screen with the sidebar open
CONFIGS = {
    "pre": {},
    "post, tied": {"norm_placement": "post", "tie_weights": "all", "scale_embedding": False},
    "tied decoder": {"tie_weights": "decoder"},
}


def cfg(**options) -> TransformerConfig:
    return TransformerConfig(10, 10, N=2, d_model=32, d_ff=64, h=4, **options)


def layout(fig) -> dict:
    return fig.to_dict()["layout"]


def boxes(fig) -> dict[str, dict]:
    return {s["name"][4:]: s for s in layout(fig)["shapes"]
            if str(s.get("name", "")).startswith("box:")}


def lines_of(text: str) -> list[str]:
    """An annotation's lines as shown: markup dropped, entities read."""
    return [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in text.split("<br>")]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("options", list(CONFIGS.values()), ids=list(CONFIGS))
def test_the_stacked_architecture_puts_the_encoder_above_the_decoder_in_one_column(
        options, lang):
    wide = architecture_figure(cfg(**options), 6, 7, lang=lang)
    fig = architecture_figure(cfg(**options), 6, 7, lang=lang, stacked=True)
    parts = boxes(fig)
    encoder = [s for name, s in parts.items() if name.startswith(("encoder", "src_embed"))]
    decoder = [s for name, s in parts.items()
               if name.startswith(("decoder", "tgt_embed", "generator"))]
    assert len(encoder) + len(decoder) == len(parts)
    assert min(s["y0"] for s in encoder) > max(s["y1"] for s in decoder)  # above
    centres = {round((s["x0"] + s["x1"]) / 2, 3) for s in parts.values()}
    assert len(centres) == 1  # one column
    # the same parts and shapes as side by side, and every word of its labels (wrapped
    # differently: the memory's lane is named in the memory's label)
    names = {s.get("name") for s in layout(fig)["shapes"]}
    assert names == {s.get("name") for s in layout(wide)["shapes"]}
    words = {w for a in layout(wide)["annotations"] for w in " ".join(lines_of(a["text"])).split()}
    shown = " ".join(" ".join(lines_of(a["text"])) for a in layout(fig)["annotations"])
    assert all(w.replace("_", "") in shown.replace("_", "").replace(" ", "")
               for w in words), "a label lost a word"


@pytest.mark.parametrize("tied", [False, True])
def test_the_stacked_architecture_fits_a_phone_and_everything_stays_in_it(tied):
    fig = architecture_figure(cfg(tie_weights="all" if tied else "none"), 12, 13, lang="en",
                              stacked=True)
    cols = stacked_columns(tied)
    meta = layout(fig)["meta"]
    assert meta["min_width"] == cols.least_px == layout(fig)["xaxis"]["range"][1]
    if not tied:
        assert cols.least_px <= PHONE_PAGE
    assert meta["max_width"] > meta["min_width"]
    for shape in layout(fig)["shapes"]:
        xs = ([shape["x0"], shape["x1"]] if "x0" in shape
              else [float(p.split(",")[0]) for p in re.findall(r"[\d.]+,[\d.]+", shape["path"])])
        assert 0 <= min(xs) and max(xs) <= cols.width, shape.get("name")


@pytest.mark.parametrize("stacked", [False, True])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_side_labels_are_wrapped_to_their_column(stacked, lang):
    """Tags and notes beside the stacks keep, at the drawing's least width, within the
    drawing (guessed as the wrapping guesses: NARROW_EM a letter, a code name CODE_EM)."""
    fig = architecture_figure(cfg(norm_placement="post", tie_weights="all"), 31, 32, lang=lang,
                              stacked=stacked)
    cols = stacked_columns(True) if stacked else WIDE
    checked = 0
    for note in layout(fig)["annotations"]:
        if note.get("textangle") or not note.get("text") or note["xanchor"] == "center":
            continue
        x = note["x"] * cols.px
        for line in lines_of(note["text"]):
            em = CODE_EM if " " not in line else NARROW_EM
            size = note["font"]["size"]
            width = text_px(line, size, em)
            if note["xanchor"] == "left":
                assert x + width <= cols.least_px + 1, line
            else:
                assert x - width >= -1, line
            checked += size == SUB_SIZE
    assert checked > 10


def test_the_side_by_side_architecture_fits_beside_a_laptops_sidebar():
    """At 1280 px with the sidebar open the page column is 820 px: the drawing used to need
    860 and cut its right-hand tags off."""
    fig = architecture_figure(cfg(), 6, 7, lang="en")
    assert layout(fig)["meta"]["min_width"] == WIDE.least_px <= BESIDE_SIDEBAR
    assert "max_width" not in layout(fig)["meta"]


def test_the_page_style_shows_the_drawing_that_fits_its_container():
    wide = sized_spec(architecture_figure(cfg(), 6, 7, lang="en"))
    css = fit_css(wide, "arch_fit", "arch", "arch_narrow")
    assert ".st-key-arch_fit { container-type: inline-size; }" in css
    assert ("@container (max-width: 799.98px) { .st-key-arch { display: none; } }" in css
            and "@container (min-width: 800px) { .st-key-arch_narrow { display: none; } }"
            in css)
    assert fit_css(wide, "a;}", "arch", "arch_narrow") is None
    narrow = sized_spec(architecture_figure(cfg(), 6, 7, lang="en", stacked=True))
    style = min_width_css(narrow, "arch_narrow")
    assert "min-width: 327px" in style and "max-width: 490px" in style


def test_every_chart_keeps_its_toolbar_in_a_band_of_its_own():
    assert f"padding-top: {MODEBAR_BAND_PX}px" in CHART_CSS
    assert f".modebar-container {{ top: -{MODEBAR_BAND_PX}px" in CHART_CSS


def test_the_model_page_sends_both_drawings_and_the_style_that_picks_one():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    charts = {el.proto.id.rsplit("-", 1)[-1]: json.loads(el.proto.spec)
              for el in at.get("plotly_chart")}
    assert charts["model_architecture"]["layout"]["meta"]["min_width"] == WIDE.least_px
    assert "max_width" in charts["model_architecture_narrow"]["layout"]["meta"]
    styles = [el.proto.body for el in at.get("html")]
    assert CHART_CSS in styles
    assert any("st-key-model_architecture_fit" in s and "@container" in s for s in styles)
    at.toggle(key="presenter").set_value(True).run()
    keys = {el.proto.id.rsplit("-", 1)[-1] for el in at.get("plotly_chart")}
    assert {"model_architecture_presenter", "model_architecture_narrow_presenter"} <= keys
    assert any(".st-key-model_architecture_narrow_presenter { display: none; }" in el.proto.body
               for el in at.get("html"))
