"""The fast path of a replay: what is made once of a line's bytes (its plan), and the loop that
replays a log's lines from their plans (:meth:`engine.replay.Replayer.run_source`).

A move or checkpoint line whose bytes were met before is replayed from its plan, without parsing
or checking it again and without a :class:`~engine.logread.LogItem`; any other line goes the
reader's way (:func:`engine.logread.read_line` and the replayer's items). The same problems, in
the same order, at the same lines as :meth:`~engine.replay.Replayer.run`.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import IllegalMoveError
from engine.logread import LogItem, LogProblem, empty_log, log_lines, read_line
from engine.logversion import LATEST

if TYPE_CHECKING:
    from engine.replay.replayer import Replayer

#: Keys of an event that the engine ignores (kept as they are, never compared).
IGNORED_KEYS = ("t", "meta")

# What the replay needs of each distinct good event line, made once per process from the
# line's bytes (the reader hands them with a line it keeps, LogItem.raw; what a line is depends
# on its bytes alone): a move line's Action (an immutable value), or a checkpoint line's event
# and its fields without the ignored keys (compared, never handed to a visitor). Bounded.
_Plan = tuple[str, str, Action | None, dict[str, Any] | None]
_PLANS: dict[bytes, _Plan] = {}
_PLANS_MAX = 4096


def _plan(item: LogItem) -> _Plan:
    """The plan of a good event line (a move or a checkpoint), from the cache if its bytes
    were met before."""
    raw = item.raw
    plan = _PLANS.get(raw) if raw is not None else None
    if plan is None:
        if item.kind == "checkpoint":
            given = {k: v for k, v in item.data.items() if k not in IGNORED_KEYS}
            plan = (item.kind, item.event, None, given)
        else:
            plan = (item.kind, item.event, Action.from_event(item.data), None)
        if raw is not None:
            if len(_PLANS) >= _PLANS_MAX:
                _PLANS.clear()
            _PLANS[raw] = plan
    return plan


def run_plans(r: Replayer, source: IO[bytes] | bytes) -> None:
    """Replay the lines of ``source`` with ``r`` (whose visitor takes no move or checkpoint),
    each line met before from its plan, then call the visitor's ``end``."""
    file = r.file
    plans = _PLANS
    line = 0
    version = LATEST  # the header's, once read (engine.logversion)
    for body in log_lines(source, file):
        if isinstance(body, LogProblem):  # a limit: the reading ends
            r._item(body)
            r._finish()  # its problem is the log's: not also called empty
            return
        line += 1
        plan = plans.get(body) if line > 1 else None
        if plan is None:  # a line not met before (or the header): the reader's way
            item = read_line(body, line, file, version)
            if line == 1 and isinstance(item, LogItem):
                version = item.data["truco_log"]
            r._item(item)
            if isinstance(item, LogItem) and item.raw is not None:
                _plan(item)  # what a line it kept is, for the next time
            continue
        r.lines = line
        m = r.match
        if m is None or r.stopped:
            r.after_reveal(line)
            continue
        kind, event, action, given = plan
        if kind == "checkpoint":
            cps, j = r._cps, r._cp_next
            if j < len(cps) and cps[j] == given:  # the usual case: the next one, equal
                r._cp_next = j + 1
            else:
                r._checkpoint_at(line, event, given, None)  # type: ignore[arg-type]
            continue
        # What _item and _move_at do with a move, inline (but the hand's bookkeeping).
        r._new_hand_check()
        if m.is_over:
            r._stop("after_end", f"{event} after the match ended (at line "
                    f"{r._end_line})", line)
            continue
        if m.awaiting_deal:
            r._move_at(line, action, None)  # type: ignore[arg-type]
            continue
        if not r._announced:
            r._announce(None)
        why: str | None = None
        try:
            cps = m.apply(action)
        except IllegalMoveError as exc:
            why, code = exc.message, exc.code
        if why is not None:  # reported outside the except: a raised problem has no context
            r._stop("illegal", f"illegal move [{code}]: {why}", line, code)
            continue
        r._hand_events += 1
        r._cps = cps
        r._move_line = line
        if m.is_over:
            r._end_line = line
        if r.sealed is not None:
            r.sealed.move(line, action)  # type: ignore[arg-type]
    if line == 0:
        r._item(empty_log(file))
    r._finish()
