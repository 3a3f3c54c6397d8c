"""``truco play --resume`` and ``--position``: a log that truco play wrote, verified and
replayed strictly, or a position file read, as the match to go on from."""


from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.bots import bot_problem
from engine.errors import LogError, PositionError, TrucoError
from engine.game import Checkpoint, Match
from engine.logread import MAX_FILE_BYTES, LogItem, loads_strict, read_log
from engine.reading import read_regular
from engine.replay import Visitor, replay
from engine.rules import Rules
from engine.shuffle import SplitMix64
from engine.telling import HUMAN, seat_names


class _ResumeVisitor(Visitor):
    """A strict replay (the first problem is raised) that keeps the log's moves."""

    def __init__(self) -> None:
        self.moves: list[LogItem] = []

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self.moves.append(item)


def _resume(path: str) -> tuple[dict[str, Any], Match, list[Action], bytes, int]:
    """Verify the log strictly; return its header, the match rebuilt from it, its moves, its
    data and the bots' seed (the header's seed; for a log that starts from a position, the
    ``bots_seed`` truco play writes in its ``meta``)."""
    p = Path(path)
    try:
        data = read_regular(p, MAX_FILE_BYTES)  # bounded, a regular file (engine.reading)
    except OSError as exc:
        raise LogError(f"cannot read the log: {exc.strerror}", file=path, line=1) from None
    visitor = _ResumeVisitor()
    replayer = replay(data, path, visitor, p.resolve().parent)
    first = next(iter(read_log(data, path)))
    if not isinstance(first, LogItem):
        raise first
    header = first.data
    assert replayer.rules is not None
    _played_here(header, replayer.rules.players, path)
    moves = [Action.from_event(item.data) for item in visitor.moves]
    if "position" in header:
        bots_seed = (header.get("meta") or {}).get("bots_seed")
        if (type(bots_seed) is not int or not 0 <= bots_seed < 1 << 64
                or header["position"].get("rng") is None):
            raise LogError("only a log that truco play --position wrote can be resumed "
                           "from a position (its meta has no bots_seed)", file=path, line=1)
        match = Match.from_position(replayer.rules, header["position"])
        return header, match, moves, data, bots_seed
    if header.get("seed") is None:
        raise LogError("only a seeded log can be resumed (its header has no seed)",
                       file=path, line=1)
    match = Match(replayer.rules, seed=header["seed"], dealer=header.get("dealer", 0))
    return header, match, moves, data, header["seed"]


def _played_here(header: dict[str, Any], players: int, path: str) -> None:
    """Refuse (:class:`~engine.errors.LogError`, line 1) a log that ``truco play`` did not
    write: its header's ``meta`` must say ``"tool": "truco play"`` and give the seat of the
    person (``human``) and every seat's player (``bots``), and its ``players`` must be the
    names play gives those seats. Another program's log, or a recorded game, is never taken
    over and written into."""
    meta = header.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    human, kinds = meta.get("human"), meta.get("bots")
    why = None
    if meta.get("tool") != "truco play":
        why = 'its header\'s meta has no "tool": "truco play"'
    elif (type(human) is not int or not isinstance(kinds, list) or len(kinds) != players
          or not 0 <= human < players
          or not all(isinstance(k, str) and (k == HUMAN) == (s == human)
                     and (k == HUMAN or bot_problem(k) is None) for s, k in enumerate(kinds))):
        why = "its header's meta does not name the seat of the person and the bots"
    elif header.get("players", seat_names(kinds)) != seat_names(kinds):
        why = "its header's players are not the names truco play gives its seats"
    if why is not None:
        raise LogError(f"only a log that truco play wrote can be resumed ({why}); "
                       "truco replay shows it", file=path, line=1)


def _json_where(text: str) -> tuple[int, int] | tuple[None, None]:
    """The 1-based line and column where ``text`` stops being JSON (Python's own reader
    knows them), or ``(None, None)`` where the problem has no place (a duplicate key...)."""
    import json

    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno
    except (ValueError, RecursionError):
        pass
    return None, None


#: A position file larger than this is refused (a position is a few KiB).
MAX_POSITION_BYTES = 1 << 20


def position_match(rules: Rules, path: str, seed: int) -> Match:
    """The match at the position in the file ``path`` (a JSON position, as ``truco position``
    prints it). A position without a generator's state (``rng`` null) deals its later hands
    from ``seed`` (and its awaited hand at once). Raises :class:`~engine.errors.TrucoError`
    naming the file for a file that cannot be read, is not JSON, or is not a possible
    position (with the position's code and field)."""
    try:
        data = read_regular(path, MAX_POSITION_BYTES)  # a regular file (engine.reading)
    except OSError as exc:
        raise TrucoError(f"cannot read the position: {exc.strerror}", file=path) from None
    if len(data) > MAX_POSITION_BYTES:
        raise TrucoError(f"bad position: larger than {MAX_POSITION_BYTES // 1024} KiB",
                         file=path)
    why: str | None = None
    place: tuple[int, int] | tuple[None, None] = (None, None)
    try:
        text = data.decode("utf-8")
        position = loads_strict(text)
    except UnicodeDecodeError as exc:
        why = f"invalid UTF-8 at byte {exc.start + 1}"
    except ValueError as exc:
        why = f"invalid JSON: {exc}"
        place = _json_where(text)
        if place[0] is not None:
            why = why.rsplit(" at column ", 1)[0]  # the column is in the place, file:line:col
    if why is not None:
        raise TrucoError(f"bad position: {why}", file=path, line=place[0], column=place[1])
    try:
        match = Match.from_position(rules, position)
    except PositionError as exc:
        where = exc.path or "position"
        why = f"bad position: {exc.code}: {where}: {exc.why}"
    if why is not None:  # raised outside the except: no chained context
        raise TrucoError(why, file=path)
    if match.rng is None:
        match.rng = SplitMix64(seed)
        if match.awaiting_deal:
            match.deal_next()
    return match
