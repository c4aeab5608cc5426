"""Training in worker processes: one per core, so trainings do not share one interpreter lock.

A training step of the app's small models is mostly Python and per-operation overhead,
which holds the interpreter lock; two trainings in two threads of the server's process take
turns at it (bench/results.md §12e). The hub (train_hub.py) can therefore hand each training
to a worker process of its own:

- `Worker` is one spawned process and the pipe to it. The process builds the model from the
  request (the same initial weights, from the key's seed), trains it with `run_training`,
  and sends every step's `StepInfo` back; at the end, the trained weights and records.
- `ProcessRunner` is the hub's runner: it relays the steps into the hub's own
  `TrainedState` (so waiting learners see progress), passes a stop request on, and asks for
  the weights so far when a learner leaves a training others still wait for.

Messages (pickled over a `multiprocessing` pipe):
  to the worker:   ("train", Request) · ("stop", reason) · ("weights",) · ("quit",)
  from the worker: ("step", StepInfo) · ("weights", Snapshot) · ("done", Snapshot)
                   · ("error", text)
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from transformer.film import Film
from transformer.train import StepInfo


@dataclass
class Snapshot:
    """A training's model and records as they are, sent from a worker."""

    weights: dict[str, Any]  # the model's state_dict
    film: Film | None
    finished: dict[str, Any]  # TrainedState fields set when it ended (empty before)


FINISHED_FIELDS = ("running", "stopped", "stop_reason", "accuracy", "held_out", "learned",
                   "version")


def _snapshot(state: Any, finished: bool) -> Snapshot:
    return Snapshot({k: v.detach().clone() for k, v in state.model.state_dict().items()},
                    state.film,
                    {f: getattr(state, f) for f in FINISHED_FIELDS} if finished else {})


def worker_main(conn: Any) -> None:
    """The worker process: train each request it is sent, until told to quit."""
    import torch

    torch.set_num_threads(1)  # one core each: the hub runs one worker per core
    from .training import request_stop, run_training, start_training, warm_up

    warm_up()  # torch's first-use costs, before any learner's training arrives
    while True:
        message = conn.recv()
        if message[0] == "quit":
            return
        if message[0] != "train":
            continue  # a stop or weights request that arrived after its training ended
        request = message[1]
        try:
            state = start_training(request.key, request.config, early_stop=request.early_stop,
                                   probe=request.probe)
            state.time_limit = request.time_limit

            def on_step(info: StepInfo, state: Any = state) -> bool:
                conn.send(("step", info))
                while conn.poll():
                    asked = conn.recv()
                    if asked[0] == "stop":
                        request_stop(state, asked[1])
                    elif asked[0] == "weights":
                        conn.send(("weights", _snapshot(state, finished=False)))
                return False

            run_training(state, on_step)
            conn.send(("done", _snapshot(state, finished=True)))
        except Exception as exc:  # the hub shows it to the training's learners
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class Worker:
    """One spawned worker process and its end of the pipe."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork: the server has threads
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=worker_main, args=(child,), daemon=True,
                                   name="transformer-trainer")
        self.process.start()
        child.close()

    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self) -> None:
        try:
            self.conn.send(("quit",))
        except OSError:
            pass
        self.process.join(2.0)
        if self.process.is_alive():
            self.process.kill()


class ProcessRunner:
    """The hub's runner that trains in worker processes (at most `slots`, reused)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep  # idle workers kept (one per slot of the hub); extras are closed
        self._idle: list[Worker] = []
        self._lock = threading.Lock()
        self.broken = ""  # why no worker could start: trainings then run in the hub's thread

    def _take(self) -> Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    return worker
        return Worker()

    def _give_back(self, worker: Worker) -> None:
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(worker)
                return
        worker.close()  # one started while the others were warming up: not needed now

    def warm(self) -> None:
        """Start the workers now (each imports torch and warms up, ~2 s), so no learner waits."""
        for _ in range(self.keep):
            self._give_back(Worker())

    def __call__(self, request: Any, state: Any, on_step: Callable[[StepInfo], bool | None],
                 wants_weights: Callable[[], bool]) -> Any:
        """Train `request` in a worker; keep the hub's `state` up to date as it goes."""
        if not self.broken:
            try:
                worker = self._take()
            except OSError as exc:  # no processes here (a sandbox, no /dev/shm)
                self.broken = f"{type(exc).__name__}: {exc}"
        if self.broken:
            from .training import run_training

            return run_training(state, on_step)
        healthy = False
        try:
            worker.conn.send(("train", request))
            state.running = True
            stop_sent = asked = False
            while True:
                if not worker.conn.poll(1.0):
                    if not worker.alive():
                        raise RuntimeError("the training process ended unexpectedly")
                    continue
                kind, payload = worker.conn.recv()
                if kind == "step":
                    state.history.append(payload)
                    state.version += 1
                    if state.stop_request.is_set() and not stop_sent:
                        worker.conn.send(("stop", state.requested_reason or "stop_request"))
                        stop_sent = True
                    if wants_weights() and not asked:
                        worker.conn.send(("weights",))
                        asked = True
                    if not asked:
                        on_step(payload)
                elif kind == "weights":
                    _apply(state, payload)
                    asked = False
                    on_step(state.history[-1])
                elif kind == "done":
                    _apply(state, payload)
                    healthy = True
                    return state
                elif kind == "error":
                    healthy = True
                    raise RuntimeError(payload)
        finally:
            if healthy:
                self._give_back(worker)
            else:
                worker.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()


def _apply(state: Any, snap: Snapshot) -> None:
    """Bring the hub's copy of a training up to the worker's."""
    state.model.load_state_dict(snap.weights)
    state.film = snap.film
    for name, value in snap.finished.items():
        setattr(state, name, value)
