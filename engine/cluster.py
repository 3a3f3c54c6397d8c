"""Work in chunks, results back in input order: one code path for ``--jobs`` and ``--dask``.

``truco verify`` and ``truco simulate`` cut their work into chunks (files; ranges of match
indices) and hand them to an :class:`Executor`: :class:`SerialExecutor` (this process),
:class:`~engine.pool.ProcessExecutor` (``--jobs J``: worker processes on this machine,
:mod:`engine.pool`) or
:class:`DaskExecutor` (``--dask local|ADDRESS``: the workers of a ``dask.distributed``
cluster). :func:`ordered` keeps a bounded number of chunks in flight, tells the caller of each
chunk as it finishes (a progress bar follows the workers) and yields the results in input
order, so what a command prints does not depend on where its chunks ran.

>>> list(ordered(abs, [-3, 1, -2], SerialExecutor()))
[3, 1, 2]

Dask is optional (``pip install 'truco-engine[cluster]'``): this module imports it only in
:func:`dask_executor`, which raises :class:`ClusterError` where it is missing or the scheduler
cannot be reached. A run that has had no worker for as long (every worker killed, none come
back) ends with :class:`ClusterLost` instead of waiting for ever.

Variants travel to the workers as a :class:`VariantRef`: the rules' fingerprint and the rules
pickled once by the caller. A worker unpickles them the first time it meets the fingerprint and
keeps them (:func:`cached_rules`), so a variant is loaded once per worker process, not once per
chunk, and a worker never needs the variant file.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import multiprocessing
import pickle
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from engine.errors import TrucoError
from engine.pool import process_pool
from engine.rules import Rules

if TYPE_CHECKING:
    pass

J = TypeVar("J")
R = TypeVar("R")

#: What to install where ``dask.distributed`` is missing.
INSTALL_HINT = "pip install 'truco-engine[cluster]' (it brings dask[distributed])"
#: Seconds to wait for a scheduler named by its address before giving up (its connection and
#: Dask's handshake, then its first worker); also how long a run goes on with no worker left.
CONNECT_TIMEOUT = 10.0
#: Seconds between two counts of a cluster's workers while a run waits for its chunks.
WORKER_CHECK_INTERVAL = 1.0
#: Times Dask runs a chunk again after an error in it (a lost worker is handled by the
#: scheduler itself: the chunks it held run again elsewhere).
RETRIES = 2


class ClusterError(Exception):
    """Dask is not installed, or the scheduler cannot be reached: a usage error (exit 2)."""


class ClusterLost(TrucoError):
    """The cluster lost every worker mid-run (or its scheduler stopped answering) and none came
    back within the timeout: the run stops there (exit 1; what was reported so far stands)."""


class Executor(Protocol):
    """Runs chunks somewhere and gives their results back as they finish."""

    #: Worker processes (or threads) that share the work: the chunk sizes follow it.
    workers: int
    #: How many chunks :func:`ordered` keeps in flight at once.
    window: int
    #: How many times larger than for this machine's processes a chunk is made here: a task
    #: of a Dask cluster costs its client and scheduler milliseconds of CPU (see
    #: :data:`DASK_CHUNK_SCALE`), a pool's task well under one.
    chunk_scale: int

    def submit(self, index: int, fn: Callable[[Any], Any], job: Any) -> None:
        """Start ``fn(job)``; its result comes back from :meth:`next_done` with ``index``."""

    def next_done(self) -> tuple[int, Any]:
        """The index and result of a chunk that has finished (waiting for one); a chunk that
        failed raises its exception here."""


def ordered(fn: Callable[[J], R], jobs: Iterable[J], executor: Executor,
            on_done: Callable[[J, R], None] | None = None) -> Iterator[R]:
    """``fn(job)`` for every job, run by ``executor`` with at most ``executor.window`` jobs in
    flight, yielded in the order of ``jobs`` whatever order they finish in. ``on_done(job,
    result)`` is called as each one finishes (in the order they finish: a progress bar).
    ``jobs`` is read as the work goes (it may be a generator), and the results that wait for
    an earlier one are bounded (while a slow chunk holds the rest back, no new one starts past
    four windows): the memory does not grow with the number of jobs."""
    it = iter(jobs)
    started: dict[int, J] = {}
    finished: dict[int, R] = {}
    submitted = 0
    yielded = 0

    def fill() -> None:
        nonlocal submitted
        window = max(1, executor.window)
        while len(started) < window and len(started) + len(finished) < 4 * window:
            job = next(it, _END)
            if job is _END:
                return
            started[submitted] = job  # type: ignore[assignment]
            executor.submit(submitted, fn, job)
            submitted += 1

    fill()
    while started:
        index, result = executor.next_done()
        job = started.pop(index)
        if on_done is not None:
            on_done(job, result)
        finished[index] = result
        fill()  # the workers busy again first
        while yielded in finished:
            yield finished.pop(yielded)
            yielded += 1
        fill()  # room made: the next chunks (the first in flight is never in ``finished``)


_END = object()


class SerialExecutor:
    """Runs each chunk at once, in this process."""

    workers = 1
    window = 1
    chunk_scale = 1

    def __init__(self) -> None:
        self._done: list[tuple[int, Any]] = []

    def submit(self, index: int, fn: Callable[[Any], Any], job: Any) -> None:
        """Run ``fn(job)`` now."""
        self._done.append((index, fn(job)))

    def next_done(self) -> tuple[int, Any]:
        """The chunk run last."""
        return self._done.pop()


#: Dask chunks are this many times larger than a local pool's. Each Dask task cost its client
#: and scheduler (one process, beside the two workers of a LocalCluster on 2 cores) about 6 ms
#: of CPU on the project's machine, whatever its size: verifying 20,000 logs in chunks of 64
#: spent 1.8 to 2.9 CPU seconds there and took 6.0 to 9.5 s against 4.3 to 6.0 s for
#: ``--jobs 2``; in chunks of 400, 0.5 CPU seconds and 4.8 to 5.5 s (tests of 2026-12-01).
#: Since a chunk travels as one object (:class:`Whole`), a task of 512 logs costs that process
#: 2.3 to 3.1 ms (5.4 to 6.0 ms as a list; 200 tasks, three times each, alternating).
DASK_CHUNK_SCALE = 8


class DaskExecutor:
    """Chunks run as futures of a ``dask.distributed`` client (``--dask``). A chunk whose
    worker dies is run again by another one (the scheduler's doing); a chunk that raises is
    run again up to :data:`RETRIES` times. A thread counts the cluster's workers every
    :data:`WORKER_CHECK_INTERVAL` seconds: when there has been none for ``timeout`` seconds,
    the chunks in flight are cancelled and :meth:`next_done` raises :class:`ClusterLost`
    (Dask itself would wait for a worker for ever). :meth:`close` stops that thread."""

    chunk_scale = DASK_CHUNK_SCALE

    def __init__(self, client: Any, where: str = "the cluster",
                 timeout: float = CONNECT_TIMEOUT) -> None:
        self.client = client
        self.workers = max(1, sum(client.nthreads().values()))
        self.window = 4 * self.workers
        # with_results: the results are gathered as futures finish, several at a time, in the
        # client's own loop (a result() per future would be a round trip each)
        self._futures: Any = _distributed().as_completed(with_results=True)
        self._index: dict[str, int] = {}
        self._pending: dict[str, Any] = {}  # the futures in flight, by key (to cancel them)
        self._lock = threading.Lock()
        self._where = where
        self._timeout = timeout
        self._lost: ClusterLost | None = None
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watch_workers, daemon=True,
                                       name="truco-dask-workers")
        self._watch.start()

    def submit(self, index: int, fn: Callable[[Any], Any], job: Any) -> None:
        """Submit ``fn(job)`` to the cluster (the job and its result travel as
        :class:`Whole`)."""
        if self._lost is not None:
            raise self._lost
        carried = tuple(capture() for capture in _CARRIED)
        future = self.client.submit(run_whole, fn, Whole(job, carried), pure=False,
                                    retries=RETRIES)
        self._index[future.key] = index
        with self._lock:
            self._pending[future.key] = future
        self._futures.add(future)

    def next_done(self) -> tuple[int, Any]:
        """Wait for a future to finish; its result (the future is let go). Raises
        :class:`ClusterLost` when the cluster has had no worker for the timeout, or a chunk
        killed every worker that ran it."""
        if self._lost is not None:
            raise self._lost
        try:
            future, result = next(self._futures)  # a chunk that failed raises here
        except _distributed().KilledWorker as exc:
            raise ClusterLost(f"the Dask workers at {self._where} died running a chunk "
                              f"({exc}): the run stops here") from None
        if self._lost is not None:  # the futures were cancelled: no result
            raise self._lost
        with self._lock:
            self._pending.pop(future.key, None)
        for line in result.notes:  # what the chunk reported on its worker
            print(line, file=sys.stderr, flush=True)
        return self._index.pop(future.key), result.value

    def close(self) -> None:
        """Stop counting the workers."""
        self._stop.set()
        self._watch.join()

    def _count_workers(self) -> int:
        """The scheduler's workers now (0 where it does not answer in time)."""
        try:
            return len(self.client.nthreads(callback_timeout=self._timeout))
        except Exception:  # noqa: BLE001 - a scheduler gone or hung: no worker to count on
            return 0

    def _watch_workers(self) -> None:
        """Every :data:`WORKER_CHECK_INTERVAL`, count the workers; after ``timeout`` seconds
        with none, cancel the chunks in flight, which wakes :meth:`next_done`."""
        since: float | None = None
        while not self._stop.wait(WORKER_CHECK_INTERVAL):
            if self._count_workers():
                since = None
                continue
            now = time.monotonic()
            since = now if since is None else since
            if now - since < self._timeout:
                continue
            self._lost = ClusterLost(
                f"the Dask cluster at {self._where} has had no worker for {self._timeout:g} s "
                "(all of them died or left): the run stops here")
            with self._lock:
                pending = list(self._pending.values())
            if pending:
                with contextlib.suppress(Exception):
                    self.client.cancel(pending, reason="no worker left")
            return


@dataclass(frozen=True)
class Whole:
    """A chunk's job or result as it travels to or from a Dask worker: one object, which Dask
    neither looks into nor takes apart. Dask looks through a task's arguments for futures, item
    by item, and sends a list, tuple, set or dict result element by element (a header, a
    pickle and its bookkeeping for each); a chunk is a list of hundreds of logs, its result a
    list of as many outcomes. Submitting a chunk of 512 logs took 2.2-2.8 ms of the command's
    CPU as a list, 0.3-0.5 ms as one object; sending back 300 logs' outcomes from a worker,
    5.7-10.9 ms against 0.8-1.0 ms (5-10% of the chunk's own time), reading them back
    1.2-2.4 ms against 0.5-0.9 ms (``Client.submit``, ``distributed.protocol.dumps`` and
    ``loads``, Dask 2026.8, on the project's machine).

    A job also takes with it what :func:`carry` registered (``carried``), and a result the
    lines its chunk reported (``notes``), which the command prints on its standard error."""

    value: Any
    carried: tuple[Any, ...] = field(default=(), repr=False)
    notes: tuple[str, ...] = field(default=(), repr=False)


#: What each chunk takes to a Dask worker: see :func:`carry`.
_CARRIED: list[Callable[[], Any]] = []


def carry(capture: Callable[[], Any]) -> None:
    """Have every chunk sent to a Dask worker take ``capture()`` with it: called in this
    process as the chunk is submitted, pickled, and on the worker entered as a context manager
    around the chunk (:func:`run_whole`); what it enters as is a list of lines to report,
    sent back with the result. A worker process of ``--jobs`` is a fork of this one and needs
    none of it; a Dask worker has its own folder and environment, and outlives the command:
    :mod:`engine.protocol.chunk` carries the folder and time limits of the bots over the
    protocol, and ends the bot processes a chunk started when it ends."""
    if capture not in _CARRIED:
        _CARRIED.append(capture)


def run_whole(fn: Callable[[J], R], job: Whole) -> Whole:
    """``fn`` of the job inside ``job``, as one :class:`Whole` (what a Dask worker runs for a
    chunk), inside the contexts the job carries (:func:`carry`), with the lines they report.

    >>> run_whole(sum, Whole([1, 2, 3]))
    Whole(value=6)
    """
    with contextlib.ExitStack() as stack:
        reports = [stack.enter_context(c) for c in job.carried]
        value = fn(job.value)
    return Whole(value, notes=tuple(line for lines in reports for line in lines))


def chunk_size(units: int, workers: int, most: int, per_worker: int = 4) -> int:
    """Units per chunk: about ``per_worker`` chunks per worker for balance (rounded up), at
    most ``most``.

    >>> chunk_size(1000, 2, 64), chunk_size(3, 2, 64), chunk_size(30, 2, 50, per_worker=8)
    (64, 1, 2)
    """
    return max(1, min(most, -(-units // (workers * per_worker))))


def spans(units: int, workers: int, most: int, per_worker: int = 4,
          scale: int = 1) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` ranges covering ``range(units)``, for ``workers`` workers: chunks of
    :func:`chunk_size` units, ``most`` at most for this machine's processes and ``scale`` times
    more on a cluster (:attr:`Executor.chunk_scale`). Where they are larger (``scale`` > 1),
    the last ones shrink, each about 1/(``per_worker`` x ``workers``) of what is left, down to
    this machine's size: the workers finish together, where a large chunk handed out last
    kept one worker busy while the others waited (a third of a second at the end of a Dask
    run of 512-log chunks, measured).

    >>> [b - a for a, b in spans(10, 2, 2)]
    [2, 2, 2, 2, 2]
    >>> [b - a for a, b in spans(100, 2, 4, scale=4)]
    [13, 11, 10, 9, 8, 7, 6, 5, 4, 4, 4, 4, 4, 4, 4, 3]
    """
    first = chunk_size(units, workers, most * scale, per_worker)
    least = min(first, chunk_size(units, workers, most, per_worker))
    start = 0
    while start < units:
        size = max(least, min(first, -(-(units - start) // (workers * per_worker))))
        yield start, min(start + size, units)
        start += size


@contextlib.contextmanager
def local_executor(jobs: int, chunks_at_most: int | None = None) -> Iterator[Executor]:
    """:class:`SerialExecutor` for one job (or at most one chunk), else a
    :class:`~engine.pool.ProcessExecutor` of ``jobs`` processes (fewer where there are fewer
    chunks: :func:`engine.pool.process_pool`)."""
    workers = jobs if chunks_at_most is None else min(jobs, chunks_at_most)
    if workers <= 1:
        yield SerialExecutor()
        return
    with process_pool(workers) as executor:
        yield executor


def _engine_version() -> str:
    """The version of truco-engine installed in this process (a worker's, on a cluster)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("truco-engine")
    except PackageNotFoundError:
        return "not installed"


def _distributed() -> Any:
    """The ``dask.distributed`` module (typed ``Any``: an optional dependency). Raises
    :class:`ClusterError` where it is not installed."""
    try:
        return importlib.import_module("dask.distributed")
    except ImportError as exc:
        raise ClusterError(f"--dask needs dask.distributed, which is not installed "
                           f"({exc}): {INSTALL_HINT}") from None


#: What the fork server that starts a LocalCluster's workers imports once, so that each worker
#: starts with them (instead of importing Dask and the engine itself, a second or more each).
WORKER_PRELOAD = ["distributed", "engine.cli.verify_cmd", "engine.simulate"]


#: The Dask settings of a LocalCluster started by ``--dask local`` (a running scheduler's
#: cluster keeps its own). They quiet what serves a dashboard or a long-lived cluster, of no use
#: to a command that starts its cluster, runs a few chunks a second and closes it; each costs a
#: pure-Python task CPU, taken from the workers on a machine whose cores they fill. Measured
#: with ``python -m benchmarks.cluster --cpu-only`` (verifying 20,000 logs; CPU beyond the
#: chunks' own, as a share of it, medians of 3, four runs): the workers' from 6.4-8.1% down to
#: 2.9-3.8%, the command's own process from 7.5-8.8% down to 5.4-6.9%: in all 8.1-10.7% more
#: than a pool of ``--jobs 2`` (1.0-1.1% and 3.9-4.5%), down to 2.8-5.6% more.
LOCAL_CONFIG: dict[str, Any] = {
    # the workers' statistical profiler: it samples the running task's stack 100 times a
    # second for the dashboard's profile page, and there is no dashboard
    "distributed.worker.profile.enabled": False,
    # the event loops' check for a blocked loop (every 20 ms), the system monitor (every
    # 0.5 s) and the memory monitors (every 0.1 s): still on, less often
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
    # the chunks are alike and the scheduler queues them until a worker is free: nothing to
    # steal (a lost worker's chunks are run again all the same)
    "distributed.scheduler.work-stealing": False,
}


def start_fork_server() -> bool:
    """Start the fork server that a LocalCluster's workers come from, with
    :data:`WORKER_PRELOAD` imported, if it is not running yet; False where the platform has
    none or Dask is not installed. The server lives as long as this process, like
    multiprocessing's resource tracker. Its imports take about a second, and they run while
    this process goes on: a command that will start a LocalCluster calls this first, before it
    lists its logs and imports Dask itself (on two cores the two overlap, and the workers start
    sooner by as much)."""
    if ("forkserver" not in multiprocessing.get_all_start_methods()
            or importlib.util.find_spec("distributed") is None):
        return False
    multiprocessing.set_forkserver_preload(WORKER_PRELOAD)  # read when the server starts
    from multiprocessing import forkserver

    forkserver.ensure_running()
    return True


def _local_config(stack: contextlib.ExitStack) -> None:
    """Set :data:`LOCAL_CONFIG` for as long as ``stack`` lasts, and have the LocalCluster's
    nannies start their workers from the fork server (:func:`start_fork_server`, where the
    platform has one): a fork of a clean, single-threaded process that has imported Dask and
    the engine, not a fresh interpreter per worker. Starting and closing two workers took
    1.3 + 0.1 s instead of 2.3 + 0.7 s (spawn) on the project's machine. The workers take the
    settings with them (a nanny hands its worker the configuration of this process). Raises
    :class:`ClusterError` where Dask is not installed."""
    config = dict(LOCAL_CONFIG)
    if start_fork_server():
        config["distributed.worker.multiprocessing-method"] = "forkserver"
    _distributed()  # first: its defaults are part of the configuration only once it is
    # imported, and dask.config.set() removes on exit a whole section it had to create
    import dask

    stack.enter_context(dask.config.set(config))


def _handshake(distributed: Any, where: str, timeout: float) -> None:
    """Connect to the scheduler at ``where`` and go through Dask's handshake, within
    ``timeout`` seconds in all. ``Client(where, timeout=...)`` bounds the connection but then
    waits for the handshake for ever (dask/distributed#8071): a port that accepts connections
    and never speaks Dask held ``truco verify --dask`` past 330 s. Raises :class:`OSError`
    (``TimeoutError`` included) or :class:`ValueError` for an address that is not one."""
    import asyncio

    async def bounded() -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if where.startswith("tcp://"):  # a port that refuses, or never answers, is told so
            host, port = distributed.comm.addressing.parse_host_port(where[len("tcp://"):])
            try:
                _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
            except TimeoutError:
                raise TimeoutError(f"Timed out trying to connect to {where} after "
                                   f"{timeout:g} s") from None
            writer.close()
        # the port took the connection: what is left is Dask's own connection and handshake
        comm = await asyncio.wait_for(distributed.comm.connect(where, timeout=timeout),
                                      max(deadline - loop.time(), 0.001))
        comm.abort()

    asyncio.run(bounded())


@contextlib.contextmanager
def dask_executor(where: str, workers: int | None = None,
                  timeout: float | None = None) -> Iterator[DaskExecutor]:
    """A :class:`DaskExecutor` on ``where``: ``"local"`` starts a ``LocalCluster`` of
    ``workers`` processes (one thread each; by default one per core) on this machine, closed
    at the end; anything else is the address of a running scheduler (``tcp://host:8786``),
    waited for at most ``timeout`` seconds (:data:`CONNECT_TIMEOUT`: its connection and
    handshake), and for its first worker as long; a run with no worker left for as long ends
    with :class:`ClusterLost`. Every worker must run the same truco-engine version as this
    process. Raises :class:`ClusterError`."""
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    with contextlib.ExitStack() as stack:
        if where == "local":
            _local_config(stack)  # first: its fork server starts while Dask is imported here
        distributed = _distributed()
        if where == "local":
            import logging

            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=workers, processes=True, threads_per_worker=1,
                dashboard_address=None, silence_logs=logging.ERROR,
                # no dashboard; the scheduler's own HTTP endpoints on any free port
                scheduler_kwargs={"dashboard_address": ":0"}))
            # direct_to_workers: results come from the workers, not through the scheduler
            # (the client reaches them on this machine); verifying 20,000 logs took 7.0 s
            # against 7.6 s, means of 3 alternating runs
            client = stack.enter_context(distributed.Client(cluster, direct_to_workers=True))
        else:
            try:
                _handshake(distributed, where, timeout)
                client = stack.enter_context(distributed.Client(where, timeout=timeout))
            except (ValueError, TypeError) as exc:
                raise ClusterError(f"--dask {where}: not a scheduler address ({exc}); give "
                                   "'local' or one like tcp://host:8786") from None
            except OSError as exc:  # TimeoutError included
                why = str(exc) or ("it took the connection but gave no Dask handshake: is "
                                   "this a Dask scheduler's port?")
                raise ClusterError(f"cannot reach the Dask scheduler at {where} within "
                                   f"{timeout:g} s: {why}") from None
        try:  # a scheduler that scales from zero gets the time of a connection to start one
            client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"the Dask scheduler at {where} has no workers (none came "
                               f"within {timeout:g} s: {exc}); start some with: dask worker "
                               f"{where}") from None
        mine = _engine_version()
        try:
            theirs = client.run(_engine_version)
        except Exception as exc:  # noqa: BLE001 - a worker without the engine: say so
            raise ClusterError(f"the Dask workers cannot run truco-engine ({type(exc).__name__}"
                               f": {exc}): install truco-engine {mine} on every "
                               "worker") from None
        other = {w: v for w, v in theirs.items() if v != mine}
        if other:
            named = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
            raise ClusterError(f"the Dask workers must run truco-engine {mine}, as this "
                               f"machine does: {named}")
        executor = DaskExecutor(client, where, timeout)
        stack.callback(executor.close)
        yield executor


# -- variants on the workers ---------------------------------------------------------------------
@dataclass(frozen=True)
class VariantRef:
    """A variant as it travels to a worker: its fingerprint, and its rules pickled once."""

    fingerprint: str
    blob: bytes

    @classmethod
    def of(cls, rules: Rules) -> VariantRef:
        """The reference of ``rules``."""
        return cls(rules.fingerprint, pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL))


# Rules met by this process, by fingerprint (a worker keeps them from chunk to chunk). Bounded.
_RULES: dict[str, Rules] = {}
_RULES_MAX = 32


def cached_rules(ref: VariantRef) -> Rules:
    """The rules ``ref`` stands for: unpickled the first time this process meets its
    fingerprint, then the same object (its move table and other per-rules caches with it).

    >>> from engine.variant import find_variant
    >>> ref = VariantRef.of(find_variant("mineiro"))
    >>> cached_rules(ref) is cached_rules(VariantRef(ref.fingerprint, b""))
    True
    """
    rules = _RULES.get(ref.fingerprint)
    if rules is None:
        rules = pickle.loads(ref.blob)  # noqa: S301 - made by this program's own caller
        if len(_RULES) >= _RULES_MAX:
            _RULES.clear()
        _RULES[ref.fingerprint] = rules
    return rules
