"""Shared test setup."""

import pytest
import torch

# As in app.py: one intra-op thread. Small models run faster and repeatably this way, and
# tests do not fight each other (or a busy CI machine) for the two cores.
torch.set_num_threads(1)

# Browser fixtures (app_url, browser, page) for every test module: tests/browser_support.py.
from browser_support import app_url, browser, page  # noqa: E402,F401

# Trainings started by pages under AppTest run in the hub's threads, inside this process,
# where a test can watch and pause them (tests/test_isolation.py). The worker processes the
# served app uses are tested in tests/test_train_hub.py and by the browser tests.
import explorer.training.hub  # noqa: E402

explorer.training.hub.ENGINE = "threads"


@pytest.fixture(autouse=True)
def _fresh_training_hub():
    """Each test starts with an empty hub: a training another test finished is not shared."""
    explorer.training.hub._HUB = None
    yield
    explorer.training.hub._HUB = None


@pytest.fixture(autouse=True)
def _train_clicks_wait_for_the_end(monkeypatch):
    """A Train (or "Train both") click's run waits for its training to end, however slow
    the machine: the app waits only INLINE_WAIT seconds of training and then shows the rest
    in the background, which would make a test that reads the results depend on the
    machine's speed. Tests of the background path set their own INLINE_WAIT."""
    from explorer.sections import experiment as experiment_view
    from explorer.sections import train as train_view

    monkeypatch.setattr(train_view, "INLINE_WAIT", 600.0)
    monkeypatch.setattr(experiment_view, "INLINE_WAIT", 600.0)


# Markers (pyproject.toml): `browser` for tests that drive Chromium (the fixtures of
# tests/browser_support.py) or serve the app themselves, `slow` for the benchmarks' smoke
# runs. `make test-fast` leaves both out; `make test` runs everything.
BROWSER_FIXTURES = {"page", "browser", "app_url"}
SERVING_MODULES = {"test_load_smoke"}  # starts its own server


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1]
        params = item.callspec.params if hasattr(item, "callspec") else {}
        fixtures = set(getattr(item, "fixturenames", ())) - set(params)  # not a "page" param
        if BROWSER_FIXTURES & fixtures or module in SERVING_MODULES:
            item.add_marker(pytest.mark.browser)
        if module.startswith("test_bench_") or module == "test_load_smoke":
            item.add_marker(pytest.mark.slow)
