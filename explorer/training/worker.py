"""Training in worker processes: one per core, so trainings do not share one interpreter lock.

A training step of the app's small models spends much of its time in Python and
per-operation overhead, which holds the interpreter lock; two trainings in two threads of
the server's process take turns at it (bench/class_train.py (e): ten trainings two at a
time took 8.6-10.4 s in two threads, 6.1-7.3 s in two worker processes). The hub
(hub.py) can therefore hand each training to a worker process of its own:

- `Worker` is one spawned process and the pipe to it. The process builds the model from the
  request (the same initial weights, from the key's seed), trains it with `run_training`,
  and sends every step's `StepInfo` back; at the end, the trained model and its records.
- `ProcessRunner` is the hub's runner: it relays the steps into the hub's own
  `TrainedState` (so waiting learners see progress), passes a stop request on, asks for
  the weights so far when a learner leaves a training others still wait for, and tells the
  worker how many torch threads it may use (the hub's share of the cores: both while it
  trains alone, one each while two train).
- `Threads` chooses, step by step, between one thread and that share (the faster of the two).

Messages (pickled over a `multiprocessing` pipe):
  to the worker:   ("train", Request, threads) · ("threads", n) · ("stop", reason)
                   · ("weights",) · ("quit",)
  from the worker: ("step", StepInfo) · ("weights", Snapshot) · ("done", Snapshot)
                   · ("error", text)
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from transformer.config import TransformerConfig
from transformer.film import Film
from transformer.train import StepInfo

from .run import add_step, request_stop, run_training, start_training, warm_up


@dataclass
class Snapshot:
    """A training's model and records as they are, sent from a worker."""

    model: Any  # the EncoderDecoder as it is (pickled when sent: the receiver's own)
    film: Film | None
    finished: dict[str, Any]  # TrainedState fields set when it ended (empty before)


FINISHED_FIELDS = ("running", "stopped", "stop_reason", "accuracy", "held_out", "learned",
                   "version")


def _snapshot(state: Any, finished: bool) -> Snapshot:
    return Snapshot(state.model, state.film,
                    {f: getattr(state, f) for f in FINISHED_FIELDS} if finished else {})


# The most torch threads one training uses. Two make a step of the fast recipe about a
# quarter shorter on an idle core (bench/train_wait.py); more than two were never measured (the
# machines this app is measured and deployed on have two cores), and a model this small
# has little arithmetic to share out among more.
MAX_THREADS = 2


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # /proc/stat's unit
PROC_STAT = Path("/proc/stat")


class SpareCores:
    """How many cores' worth of CPU time went spare since the last look, beyond the one core
    this process's first thread needs: the machine's idle time (/proc/stat) plus this
    process's own CPU time, less one core (time its own second thread took is time a second
    thread may have; a core it left idle is the one its first thread will take). None when
    it cannot tell (no /proc/stat, or too short a while to count).

    /proc/stat counts every CPU of the host: in a container limited by a CPU quota on a
    larger host it finds spare time the container may not use, and `Threads` then times
    two threads as it does without this look (the give-up rule still protects it)."""

    def __init__(self, stat: Path = PROC_STAT) -> None:
        self.stat = stat
        self._last = self._read()

    def _read(self) -> tuple[float, float, float] | None:
        """(wall seconds, idle CPU seconds of the machine, CPU seconds of this process)."""
        try:
            ticks = [int(x) for x in self.stat.read_text().split("\n", 1)[0].split()[1:]]
            idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
        except (OSError, ValueError, IndexError):
            return None
        return time.monotonic(), idle / CLOCK_TICKS, time.process_time()

    def __call__(self) -> float | None:
        now = self._read()
        last, self._last = self._last, now
        if now is None or last is None or now[0] - last[0] < 0.2:
            return None
        wall = now[0] - last[0]
        idle, ours = (now[1] - last[1]) / wall, (now[2] - last[2]) / wall
        return idle + ours - 1.0


@dataclass
class Threads:
    """How many torch threads a training uses: its share of the cores (`most`), or one.

    While the other core is free, a second thread usually makes a step of the fast recipe
    about a fifth shorter (bench/threads.py), though on this shared host some runs found
    no gain at all. A step on two threads waits for both, so while the server's pages (or
    anything else) hold the other core, one thread is faster: a step on two then takes one
    and a half to twice as long, the slowest over twenty times as long (bench/threads.py).
    So the training times `probe` steps on one thread, then on `most` (giving up at once
    when a step there takes `give_up` times as long), keeps the faster count for `every`
    steps (unless a step on `most` takes `give_up` times as long: then one thread for the
    rest of the round), and times both again. Without dropout the count does not change
    what is computed (the same bytes, tests/test_train_hub.py); with dropout it may on some
    hosts, so such a training gets one thread (`thread_share`).

    Timing two threads while the other core is busy costs more than it can win: each round
    (every hundred steps) runs at least one step on two threads before it gives up, and
    such a step can take over twenty times as long as on one (bench/threads.py). With a
    busy loop holding the other core, the Train button's date run spent 4-5 s of its
    46-64 s in those steps. With `spare` (`SpareCores`), a round times two threads only if
    at least `need` of a core per extra thread went spare since the last look; else it
    stays on one thread and looks again after `every` steps (bench/busy_core.py: with the
    other core busy, no step ran on two threads and the wait was one thread's).

    Give `step()` each step's own time (StepInfo.seconds): it sets the count for the next.
    """

    most: int = 1  # threads it may use now (the hub's share of the cores)
    probe: int = 6  # steps timed on each count, after one step to settle
    every: int = 100  # steps on the faster count before both are timed again
    margin: float = 0.9  # more threads must make a step at least 10% shorter on average
    give_up: float = 2.0  # ... and a step on them that takes this many times one's ends it
    apply: Callable[[int], None] | None = None  # sets torch's count (torch.set_num_threads)
    # spare cores since the last look (SpareCores), or None: time both counts every round
    spare: Callable[[], float | None] | None = None
    need: float = 0.75  # spare cores per extra thread for a round to time `most` threads
    # the count the next step runs with (set by allow and step)
    n: int = field(default=1, init=False)
    # while timing: the coming steps' counts; then each count's step seconds
    _plan: list[int] = field(default_factory=list, init=False, repr=False)
    _times: dict[int, list[float]] = field(default_factory=dict, init=False, repr=False)
    # steps on the chosen count before both are timed again
    _left: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self.allow(self.most)

    def allow(self, most: int) -> None:
        """The hub's share changed: time both counts again (or use one thread)."""
        self.most = max(1, min(int(most), MAX_THREADS))
        self._times = {}
        self._left = 0
        settle = self.probe + 1
        self._plan = [1] * settle + [self.most] * settle if self.most > 1 else []
        if self._plan and not self._room():  # the other core is busy: one thread, look later
            self._plan = []
            self._left = self.every
        self._set(1)

    def _room(self) -> bool:
        """Whether the other cores had room for `most` threads since the last look (or it
        cannot tell)."""
        spare = self.spare() if self.spare is not None else None
        return spare is None or spare >= self.need * (self.most - 1)

    def step(self, seconds: float) -> int:
        """A step that ran on `n` threads took `seconds`: the count for the next step."""
        if self._plan:  # timing: the step that ended ran on _plan[0]
            n = self._plan.pop(0)
            self._times.setdefault(n, []).append(seconds)
            if n > 1 and seconds > self.give_up * self._typical(1):
                self._plan = []  # the other core is taken: no use timing more steps on it
            if self._plan:
                self._set(self._plan[0])
            else:
                faster = self._typical(self.most) < self.margin * self._typical(1)
                self._set(self.most if faster else 1)
                self._left = self.every
        elif self._left > 0:
            if self.n > 1 and seconds > self.give_up * self._typical(1):
                # the other core was taken during the round (load that came after it was
                # timed): one thread until the next look, not a hundred slow steps
                self._set(1)
            self._left -= 1
            if self._left == 0:
                self.allow(self.most)
        return self.n

    def _typical(self, n: int) -> float:
        """The mean time of the steps timed on `n` threads, the first (settling) one left
        out: the mean, not the median, so that steps slowed now and then by whatever else
        holds a core count against the count that suffered them."""
        times = self._times.get(n, [])
        times = times[1:] or times
        return statistics.fmean(times) if times else float("inf")

    def _set(self, n: int) -> None:
        if n != self.n and self.apply is not None:
            self.apply(n)
        self.n = n


def thread_share(most: int, config: TransformerConfig) -> int:
    """The threads a training of `config` may use, of the hub's share `most`: one with
    dropout on. On a 2-core AMD EPYC the attention softmax's backward rounds differently on
    two threads than on one when dropout is on (tests/test_train_hub.py), and the count is
    chosen by timing, so the same settings would not always train the same bytes."""
    return 1 if config.dropout > 0 else most


def worker_main(conn: Any) -> None:
    """The worker process: train each request it is sent, until told to quit."""
    torch.set_num_threads(1)  # until the hub says how many it may use
    warm_up()  # torch's first-use costs, before any learner's training arrives
    spare = SpareCores()  # looked at by every training's Threads, from its first round on
    while True:
        message = conn.recv()
        if message[0] == "quit":
            return
        if message[0] != "train":
            continue  # a stop, weights or threads message that came after its training
        _, request, most = message
        threads = Threads(thread_share(most, request.key.config), apply=torch.set_num_threads,
                          spare=spare)
        try:
            state = start_training(request.key, request.config, early_stop=request.early_stop,
                                   probe=request.probe)
            state.time_limit = request.time_limit

            def on_step(info: StepInfo, state: Any = state, threads: Threads = threads,
                        config: TransformerConfig = request.key.config) -> bool:
                conn.send(("step", info))
                while conn.poll():
                    asked = conn.recv()
                    if asked[0] == "stop":
                        request_stop(state, asked[1])
                    elif asked[0] == "weights":
                        conn.send(("weights", _snapshot(state, finished=False)))
                    elif asked[0] == "threads":
                        threads.allow(thread_share(asked[1], config))
                threads.step(info.seconds)
                return False

            run_training(state, on_step)
            conn.send(("done", _snapshot(state, finished=True)))
        except Exception as exc:  # the hub shows it to the training's learners
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        finally:
            torch.set_num_threads(1)  # an idle worker leaves both cores alone


_STARTING = threading.Lock()  # one worker starts at a time (see _without_main_script)


@contextmanager
def _without_main_script() -> Iterator[None]:
    """While a worker process starts, hide the server's main script from multiprocessing.

    A spawned child first runs the parent's main script again (as `__mp_main__`). Under
    `streamlit run` that script is Streamlit's launcher, which imports all of Streamlit:
    each worker then held 352 MB instead of 265 MB (bench/class_train.py) and started
    slower, for nothing, since a worker runs only this module's `worker_main`. Without a
    `__file__` or `__spec__` on `__main__`, multiprocessing skips that step, as it does for
    an interactive session."""
    names = vars(sys.modules["__main__"])
    with _STARTING:
        saved = {name: names.pop(name) for name in ("__file__", "__spec__") if name in names}
        names["__spec__"] = None  # multiprocessing reads it with getattr
        try:
            yield
        finally:
            names.pop("__spec__")
            names.update(saved)


class Worker:
    """One spawned worker process and its end of the pipe."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork: the server has threads
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=worker_main, args=(child,), daemon=True,
                                   name="transformer-trainer")
        with _without_main_script():
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
                 wants_weights: Callable[[], bool], threads: Callable[[], int]) -> Any:
        """Train `request` in a worker; keep the hub's `state` up to date as it goes, and the
        worker's share of the cores (`threads()`) as others start and end."""
        if not self.broken:
            try:
                worker = self._take()
            except OSError as exc:  # no processes here (a sandbox, no /dev/shm)
                self.broken = f"{type(exc).__name__}: {exc}"
        if self.broken:
            return run_training(state, on_step)
        healthy = False
        try:
            share = threads()
            worker.conn.send(("train", request, share))
            state.running = True
            stop_sent = asked = False
            while True:
                if not worker.conn.poll(1.0):
                    if not worker.alive():
                        raise RuntimeError("the training process ended unexpectedly")
                    continue
                kind, payload = worker.conn.recv()
                if kind == "step":
                    add_step(state, payload)
                    now = threads()
                    if now != share:  # another training started or ended
                        share = now
                        worker.conn.send(("threads", share))
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
    """Bring the hub's copy of a training up to the worker's: the worker's model (the one
    built for this training, sent whole: nothing is built again here) and records."""
    state.model = snap.model
    state.film = snap.film
    for name, value in snap.finished.items():
        setattr(state, name, value)
