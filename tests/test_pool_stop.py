"""A ``--jobs`` pool ends without hanging: the workers of a finished run leave on the pool's
own end-of-work message (no signal), they never keep the command's Python SIGTERM handler,
and a worker that survives SIGTERM when the run is stopped is killed.

A Python signal handler runs between bytecodes; a worker that got SIGTERM just before it
blocked on the pool's task queue slept there for ever, and ``Pool.terminate`` with it: 1 run of
``truco simulate --jobs 2`` in 6 to 8 hung so.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import engine.cluster
import engine.pool

#: Far above what the work needs (well under a second); only a hang reaches it.
GUARD_S = 120.0


def _signals_here(_job: int) -> tuple[int, bool, bool]:
    return (os.getpid(), signal.getsignal(signal.SIGTERM) is signal.SIG_DFL,
            signal.getsignal(signal.SIGHUP) is signal.SIG_DFL)


def _deaf_forever(ready: str) -> None:
    """A chunk that outlives SIGTERM: its handler does nothing, and it never finishes."""
    signal.signal(signal.SIGTERM, lambda *_: None)
    Path(ready).write_text("started", encoding="utf-8")
    while True:
        time.sleep(1)


def _on_term(*_: Any) -> None:
    raise KeyboardInterrupt


@pytest.fixture
def python_term_handler() -> Any:
    """SIGTERM handled in Python in this process, as the command line does."""
    old = signal.signal(signal.SIGTERM, _on_term)
    yield
    signal.signal(signal.SIGTERM, old)


def test_a_finished_pool_ends_its_workers_without_a_signal(python_term_handler: Any) -> None:
    before = set(multiprocessing.active_children())
    with engine.cluster.local_executor(2, 4) as executor:
        workers = [p for p in multiprocessing.active_children() if p not in before]
        seen = list(engine.cluster.ordered(_signals_here, range(4), executor))
    assert len(workers) == 2
    assert {pid for pid, _, _ in seen} <= {p.pid for p in workers}
    assert all(term and hup for _, term, hup in seen), "a worker kept the command's handler"
    assert [p.exitcode for p in workers] == [0, 0]  # left on their own: not terminated (-15)


def test_a_stopped_pool_kills_a_worker_that_outlives_sigterm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.pool, "STOP_GRACE_S", 0.5)
    ready = tmp_path / "ready"
    before = set(multiprocessing.active_children())
    outcome: list[BaseException] = []
    workers: list[Any] = []

    def run() -> None:
        try:
            with engine.cluster.local_executor(2, 2) as executor:
                workers.extend(p for p in multiprocessing.active_children() if p not in before)
                executor.submit(0, _deaf_forever, str(ready))
                deadline = time.monotonic() + GUARD_S
                while not ready.exists() and time.monotonic() < deadline:
                    time.sleep(0.01)
                raise RuntimeError("stop")
        except RuntimeError as exc:
            outcome.append(exc)

    stopper = threading.Thread(target=run, daemon=True)
    stopper.start()
    stopper.join(GUARD_S)
    assert not stopper.is_alive(), "stopping the pool hung"
    assert ready.exists() and [str(e) for e in outcome] == ["stop"]
    assert all(not p.is_alive() for p in workers) and len(workers) == 2
    assert -signal.SIGKILL in [p.exitcode for p in workers]


def _started_then_sleeps(marker: str) -> None:
    """A chunk that says it started (its ``marker`` file), then takes far longer than the
    test."""
    Path(marker).write_text("started", encoding="utf-8")
    time.sleep(GUARD_S)


def test_a_run_stopped_early_does_not_wait_for_the_chunks_still_queued(tmp_path: Path) -> None:
    before = set(multiprocessing.active_children())
    with engine.cluster.local_executor(2, 8) as executor:
        workers = [p for p in multiprocessing.active_children() if p not in before]
        for index in range(8):
            executor.submit(index, _started_then_sleeps, str(tmp_path / str(index)))
        # Both workers busy before the run stops (on a busy machine a worker may not have
        # taken a chunk yet, and would then leave on the pool's end-of-work message, exit 0).
        deadline = time.monotonic() + GUARD_S
        while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        left = executor.pending
    assert len(list(tmp_path.iterdir())) == 2  # two chunks started; six never did
    assert left == 8
    assert len(workers) == 2
    assert all(p.exitcode is not None and p.exitcode < 0 for p in workers), (
        [p.exitcode for p in workers])  # stopped by a signal mid-chunk, not left to finish
