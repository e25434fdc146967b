"""One runner under the arena and self-play: it plays tasks (games) on local processes or on a
Ray cluster and yields their outcomes as they finish, with one rule for faults on every backend.

- **A job and tasks.** The *job* (a picklable callable: the game, the bots, the run's seed) is
  sent to each worker once; a *task* (a game's index) is all that travels per game, and what
  comes back is the job's result or a :class:`Failed`.
- **Lazy and bounded.** Tasks are drawn from an iterator only as workers free up: at most two
  per worker are in flight (one on Ray), so memory does not grow with the number of games.
- **Faults.** An exception raised by the job costs its task only: it becomes a :class:`Failed`
  with the exception's type and message and the traceback. A worker that dies (a crash,
  ``os._exit``, ``SIGKILL``, the out-of-memory killer, a lost Ray node) costs nothing at first:
  the task it was playing is played again in a fresh worker, and only a task whose worker dies a
  second time fails, with :data:`WORKER_DIED`. Tasks queued behind it are played as if nothing
  happened. Each worker plays its tasks in order, so the task that killed it is known exactly.
- **Workers die with their parent.** A local worker asks Linux to kill it when its parent dies
  (``prctl(PR_SET_PDEATHSIG, SIGKILL)``) and, everywhere, watches its parent's pid in a thread:
  a run killed with ``SIGKILL`` leaves no orphan playing on, holding the terminal or the
  record file. Workers ignore ``SIGINT``: Ctrl-C stops the parent, which stops them.

``workers=1`` on the processes backend plays in the calling process (no pickling, and no retry:
a process cannot outlive its own death). Ray is imported only for ``backend="ray"``.

A tool, in the top layer; it knows nothing of games.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, Literal, TypeVar

__all__ = [
    "WORKER_DIED",
    "Backend",
    "Done",
    "Failed",
    "RunSettings",
    "Runner",
    "die_with_parent",
]

#: Where tasks run: in local processes, or as tasks of actors on a Ray cluster.
Backend = Literal["processes", "ray"]

#: The error of a task whose worker died twice (the message is the same on every backend).
WORKER_DIED = "WorkerDied: the worker process died while playing this game, twice"

T = TypeVar("T")
R = TypeVar("R")

#: Linux's ``prctl`` option that sends the calling process a signal when its parent dies.
_PR_SET_PDEATHSIG = 1
#: How often a worker's watchdog looks at its parent (seconds).
_WATCH_EVERY = 0.5


@dataclass(frozen=True)
class RunSettings:
    """Where and on how many workers a run plays.

    Attributes:
        workers: worker processes or Ray actors (``None``: one per CPU of this machine, or of
            the Ray cluster). With the processes backend, ``1`` plays in the calling process.
        backend: ``"processes"`` or ``"ray"``.
        address: the Ray cluster to join (``"auto"``, ``"HOST:PORT"``); ``None`` starts a local
            one of ``workers`` CPUs for the run, unless Ray is initialised already.

    >>> from tikigames.runner import RunSettings
    >>> RunSettings(workers=0)
    Traceback (most recent call last):
    ...
    ValueError: workers must be an int ≥ 1 or None, not 0
    """

    workers: int | None = 1
    backend: Backend = "processes"
    address: str | None = None

    def __post_init__(self) -> None:
        workers = self.workers
        if workers is not None and (type(workers) is not int or workers < 1):
            raise ValueError(f"workers must be an int ≥ 1 or None, not {workers!r}")
        if self.backend not in ("processes", "ray"):
            raise ValueError(f"backend must be 'processes' or 'ray', not {self.backend!r}")


@dataclass(frozen=True)
class Done(Generic[T, R]):
    """A task played to its end, and what the job returned."""

    task: T
    result: R


@dataclass(frozen=True)
class Failed(Generic[T]):
    """A task that failed: the job raised (``error`` is the exception's type and message,
    ``details`` its traceback), or its worker died twice (``error`` is :data:`WORKER_DIED`,
    ``details`` what the backend said)."""

    task: T
    error: str
    details: str


#: What a worker sends back for a task: its tag, then ("ok", result) or ("error", (text, trace)).
_Reply = tuple[int, str, Any]


def _attempt(job: Callable[[Any], Any], tag: int, task: Any) -> _Reply:
    try:
        return (tag, "ok", job(task))
    except Exception as error:  # the job's fault: reported, the run goes on
        return (tag, "error", (f"{type(error).__name__}: {error}", traceback.format_exc()))


class Runner(Generic[T, R]):
    """Runs ``job`` on tasks with the given settings (see the module's docstring). Use it as a
    context manager: entering starts the workers (and Ray, if needed), leaving stops them.

    >>> from tikigames.runner import Done, Runner, RunSettings
    >>> with Runner(abs, RunSettings(workers=2)) as runner:
    ...     outcomes = list(runner.run(iter([-3, 1, -2])))
    >>> sorted(o.result for o in outcomes if isinstance(o, Done)), runner.workers
    ([1, 2, 3], 2)
    """

    def __init__(
        self, job: Callable[[T], R], settings: RunSettings, *, limit: int | None = None
    ) -> None:
        """``limit``: the number of tasks, if known: no more workers are started than that."""
        self.job = job
        self.settings = settings
        self.limit = limit
        #: The number of workers, known once the runner is entered.
        self.workers = 0
        self._backend: _Backend | None = None

    def __enter__(self) -> Runner[T, R]:
        settings = self.settings
        cap = max(1, self.limit) if self.limit is not None else None
        if settings.backend == "ray":
            ray_backend = _Ray(self.job, settings.workers, settings.address, cap)
            self._backend = ray_backend
            self.workers = ray_backend.size
        else:
            size = settings.workers or os.cpu_count() or 1
            self.workers = min(size, cap) if cap is not None else size
            if self.workers > 1:
                self._backend = _Processes(self.job, self.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._backend is not None:
            self._backend.close(graceful=exc[0] is None)
            self._backend = None

    def run(self, tasks: Iterable[T]) -> Iterator[Done[T, R] | Failed[T]]:
        """Play ``tasks``, drawn lazily, and yield each outcome as it comes (in no set order)."""
        backend = self._backend
        if backend is None:  # one worker: this process
            for task in tasks:
                tag, status, value = _attempt(self.job, 0, task)
                yield Done(task, value) if status == "ok" else Failed(task, *value)
            return
        source = iter(tasks)
        retry: deque[tuple[Any, int]] = deque()  # (task, attempt): a dead worker's queue
        flight: list[deque[tuple[int, Any, int]]] = [deque() for _ in range(backend.size)]
        tag = 0
        exhausted = False
        while True:
            for slot, queue in enumerate(flight):
                while len(queue) < backend.depth:
                    if retry:
                        task, attempt = retry.popleft()
                    elif not exhausted:
                        try:
                            task, attempt = next(source), 0
                        except StopIteration:
                            exhausted = True
                            break
                    else:
                        break
                    tag += 1
                    queue.append((tag, task, attempt))
                    backend.send(slot, tag, task)
            if not any(flight):
                return
            for slot, reply, details in backend.wait():
                queue = flight[slot]
                if reply is not None:
                    expected, task, _ = queue.popleft()
                    got, status, value = reply
                    assert got == expected, "a worker answered out of order"
                    yield Done(task, value) if status == "ok" else Failed(task, *value)
                    continue
                # The worker died: its first task killed it; the others had not started.
                backend.restart(slot)
                if not queue:
                    continue
                _, task, attempt = queue.popleft()
                retry.extendleft((t, a) for _, t, a in reversed(queue))
                queue.clear()
                if attempt == 0:  # once more, first thing in the fresh worker
                    tag += 1
                    queue.append((tag, task, 1))
                    backend.send(slot, tag, task)
                else:
                    yield Failed(task, WORKER_DIED, details)


class _Backend:
    """Workers in slots: each plays what it is sent, in order, and may die."""

    size: int
    depth: int

    def send(self, slot: int, tag: int, task: Any) -> None:
        raise NotImplementedError

    def wait(self) -> list[tuple[int, _Reply | None, str]]:
        """Block until something happens; then each reply as ``(slot, reply, "")`` and each
        death as ``(slot, None, details)``."""
        raise NotImplementedError

    def restart(self, slot: int) -> None:
        raise NotImplementedError

    def close(self, graceful: bool) -> None:
        raise NotImplementedError


# ----------------------------------------------------------------- local processes


def _vanish() -> None:
    """End this worker at once, as its parent's death would have (no cleanup: the parent's
    files and locks are not this process's to flush)."""
    os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


def die_with_parent(parent: int) -> None:
    """In a worker process: be killed when ``parent`` dies (Linux), and watch it (everywhere),
    so that no worker outlives its parent, not even one killed with SIGKILL. The runner's
    workers and the game server's bots (a ``ProcessPoolExecutor`` initializer) call it."""
    if sys.platform == "linux":
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - an unusual libc
            pass
    if os.getppid() != parent:  # it died before the request was made
        _vanish()

    def watch() -> None:
        stop = threading.Event()
        while not stop.wait(_WATCH_EVERY):
            if os.getppid() != parent:
                _vanish()

    threading.Thread(target=watch, name="tikigames-watchdog", daemon=True).start()


def _worker(connection: Connection, job: Callable[[Any], Any], parent: int) -> None:
    """A worker process's life: play each task it is sent, until told to stop or orphaned."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            break
        if message is None:
            break
        tag, task = message
        reply = _attempt(job, tag, task)
        try:
            connection.send(reply)
        except Exception as error:  # a result that does not pickle
            text = f"{type(error).__name__}: the result could not be sent back: {error}"
            connection.send((tag, "error", (text, traceback.format_exc())))


class _Processes(_Backend):
    depth = 2  # one playing, one waiting: no idle time between tasks

    def __init__(self, job: Callable[[Any], Any], size: int) -> None:
        self.job = job
        self.size = size
        self.context = multiprocessing.get_context()
        self.processes: list[Any] = [None] * size
        self.connections: list[Connection | None] = [None] * size
        try:
            for slot in range(size):
                self.restart(slot)
        except BaseException:
            self.close(graceful=False)
            raise

    def restart(self, slot: int) -> None:
        self._stop(slot, kill=True)
        mine, theirs = self.context.Pipe(duplex=True)
        process = self.context.Process(
            target=_worker, args=(theirs, self.job, os.getpid()), daemon=True
        )
        process.start()
        theirs.close()
        self.processes[slot], self.connections[slot] = process, mine

    def send(self, slot: int, tag: int, task: Any) -> None:
        connection = self.connections[slot]
        assert connection is not None
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.send((tag, task))  # if it is dead already, wait() says so

    def wait(self) -> list[tuple[int, _Reply | None, str]]:
        slot_of: dict[Any, int] = {}
        for slot, (process, connection) in enumerate(
            zip(self.processes, self.connections, strict=True)
        ):
            slot_of[connection] = slot
            slot_of[process.sentinel] = slot
        ready = wait(list(slot_of))
        events: list[tuple[int, _Reply | None, str]] = []
        dead: set[int] = set()
        for slot in sorted({slot_of[r] for r in ready}):
            connection = self.connections[slot]
            assert connection is not None
            try:
                while connection.poll():
                    events.append((slot, connection.recv(), ""))
            except (EOFError, OSError):
                dead.add(slot)
            process = self.processes[slot]
            if slot in dead or not process.is_alive():
                process.join(1)
                events.append((slot, None, _exit_text(process.pid, process.exitcode)))
        return events

    def _stop(self, slot: int, kill: bool) -> None:
        process, connection = self.processes[slot], self.connections[slot]
        if connection is not None:
            if not kill:
                with contextlib.suppress(OSError):
                    connection.send(None)
            connection.close()
        if process is not None:
            if kill:
                process.kill()
            process.join(2)
            if process.is_alive():  # pragma: no cover - a worker stuck in C code
                process.kill()
                process.join()
        self.processes[slot], self.connections[slot] = None, None

    def close(self, graceful: bool) -> None:
        for slot in range(self.size):
            self._stop(slot, kill=not graceful)


def _exit_text(pid: int | None, code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"worker process {pid} was killed by {name}"
    return f"worker process {pid} exited with code {code}"


# ----------------------------------------------------------------- Ray


class _Actor:
    """A Ray actor holding the job (sent once, through the object store)."""

    def __init__(self, job: Callable[[Any], Any]) -> None:
        self.job = job

    def play(self, tag: int, task: Any) -> _Reply:
        return _attempt(self.job, tag, task)


def _ray() -> Any:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]  # optional: tikigames[ray]
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("backend='ray' needs Ray: pip install 'tikigames[ray]'") from None
    return ray


class _Ray(_Backend):
    depth = 1  # one task per actor: the scheduler sees every free CPU

    def __init__(
        self, job: Callable[[Any], Any], workers: int | None, address: str | None, cap: int | None
    ) -> None:
        ray = self.ray = _ray()
        self.started = not ray.is_initialized()
        if self.started:
            ray.init(
                address=address,
                num_cpus=workers if address is None else None,
                include_dashboard=False,
                log_to_driver=False,
            )
        try:
            if workers is None:
                resources = ray.cluster_resources()  # type: ignore[no-untyped-call, unused-ignore]
                workers = max(1, int(resources.get("CPU", 1)))
            self.size = min(workers, cap) if cap is not None else workers
            self.remote = ray.remote(num_cpus=1)(_Actor)
            self.job = ray.put(job)  # into the object store once; each actor fetches it once
            self.actors: list[Any] = [None] * self.size
            self.pending: dict[Any, int] = {}
            for slot in range(self.size):
                self.restart(slot)
        except BaseException:
            self.close(graceful=False)
            raise

    def restart(self, slot: int) -> None:
        old = self.actors[slot]
        if old is not None:
            self.pending = {ref: s for ref, s in self.pending.items() if s != slot}
            self.ray.kill(old)
        self.actors[slot] = self.remote.remote(self.job)

    def send(self, slot: int, tag: int, task: Any) -> None:
        self.pending[self.actors[slot].play.remote(tag, task)] = slot

    def wait(self) -> list[tuple[int, _Reply | None, str]]:
        ready, _ = self.ray.wait(list(self.pending), num_returns=1)
        slot = self.pending.pop(ready[0])
        try:
            return [(slot, self.ray.get(ready[0]), "")]
        except self.ray.exceptions.RayActorError as error:
            return [(slot, None, str(error))]

    def close(self, graceful: bool) -> None:
        for actor in getattr(self, "actors", ()):
            if actor is not None:
                self.ray.kill(actor)
        self.actors = []
        if self.started:
            self.ray.shutdown()
