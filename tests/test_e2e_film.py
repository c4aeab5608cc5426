"""End-to-end: the attention film scrubs and plays in a real browser.

After a short training run the Train page draws the film: a plotly animation whose slider
and play button run in the browser. Scrubbing to the first frame must show the untrained
model's attention (other weights than the last frame's), and Play must move through the
recorded steps.
"""

from __future__ import annotations

from browser_support import no_exception, open_page, settled

TIMEOUT_MS = 120_000
FILM = ".st-key-tr_film_cross .js-plotly-plot"

# The slider's current value ("step: 375") and the first heatmap's top-left weight as drawn
# (calcdata: the figure's own data holds base64 arrays).
STATE = """sel => {
  const plot = document.querySelector(sel);
  // the current value: plotly.js names it slider-current-value, older builds (Streamlit's)
  // slider-label beside the rail (the tick labels are in slider-label-group)
  const label = plot.querySelector('.slider-current-value, .slider-group > .slider-label');
  return {label: label ? label.textContent : null, z: plot.calcdata[0][0].z[0][0],  // drawn
          frames: (plot._transitionData && plot._transitionData._frames || []).length};
}"""


def test_the_film_scrubs_to_the_untrained_model_and_plays(page, app_url):
    open_page(page, app_url, "train")
    page.locator(".st-key-tr_train button").first.click()
    page.wait_for_selector(FILM, timeout=TIMEOUT_MS)
    settled(page, timeout=TIMEOUT_MS)
    no_exception(page)
    film = page.locator(FILM)
    film.scroll_into_view_if_needed()
    page.wait_for_function(f"sel => ({STATE})(sel).label !== null", arg=FILM,
                           timeout=TIMEOUT_MS)
    last = page.evaluate(STATE, FILM)
    assert last["frames"] >= 10, last
    last_step = int(last["label"].split(":")[-1])
    assert last_step > 0

    rail = film.locator(".slider-rail-touch-rect").first
    box = rail.bounding_box()
    page.mouse.click(box["x"] + 12, box["y"] + box["height"] / 2)  # the rail's left end
    # The slider's label moves before plotly.js has redrawn the frame: wait for both. The
    # untrained model attends elsewhere, so the drawn weight must change.
    page.wait_for_function(
        f"([sel, z]) => {{ const s = ({STATE})(sel); "
        "return /:\\s*0$/.test(s.label.trim()) && s.z !== z; }",
        arg=[FILM, last["z"]], timeout=TIMEOUT_MS)

    film.get_by_text("Play").click()
    page.wait_for_function(
        f"([sel, last]) => {{ const s = ({STATE})(sel).label.trim(); "
        "const step = parseInt(s.split(':').pop()); return step > 0 && step <= last; }",
        arg=[FILM, last_step], timeout=TIMEOUT_MS)
    no_exception(page)
