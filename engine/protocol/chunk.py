"""Bots over the protocol in a chunk of matches on a Dask worker (``--dask``).

A worker process of ``--jobs`` is a fork of the command's process: it has its folder, its
environment and its standard error, and it ends with the command (its bot processes with it).
A Dask worker has none of that: it runs on any machine, from its own folder, and it outlives
the command. So every chunk of matches sent to one takes :class:`BotSettings` with it
(:func:`engine.cluster.carry`): the folder the command was run from and the bots' time limits
(``TRUCO_BOT_MOVE_MS``, ``TRUCO_BOT_CLOCK_MS``). Around the chunk, on the worker, the bot
processes are started from that folder (where the worker has it: ``--dask local``, a shared
file system; else from the worker's own folder), they serve the chunk's matches one after
another and are ended, process groups and all, when the chunk ends; the faults they commit
are sent back with the chunk's result and printed by the command.

>>> with BotSettings("/", {"TRUCO_BOT_MOVE_MS": "500"}) as notes:
...     current().settings.environ["TRUCO_BOT_MOVE_MS"], notes
('500', [])
>>> current() is None
True
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from engine.cluster import carry

#: The environment variables a chunk takes from the command to its worker.
CARRIED_VARIABLES = ("TRUCO_BOT_MOVE_MS", "TRUCO_BOT_CLOCK_MS")


@dataclass(frozen=True)
class BotSettings:
    """What a chunk's bots need of the command's process: its folder and the variables of
    :data:`CARRIED_VARIABLES` it has. Entered (on the worker) it is the chunk's
    :class:`ChunkBots`, and gives the list its faults are reported into."""

    cwd: str
    environ: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def capture(cls) -> BotSettings:
        """This process's folder and variables."""
        return cls(os.getcwd(), {k: os.environ[k] for k in CARRIED_VARIABLES
                                 if k in os.environ})

    def __enter__(self) -> list[str]:
        chunk = ChunkBots(self)
        chunk.token = _CHUNK.set(chunk)
        return chunk.notes

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        chunk = _CHUNK.get()
        if chunk is None or chunk.token is None:
            return
        _CHUNK.reset(chunk.token)
        chunk.end()


class ChunkBots:
    """One chunk's bot processes on a worker: its idle pool (by command), every process it
    started, and the lines its faults reported."""

    def __init__(self, settings: BotSettings) -> None:
        self.settings = settings
        self.idle: dict[tuple[str, ...], list[Any]] = {}
        self.started: list[Any] = []
        self.notes: list[str] = []
        self.token: contextvars.Token[ChunkBots | None] | None = None

    @property
    def cwd(self) -> str | None:
        """The folder to start a bot from: the command's, where this machine has it."""
        return self.settings.cwd if os.path.isdir(self.settings.cwd) else None

    def end(self) -> None:
        """End every bot process the chunk started (``quit``, then its process group)."""
        for channel in self.started:
            stdin = channel.proc.stdin
            if stdin is None or stdin.closed:
                continue  # ended already (it failed): its process id may be another's now
            channel.close() if channel.proc.poll() is None else channel.kill()
        self.started.clear()
        self.idle.clear()


_CHUNK: contextvars.ContextVar[ChunkBots | None] = contextvars.ContextVar(
    "truco_chunk_bots", default=None)


def current() -> ChunkBots | None:
    """The chunk this thread runs on a Dask worker, or ``None`` (the command's own process,
    or a worker of ``--jobs``)."""
    return _CHUNK.get()


carry(BotSettings.capture)
