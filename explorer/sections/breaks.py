"""What the experiment and the class's break race share: a break's name, how far models
trained in turn are, and the two waits."""

from __future__ import annotations

from collections.abc import Callable

from transformer.train import StepInfo

from ..app.train_state import training_hub
from ..text.i18n import t
from ..training.experiments import BREAK_CHOICES, Trainings
from .train import queued_text

SETTLE_WAIT = 15.0  # seconds a Stop or a new "Train both" waits for the old one to end
PROGRESS_EVERY = 1.0  # seconds between redraws of the experiment's progress (page, sidebar)


def break_label(choice: object) -> str:
    return t(f"exp.break.{choice}") if choice in BREAK_CHOICES else str(choice)


def progress_of(trainings: Trainings, line: Callable[[int, StepInfo], str]) -> tuple[float, str]:
    """How far models trained in turn are (0 to 1), and a progress text: the queue's place
    while they wait, else `line(model, step)` of the last model that has trained a step."""
    place = trainings.place  # read once: the training thread clears it when its turn comes
    if place is not None and trainings.busy:
        return 0.0, queued_text(place, training_hub().slots)
    states = trainings.states
    for arm in reversed(range(len(states))):
        history = states[arm].history
        if history:
            info = history[-1]
            return (arm + info.step / info.steps) / len(states), line(arm, info)
    return 0.0, t("train.starting")
