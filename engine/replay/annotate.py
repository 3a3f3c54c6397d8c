"""Logs with their checkpoints: :class:`Annotator` writes a log again with every checkpoint the
engine computed in place (``truco replay --checkpoints``); :func:`strip_checkpoints` takes them
out.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import IO

from engine.actions import Action
from engine.game import Checkpoint, Match
from engine.logformat import dumps_event, header_variant
from engine.logread import CHECKPOINTS, LogItem, LogProblem, loads_strict
from engine.replay.fast import IGNORED_KEYS
from engine.replay.replayer import Replayer, Visitor, _same
from engine.variant import looks_like_path


class Annotator(Visitor):
    """Writes the log again with every checkpoint in place: header, moves and deals
    re-serialised as they were (key order, ``t`` and ``meta`` kept), each checkpoint the
    engine computed right after its move (a checkpoint of the input that equals the engine's is
    kept as it was written). Checkpoints that disagree with the engine are replaced and noted
    in :attr:`replaced`; any other problem is raised.

    With ``out_dir`` (the folder the new log goes to), a variant file in the header is named
    relative to that folder (:func:`engine.logformat.header_variant`) when its path from the
    input's folder ``base`` does not reach it from there."""

    def __init__(self, base: Path | None = None, out_dir: str | os.PathLike[str] | None = None
                 ) -> None:
        self.base = base
        self.out_dir = out_dir
        self.lines: list[str] = []
        self.replaced: list[LogProblem] = []
        self._engine: list[Checkpoint] = []
        self._kept: dict[int, str] = {}  # by the engine checkpoint's id: its line as written

    def _flush(self) -> None:
        for cp in self._engine:
            self.lines.append(self._kept.get(id(cp)) or dumps_event(cp))
        self._engine = []
        self._kept = {}

    def header(self, item: LogItem, match: Match) -> None:
        data = item.data
        ref = data["variant"]
        if self.out_dir is not None and looks_like_path(ref):
            where = os.path.join(self.base or ".", ref)
            same = os.path.realpath(os.path.join(self.out_dir, ref)) == os.path.realpath(where)
            if not same:
                data = {**data, "variant": header_variant(where, self.out_dir)}
        self.lines.append(dumps_event(data))

    def hand(self, match: Match, deal: LogItem | None) -> None:
        self._flush()
        if deal is not None:
            self.lines.append(dumps_event(deal.data))

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self._flush()
        self.lines.append(dumps_event(item.data))
        self._engine = list(checkpoints)

    def checkpoint(self, item: LogItem, engine: Checkpoint | None) -> None:
        given = {k: v for k, v in item.data.items() if k not in IGNORED_KEYS}
        if engine is not None and _same(given, engine):
            self._kept[id(engine)] = dumps_event(item.data)  # one move may cause several

    def reveal(self, item: LogItem) -> None:
        self._flush()
        self.lines.append(dumps_event(item.data))

    def problem(self, problem: LogProblem) -> None:
        if problem.kind == "checkpoint":
            self.replaced.append(problem)
            return
        raise problem

    def end(self, replayer: Replayer) -> None:
        self._flush()

    def text(self) -> str:
        """The annotated log, one line per event, each ending with a newline."""
        return "".join(line + "\n" for line in self.lines)


def annotate(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
             out_dir: str | os.PathLike[str] | None = None) -> tuple[str, list[LogProblem]]:
    """The log with every checkpoint filled in, and the input's checkpoints that the engine
    replaced. Raises :class:`LogProblem` for any other problem. ``base`` is the input's folder,
    ``out_dir`` the folder the result is written to (a variant file in the header is then named
    from there; see :class:`Annotator`).

    >>> text, replaced = annotate(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
    ...                           b'{"event": "play", "seat": 1, "card": "2h"}\\n', "a.jsonl")
    >>> text.splitlines()[-1]
    '{"event": "play", "seat": 1, "card": "2h"}'
    """
    visitor = Annotator(base, out_dir)
    Replayer(file, base, visitor).run_source(io.BytesIO(data) if isinstance(data, bytes)
                                             else data)  # engine.replay.replay
    return visitor.text(), visitor.replaced


def strip_checkpoints(text: str) -> str:
    """A log's text without its checkpoint lines (moves only).

    >>> strip_checkpoints('{"truco_log": 1, "variant": "x"}\\n{"event": "round", "winner": 0}\\n')
    '{"truco_log": 1, "variant": "x"}\\n'
    """
    out = []
    for line in text.splitlines(keepends=True):
        obj = loads_strict(line)
        if not (isinstance(obj, dict) and obj.get("event") in CHECKPOINTS):
            out.append(line)
    return "".join(out)
