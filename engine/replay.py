"""Replaying game logs through the engine: verification, and logs annotated with their
checkpoints.

A :class:`Replayer` takes the positioned items of :func:`engine.logread.read_log`, builds the
:class:`~engine.game.Match` the header describes, applies every move and deal, compares each
checkpoint with the engine's, and tells a :class:`Visitor` what happened. Visitors decide what a
problem means (python-chess style: one reader, several handlers):

- :class:`Visitor` itself is strict: it raises the first problem (a :class:`LogProblem`).
- :class:`Collector` is lenient: it notes every problem and lets the replay go on as far as it
  makes sense (a checkpoint mismatch or a seeded deal mismatch go on with the engine's view; an
  illegal move stops the replay, but the remaining lines are still checked as JSON and schema).
  A line that cannot be read (bad JSON or UTF-8), or a move that fails the schema, stops the
  replay the same way: the move it stood for is unknown, so the moves after it are not judged
  against a state it left undefined (no knock-on "illegal move" on the next good line). A bad
  checkpoint line, a blank line or a second header lose no move: the replay goes on.
- :class:`Annotator` writes the log again with every checkpoint filled in.
- :class:`engine.transcript.Transcript` writes it for people.

>>> result = verify_bytes(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...                       b'{"event": "play", "seat": 1, "card": "2h"}\\n', "a.jsonl")
>>> result.valid, result.incomplete is not None
(True, True)
>>> str(result.incomplete)
'a.jsonl:2: incomplete: the log ends before the match is over (hand 1, score [0, 0], games [0, 0])'
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from engine.actions import Action, Deal
from engine.cards import card_name, parse_card
from engine.errors import IllegalMoveError, PositionError, VariantError
from engine.game import Checkpoint, Match
from engine.logformat import dumps_event, header_variant
from engine.logread import (
    CHECKPOINTS,
    MAX_FILE_BYTES,
    LogItem,
    LogProblem,
    ProblemKind,
    decompressed,
    empty_log,
    loads_strict,
    log_lines,
    read_line,
    read_log,
)
from engine.logversion import LATEST, header_problem
from engine.position import hand_has_moves
from engine.reading import read_regular
from engine.rules import Rules
from engine.variant import is_shipped_name, load, looks_like_path

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


class Visitor:
    """What a replay tells as it goes. Every method does nothing by default, except
    :meth:`problem`, which raises: the base visitor verifies strictly."""

    def header(self, item: LogItem, match: Match) -> None:
        """The header was read and the match built."""

    def hand(self, match: Match, deal: LogItem | None) -> None:
        """A hand starts: its cards are known (``deal`` is its ``deal`` event, if any)."""

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        """A move was applied; ``checkpoints`` are what the engine made of it."""

    def checkpoint(self, item: LogItem, engine: Checkpoint | None) -> None:
        """A checkpoint line of the log, with the engine's checkpoint it stands for (``None``
        when the move did not cause one of its kind)."""

    def problem(self, problem: LogProblem) -> None:
        """A problem at a line. Raise to stop the replay; return to go on."""
        raise problem

    def end(self, replayer: Replayer) -> None:
        """The log is over (``replayer.incomplete`` says whether the match is)."""


#: Problems kept per log: the first ones; the others are counted (``ReplayResult.more``).
MAX_PROBLEMS = 100


class Collector(Visitor):
    """A lenient visitor: notes every problem and lets the replay go on. It keeps the first
    ``limit`` problems and counts the others in :attr:`more` (a log of a million bad lines
    costs no more memory than one of a hundred), but keeps a reading limit's problem, the
    last of a log, whatever came before it."""

    def __init__(self, limit: int = MAX_PROBLEMS) -> None:
        self.problems: list[LogProblem] = []
        self.limit = limit
        #: Problems found after the first ``limit``, not kept.
        self.more = 0

    def problem(self, problem: LogProblem) -> None:
        if len(self.problems) < self.limit or problem.kind == "limit":
            self.problems.append(problem)
        else:
            self.more += 1


@dataclass
class ReplayResult:
    """The outcome of verifying one log."""

    file: str
    #: The first problems found (at most :data:`MAX_PROBLEMS`).
    problems: list[LogProblem] = field(default_factory=list)
    #: Set when the log ends before its match is over (the log is valid even so).
    incomplete: LogProblem | None = None
    lines: int = 0
    hands: int = 0
    score: list[int] | None = None
    games: list[int] | None = None
    winner: int | None = None
    #: How many problems were found after those kept.
    more: int = 0

    @property
    def valid(self) -> bool:
        """No problem found (an incomplete log is valid)."""
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data (``truco verify --json``)."""
        status = "invalid" if self.problems else ("incomplete" if self.incomplete else "valid")
        return {"file": self.file, "status": status, "valid": self.valid,
                "incomplete": self.incomplete is not None, "lines": self.lines,
                "hands": self.hands, "score": self.score, "games": self.games,
                "winner": self.winner,
                "problems": [p.as_dict() for p in self.problems],
                "more_problems": self.more,
                "note": None if self.incomplete is None else self.incomplete.as_dict()}


def resolve_variant(ref: str, base: Path | None) -> Rules:
    """A header's ``variant``: a shipped name, or a path to a YAML file relative to ``base``
    (the log's folder). Deprecated: :func:`engine.variant.load` (``load(ref, base=base)``),
    which keeps what it loaded. Raises :class:`~engine.errors.VariantError`.

    >>> resolve_variant("mineiro", None).top_value
    9
    """
    return load(ref, base=base)


def header_rules(ref: str, base: Path | None) -> tuple[Rules, str]:
    """:func:`resolve_variant` with the rules' fingerprint (``variant_sha256``). Deprecated:
    :func:`engine.variant.load` and the rules' ``fingerprint``."""
    rules = load(ref, base=base)
    return rules, rules.fingerprint


class Replayer:
    """Replays one log's items through the engine, telling ``visitor`` what happens.

    >>> from engine.logread import read_log
    >>> log = (b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
    ...        b'{"event": "fold", "seat": 1}\\n')
    >>> Replayer("a.jsonl", None, Visitor()).run(read_log(log, "a.jsonl"))
    Traceback (most recent call last):
    engine.logread.LogProblem: a.jsonl:2: illegal move [not_now]: fold 1: no raise is waiting \
for an answer; legal: play 1 2h, play 1 7h, play 1 Jh, raise 1 3
    """

    def __init__(self, file: str, base: Path | None, visitor: Visitor, *,
                 rules: Rules | None = None) -> None:
        self.file = file
        self.base = base
        self.visitor = visitor
        #: Replay under these rules instead of the header's variant (``truco compare``).
        self.override = rules
        # Where base is None: makes the log's folder when a variant file needs it (verify_file).
        self._base_of: Callable[[], Path] | None = None
        self.match: Match | None = None
        self.rules: Rules | None = None
        #: No more replay (bad header, illegal move, missing deal, events after the end).
        self.stopped = False
        self.lines = 0
        self.incomplete: LogProblem | None = None
        self._hand = -1  # the hand number the counters below are about
        self._hand_events = 0  # moves and deals seen in it
        self._announced = False  # visitor.hand called for it
        self._cps: list[Checkpoint] = []  # checkpoints of the last move
        self._cp_next = 0
        self._move_line: int | None = None
        self._end_line: int | None = None

    # -- the loop -------------------------------------------------------------------------------
    def run(self, items: Iterable[LogItem | LogProblem]) -> None:
        """Replay every item, then call the visitor's ``end``."""
        for item in items:
            self._item(item)
        self._finish()

    def run_source(self, source: IO[bytes] | bytes) -> None:
        """``run(read_log(source, self.file))``, faster for a visitor that takes no move or
        checkpoint (one that leaves :meth:`Visitor.move` and :meth:`Visitor.checkpoint` as
        they are, like :class:`Visitor` and :class:`Collector`): a move or checkpoint line
        whose bytes were met before is replayed from what was made of them then, without
        parsing or checking it again and without a :class:`LogItem`. The same problems, in the
        same order, at the same lines."""
        visitor = type(self.visitor)
        if visitor.move is not Visitor.move or visitor.checkpoint is not Visitor.checkpoint:
            self.run(read_log(source, self.file))
            return
        file = self.file
        plans = _PLANS
        line = 0
        version = LATEST  # the header's, once read (engine.logversion)
        for body in log_lines(source, file):
            if isinstance(body, LogProblem):  # a limit: the reading ends
                self._item(body)
                self._finish()  # its problem is the log's: not also called empty
                return
            line += 1
            plan = plans.get(body) if line > 1 else None
            if plan is None:  # a line not met before (or the header): the reader's way
                item = read_line(body, line, file, version)
                if line == 1 and isinstance(item, LogItem):
                    version = item.data["truco_log"]
                self._item(item)
                if isinstance(item, LogItem) and item.raw is not None:
                    _plan(item)  # what a line it kept is, for the next time
                continue
            self.lines = line
            m = self.match
            if m is None or self.stopped:
                continue
            kind, event, action, given = plan
            if kind == "checkpoint":
                cps, j = self._cps, self._cp_next
                if j < len(cps) and cps[j] == given:  # the usual case: the next one, equal
                    self._cp_next = j + 1
                else:
                    self._checkpoint_at(line, event, given, None)  # type: ignore[arg-type]
                continue
            # What _item, _new_hand_check and _move_at do with a move, inline.
            if m.hand_number != self._hand:
                self._hand = m.hand_number
                self._hand_events = 0
                self._announced = False
            self._cps = []
            self._cp_next = 0
            self._move_line = None
            if m.is_over:
                self._stop("after_end", f"{event} after the match ended (at line "
                           f"{self._end_line})", line)
                continue
            if m.awaiting_deal:
                self._move_at(line, action, None)  # type: ignore[arg-type]
                continue
            if not self._announced:
                self._announce(None)
            why: str | None = None
            try:
                cps = m.apply(action)  # type: ignore[arg-type]
            except IllegalMoveError as exc:
                why, code = exc.message, exc.code
            if why is not None:  # reported outside the except: a raised problem has no context
                self._stop("illegal", f"illegal move [{code}]: {why}", line, code)
                continue
            self._hand_events += 1
            self._cps = cps
            self._move_line = line
            if m.is_over:
                self._end_line = line
        if line == 0:
            self._item(empty_log(file))
        self._finish()

    def _item(self, item: LogItem | LogProblem) -> None:
        self.lines = item.line or self.lines
        if isinstance(item, LogProblem):
            if item.line == 1 or item.may_be_a_move:
                self.stopped = True  # no header, no match; or a move that is unknown
            self.visitor.problem(item)
            return
        if item.kind == "header":
            self._header(item)
        elif self.match is None or self.stopped:
            return
        elif item.kind == "checkpoint":
            given = _plan(item)[3]
            assert given is not None
            self._checkpoint_at(item.line, item.event, given, item)
        else:
            self._new_hand_check()
            if self.match.is_over:
                self._stop("after_end", f"{item.event} after the match ended (at line "
                           f"{self._end_line})", item.line)
            elif item.kind == "deal":
                self._deal(item)
            else:
                self._move(item)

    def _finish(self) -> None:
        if self.match is not None and not self.stopped and not self.match.is_over:
            m = self.match
            self.incomplete = LogProblem(
                "incomplete", f"incomplete: the log ends before the match is over (hand "
                f"{m.hand_number}, score {m.score}, games {m.games})", file=self.file,
                line=max(self.lines, 1))
        self.visitor.end(self)

    def _problem(self, kind: ProblemKind, message: str, line: int,
                 code: str | None = None) -> None:
        self.visitor.problem(LogProblem(kind, message, file=self.file, line=line, code=code))

    def _stop(self, kind: ProblemKind, message: str, line: int, code: str | None = None) -> None:
        self.stopped = True
        self._problem(kind, message, line, code)

    # -- header ---------------------------------------------------------------------------------
    def _header(self, item: LogItem) -> None:
        h = item.data
        ref = h["variant"]
        try:
            if self.override is not None:
                rules, fingerprint = self.override, ""
            else:
                if self.base is None and self._base_of is not None and (
                        not is_shipped_name(ref)):
                    self.base = self._base_of()  # only a variant file needs the log's folder
                rules, fingerprint = header_rules(ref, self.base)
        except VariantError as exc:
            text = str(exc).splitlines()[0]
            if not text.startswith(("unknown variant", "no variant file")):
                text = f"variant {ref!r} is invalid: {text}"
            self._stop("variant", text, item.line)
            return
        sha = h.get("variant_sha256")
        if sha is not None and self.override is None and sha != fingerprint:
            self._problem("variant", f"variant_sha256 {sha} does not match the fingerprint of "
                          f"variant {ref!r}, {fingerprint}: the rules changed since the "
                          "log was written", item.line)
        position = h.get("position")
        if position is not None:
            self._position_header(item, rules)
            return
        dealer = h.get("dealer", 0)
        if dealer >= rules.players:
            self._stop("header", f"bad header: dealer {dealer} is not a seat of this variant "
                       f"(0..{rules.players - 1})", item.line)
            return
        players = h.get("players")
        if players is not None and len(players) != rules.players:
            self._problem("header", f"bad header: players names {len(players)} players, the "
                          f"variant seats {rules.players}", item.line)
        why = header_problem(h["truco_log"], rules)
        if why is not None:
            self._stop("header", f"bad header: {why}", item.line)
            return
        self.rules = rules
        self.match = Match(rules, seed=h.get("seed"), dealer=dealer)
        self.visitor.header(item, self.match)

    def _position_header(self, item: LogItem, rules: Rules) -> None:
        """A header that starts the match at a position (docs/positions.md): version 2, no
        ``seed`` or ``dealer`` (the position holds the generator's state and the dealer)."""
        h = item.data
        why = header_problem(h["truco_log"], rules, position=True)
        if why is None and ("seed" in h or "dealer" in h):
            key = "seed" if "seed" in h else "dealer"
            why = (f"a header with a position has no {key}: the position holds the "
                   "generator's state (rng) and the dealer")
        if why is not None:
            self._stop("header", f"bad header: {why}", item.line)
            return
        players = h.get("players")
        if players is not None and len(players) != rules.players:
            self._problem("header", f"bad header: players names {len(players)} players, the "
                          f"variant seats {rules.players}", item.line)
        try:
            m = Match.from_position(rules, h["position"])
        except PositionError as exc:
            where = f"position.{exc.path}" if exc.path else "position"
            self._stop("header", f"bad header: {exc.code}: {where}: {exc.why}", item.line,
                       exc.code)
            return
        self.rules = rules
        self.match = m
        if hand_has_moves(m):
            self._hand = m.hand_number  # the hand has moves: no deal line for it now
            self._hand_events = 1
        self.visitor.header(item, m)

    # -- moves and deals ------------------------------------------------------------------------
    def _new_hand_check(self) -> None:
        m = self.match
        assert m is not None
        if m.hand_number != self._hand:
            self._hand = m.hand_number
            self._hand_events = 0
            self._announced = False
        self._cps = []
        self._cp_next = 0
        self._move_line = None

    def _announce(self, deal: LogItem | None) -> None:
        assert self.match is not None
        if not self._announced:
            self._announced = True
            self.visitor.hand(self.match, deal)

    def _deal(self, item: LogItem) -> None:
        m = self.match
        assert m is not None
        d = item.data
        if m.rng is None:  # no seed (nor a position's generator): deal lines deal
            if not m.awaiting_deal:
                self._problem("deal", "a deal is the first event of its hand: this hand was "
                              "dealt already", item.line)
                return
            why = None
            deal = Deal.of(d["dealer"], d["hands"], d.get("vira"))
            try:
                m.deal(deal)
            except IllegalMoveError as exc:
                why = exc.why
            if why is not None:
                self._stop("deal", f"deal mismatch: {why}", item.line)
                return
            self._new_hand_check()
            self._hand_events = 1
            self._announce(item)
            return
        if self._hand_events:
            self._problem("deal", "a deal is the first event of its hand: this hand has "
                          "events already", item.line)
            return
        self._hand_events = 1
        found = self._seeded_deal_mismatch(m, d)
        if found is not None:
            self._problem("deal", f"deal mismatch: {found}", item.line)
        self._announce(item)

    @staticmethod
    def _seeded_deal_mismatch(m: Match, d: dict[str, Any]) -> str | None:
        if d["dealer"] != m.dealer:
            return f"the dealer is seat {m.dealer} by rotation, not {d['dealer']}"
        hands = d["hands"]
        if len(hands) != len(m.dealt):
            return f"expected {len(m.dealt)} hands, found {len(hands)}"
        for seat, (found, dealt) in enumerate(zip(hands, m.dealt, strict=True)):
            if sorted(parse_card(c) for c in found) != sorted(dealt):
                return (f"seat {seat} holds {' '.join(found)}, the seed deals "
                        f"{' '.join(card_name(c) for c in dealt)}")
        vira = d.get("vira")
        seeded = None if m.vira is None else card_name(m.vira)
        if vira != seeded:
            return f"the vira is {vira or 'missing'}, the seed turns {seeded or 'none'}"
        return None

    def _move(self, item: LogItem) -> None:
        m = self.match
        assert m is not None
        if m.awaiting_deal:
            self._stop("deal", f"hand {m.hand_number + 1} has no deal event: a log without a "
                       "seed deals every hand with one, before its first move", item.line)
            return
        action = _plan(item)[2]
        assert action is not None
        self._move_at(item.line, action, item)

    def _move_at(self, line: int, action: Action, item: LogItem | None) -> None:
        """A move at ``line``; ``item`` is ``None`` where the visitor takes no move."""
        m = self.match
        assert m is not None
        if m.awaiting_deal:
            self._stop("deal", f"hand {m.hand_number + 1} has no deal event: a log without a "
                       "seed deals every hand with one, before its first move", line)
            return
        if not self._announced:
            self._announce(None)
        why: str | None = None
        try:
            cps = m.apply(action)
        except IllegalMoveError as exc:
            why, code = exc.message, exc.code
        if why is not None:  # reported outside the except: a raised problem has no context
            self._stop("illegal", f"illegal move [{code}]: {why}", line, code)
            return
        self._hand_events += 1
        self._cps = cps
        self._cp_next = 0
        self._move_line = line
        if m.is_over:
            self._end_line = line
        if item is not None:
            self.visitor.move(item, action, m, cps)

    # -- checkpoints ----------------------------------------------------------------------------
    def _checkpoint_at(self, line: int, kind: str, given: dict[str, Any],
                       item: LogItem | None) -> None:
        """A checkpoint line at ``line`` of event ``kind``, its fields ``given`` (without the
        ignored keys); ``item`` is ``None`` where the visitor takes no checkpoint."""
        cps = self._cps
        j = self._cp_next
        if j < len(cps) and cps[j] == given:  # the usual case: the next one, equal
            found: int | None = j
        elif kind in _UNORDERED:  # lines in any order: the seat's is found below
            found = next((i for i in range(j, len(cps)) if cps[i]["event"] == kind), None)
        else:  # optional one by one: an equal one further on, else the next of its kind
            found = next((i for i in range(j, len(cps)) if cps[i] == given), None)
            if found is None and given not in cps[:j]:
                found = next((i for i in range(j, len(cps)) if cps[i]["event"] == kind), None)
        if found is None:
            if self._move_line is None:
                self._problem("checkpoint", f"{kind} checkpoint not caused by a move: a "
                              "checkpoint stands right after the move that caused it", line)
            elif any(cp["event"] == kind for cp in cps[:j]):
                self._problem("checkpoint", f"{kind} checkpoint repeated or out of order: the "
                              f"move at line {self._move_line} caused "
                              f"{', '.join(cp['event'] for cp in cps)}, in that order", line)
            else:
                self._problem("checkpoint", f"{kind} checkpoint not caused by the move at line "
                              f"{self._move_line} (it caused "
                              f"{', '.join(cp['event'] for cp in cps) or 'none'})", line)
            if item is not None:
                self.visitor.checkpoint(item, None)
            return
        if kind in _UNORDERED:
            found = self._unordered(found, given)
            cps = self._cps
        self._cp_next = found + 1
        engine = cps[found]
        if not _same(given, engine):
            self._problem("checkpoint", f"checkpoint mismatch: expected {dumps_event(engine)}, "
                          f"found {dumps_event(given)}", line)
        if item is not None:
            self.visitor.checkpoint(item, engine)


    def _unordered(self, found: int, given: dict[str, Any]) -> int:
        """Of the run of checkpoints of ``given``'s kind from ``found`` on (the lines of one
        move whose order docs/log-format.md leaves free: ``side_show``), the first of
        ``given``'s seat, moved to ``found`` (in a copy: the visitor has the engine's list);
        ``found`` itself where none is that seat's (the mismatch is told against it)."""
        cps = self._cps
        kind = cps[found]["event"]
        k = found
        while k < len(cps) and cps[k]["event"] == kind:
            if cps[k].get("seat") == given.get("seat"):
                if k != found:
                    cps = self._cps = cps[:]
                    cps[found], cps[k] = cps[k], cps[found]
                return found
            k += 1
        return found


#: Checkpoints a move may cause several of, in an order the log format leaves free (the
#: verifier matches them by seat), and whose ``cards`` are a set (docs/log-format.md).
_UNORDERED = frozenset({"side_show"})


def _same(given: dict[str, Any], engine: Checkpoint) -> bool:
    """Equal as JSON values (``True`` is not ``1`` there; the schema has ruled bools out); the
    ``cards`` of a checkpoint in :data:`_UNORDERED` in any order (each card once)."""
    if given == engine:
        return True
    if engine["event"] not in _UNORDERED or given.keys() != engine.keys():
        return False
    cards = given.get("cards")
    return (isinstance(cards, list) and all(isinstance(c, str) for c in cards)
            and sorted(cards) == sorted(engine["cards"])
            and all(given[k] == engine[k] for k in given if k != "cards"))


# -- entry points --------------------------------------------------------------------------------
def _source(path: str | os.PathLike[str]) -> tuple[bytes | IO[bytes], str]:
    data = read_regular(path, MAX_FILE_BYTES)  # bounded; the reader reports the limit
    return decompressed(data), str(path)  # a .jsonl.gz: its lines


def replay(source: IO[bytes] | bytes, file: str, visitor: Visitor,
           base: Path | None = None, *, rules: Rules | None = None) -> Replayer:
    """Replay a log (a binary stream or bytes) with ``visitor``; ``base`` is the folder a
    variant path in the header is relative to (the current folder by default). With ``rules``,
    the log is replayed under those rules instead of its header's variant (whose
    ``variant_sha256`` is then not checked)."""
    replayer = Replayer(file, base, visitor, rules=rules)
    replayer.run_source(source)
    return replayer


def verify_bytes(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
                 strict: bool = False) -> ReplayResult:
    """Verify a log. Lenient by default (every problem collected); with ``strict`` the first
    problem is raised as a :class:`LogProblem`."""
    return _verify(data, file, base, None, strict)


def _verify(data: IO[bytes] | bytes, file: str, base: Path | None,
            base_of: Callable[[], Path] | None, strict: bool) -> ReplayResult:
    visitor: Visitor = Visitor() if strict else Collector()
    r = Replayer(file, base, visitor)
    r._base_of = base_of
    r.run_source(data)
    result = ReplayResult(file, list(getattr(visitor, "problems", [])), r.incomplete, r.lines,
                          more=getattr(visitor, "more", 0))
    if r.match is not None:
        m = r.match
        result.hands = m.hand_number
        result.score = m.score[:]
        result.games = m.games[:]
        result.winner = m.winner
    return result


def verify_file(path: str | os.PathLike[str], *, strict: bool = False,
                name: str | None = None) -> ReplayResult:
    """Verify the log at ``path`` (variant paths relative to its folder; gzip data, a
    ``.jsonl.gz``, is read decompressed). Problems name the file ``name`` (by default
    ``path``).

    >>> verify_file("no-such.jsonl").problems[0].message
    'cannot read the log: No such file or directory'

    """
    try:
        data, file = _source(path)
    except OSError as exc:
        file = str(path) if name is None else name
        problem = LogProblem("limit", f"cannot read the log: {exc.strerror}", file=file, line=1)
        if strict:
            raise problem from None
        return ReplayResult(file, [problem])
    file = file if name is None else name
    # The log's folder (symbolic links resolved) is made only if its header names a file.
    return _verify(data, file, None, lambda: Path(path).resolve().parent, strict)


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
    replay(io.BytesIO(data) if isinstance(data, bytes) else data, file, visitor, base)
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
