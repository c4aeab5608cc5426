"""Every shelf of kept results, declared in one place: what it holds, how many, and whether
sessions share it (explorer/app/memo.py `remember` keeps them; docs/architecture.md's table
lists the same, checked by tests/test_shelves.py).

A shared shelf holds read-only results fixed by their key, one for the server; a session's
own holds what is that learner's alone (their upload, their trained model's answers). The
second number, `large`, is a shelf of its own for a large model's results.
"""

from __future__ import annotations

from .memo import Shelf

# ---- models and runs (app/cache.py) -------------------------------------------------------
PE_TABLES = Shelf("sinusoid tables", 32, shared=True)
BODIES = Shelf("encoder-decoder bodies", 16, shared=True, large=2)
MODELS = Shelf("models", 64, shared=True, large=4)
RUNS = Shelf("forward passes", 128, shared=True, large=6, spinner="ui.running_sentence")

# ---- pages (app/context.py, app/charts.py, app/sidebar.py) ---------------------------------
# What pages compute that every session may read (`Context.from_run`, `Context.fixed`):
# figures, tables and numbers of a shared run, or fixed by what the page names alone
SHARED_RESULTS = Shelf("page results shared by sessions", 160, shared=True)
SPECS = Shelf("written-out figures", 128, shared=True)
CHART_TEXTS = Shelf("figures said in text", 128, shared=True)
TABLES = Shelf("the sidebar's tables", 64, shared=True)

# ---- trained and shipped models (app/train_state.py, app/sources.py, app/import_panel.py) ---
TRAINED_RESULTS = Shelf("trained models' results", 96, shared=True)
MINE = Shelf("this session's results", 16, shared=False)
UNTRAINED = Shelf("untrained models", 32, shared=True, large=2,
                  spinner="train.building_untrained")
SHIPPED = Shelf("the shipped date translator", 2, shared=True)
SHIPPED_ANSWERS = Shelf("the shipped translator's answers", 256, shared=True)
YOURS = Shelf("this session's trained model as a checkpoint", 1, shared=False)
YOUR_ANSWERS = Shelf("this session's trained model's answers", 8, shared=False)
CHECKPOINT_RUNS = Shelf("forward passes of checkpoints whose content is not known", 4,
                        shared=False)

# ---- sections (sections/knockout.py, sections/preview.py, sections/classroom.py) -----------
# Knock-outs: answers, accuracies, fresh inputs and grids of a model are fixed by the
# model's content (app/context.py `model_name`: the untrained model's architecture and seed,
# a checkpoint's `content`), so a class shares them and the teacher's measured grid is there
# for every student; a model whose content is not known is its session's alone. Each kind
# has its own shelf, so learners' answers never push out a grid. Kind: (shared entries, a
# session's own).
_KNOCKOUT_KINDS = {"answer": (256, 16), "accuracy": (128, 64), "fresh": (8, 2), "grid": (8, 4)}
KNOCKOUTS_SHARED = {kind: Shelf(f"knock-outs: {kind}", shared, shared=True)
                    for kind, (shared, _) in _KNOCKOUT_KINDS.items()}
KNOCKOUTS_OWN = {kind: Shelf(f"knock-outs: {kind}, this session's", own, shared=False)
                 for kind, (_, own) in _KNOCKOUT_KINDS.items()}
PREVIEWS = Shelf("the date translator's previews", 64, shared=True)
TALLY_CHARTS = Shelf("the class's answers so far", 2, shared=False)

# ---- lessons (app/lesson.py) ----------------------------------------------------------------
SHIPPED_LESSONS = Shelf("the shipped lessons, read and checked", 4, shared=True)

# Every shelf, by the name it is declared under here (the docs' table names the same)
ALL: dict[str, Shelf] = {
    **{name: value for name, value in globals().items() if isinstance(value, Shelf)},
    **{f"KNOCKOUTS_SHARED[{k}]": s for k, s in KNOCKOUTS_SHARED.items()},
    **{f"KNOCKOUTS_OWN[{k}]": s for k, s in KNOCKOUTS_OWN.items()},
}
