"""The replayer: a log's items through the engine, told to a visitor as it goes.

A :class:`Replayer` takes the positioned items of :func:`engine.logread.read_log`, builds the
:class:`~engine.game.Match` the header describes, applies every move and deal, compares each
checkpoint with the engine's, and tells a :class:`Visitor` what happened; what a problem means is
the visitor's to say (:class:`Visitor` raises it, :class:`Collector` notes it and lets the replay
go on). See :mod:`engine.replay` for the policy, :mod:`engine.replay.fast` for the loop that
replays lines met before from their plans.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from engine.actions import Action, Deal
from engine.errors import IllegalMoveError, PositionError, VariantError
from engine.game import Checkpoint, Match
from engine.logformat import dumps_event
from engine.logread import (
    LogItem,
    LogProblem,
    ProblemKind,
    empty_log,
    log_lines,
    read_line,
    read_log,
)
from engine.logversion import LATEST, header_problem
from engine.moves.draw import header_problem as first_dealer_problem
from engine.position import hand_has_moves
from engine.replay.fast import PLANS, plan_of
from engine.replay.sealed import Sealed, seeded_deal_mismatch
from engine.replay.sealed import header_problem as sealed_problem
from engine.rules import Rules
from engine.state import DEAL
from engine.variant import is_shipped_name, load


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

    def reveal(self, item: LogItem) -> None:
        """The log's reveal of its committed seed, checked good (docs/log-format.md,
        Committed seeds)."""

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
        #: A header's seed_commitment: the deals and moves kept for the reveal.
        self.sealed: Sealed | None = None
        #: The line of the reveal, once read.
        self.revealed_at: int | None = None

    # -- the loop -------------------------------------------------------------------------------
    def run(self, items: Iterable[LogItem | LogProblem]) -> None:
        """Replay every item, then call the visitor's ``end``."""
        for _ in self.steps(items):
            pass

    def steps(self, items: Iterable[LogItem | LogProblem]) -> Iterator[int]:
        """:meth:`run`, one item at a time: the line of each item, yielded once the item is
        replayed (the visitor has been told), so a caller takes what the visitor made of it
        as the log is read (``truco analyze`` values each decision so)."""
        for item in items:
            self._item(item)
            yield self.lines
        self._finish()


    def run_source(self, source: IO[bytes] | bytes) -> None:
        """``run(read_log(source, self.file))``, faster for a visitor that takes no move or
        checkpoint (one that leaves :meth:`Visitor.move` and :meth:`Visitor.checkpoint` as
        they are, like :class:`Visitor` and :class:`Collector`): a move or checkpoint line
        whose bytes were met before is replayed from what was made of them then, without
        parsing or checking it again and without a :class:`LogItem` (:mod:`engine.replay.fast`).
        The same problems, in the same order, at the same lines."""
        visitor = type(self.visitor)
        if visitor.move is not Visitor.move or visitor.checkpoint is not Visitor.checkpoint:
            self.run(read_log(source, self.file))
        else:
            self._run_plans(source)

    def _run_plans(self, source: IO[bytes] | bytes) -> None:
        """Replay the lines of ``source`` (the visitor takes no move or checkpoint), each line
        met before from its plan (:mod:`engine.replay.fast`), then call the visitor's ``end``."""
        file = self.file
        plans = PLANS
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
                    plan_of(item)  # what a line it kept is, for the next time
                continue
            self.lines = line
            m = self.match
            if m is None or self.stopped:
                self.after_reveal(line)
                continue
            kind, event, action, given = plan
            if kind == "checkpoint":
                cps, j = self._cps, self._cp_next
                if j < len(cps) and cps[j] == given:  # the usual case: the next one, equal
                    self._cp_next = j + 1
                else:
                    self._checkpoint_at(line, event, given, None)  # type: ignore[arg-type]
                continue
            # what _item does with a move, its LogItem aside (a hand's first move starts its
            # bookkeeping; any other move's checkpoints are set by _move_at, or the replay
            # stops: none read meanwhile)
            if m.hand_number != self._hand:
                self._new_hand_check()
            if m.is_over:
                self._stop("after_end", f"{event} after the match ended (at line "
                        f"{self._end_line})", line)
                continue
            if m.state == DEAL or not self._announced or self.sealed is not None:
                self._move_at(line, action, None)  # the rare cases: no deal, a hand's first
                continue
            # _move_at(line, action, None) written out for the usual move: a call less a move
            why: str | None = None
            try:
                cps = m.apply(action)
            except IllegalMoveError as exc:
                why, code = exc.message, exc.code
            if why is not None:  # reported outside the except: a raised problem has no context
                self._stop("illegal", f"illegal move [{code}]: {why}", line, code)
                continue
            self._hand_events += 1
            self._cps = cps
            self._cp_next = 0
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
            self.after_reveal(item.line)
        elif item.kind == "reveal":
            self._reveal(item)
        elif item.kind == "checkpoint":
            given = plan_of(item)[3]
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
                self._move_at(item.line, None, item)

    def _finish(self) -> None:
        if self.match is not None and not self.stopped and not self.match.is_over:
            m = self.match
            self.incomplete = LogProblem(
                "incomplete", f"incomplete: the log ends before the match is over (hand "
                f"{m.hand_number}, score {m.score}, games {m.games})", file=self.file,
                line=max(self.lines, 1))
        elif self.sealed is not None and not self.stopped and self.revealed_at is None:
            self.incomplete = LogProblem(
                "incomplete", "incomplete: the match is over but its committed seed is not "
                "revealed yet (no reveal line): its deals are not checked", file=self.file,
                line=max(self.lines, 1))
        self.visitor.end(self)

    def after_reveal(self, line: int) -> None:
        """A line after the reveal is a problem (the reveal is the log's last line); after
        any other stop, the lines are not replayed."""
        if self.revealed_at is not None:
            self._problem("after_end", f"an event after the reveal (at line "
                          f"{self.revealed_at}): the reveal is the log's last line", line)

    def _reveal(self, item: LogItem) -> None:
        """The reveal of a committed seed: after the match's end, answering the header's
        commitment, and every deal following from the seed it reveals."""
        m = self.match
        assert m is not None
        why: str | None
        if self.sealed is None:
            why = "a reveal in a log whose header has no seed_commitment"
        elif not m.is_over:
            why = (f"reveal before the match is over (hand {m.hand_number}, score "
                   f"{m.score}): the seed is revealed once the match has ended")
        else:
            why = self.sealed.reveal(item.data)
        self.stopped = True
        if why is not None:
            self._problem("reveal", why, item.line)
            return
        self.revealed_at = item.line
        self.visitor.reveal(item)

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
        if "seed_commitment" in h:
            why = sealed_problem(h)
            if why is not None:
                self._stop("header", f"bad header: {why}", item.line)
                return
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
        why = header_problem(h["truco_log"], rules, draw="draw" in h)
        if why is not None:
            self._stop("header", f"bad header: {why}", item.line)
            return
        why = first_dealer_problem(rules, h.get("seed"), h.get("dealer"), h.get("draw"))
        if why is not None:  # a drawn first dealer
            self._stop("header", f"bad header: {why}", item.line)
            return
        self.rules = rules
        self.match = Match(rules, seed=h.get("seed"), dealer=dealer)
        if "seed_commitment" in h:
            self.sealed = Sealed(h["seed_commitment"], rules, dealer)
        self.visitor.header(item, self.match)

    def _position_header(self, item: LogItem, rules: Rules) -> None:
        """A header that starts the match at a position (docs/positions.md): version 2, no
        ``seed`` or ``dealer`` (the position holds the generator's state and the dealer)."""
        h = item.data
        why = header_problem(h["truco_log"], rules, position=True)
        if why is None and ("seed" in h or "dealer" in h or "draw" in h):
            key = next(k for k in ("seed", "dealer", "draw") if k in h)
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
            if self.sealed is not None:
                self.sealed.deal(item.line, d)
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
        return seeded_deal_mismatch(m, d)

    def _move_at(self, line: int, action: Action | None, item: LogItem | None) -> None:
        """A move at ``line``: ``action``, else the move of the log's line ``item`` (read once
        the hand is known to be dealt); ``item`` is ``None`` where the visitor takes no move."""
        m = self.match
        assert m is not None
        if m.awaiting_deal:
            self._stop("deal", f"hand {m.hand_number + 1} has no deal event: a log without a "
                       "seed deals every hand with one, before its first move", line)
            return
        if action is None:
            assert item is not None
            action = plan_of(item)[2]
            assert action is not None
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
        if self.sealed is not None:
            self.sealed.move(line, action)
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
    if engine["event"] != "side_show" or given.keys() != engine.keys():  # _UNORDERED
        return False
    cards = given.get("cards")
    return (isinstance(cards, list) and all(isinstance(c, str) for c in cards)
            and sorted(cards) == sorted(engine["cards"])
            and given["event"] == engine["event"] and given["seat"] == engine["seat"])
