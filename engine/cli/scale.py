"""``--jobs`` and ``--dask``: where ``truco verify``, ``truco simulate`` and ``truco
tournament`` run their chunks; ``--dask-timeout``: how long they wait for the cluster."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from engine.cluster import (
    CONNECT_TIMEOUT,
    ClusterError,
    Executor,
    dask_executor,
    local_executor,
    start_fork_server,
)
from engine.i18n import _

F = TypeVar("F", bound=Callable[..., Any])


#: Where ``--dask-timeout`` keeps its value for :func:`executor_for` (``ctx.meta``).
_TIMEOUT_KEY = "truco.dask_timeout"


def _keep_timeout(ctx: click.Context, _param: click.Parameter,
                  value: float | None) -> float | None:
    ctx.meta[_TIMEOUT_KEY] = value
    return value


def dask_option(what: str) -> Callable[[F], F]:
    """``--dask local|ADDRESS``: run the ``what`` on a Dask cluster; and ``--dask-timeout
    SECONDS``, read by :func:`executor_for` itself (the command does not see it)."""

    def decorate(f: F) -> F:
        f = click.option(
            "--dask-timeout", type=click.FloatRange(0, min_open=True), default=None,
            metavar="SECONDS", expose_value=False, callback=_keep_timeout,
            help="With --dask ADDRESS: how long to wait for the scheduler to answer and for "
                 "its first worker (else exit 2); with any --dask: how long a run goes on "
                 f"with no worker left before it stops (exit 1).  [default: "
                 f"{CONNECT_TIMEOUT:g}]")(f)
        return click.option(
            "--dask", "dask", metavar="local|ADDRESS", default=None,
            help=f"Run the {what} on a Dask cluster: 'local' starts one on this machine "
                 "(--jobs workers, by default one per core), else the address of a running "
                 "scheduler (tcp://host:8786). The output is the same. Needs "
                 "truco-engine[cluster].")(f)

    return decorate


def warm_up(dask: str | None) -> None:
    """Where ``--dask local`` will start a cluster, start its workers' fork server now: it
    imports Dask and the engine (about a second) while the command lists its logs and imports
    Dask itself."""
    if dask == "local":
        start_fork_server()


@contextlib.contextmanager
def executor_for(jobs: int, dask: str | None, chunks: int) -> Iterator[Executor]:
    """The executor of ``--jobs``/``--dask`` for ``chunks`` chunks of work: this process, a
    pool of ``jobs`` processes, or a Dask cluster (waited for ``--dask-timeout`` seconds). A
    missing Dask, a scheduler that cannot be reached or ``--jobs`` with a scheduler's address
    are usage errors (exit 2); a cluster left without workers mid-run ends the command with
    :class:`engine.cluster.ClusterLost` (exit 1)."""
    if dask is None:
        with local_executor(jobs, chunks) as executor:
            yield executor
        return
    if dask != "local" and jobs > 1:
        raise click.BadParameter(_("--jobs sets the workers of --dask local; a scheduler's "
                                   "workers are its own"), param_hint="--jobs")
    ctx = click.get_current_context(silent=True)
    timeout = None if ctx is None else ctx.meta.get(_TIMEOUT_KEY)  # None: CONNECT_TIMEOUT
    with contextlib.ExitStack() as stack:
        try:
            executor = stack.enter_context(dask_executor(dask, jobs if jobs > 1 else None,
                                                         timeout))
        except ClusterError as exc:
            raise click.UsageError(str(exc)) from None
        yield executor
