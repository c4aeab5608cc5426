"""A gate on every training step, so that a test decides how far a training goes.

Nothing then races the clock: a test allows n steps and waits until they are taken (a
condition, bounded by WAIT), and a training asked to stop is never held up by the gate.
"""

from __future__ import annotations

import threading
import time

from explorer.training import run as training

WAIT = 60.0  # seconds: a generous bound on a busy machine; never reached normally


class StepGate:
    """Every training step (training.record_step) waits for the test's permission."""

    def __init__(self, monkeypatch) -> None:
        self.permits = threading.Semaphore(0)
        real = training.record_step

        def record_step(state, info):
            while not self.permits.acquire(timeout=0.02):
                if state.stop_request.is_set():
                    break
            return real(state, info)

        monkeypatch.setattr(training, "record_step", record_step)

    def allow(self, what, n: int) -> int:
        """Let the training of `what` (a hub Ticket or a TrainedState) take `n` more steps
        and wait until it has; its step then."""
        state = what.state if hasattr(what, "job") else what
        target = state.step + n
        for _ in range(n):
            self.permits.release()
        deadline = time.monotonic() + WAIT
        while state.step < target and time.monotonic() < deadline:
            time.sleep(0.01)  # a step is not an event: look again shortly
        assert state.step >= target, "the training did not take its steps"
        return state.step
