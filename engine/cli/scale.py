"""``--jobs`` and ``--dask``: where ``truco verify`` and ``truco simulate`` run their chunks."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from engine.cluster import (
    ClusterError,
    Executor,
    dask_executor,
    local_executor,
    start_fork_server,
)

F = TypeVar("F", bound=Callable[..., Any])


def dask_option(what: str) -> Callable[[F], F]:
    """``--dask local|ADDRESS``: run the ``what`` on a Dask cluster."""
    return click.option(
        "--dask", "dask", metavar="local|ADDRESS", default=None,
        help=f"Run the {what} on a Dask cluster: 'local' starts one on this machine (--jobs "
             "workers, by default one per core), else the address of a running scheduler "
             "(tcp://host:8786). The output is the same. Needs truco-engine[cluster].")


def warm_up(dask: str | None) -> None:
    """Where ``--dask local`` will start a cluster, start its workers' fork server now: it
    imports Dask and the engine (about a second) while the command lists its logs and imports
    Dask itself."""
    if dask == "local":
        start_fork_server()


@contextlib.contextmanager
def executor_for(jobs: int, dask: str | None, chunks: int) -> Iterator[Executor]:
    """The executor of ``--jobs``/``--dask`` for ``chunks`` chunks of work: this process, a
    pool of ``jobs`` processes, or a Dask cluster. A missing Dask, a scheduler that cannot be
    reached or ``--jobs`` with a scheduler's address are usage errors (exit 2)."""
    if dask is None:
        with local_executor(jobs, chunks) as executor:
            yield executor
        return
    if dask != "local" and jobs > 1:
        raise click.BadParameter("--jobs sets the workers of --dask local; a scheduler's "
                                 "workers are its own", param_hint="--jobs")
    with contextlib.ExitStack() as stack:
        try:
            executor = stack.enter_context(dask_executor(dask, jobs if jobs > 1 else None))
        except ClusterError as exc:
            raise click.UsageError(str(exc)) from None
        yield executor
