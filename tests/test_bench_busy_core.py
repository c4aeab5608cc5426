"""bench/busy_core.py measures the Train page's own request (its smoke run is in
tests/test_bench_smoke.py)."""

from __future__ import annotations

from bench import busy_core


def test_default_request_is_the_train_pages():
    from explorer.core.settings import Settings
    from explorer.sections.train import training_request
    from explorer.training.run import ModelKey
    from explorer.training.settings import TrainSettings, recipe_for
    from explorer.training.task import task_for

    for name in busy_core.TASKS:
        train = recipe_for(name).train
        ts = TrainSettings(task=name, **{f: getattr(train, f) for f in busy_core.RECIPE_WIDGETS})
        settings = Settings(seed=0)
        task, _ = task_for(name, ts.symbols, settings.source)
        page = training_request(ModelKey.of(ts.model_settings(settings), task), ts, 0,
                                settings.source)
        assert busy_core.default_request(name) == page
        assert page.early_stop
