"""bench/busy_core.py keeps working: its request is the Train page's, its smoke run prints its
tables (reverse, 50 steps, two worker processes; about 15 s). No timing asserts."""

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


def test_busy_core_smoke(capsys):
    assert busy_core.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "| task | condition | policy | wait s |" in out
    for condition in ("idle", "busy"):
        assert f"| reverse | {condition} | app (Threads + SpareCores) |" in out
        assert f"| reverse | {condition} | 1 thread |" in out
    assert "| task | policy | idle s | busy s | busy / idle |" in out
