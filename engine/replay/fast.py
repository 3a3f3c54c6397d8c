"""The fast path of a replay: what is made once of a line's bytes (its plan), from which
:meth:`engine.replay.Replayer.run_source` replays a line met before.

A move or checkpoint line whose bytes were met before is replayed from its plan, without parsing
or checking it again and without a :class:`~engine.logread.LogItem`; any other line goes the
reader's way (:func:`engine.logread.read_line` and the replayer's items). The same problems, in
the same order, at the same lines as :meth:`~engine.replay.Replayer.run`.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.logread import LogItem

#: Keys of an event that the engine ignores (kept as they are, never compared).
IGNORED_KEYS = ("t", "meta")

# What the replay needs of each distinct good event line, made once per process from the
# line's bytes (the reader hands them with a line it keeps, LogItem.raw; what a line is depends
# on its bytes alone): a move line's Action (an immutable value), or a checkpoint line's event
# and its fields without the ignored keys (compared, never handed to a visitor). Bounded.
_Plan = tuple[str, str, Action | None, dict[str, Any] | None]
PLANS: dict[bytes, _Plan] = {}
PLANS_MAX = 4096


def plan_of(item: LogItem) -> _Plan:
    """The plan of a good event line (a move or a checkpoint), from the cache if its bytes
    were met before."""
    raw = item.raw
    plan = PLANS.get(raw) if raw is not None else None
    if plan is None:
        if item.kind == "checkpoint":
            given = {k: v for k, v in item.data.items() if k not in IGNORED_KEYS}
            plan = (item.kind, item.event, None, given)
        else:
            plan = (item.kind, item.event, Action.from_event(item.data), None)
        if raw is not None:
            if len(PLANS) >= PLANS_MAX:
                PLANS.clear()
            PLANS[raw] = plan
    return plan
