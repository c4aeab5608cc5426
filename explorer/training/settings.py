"""The Train page's training widgets: their limits, and their values validated again in Python.

Pure Python: a modified client can send any value, so `parse_train_settings(raw)` checks
every one and falls back to the fast recipe's (`transformer.recipes.FAST`) with a message
in the learner's language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from transformer.recipes import DATES_LIVE, FAST, Recipe
from transformer.tasks import TASKS
from transformer.train import SCHEDULES, TrainConfig

from ..core.settings import SIZE_FIELDS, Settings
from ..text.i18n import t

TRAIN_TASKS: tuple[str, ...] = (*TASKS, "dates")  # the toy tasks and the date translator's
SYMBOL_MODES = ("digits", "words")  # the toy tasks' symbols (dates are always characters)
MODEL_CHOICES = ("recipe", "sidebar")  # the fast recipe's size, or the sidebar's model
BATCH_SIZES = (16, 32, 64, 128)
STEPS_RANGE = (50, 2000)
LR_RANGE = (1e-4, 1e-2)
LR_CHOICES = (1e-4, 3e-4, 1e-3, 2e-3, 3e-3, 5e-3, 7e-3, 1e-2)  # the page's slider stops
WARMUP_RANGE = (1, 4000)
FACTOR_RANGE = (0.1, 5.0)
SMOOTHING_RANGE = (0.0, 0.5)


def choice_label(name: str, value: object) -> str:
    """How the page names option `value` of the choice `name` ("task", "symbols",
    "schedule", "model"), in the learner's language: the label its widget shows."""
    key = {"task": "train.task_{}", "symbols": "train.symbols_{}",
           "schedule": "train.schedule_{}", "model": "train.model_{}_label"}[name]
    return t(key.format(value))


def model_label(choice: object) -> str:
    """The model radio's label for `choice` (a MODEL_CHOICES name)."""
    return choice_label("model", choice) if choice in MODEL_CHOICES else str(choice)


def recipe_for(task: str) -> Recipe:
    """The recipe whose size "recipe" trains, and whose values the widgets start from."""
    return DATES_LIVE if task == "dates" else FAST


@dataclass(frozen=True)
class TrainSettings:
    """The training widgets after validation. Defaults: the fast recipe (recipes.FAST)."""

    task: str = "copy"
    symbols: str = "digits"
    model: str = "recipe"  # train the fast recipe's size, or the sidebar's model
    steps: int = FAST.train.steps
    batch_size: int = FAST.train.batch_size
    schedule: str = FAST.train.schedule
    lr: float = FAST.train.lr
    warmup: int = FAST.train.warmup
    factor: float = FAST.train.factor
    smoothing: float = FAST.train.smoothing
    early_stop: bool = True  # stop once every sequence of a check is right
    errors: tuple[str, ...] = field(default=(), compare=False)

    def model_settings(self, settings: Settings) -> Settings:
        """The sidebar's settings with the size of the model to train."""
        if self.model == "sidebar":
            return settings
        recipe = recipe_for(self.task)
        return replace(settings, **{name: getattr(recipe, name) for name in SIZE_FIELDS})

    def train_config(self, seed: int) -> TrainConfig:
        return TrainConfig(
            steps=self.steps, batch_size=self.batch_size, schedule=self.schedule,  # type: ignore[arg-type]
            lr=self.lr, factor=self.factor, warmup=self.warmup, smoothing=self.smoothing,
            seed=seed,
        )


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def parse_train_settings(raw: dict[str, Any]) -> TrainSettings:
    """Validate raw widget values: a bad value falls back to its default, with a message."""
    base = TrainSettings()
    errors: list[str] = []
    values: dict[str, Any] = {}
    for name, allowed in (("task", TRAIN_TASKS), ("symbols", SYMBOL_MODES), ("schedule", SCHEDULES),
                          ("model", MODEL_CHOICES)):
        value = raw.get(name, getattr(base, name))
        if value in allowed:
            values[name] = str(value)
        else:  # named as the widget names them: never an internal identifier
            quoted = [t("train.quoted", text=choice_label(name, a)) for a in allowed]
            errors.append(t("train.err.choice", name=t(f"train.field.{name}"),
                            allowed=t("train.list_sep").join(quoted),
                            default=quoted[allowed.index(getattr(base, name))]))
    ints = {"steps": STEPS_RANGE, "warmup": WARMUP_RANGE}
    floats = {"lr": LR_RANGE, "factor": FACTOR_RANGE, "smoothing": SMOOTHING_RANGE}
    for name, (low, high) in {**ints, **floats}.items():
        number = _number(raw.get(name, getattr(base, name)))
        whole = name not in ints or (math.isfinite(number) and number == int(number))
        if math.isfinite(number) and whole and low <= number <= high:
            values[name] = int(number) if name in ints else number
        else:
            errors.append(t("train.err.whole" if name in ints else "train.err.number",
                            name=t(f"train.field.{name}"), low=f"{low:g}", high=f"{high:g}",
                            default=f"{getattr(base, name):g}"))
    batch = _number(raw.get("batch_size", base.batch_size))
    if batch in BATCH_SIZES:
        values["batch_size"] = int(batch)
    else:
        errors.append(t("train.err.batch", allowed=", ".join(map(str, BATCH_SIZES)),
                        default=base.batch_size))
    early = raw.get("early_stop", base.early_stop)
    if isinstance(early, bool):
        values["early_stop"] = early
    else:
        errors.append(t("train.err.early_stop"))
    return replace(base, **values, errors=tuple(errors))
