"""The identity of a game log: what ties a report made of it (``truco analyze``) to the very
log it was made of, whichever way the log is written.

:class:`LogDigest` is a SHA-256 of the log's header, then of each deal and move, in order,
each as canonical JSON (keys sorted, no spaces): two logs of the same game with the same
header have the same digest, with or without their checkpoints (which the engine fills in)
and however their lines are spaced; another seed, other cards, another variant reference or
one move more or less gives another.

>>> from engine.logread import LogItem
>>> a, b = LogDigest(), LogDigest()
>>> for d in (a, b):
...     d.add(LogItem(1, "header", {"truco_log": 1, "variant": "paulista", "seed": 7}))
>>> a.add(LogItem(2, "move", {"event": "play", "seat": 1, "card": "2h"}))
>>> b.add(LogItem(2, "move", {"seat": 1, "event": "play", "card": "2h"}))
>>> a.hexdigest() == b.hexdigest() and len(a.hexdigest()) == 64
True
"""

from __future__ import annotations

import hashlib
import json

from engine.logread import LogItem


class LogDigest:
    """The SHA-256 of a log's header, deals and moves (the module docstring): :meth:`add`
    each in the log's order, then :meth:`hexdigest`."""

    def __init__(self) -> None:
        self._sha = hashlib.sha256()

    def add(self, item: LogItem) -> None:
        """One line of the log: its header, a deal or a move (a checkpoint is left out)."""
        if item.kind != "checkpoint":
            self._sha.update(json.dumps(item.data, sort_keys=True, ensure_ascii=False,
                                        separators=(",", ":")).encode("utf-8") + b"\n")

    def hexdigest(self) -> str:
        """The digest so far, 64 hexadecimal digits."""
        return self._sha.hexdigest()
