"""``--jobs``: chunks run by a pool of worker processes on this machine, forked from the
command's process (on Linux: the engine is not imported again), and a pool that always ends.

A finished run closes its pool and waits for the workers, which leave on the pool's own
end-of-work message: no signal is sent. A run stopped early (an error, Ctrl-C, SIGTERM, a
caller that wants no more) terminates the pool, and a worker still alive after
:data:`STOP_GRACE_S` is killed. Workers start with SIGTERM and SIGHUP at their default action
(:func:`_default_signals` tells why).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.pool import Pool


class ProcessExecutor:
    """Chunks run by a pool of worker processes on this machine (``--jobs``)."""

    chunk_scale = 1

    def __init__(self, pool: Pool, workers: int) -> None:
        self.pool = pool
        self.workers = workers
        self.window = 4 * workers
        self._done: queue.Queue[tuple[int, Any, BaseException | None]] = queue.Queue()
        #: Chunks handed to the pool whose result has not been taken yet.
        self.pending = 0

    def submit(self, index: int, fn: Callable[[Any], Any], job: Any) -> None:
        """Hand ``fn(job)`` to the pool."""
        put = self._done.put
        self.pool.apply_async(fn, (job,), callback=lambda r: put((index, r, None)),
                              error_callback=lambda e: put((index, None, e)))
        self.pending += 1

    def next_done(self) -> tuple[int, Any]:
        """Wait for a chunk to finish."""
        index, result, error = self._done.get()
        self.pending -= 1
        if error is not None:
            raise error
        return index, result


@contextlib.contextmanager
def process_pool(workers: int) -> Iterator[ProcessExecutor]:
    """A :class:`ProcessExecutor` of ``workers`` forked processes, ended as the module tells."""
    before = set(multiprocessing.active_children())
    # fork on Linux: no re-import
    pool = multiprocessing.get_context().Pool(workers, initializer=_default_signals)
    own = [p for p in multiprocessing.active_children() if p not in before]
    executor = ProcessExecutor(pool, workers)
    try:
        yield executor
    except BaseException:
        _stop(pool, own)
        raise
    if executor.pending:  # the caller stopped early: the chunks still queued are not wanted
        _stop(pool, own)
    else:  # every worker leaves on the pool's own end-of-work message: no signal to race
        pool.close()
        pool.join()


#: Seconds a terminated pool's workers have to die of SIGTERM before they are killed.
STOP_GRACE_S = 10.0


def _default_signals() -> None:
    """In each ``--jobs`` worker, first: SIGTERM and SIGHUP back to their default action (the
    kernel ends the process), not the command's Python handler that the fork copied. A
    Python handler runs only between bytecodes: a worker that receives SIGTERM just before
    it blocks on the pool's task queue sleeps there for ever (CPython checks for signals
    before the wait, not during it), and ``Pool.terminate`` waits for it for ever. A
    worker that starts bots puts its own handler back to end them
    (:func:`engine.protocol.process.guard_termination`)."""
    import signal

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def _stop(pool: Pool, workers: list[Any]) -> None:
    """Terminate ``pool`` (SIGTERM to its workers, then wait for them); a worker still alive
    after :data:`STOP_GRACE_S` (one whose handler ends its bots first, caught by the same
    race as :func:`_default_signals` tells) is killed, so that stopping never hangs."""
    ending = threading.Thread(target=pool.terminate, name="truco-pool-stop", daemon=True)
    ending.start()
    ending.join(STOP_GRACE_S)
    if ending.is_alive():
        for process in workers:
            if process.is_alive():
                process.kill()
        ending.join()
