"""The charts' colours as a learner with a colour-vision deficiency sees them: each palette
and each pair of colours that tells two things apart, passed through a simulation of
protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity
1.0, in linear RGB), compared in CIELAB (D65).

- A sequential palette (Blues: attention weights, probabilities; Viridis: the positions'
  similarity) stays readable by lightness alone: L* runs one way from one end to the other
  under every simulation.
- A diverging palette (RdBu: scores, vectors, signed values) keeps its shape (lightest at
  zero, darker towards both ends) and a value and its opposite stay apart (ΔE).
- A mask's allowed and blocked cells, and the experiment's two curves, stay apart; the
  beam's "finished" green and "best" red do not (deuteranopia), so the figure marks them
  otherwise too: a finished candidate is a square, the best path a line four times wider.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import plotly.colors as pc
import pytest
from test_beam_view import _two_step_beam

from explorer.figures.masks import ALLOWED, BLOCKED
from explorer.figures.train import BEAM_COLORS, beam_figure

ROOT = Path(__file__).resolve().parents[1]
# Machado et al. (2009), "A physiologically-based model for simulation of color vision
# deficiency", severity 1.0: linear RGB in, linear RGB out.
SIMULATIONS = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = (None, *SIMULATIONS)  # None: typical colour vision
SEQUENTIAL = ("Blues", "Viridis")
DIVERGING = ("RdBu", "RdBu_r")
APART = 15.0  # ΔE (CIE 1976) two colours must keep to be told apart at a glance
STEPS = 11  # points of a palette compared


def _srgb(colour: str) -> np.ndarray:
    """'#rrggbb' or 'rgb(r, g, b)' as sRGB in [0, 1]."""
    if colour.startswith("#"):
        return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.array([float(v) for v in colour[colour.index("(") + 1:-1].split(",")[:3]]) / 255


def _lab(linear: np.ndarray) -> np.ndarray:
    """Linear sRGB as CIELAB under D65."""
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ linear / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(colour: str, vision: str | None) -> np.ndarray:
    """The colour in CIELAB as `vision` sees it (None: typical vision)."""
    c = _srgb(colour)
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    if vision is not None:
        linear = np.clip(np.array(SIMULATIONS[vision]) @ linear, 0, 1)
    return _lab(linear)


def apart(a: str, b: str, vision: str | None) -> float:
    return float(np.linalg.norm(seen(a, vision) - seen(b, vision)))


def _palette(name: str) -> list[str]:
    return pc.sample_colorscale(pc.get_colorscale(name), list(np.linspace(0, 1, STEPS)))


def test_the_simulation_leaves_grey_grey_and_takes_red_from_green_for_deuteranopia():
    for vision in SIMULATIONS:
        assert apart("#808080", "#808080", vision) == 0
        assert abs(seen("#808080", vision)[0] - seen("#808080", None)[0]) < 1
    assert apart("#2ca02c", "#d62728", None) > 100
    assert apart("#2ca02c", "#d62728", "deuteranopia") < APART


def test_every_named_palette_of_the_figures_is_checked_here():
    """Any plotly palette named in a figure module (a keyword or an argument) is one of
    those this module checks."""
    named = {name.lower() for name in pc.named_colorscales()}
    used = set()
    for path in (ROOT / "explorer" / "figures").glob("*.py"):
        used |= {word for word in re.findall(r"\"(\w+)\"", path.read_text())
                 if word.lower().removesuffix("_r") in named}
    assert used and used <= set(SEQUENTIAL + DIVERGING), used


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("name", SEQUENTIAL)
def test_a_sequential_palette_is_read_by_lightness_alone(name, vision):
    lightness = [seen(c, vision)[0] for c in _palette(name)]
    if lightness[0] < lightness[-1]:  # dark to light (Viridis) or light to dark (Blues)
        lightness.reverse()
    assert all(a > b for a, b in zip(lightness, lightness[1:], strict=False))
    assert lightness[0] - lightness[-1] > 50


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("name", DIVERGING)
def test_a_diverging_palette_keeps_its_shape_and_a_value_apart_from_its_opposite(name, vision):
    colours = _palette(name)
    lightness = [seen(c, vision)[0] for c in colours]
    middle = STEPS // 2
    assert all(a < b for a, b in zip(lightness[:middle], lightness[1:middle + 1], strict=True))
    assert all(a > b for a, b in zip(lightness[middle:], lightness[middle + 1:], strict=False))
    for i in range(middle):
        assert apart(colours[i], colours[-1 - i], vision) >= APART


@pytest.mark.parametrize("vision", VISIONS)
def test_pairs_that_tell_two_things_apart_stay_apart(vision):
    assert apart(ALLOWED, BLOCKED, vision) >= APART  # a mask's cells (they also say 1 or 0)
    assert apart("#1f77b4", "#d62728", vision) >= APART  # the experiment's two curves
    assert apart(BEAM_COLORS["kept"], BEAM_COLORS["pruned"], vision) >= APART


def test_the_beams_green_and_red_are_told_apart_by_shape_and_width_too():
    fig = beam_figure(_two_step_beam(), lang="en")
    finished = next(t for t in fig.data if t.meta == "finished")
    assert set(finished.marker.symbol) == {"square"}
    best = next(t for t in fig.data if t.meta == "edges_best")
    assert best.line.width >= 2 * max(t.line.width for t in fig.data
                                      if t.meta in ("edges_kept", "edges_pruned"))
