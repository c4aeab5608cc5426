"""The attention film: probes, recording, thinning, closeness, the page."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch
from apptest_helpers import app_in, figure_list
from shared_inputs import bad_input_texts

from explorer.figures.train import closeness_figure, film_figure
from explorer.sections.film import even_baseline, film_closeness, film_weights, first_step_above
from explorer.training.task import FILM_DIGITS, film_probe
from transformer import dates as D
from transformer.film import (
    MAX_BYTES,
    MAX_FRAMES,
    MIN_FRAMES,
    Film,
    Probe,
    attention_names,
    field_probe,
    film_cap,
    frame_bytes,
    ideal_mass,
    probe_patterns,
    task_probe,
)
from transformer.recipes import FAST
from transformer.tasks import make_task
from transformer.tokenize import BOS, EOS
from transformer.train import train


def _fast_model(task, dropout: float = 0.0):
    return replace(FAST, dropout=dropout).build(task.vocab_size, seed=0,
                                                max_len=task.max_len + 2)


def test_probes_name_the_ideal_source_positions_of_each_task():
    ids = [7, 4, 9]
    copy, reverse, sort = (task_probe(name, ids) for name in ("copy", "reverse", "sort"))
    assert copy.src == (7, 4, 9, EOS) and copy.tgt == (BOS, 7, 4, 9)
    assert copy.ideal == ((0,), (1,), (2,), ())  # the diagonal; the </s> row is not scored
    assert reverse.tgt == (BOS, 9, 4, 7) and reverse.ideal == ((2,), (1,), (0,), ())
    assert sort.tgt == (BOS, 4, 7, 9) and sort.ideal == ((1,), (0,), (2,), ())
    tie = task_probe("sort", [5, 3, 5])
    assert tie.ideal == ((1,), (0, 2), (0, 2), ())  # either 5 gives the same answer
    with pytest.raises(ValueError):
        task_probe("dates", ids)
    with pytest.raises(ValueError):
        Probe((4, EOS), (BOS,), ((5,),))  # a source position the probe does not have


def test_the_date_probe_points_each_digit_at_its_field():
    ex = D.held_out_examples(20)[3]
    probe = D.film_probe(ex)
    assert probe.tgt[0] == BOS and len(probe.tgt) == D.ISO_LEN + 1
    assert D.vocab().decode(probe.tgt[1:]) == list(ex.iso)
    for field, positions in D.FIELD_DIGITS.items():
        start, end = ex.spans[field]
        for p in positions:
            assert probe.ideal[p] == tuple(range(start, end))
    assert probe.ideal[4] == probe.ideal[7] == probe.ideal[10] == ()  # "-", "-", </s>
    assert field_probe([4, 5, EOS], [BOS, 4], [((1,), (0, 2))]).ideal == ((), (0, 1))


def test_ideal_mass_is_one_on_the_ideal_pattern_and_the_baseline_when_even():
    ideal = ((0,), (1,), (2,), ())
    exact = np.zeros((2, 4, 4), dtype=np.float16)
    for i in range(3):
        exact[:, i, i] = 1
    exact[:, 3, 3] = 1
    assert ideal_mass(exact, ideal).tolist() == [1.0, 1.0]
    even = np.full((1, 4, 4), 0.25, dtype=np.float16)
    assert ideal_mass(even, ideal)[0] == pytest.approx(0.25)
    film = Film(task_probe("copy", [7, 4, 9]))
    assert even_baseline(film) == pytest.approx(0.25)  # one ideal key of 4
    assert np.isnan(ideal_mass(exact, ((), (), (), ()))).all()


def test_large_models_keep_fewer_frames_within_the_byte_budget():
    probe = task_probe("copy", list(range(4, 16)))  # the words task's longest: 13 positions
    assert film_cap(probe, 1, 2) == MAX_FRAMES
    for N, h in ((6, 8), (12, 16), (12, 32)):
        cap = film_cap(probe, N, h)
        assert MIN_FRAMES <= cap <= MAX_FRAMES
        assert (cap + 1) * frame_bytes(probe, N, h) <= MAX_BYTES
    assert film_cap(probe, 12, 32) == 9


def test_a_film_stays_within_its_cap_and_keeps_evenly_spaced_steps():
    task = make_task("copy")
    model = _fast_model(task).eval()
    film = Film(film_probe(task, ""), cap=6)
    film.record(model, 0)
    for step in range(1, 301):
        film.maybe_record(model, step)
        assert len(film.steps) <= film.cap
    film.record(model, 300)  # the last step, as finish() records it
    film.record(model, 300)  # recorded once only
    assert film.steps[0] == 0 and film.steps[-1] == 300
    assert len(film.steps) <= film.cap + 1
    assert all(s % film.every == 0 for s in film.steps[:-1])
    assert len(set(np.diff(film.steps[:-1]))) == 1  # evenly spaced
    assert film.nbytes == sum(a.nbytes for f in film.frames for a in f.values())
    assert film.nbytes == len(film.steps) * frame_bytes(film.probe, FAST.N, FAST.h)
    names = attention_names(model)
    assert set(film.frames[0]) == set(names) and len(names) == 3 * FAST.N
    assert film.weights(names[0]).shape[0] == len(film.steps)
    with pytest.raises(ValueError):
        Film(film.probe, cap=1)


@pytest.mark.parametrize("dropout", [0.0, 0.1])
def test_recording_does_not_change_training(dropout):
    task = make_task("reverse")
    cfg = replace(FAST.train, steps=30)
    plain, filmed = _fast_model(task, dropout), _fast_model(task, dropout)
    film = Film(film_probe(task, ""))
    torch.manual_seed(0)
    train(plain, task, cfg)
    torch.manual_seed(0)
    train(filmed, task, cfg, lambda info: film.maybe_record(filmed, info.step))
    assert len(film.steps) == 15
    for a, b in zip(plain.state_dict().values(), filmed.state_dict().values(), strict=True):
        assert torch.equal(a, b)
    filmed.train()
    patterns = probe_patterns(filmed, film.probe)  # each row sums to 1
    for p in patterns.values():
        assert np.allclose(p.astype(np.float32).sum(-1), 1, atol=1e-2)
    assert filmed.training  # left in the mode it was in


def test_training_films_the_diagonal_forming_on_copy():
    """The page's own run (the fast recipe, copy): cross-attention ends near the diagonal."""
    from explorer.core.settings import Settings
    from explorer.training.run import ModelKey, run_training, start_training
    from explorer.training.settings import TrainSettings

    task = make_task("copy")
    ts = TrainSettings()
    key = ModelKey.of(ts.model_settings(Settings()), task)
    state = start_training(key, replace(ts.train_config(0), steps=400), early_stop=False,
                           probe=film_probe(task, ""))
    run_training(state)
    film = state.film
    assert film.steps[0] == 0 and film.steps[-1] == state.step == 400
    assert 20 <= len(film.steps) <= MAX_FRAMES + 1
    close = film_closeness(film, key.config.N)  # (frames, N, h)
    assert close.shape == (len(film.steps), key.config.N, key.config.h)
    assert close[0].max() < 0.5 < close[-1].max()  # untrained: scattered; trained: diagonal
    reached = first_step_above(film.steps, close[:, 0, int(close[-1, 0].argmax())], 0.5)
    assert reached is not None and 0 < reached <= 400
    assert film.nbytes < 100_000


def test_film_figures_animate_every_frame_and_escape_labels():
    task = make_task("copy")
    model = _fast_model(task).eval()
    film = Film(film_probe(task, ""))
    for step in (0, 10, 20):
        film.record(model, step)
    weights = film_weights(film, "cross", FAST.N)  # (frames, N, h, q, k)
    assert weights.shape == (3, FAST.N, FAST.h, len(film.probe.tgt), len(film.probe.src))
    bad = (bad_input_texts(1) or ['<b>x</b>'])[0]
    fig = film_figure(weights, film.steps, [bad] * weights.shape[3], ["<b>x</b>"] * 9, "t",
                      lang="en")
    assert len(fig.frames) == 3 and [f.name for f in fig.frames] == ["0", "10", "20"]
    spec = json.loads(fig.to_json())
    assert spec["layout"]["sliders"][0]["active"] == 2
    assert len(spec["layout"]["sliders"][0]["steps"]) == 3
    assert "<b>x</b>" not in json.dumps(spec["data"])
    close = closeness_figure(film.steps, film_closeness(film, FAST.N), 0.1, "<b>t</b>", lang="en")
    assert len(close.data) == FAST.N * FAST.h


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_train_page_shows_the_film_after_training(lang):
    with app_in(lang, "train") as at:
        _film_on_the_page(at, lang)


def _film_on_the_page(at, lang: str) -> None:
    assert not at.exception
    at.button(key="tr_train").click().run()
    assert not at.exception
    keys = [el.proto.id for el in at.get("plotly_chart")]
    assert any("tr_film_cross" in k for k in keys) and any("tr_film_close" in k for k in keys)
    films = [f for f in figure_list(at) if f.get("frames")]
    assert len(films) == 1 and len(films[0]["frames"]) >= 10
    for kind in ("enc", "dec"):
        at.radio(key="tr_film_kind").set_value(kind).run()
        assert not at.exception
        assert any(f"tr_film_{kind}" in el.proto.id for el in at.get("plotly_chart"))
    header = "注意力影片" if lang == "zh" else "attention film"
    assert any(header in h.value for h in at.header)


def test_the_film_probe_uses_the_learners_words_as_data():
    from explorer.training.task import task_for

    assert film_probe(make_task("copy"), "").src[:-1] == tuple(
        make_task("copy").vocab.encode(FILM_DIGITS.split()))
    for text in bad_input_texts():
        task, _ = task_for("sort", "words", text)
        probe = film_probe(task, text)
        assert len(probe.src) >= 2 and len(probe.ideal) == len(probe.tgt)
