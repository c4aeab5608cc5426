"""One server, a whole class: one training per distinct request, at most one per core, in turn.

Pure Python and torch (no streamlit). When thirty learners press Train at once, training
each request in its own script thread would run thirty trainings side by side on two cores
(bench/class_train.py): everyone waits for the slowest. The hub instead

- runs one training per distinct `Request` (training is deterministic: the same task,
  symbols, model settings, recipe and seed give the same weights, tests/test_train_hub.py),
  so learners asking for one that is under way or done share it; each gets its own copy of
  the weights, which it may change without touching anyone else's;
- runs at most `slots` trainings at once (one per core, where cores.py reads a container's
  CPU quota; at most MAX_SLOTS), each in a thread of its own, and queues the rest in order
  of arrival; a waiting learner sees its place and an estimate of its wait (`Hub.place`);
- counts a training's time limit from its first step, not from the request (time in the
  queue is not training).

A learner's `Ticket` leaves the hub on Stop, on a new training of that learner and when
the learner's page has lost its connection (`Ticket.alive`, watched by the hub's reaper
thread) for long enough: RECONNECT_GRACE seconds while no other training waits for a
core, GONE_GRACE seconds while one does. The server cannot tell a closed tab from a
phone that switched apps for a minute; a training that holds nobody up goes on for the
one who may come back, and one that holds up a classmate does not. Other clicks, another
page or another language leave it in place: the training goes on in the background. A
training nobody waits for any more stops (or, still queued, leaves the queue); one that
others still wait for goes on, and the learner who left gets a copy of it as it was.
"""

from __future__ import annotations

import copy
import heapq
import itertools
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from transformer.film import Probe
from transformer.train import StepInfo, TrainConfig

from .cores import cores, slots_for
from .run import (
    TIME_LIMIT,
    ModelKey,
    TrainedState,
    finish,
    request_stop,
    run_training,
    start_training,
)
from .worker import ProcessRunner

# A finished training kept for learners who ask for it later (the same default settings
# pressed a minute after the class did): a few models of ~100 KB and their films.
KEEP_DONE = 8
# Seconds a training of each task is expected to take, before this server has finished one
# (bench/train_wait.py and bench/dates_train.py: the Train button's recipe as a worker
# trains it alone, median of the seeds, rounded up); afterwards the estimate is the median
# of the last few trainings of that task on this server.
FIRST_GUESS = {"copy": 1.5, "reverse": 3.0, "sort": 3.0, "dates": 20.0}
STEP_GUESS = 0.007  # s per step (fast recipe, checks included: bench/train_wait.py) until timed
# Steps a training that stops once learned is expected to take, before this server has
# finished one of that task (median of seeds 0-4 in bench/train_wait.py, of seeds 0-2 in
# bench/dates_train.py, rounded); afterwards the median of the last few that learned.
FIRST_STEPS = {"copy": 190, "reverse": 500, "sort": 460, "dates": 920}
NOTIFY_EVERY = 0.2  # seconds between progress notifications to waiting learners
SNAPSHOT_WAIT = 5.0  # seconds a learner who leaves a shared training waits for its copy
# A ticket whose page has been disconnected (`Ticket.alive` false) this many seconds in a
# row leaves the hub, if it is its training's only learner: RECONNECT_GRACE while no other
# training is queued (Streamlit keeps a disconnected session for its browser to reconnect
# to, `server.disconnectedSessionTTL`, 120 s by default: a phone that switched apps, a
# wifi that dropped; the server's hub waits no longer than that option says, `hub()`),
# GONE_GRACE while one is (a closed tab must not hold up a classmate's
# training; bench/faults.py expects such a training to end within 3 s: the grace, the
# reaper's look, the step and the stopped model's evaluation).
GONE_GRACE = 1.5
RECONNECT_GRACE = 30.0
REAP_EVERY = 0.5  # seconds between the reaper's looks at the tickets it watches


@dataclass(frozen=True)
class Request:
    """Everything that fixes a training's result: equal requests give equal weights."""

    key: ModelKey  # the task, symbols, architecture and initial weights
    config: TrainConfig  # steps, batches, schedule (and the batches' seed)
    early_stop: bool  # stop once a check is passed
    probe: Probe | None  # the input whose attention the film records
    time_limit: float = TIME_LIMIT  # seconds of training (queueing not counted)


@dataclass(eq=False)
class Job:
    """One training in the hub: queued, running, then done."""

    request: Request | None  # None: a turn (Hub.turn), work done by its caller
    state: TrainedState | None  # the hub's own: learners get copies (None for a turn)
    number: int  # order of arrival
    waiting: int = 0  # tickets still waiting for it
    seconds: float = 0.0  # a turn's expected length (a training's comes from Hub.estimate)
    status: str = "queued"  # "queued", "running", "done" or "dropped" (nobody waited)
    started: float = 0.0  # time.monotonic() of its first step
    error: Exception | None = None  # what stopped the training, if it failed
    done: threading.Event = field(default_factory=threading.Event)
    # learners leaving while others still wait: each gets a copy at the next step
    snapshots: list[tuple[threading.Event, list[TrainedState]]] = field(default_factory=list)

    @property
    def shareable(self) -> bool:
        """Whether its result is the deterministic one (not cut short by a stop or a clock)."""
        return self.status == "done" and not self.state.stopped and self.error is None


@dataclass(eq=False)
class Ticket:
    """One learner's wait for a job."""

    job: Job
    # whether the learner's session is still there (None: nobody to watch, e.g. a test);
    # called from the hub's reaper thread, so it must be cheap and thread-safe
    alive: Callable[[], bool] | None = field(default=None, repr=False)
    reused: bool = False  # the job had finished before this ticket joined it (a replay)
    left: bool = False
    gone: bool = False  # it left because its learner's page stayed disconnected (the reaper)
    copy: TrainedState | None = None  # the learner's copy, once taken (see Hub.leave)
    # a copy asked for but not ready in time: (ready, box, reason), taken on the next ask
    pending: tuple[threading.Event, list[TrainedState], str] | None = None

    @property
    def done(self) -> bool:
        return self.job.done.is_set()

    @property
    def state(self) -> TrainedState:
        """The job's live state, read-only: its history shows the progress."""
        return self.job.state


@dataclass(frozen=True)
class Place:
    """Where a waiting learner stands."""

    ahead: int  # trainings queued before this one
    seconds: float  # estimated seconds until this one starts


def own_copy(state: TrainedState, share_film: bool = False) -> TrainedState:
    """A learner's copy of a training: its own model and records.

    `share_film`: a finished training's film is never written again, so the copies share
    it (thirty learners, one film in memory); a paused one's goes on, so it is copied.
    """
    return replace(state, model=copy.deepcopy(state.model), history=list(state.history),
                   film=state.film if share_film else copy.deepcopy(state.film),
                   stop_request=threading.Event(), lock=threading.Lock())


# A runner trains a job: runner(request, state, on_step, wants_weights, threads) trains
# `state` (the hub's own) for `request`, keeping its history up to date and calling
# on_step(info) after steps; wants_weights() says that a learner waits for a copy of the
# model as it is, which on_step then takes (so `state.model` must hold the weights so far
# when on_step runs); threads() is how many torch threads the training may use now.
Runner = Callable[[Request, TrainedState, Callable[[StepInfo], bool],
                   Callable[[], bool], Callable[[], int]], object]


def in_thread(request: Request, state: TrainedState, on_step: Callable[[StepInfo], bool],
              wants_weights: Callable[[], bool], threads: Callable[[], int]) -> object:
    """The runner that trains in the hub's thread itself (`state.model` is always current).

    It keeps the server's one torch thread (app.py): the count is the whole process's, and
    the pages' passes run in the same process."""
    return run_training(state, on_step)


class Hub:
    """The server's trainings: shared when equal, `slots` at once, the rest in turn."""

    def __init__(self, slots: int | None = None, runner: Runner | None = None):
        self.slots = slots or slots_for(cores())
        self.runner = runner or in_thread  # in_thread, a ProcessRunner, or a test's stand-in
        self._lock = threading.Condition()
        self._jobs: dict[Request, Job] = {}  # queued and running
        self._done: OrderedDict[Request, Job] = OrderedDict()  # finished, newest last
        self._queue: deque[Job] = deque()
        self._running: set[Job] = set()
        self._numbers = itertools.count()
        self._seconds: dict[str, deque[float]] = {}  # task -> recent training times
        self.trainings = 0  # trainings started (single-flight tests count them)
        self._told = 0.0  # time.monotonic() of the last progress notification
        self.step_seconds = STEP_GUESS  # seconds per step of the last training, checks included
        self._steps: dict[str, deque[int]] = {}  # task -> steps of recent trainings that learned
        # tickets whose learner may leave without a word (a closed tab): ticket -> the
        # time.monotonic() since which its alive() has said no (None: alive)
        self._watched: dict[Ticket, float | None] = {}
        self._reaper: threading.Thread | None = None
        self.reconnect_grace = RECONNECT_GRACE  # see `grace`

    # ---- a learner's side --------------------------------------------------------------

    def join(self, request: Request, alive: Callable[[], bool] | None = None) -> Ticket:
        """A ticket for `request`: the training under way or done for it, or a new one.

        `alive()`: whether the learner is still there; once it has said no for long enough
        (RECONNECT_GRACE, or GONE_GRACE while another training is queued), the ticket
        leaves and its training stops, unless others wait for it too."""
        with self._lock:
            job = self._jobs.get(request)
            reused = False
            if job is None and request in self._done:
                job = self._done[request]
                self._done.move_to_end(request)
                reused = True
            if job is None:
                # its model is built where it trains, when it starts (run.with_model)
                fresh = start_training(request.key, request.config,
                                       early_stop=request.early_stop, probe=request.probe,
                                       build=False)
                fresh.time_limit = request.time_limit
                fresh.running = False  # queued: not training yet
                job = Job(request, fresh, next(self._numbers))
                self._jobs[request] = job
                self._queue.append(job)
                self._dispatch()
            job.waiting += 1
            ticket = Ticket(job, alive=alive, reused=reused)
            if alive is not None and not reused:
                self._watch(ticket)
            self._lock.notify_all()
            return ticket

    def result(self, ticket: Ticket) -> TrainedState | None:
        """The learner's own copy of a finished training (call once `ticket.done`); None if
        it failed or nobody trained it. Asking again gives the same copy: a click may stop
        the script run between taking the copy and keeping it, and the next run asks again
        (`leave` gives it too)."""
        if not ticket.done:
            raise RuntimeError("The training has not finished.")
        return self.leave(ticket, "")

    def leave(self, ticket: Ticket, reason: str, want_copy: bool = True) -> TrainedState | None:
        """Stop waiting (`reason`: a STOP_REASONS code); the learner's copy of the training
        as it is then, evaluated (the same copy every time it is asked for), or None if it
        had not started or failed. `want_copy=False`: nothing is copied (a wait replaced by
        another), and a training nobody waits for any more is only asked to stop."""
        job = ticket.job
        with self._lock:
            if ticket.left:
                pending, ticket.pending = ticket.pending, None
        if ticket.left:
            if pending is not None:  # a copy that was not ready in time: taken now, if it is
                ticket.copy = self._take_copy(ticket, *pending, wait=0.0)
            elif ticket.gone and ticket.copy is None and ticket.done and job.error is None \
                    and job.status == "done":  # its learner came back: the training's end
                ticket.copy = own_copy(job.state, share_film=True)
            return ticket.copy
        with self._lock:
            ticket.left = True
            job.waiting -= 1
            if job.done.is_set():
                if want_copy and job.status == "done" and job.error is None:
                    ticket.copy = own_copy(job.state, share_film=True)
                return ticket.copy
            if job.status == "queued":
                if job.waiting == 0:
                    self._queue.remove(job)
                    self._jobs.pop(job.request, None)
                    job.status = "dropped"
                    job.done.set()
                    self._lock.notify_all()
                return None
            alone = job.waiting == 0
            if alone:  # a new request for it must not join a training that is stopping
                if self._jobs.get(job.request) is job:
                    del self._jobs[job.request]
                request_stop(job.state, reason)
            elif want_copy:
                ready, box = threading.Event(), []
                job.snapshots.append((ready, box))
        if not want_copy:
            return None
        if alone:  # the training stops after its step; its end is this learner's copy
            ready, box = job.done, []
        ticket.copy = self._take_copy(ticket, ready, box, reason, wait=SNAPSHOT_WAIT)
        return ticket.copy

    def _take_copy(self, ticket: Ticket, ready: threading.Event, box: list[TrainedState],
                   reason: str, wait: float) -> TrainedState | None:
        """The copy asked for by a learner who left a shared training, once the training has
        made it (after its next step); if it has not within `wait` seconds, None, and the
        ticket keeps the request for the next time it is asked (`leave`)."""
        job = ticket.job
        if not ready.wait(wait):
            with self._lock:
                ticket.pending = (ready, box, reason)
            return None
        if not box:  # it ended (stopped for this learner, or before its next step): its end
            if job.status == "done" and job.error is None:
                return own_copy(job.state, share_film=True)
            return None
        mine = box[0]
        mine.running = True  # finish() marks it stopped for `reason` and evaluates it
        return finish(mine, reason)

    def place(self, ticket: Ticket) -> Place:
        """How many trainings are queued before this ticket's, and about how long it waits."""
        with self._lock:
            job = ticket.job
            if job.status != "queued":
                return Place(0, 0.0)
            now = time.monotonic()
            free = [max(self._guess(j) - (now - j.started), 0.5) for j in self._running]
            free += [0.0] * (self.slots - len(free))
            heapq.heapify(free)
            ahead = 0
            for other in self._queue:
                start = heapq.heappop(free)
                if other is job:
                    return Place(ahead, start)
                heapq.heappush(free, start + self._guess(other))
                ahead += 1
            return Place(ahead, 0.0)

    def wait(self, ticket: Ticket, timeout: float) -> None:
        """Sleep until something changes in the hub (a step, a start, an end) or `timeout`."""
        with self._lock:
            if not ticket.done:
                self._lock.wait(timeout)

    def estimate(self, request: Request) -> float:
        """Seconds the training of `request` is expected to take."""
        recent = self._seconds.get(request.key.task)
        if recent:
            guess = sorted(recent)[len(recent) // 2]
        else:
            guess = FIRST_GUESS.get(request.key.task, 10.0)
        return min(guess, request.time_limit)

    def expected_steps(self, request: Request) -> int:
        """Steps the training of `request` is expected to take: all of them, or with
        "Stop when learned" the median of the last few of its task that learned here
        (FIRST_STEPS before any), at most all of them."""
        steps = request.config.steps
        if not request.early_stop:
            return steps
        with self._lock:
            recent = sorted(self._steps.get(request.key.task, ()))
        guess = recent[len(recent) // 2] if recent else FIRST_STEPS.get(request.key.task, steps)
        return min(steps, guess)

    def threads_each(self) -> int:
        """Torch threads each running training may use: the slots (one per core) shared
        among the trainings and turns running now (a training alone may use every core)."""
        with self._lock:
            running = len(self._running)
        return max(1, self.slots // max(1, running))

    def grace(self) -> float:
        """Seconds a learner's page may stay disconnected before their training ends:
        `reconnect_grace` while no training is queued, GONE_GRACE while one is."""
        with self._lock:
            return GONE_GRACE if self._queue else self.reconnect_grace

    def gone_check(self, alive: Callable[[], bool] | None) -> Callable[[], bool] | None:
        """For work outside the hub's tickets (a turn's): a check that is True once
        `alive()` has said no for `grace()` seconds in a row (None if `alive` is)."""
        if alive is None:
            return None
        since: list[float | None] = [None]

        def gone() -> bool:
            if alive():
                since[0] = None
                return False
            now = time.monotonic()
            if since[0] is None:
                since[0] = now
            return now - since[0] >= self.grace()

        return gone

    @contextmanager
    def turn(self, seconds: float, on_wait: Callable[[Place], None]) -> Iterator[None]:
        """A slot for work that is not one training (an experiment trains two models), taken
        in the same queue: the caller's `with` block runs once its turn comes. While it
        waits, `on_wait(place)` runs every quarter second (it may raise, e.g. on a click,
        which leaves the queue). `seconds`: what the work is expected to take."""
        job = Job(None, None, next(self._numbers), waiting=1, seconds=seconds)
        with self._lock:
            self._queue.append(job)
            self._dispatch()
        try:
            while job.status == "queued":
                on_wait(self.place(Ticket(job)))
                with self._lock:
                    if job.status == "queued":
                        self._lock.wait(0.25)
            yield
        finally:
            with self._lock:
                if job.status == "queued":
                    self._queue.remove(job)
                self._running.discard(job)
                job.status = "done"
                job.done.set()
                self._dispatch()
                self._lock.notify_all()

    # ---- the hub's side -----------------------------------------------------------------

    def _watch(self, ticket: Ticket) -> None:
        """Watch `ticket`'s learner (the caller holds the lock); start the reaper if needed."""
        self._watched[ticket] = None
        if self._reaper is None or not self._reaper.is_alive():
            self._reaper = threading.Thread(target=self._reap, daemon=True,
                                            name="trainer-reaper")
            self._reaper.start()

    def _reap(self) -> None:
        """Every REAP_EVERY seconds, ask each watched ticket's learner whether it is still
        there; a ticket whose learner has been gone long enough (RECONNECT_GRACE, or
        GONE_GRACE while another training is queued) leaves the hub, if nobody else waits
        for its training (leaving one that others wait for would free no core). A learner
        who comes back finds the training stopped, and gets it as it was then (`leave`).
        Ends when nothing is left to watch."""
        while True:
            with self._lock:
                for ticket in [t for t in self._watched if t.left or t.done]:
                    del self._watched[ticket]
                if not self._watched:
                    self._reaper = None
                    return
                watched = list(self._watched.items())
            grace = self.grace()
            now = time.monotonic()
            gone = []
            for ticket, since in watched:
                try:
                    here = ticket.alive is None or ticket.alive()
                except Exception:  # a session that cannot be asked is not there
                    here = False
                if here:
                    since = None
                elif since is None:
                    since = now
                elif now - since >= grace and ticket.job.waiting == 1:
                    gone.append(ticket)
                with self._lock:
                    if ticket in self._watched:
                        self._watched[ticket] = since
            for ticket in gone:
                ticket.gone = True
                self.leave(ticket, "tab_closed", want_copy=False)
            time.sleep(REAP_EVERY)

    def _guess(self, job: Job) -> float:
        return job.seconds if job.request is None else self.estimate(job.request)

    def _dispatch(self) -> None:
        """Start queued trainings while a slot is free (the caller holds the lock)."""
        while self._queue and len(self._running) < self.slots:
            job = self._queue.popleft()
            job.status = "running"
            self._running.add(job)
            if job.request is None:  # a turn: its caller's thread does the work
                job.started = time.monotonic()
                self._lock.notify_all()
                continue
            self.trainings += 1
            threading.Thread(target=self._train, args=(job,), daemon=True,
                             name=f"train-{job.number}").start()

    def _train(self, job: Job) -> None:
        job.started = time.monotonic()
        try:
            self.runner(job.request, job.state, lambda info: self._after_step(job),
                        lambda: bool(job.snapshots), self.threads_each)
        except Exception as exc:  # shown to its learners; the hub goes on with the next
            job.error = exc
            job.state.running = False  # nobody may evaluate or show the model it left behind
            job.state.stopped = True
            job.state.stop_reason = f"{type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self._running.discard(job)
                if self._jobs.get(job.request) is job:
                    del self._jobs[job.request]
                job.status = "done"
                for ready, _ in job.snapshots:  # nobody left to copy for: they get the end
                    ready.set()
                job.snapshots.clear()
                if job.shareable:
                    self._done[job.request] = job
                    while len(self._done) > KEEP_DONE:
                        self._done.popitem(last=False)
                    took = time.monotonic() - job.started
                    times = self._seconds.setdefault(job.request.key.task, deque(maxlen=5))
                    times.append(took)
                    if job.state.step:
                        self.step_seconds = took / job.state.step
                    if job.state.learned:
                        self._steps.setdefault(job.request.key.task, deque(maxlen=5)).append(
                            job.state.step)
                job.done.set()
                self._dispatch()
                self._lock.notify_all()

    def _after_step(self, job: Job) -> bool:
        """After each step: copies for learners who left, and now and then a word to those
        who wait (every step would wake thirty threads ~150 times a second)."""
        now = time.monotonic()
        if not job.snapshots and now - self._told < NOTIFY_EVERY:
            return False
        with self._lock:
            for ready, box in job.snapshots:
                box.append(own_copy(job.state))
                ready.set()
            job.snapshots.clear()
            self._told = now
            self._lock.notify_all()
        return False


# Where the server's hub trains: "processes" (a worker process per core, worker.py:
# trainings do not share the interpreter lock, bench/class_train.py (e)) or "threads" (the
# server's own process; the tests use it to see inside a training).
ENGINE = "processes"

_HUB: Hub | None = None
_HUB_LOCK = threading.Lock()


def hub(session_ttl: float | None = None) -> Hub:
    """The server's hub (one per process, like the cores it shares). `session_ttl`: seconds
    the server keeps a disconnected session for its browser to come back to (Streamlit's
    `server.disconnectedSessionTTL`), read when the hub is made: a training is not kept
    longer for a session that cannot come back for it."""
    global _HUB
    with _HUB_LOCK:
        if _HUB is None:
            if ENGINE == "processes":
                slots = slots_for(cores())
                runner = ProcessRunner(keep=slots)
                _HUB = Hub(slots=slots, runner=runner)
                # the workers start now, in the background (each imports torch, ~1 s), so
                # the first learner to press Train does not wait for them
                threading.Thread(target=runner.warm, daemon=True,
                                 name="trainer-warm-up").start()
            else:
                _HUB = Hub()
            if session_ttl is not None:
                _HUB.reconnect_grace = min(RECONNECT_GRACE, max(0.0, session_ttl))
        return _HUB
