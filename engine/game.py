"""A match of Truco played by the rules of one variant: legal moves, applying them, scores,
and what each seat may see.

>>> from engine import Match, Action
>>> m = Match.new("paulista", seed=7)
>>> m.state, m.turn, m.value
('play', 1, 1)
>>> first = m.legal_actions()[0]
>>> first
Action.play(1, '2h')
>>> m.apply(first)
[]

How the machine decides. The match is the model of its variant's one ``transitions`` machine
(:mod:`engine.machine`), which owns the phase in :attr:`Match.state` (read it as
:attr:`Match.phase`) and decides every move. Each kind of move is one module of
:mod:`engine.moves` (its legality, its effect, its transitions, its listing); the machine is
built from the kinds the variant has:

- :meth:`Match.apply` checks only that it was given a move (an :class:`Action` of a seat of
  the variant), then fires the move's kind as a trigger of the machine
  (``Event.trigger(match, move, ruling)``, with a fresh :class:`~engine.ruling.Ruling`). A
  kind the current state has no transition for is refused by the machine (its
  ``MachineError``, raised before any condition runs), and the match says why in the kind's
  words for that state (``MoveKind.not_now``).
- The transitions' conditions (``legal_<kind>``, the kind's judge) decide legality and rule
  what a legal move does from the state as it is; nothing changes before a transition's
  conditions have all passed, so an illegal move leaves the match as it was, and its ruling
  says why. The chosen transition's ``before`` callback (the kind's effect) applies the ruling
  and writes the checkpoints.
- :meth:`Match.legal_actions` lists the moves of the triggers the machine has from the
  current state, each kind by its lister (which offers what its judge accepts, from the
  shared :class:`MoveTable`).

State. A match holds what lasts the match (rules, phase, seed, dealer, scores); the hand in
play is a :class:`~engine.state.HandState` (:attr:`Match.hand`) and its round a
:class:`~engine.state.RoundState` (:attr:`Match.round`); the read-only properties
(:attr:`turn`, :attr:`value`, :attr:`hands` ...) read them, with cards as their names
(``"4c"``, as logs and observations write them): the integer codes stay inside, in
:attr:`Match.hand` and :attr:`Match.round`, which the move kinds and bots read.

Checkpoints (what the rules made of a move) come back from :meth:`Match.apply` as log events:
``round``, ``hand``, ``game``, ``match``; in a variant with side bets also ``side_declare``,
``side_bet`` and ``side_show`` (G30-G32).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NoReturn, cast

from transitions import MachineError

from engine.actions import Action, Deal
from engine.cards import Card, card_name
from engine.checkpoint import Checkpoint
from engine.errors import IllegalMoveError, Why
from engine.machine import COMPILED, MODEL_ATTRIBUTE, MoveTable, Trigger, move_table, run_plan
from engine.matchpos.exporting import export as export_position
from engine.matchpos.restore import set_position
from engine.moves import KINDS, PHASES, load_kinds
from engine.moves.answers import answering_seats
from engine.moves.deal import seeded_next
from engine.moves.draw import draw_first_dealer
from engine.moves.names import DEAL_KIND
from engine.moves.play import play
from engine.moves.scoring import new_hand
from engine.observation import Observation, blind_places, observe
from engine.rules import Rules
from engine.ruling import Ruling
from engine.shuffle import SplitMix64
from engine.slots import interpreted
from engine.state import DEAL, MATCH_OVER, NORMAL
from engine.variant import load
from engine.view import MatchView, Moves

__all__ = ["NORMAL", "Checkpoint", "Match", "MoveTable", "move_table", "resolve_rules"]


load_kinds()


def resolve_rules(variant: Rules | str | os.PathLike[str]) -> Rules:
    """A :class:`Rules`, a shipped variant name, or a path to a variant file, as rules.
    Deprecated: :func:`engine.variant.load`, which it calls for anything but a :class:`Rules`
    (a variant file is loaded again only when it, or a file it extends, has changed:
    ``Match.new("house.yaml")`` in a loop reads the files, but parses and checks them once)."""
    if isinstance(variant, Rules):
        return variant
    return load(os.fspath(variant))


class Match(MatchView):
    """One match (one or more games) of one variant.

    Build it with :meth:`new` (seeded deals) or :meth:`from_deals` (recorded deals); then
    read :meth:`legal_actions` and :meth:`apply` moves until :attr:`is_over`.
    """

    # The rest of its attributes are declared by the view the move kinds read
    # (:class:`engine.view.MatchView`).
    __slots__ = ("_deals", "_events")

    def __init__(self, rules: Rules, *, seed: int | None = None, dealer: int = 0,
                 deals: Iterable[Deal] | None = None) -> None:
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer {dealer} is not a seat (0..{rules.players - 1})")
        self.rules = rules
        #: The variant's moves and what the move kinds read of its rules (:class:`MoveTable`).
        self.move_table = moves = move_table(rules)  # one cache lookup: holds the machine too
        self.machine = moves.machine
        # a LeanMachine's events (engine.machine.build_machine): their plans, trigger_move
        self._events = cast("dict[str, Trigger]", moves.machine.events)
        self.state = str(moves.machine.initial)  # deal, or a move before it (a cut)
        self.is_over = False
        self.seed = seed
        self.rng = SplitMix64(seed) if seed is not None else None
        if self.rng is not None and moves.drawn_dealer:  # house rule (match.first_dealer)
            dealer = draw_first_dealer(rules, self.rng)[1]  # the seed's draw, not ``dealer``
        queued = list(deals) if deals is not None else None
        self._deals: Iterator[Deal] | None = iter(queued) if queued is not None else None
        self.dealer = dealer
        self.score = list(moves.start_score)  # 0-0, or a house start_score
        self.games = [0] * len(self.score)
        self.winner = None
        self.hand_number = 0
        #: The public record of the hand that ended last: (number, played, shown, rounds,
        #: whether it was blind).
        self.last_hand = None
        new_hand(self)
        for k, queued_deal in enumerate(queued or ()):  # recorded deals are checked up front
            why = self.deal_problem(queued_deal, (dealer + k) % rules.players)
            if why is not None:
                self._illegal(queued_deal, why)
        if self.state == DEAL:
            self.deal_next()
        enters = moves.enters.get(self.state)
        if enters is not None:  # the effects of the state it starts in, as entering it runs
            for enter in enters:
                ruling = Ruling()
                ruling.model = self
                enter(None, ruling)

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def new(cls, variant: Rules | str | os.PathLike[str], *, seed: int | None = None,
            dealer: int = 0, history: bool = False) -> Match:
        """A match with seeded deals (docs/log-format.md); with ``seed=None`` every hand waits for
        an explicit :class:`Deal` passed to :meth:`deal`. ``history``: it keeps its moves
        (:attr:`history`). In a variant that draws its first dealer (house rule), a seeded
        match's first dealer is the seed's draw, whatever ``dealer`` says."""
        return (_Recording if history else cls)(resolve_rules(variant), seed=seed, dealer=dealer)

    @classmethod
    def from_deals(cls, variant: Rules | str | os.PathLike[str], deals: Iterable[Deal], *,
                   dealer: int = 0, history: bool = False) -> Match:
        """A match whose hands are the given deals, in order (then explicit :meth:`deal`);
        ``history``: it keeps its moves (:attr:`history`)."""
        return (_Recording if history else cls)(resolve_rules(variant), dealer=dealer,
                                                deals=deals)

    @classmethod
    def from_position(cls, variant: Rules | str | os.PathLike[str],
                      position: Any, *, history: bool = False) -> Match:
        """A match in exactly the state ``position`` describes (docs/positions.md), as
        :meth:`position` gives it; an impossible position raises
        :class:`~engine.errors.PositionError` naming the field and a stable code (so does
        anything but a JSON object: ``position`` is typed ``Any``, as JSON read from a file)."""
        # no seed, no deals: waits in "deal", a fresh hand; ``history``: the moves from here on
        m = (_Recording if history else cls)(resolve_rules(variant))
        set_position(m, position)
        return m

    def position(self) -> dict[str, Any]:
        """The exact state of the match now, as JSON-ready data (docs/positions.md):
        ``Match.from_position(variant, m.position())`` goes on as ``m`` does."""
        return export_position(self)

    def clone(self) -> Match:
        """An independent copy: the same moves on both give the same results."""
        other = (Match.__new__(type(self)) if _CLONE_BY_NEW
                 else type(self)(self.rules, dealer=self.dealer))  # compiled: see engine.slots
        # every slot, one by one (a loop of getattr and setattr costs several times more; the
        # search bot clones for every playout): tests/test_invariants.py checks none is missed
        other.rules = self.rules
        other.machine = self.machine
        other.state = self.state
        other.seed = self.seed
        other.rng = self.rng.copy() if self.rng is not None else None
        other._deals = None  # a queue of recorded deals cannot be shared; the clone deals by hand
        other.dealer = self.dealer
        other.score = self.score[:]
        other.games = self.games[:]
        other.winner = self.winner
        other.hand_number = self.hand_number
        other.hand = self.hand.copy()
        other.round = self.round.copy()
        other.last_hand = self.last_hand
        other.move_table = self.move_table
        other._events = self._events
        other.is_over = self.is_over
        return other

    @property
    def history(self) -> tuple[Action, ...]:
        """The moves applied to the match, in order (python-chess's ``board.move_stack``), for a
        match made with ``history=True`` (:meth:`new`, :meth:`from_deals`, and
        :meth:`from_position`, from the position on); deals are not moves. A match made without
        keeps none, so that playing costs nothing: ``ValueError``.

        >>> m = Match.new("paulista", seed=7, history=True)
        >>> _ = m.apply(Action.raise_to(1, 3)), m.apply(Action.accept(2))
        >>> m.history
        (Action.raise_to(1, 3), Action.accept(2))
        """
        kept: list[Action] | None = getattr(self, "_history", None)
        if kept is None:
            raise ValueError("this match keeps no history: make it with history=True "
                             "(Match.new(variant, seed=..., history=True))")
        return tuple(kept)

    # -- reading the state ------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """What the match waits for: ``play`` (a card), ``answer`` (a raise's answer),
        ``decide``, ``deal``, ``match_over``..., the phases of docs/machine.md. The same as
        :attr:`state`, the name the ``transitions`` machine writes it under.

        >>> m = Match.new("paulista", seed=7)
        >>> m.phase, m.apply(Action.raise_to(1, 3)), m.phase
        ('play', [], 'answer')
        """
        return self.state

    @property
    def to_move(self) -> int | None:
        """The seat that must move now: the seat whose card is awaited in ``play``, the first
        that may answer while a raise or a side bet's call waits (unlike :attr:`turn`, which
        stays the seat whose card is awaited), the seat that decides a special hand;
        ``None`` while a deal is awaited or the match is over. Where several seats may make
        the move (either partner answers a raise), :meth:`to_act` lists them all.

        >>> m = Match.new("paulista", seed=7)
        >>> _ = m.apply(Action.raise_to(1, 3))
        >>> m.turn, m.to_move, m.to_act()
        (1, 2, [0, 2])
        """
        phase = PHASES.get(self.state)
        if phase is None:
            return None
        seats = phase.movers(self)
        if len(seats) > 1:  # of several, one with a legal move (G39: the team it names)
            seats = [s for s in seats if self.legal_actions(s)] or seats
        return seats[0] if seats else None

    @property
    def moves(self) -> Moves:
        """Deprecated alias of :attr:`move_table` (kept for the 0.x series)."""
        return self.move_table

    @property
    def awaiting_deal(self) -> bool:
        """Whether the next hand waits for an explicit :meth:`deal`."""
        return self.state == DEAL

    # What a user reads of the hand, with cards as names (``"4c"``); the move kinds, bots and
    # hot paths read the codes of .hand and .round instead (engine.state).
    @property
    def manilhas(self) -> tuple[str, ...]:
        """This hand's manilhas, weakest first."""
        return tuple(map(card_name, self.rules.manilhas_for(self.hand.vira)))

    @property
    def hands(self) -> list[list[str]]:
        """The cards each seat holds now, by seat."""
        return [list(map(card_name, h)) for h in self.hand.hands]

    @property
    def dealt(self) -> tuple[tuple[str, ...], ...]:
        """The cards of this hand as dealt, by seat."""
        return tuple(tuple(map(card_name, h)) for h in self.hand.dealt)

    @property
    def vira(self) -> str | None:
        """The card turned up (P1), or ``None``."""
        vira = self.hand.vira
        return None if vira is None else card_name(vira)

    @property
    def strength(self) -> dict[str, int]:
        """Each card's strength in this hand (higher beats lower), by card name."""
        table = self.hand.strength
        return {card_name(c): table[c] for c in self.rules.deck} if table else {}

    @property
    def value(self) -> int:
        """What the hand is worth now (C8)."""
        return self.hand.value

    @property
    def pending(self) -> tuple[int, int, str | None] | None:
        """The raise waiting for its answer: (seat, value, card or ``None``)."""
        pending = self.hand.pending
        if pending is None:
            return None
        seat, value, card = pending
        return seat, value, None if card is None else card_name(card)

    @property
    def last_raise_team(self) -> int | None:
        return self.hand.last_raise_team

    @property
    def bound(self) -> list[str | None]:
        """The card each seat raised with and must play next (M4), by seat."""
        return [None if c is None else card_name(c) for c in self.hand.bound]

    @property
    def shown(self) -> list[tuple[int, str]]:
        """The cards shown with a raise (M4): (seat, card)."""
        return [(s, card_name(c)) for s, c in self.hand.shown]

    @property
    def played(self) -> list[tuple[int, int, str, bool]]:
        """The cards played this hand: (0-based round, seat, card, covered)."""
        return [(r, s, card_name(c), cov) for r, s, c, cov in self.hand.played]

    @property
    def round_results(self) -> list[int | None]:
        return self.hand.results

    @property
    def special(self) -> int:
        """``NORMAL`` (0), or 1 + the index in ``rules.special_hands`` of the special hand
        this one is (P5, P6, M5, M6)."""
        return self.hand.special

    @property
    def blind(self) -> bool:
        return self.hand.blind

    @property
    def round_no(self) -> int:
        """The round in play, 0-based."""
        return self.round.number

    @property
    def round_cards(self) -> list[tuple[int, str, bool]]:
        """The cards of the round in play: (seat, card, covered), in the order played."""
        return [(s, card_name(c), cov) for s, c, cov in self.round.cards]

    @property
    def leader(self) -> int:
        return self.round.leader

    def to_act(self) -> list[int]:
        """The seats that may move now (several may: either partner answers a raise)."""
        return sorted({a.seat for a in self.legal_actions()})

    # -- legal moves ------------------------------------------------------------------------
    def is_legal(self, action: object) -> bool:
        """Whether :meth:`apply` would accept ``action`` now (it changes nothing): a move
        :meth:`legal_actions` lists, or one it does not offer but the rules allow (a raise a
        special hand penalises, P5, M5).

        >>> m = Match.new("paulista", seed=7)
        >>> m.is_legal(Action.play(1, "2h")), m.is_legal(Action.play(2, "2h"))
        (True, False)
        """
        if type(action) is not Action or action.position is not None:
            return False  # not a move, or a bot's view of one (a blind hand's position)
        if action in self.legal_actions(action.seat):
            return True
        try:
            self.clone().apply(action)
        except IllegalMoveError:
            return False
        return True

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The moves that are legal now, for one seat or for all, in a fixed order: the moves
        of each trigger the machine has from the current state, as its lister offers them.

        Raises that the variant penalises in a special hand (P5, P6, M5, M6) are moves that
        :meth:`apply` accepts, but they are never offered here."""
        listed = self.move_table.listed.get(self.state)  # one function (moves/quick.py)
        if listed is not None:
            return listed(self, seat)
        st = self.state
        moves = self.move_table
        out: list[Action] = []
        by_seat = moves.by_seat
        if st in by_seat:
            # only the seats that may answer move while a raise waits (C9, answers.py): each
            # seat's answers made once, then the moves of the other listers
            rows, listers = by_seat[st]
            seats: Sequence[int] = answering_seats(self)
            if seat is not None:
                seats = (seat,) if seat in seats else ()
            for s in seats:
                out += rows[s]
                for lister in listers:
                    lister(self, s, out)
        else:
            for lister in moves.listers[st]:
                lister(self, seat, out)
        return out

    # -- applying moves ---------------------------------------------------------------------
    def apply(self, action: object) -> list[Checkpoint]:
        """Perform one move; return the checkpoints it caused, as log events.

        The variant's machine decides (see the module docstring). An illegal move raises
        :class:`IllegalMoveError` (saying why, and listing what was legal) and leaves the match
        unchanged; so does anything that is not an :class:`Action` (a malformed ``Action``
        cannot be built: ``ValueError``)."""
        if type(action) is not Action:  # (typed ``object``: anything else is refused)
            why = Why("not_a_move", f"{action!r} is not a move: expected an Action")
            raise IllegalMoveError(why, self.legal_actions(), move=action, why=why)
        moves = self.move_table
        if action.seat >= moves.players:  # (an Action's seat is never negative)
            self._illegal(action, Why("no_such_seat", f"there is no seat {action.seat}"))
        quick = moves.quick.get(action.kind)  # its commonest move whole (moves/quick.py)
        if quick is not None:
            made = quick(self, action)
            if made is not None:
                return made
        kind = action.kind
        event = self._events.get(kind)
        if event is None:  # no such trigger in this variant's machine
            self._not_now(action)
        ruling = Ruling()
        ruling.model = self
        try:
            if COMPILED:  # run_plan is machine code: called with the plan, natively
                plan = event.plans.get(self.state)  # made by the event's first firing from here
                taken = (run_plan(plan, self, MODEL_ATTRIBUTE, action, ruling)
                         if plan is not None else event.trigger_move(self, action, ruling))
            else:  # the plan written out as Python (engine.machine.runner)
                fire = event.fire.get(self.state)
                taken = (fire(self, action, ruling) if fire is not None
                         else event.trigger_move(self, action, ruling))
        except MachineError:
            if ruling.judged:  # raised after a condition ran: not the machine's refusal
                raise
            self._not_now(action)  # no transition for this kind from the current state
        if not taken:
            self._illegal(action, ruling.why or "not a move now")
        return ruling.checkpoints or []

    def _not_now(self, action: Action | Deal) -> NoReturn:
        """Refuse a move whose trigger the machine does not have from the current state."""
        kind = DEAL_KIND if isinstance(action, Deal) else action.kind
        if kind == "pass":
            self._illegal(action, Why("not_a_move", "a pass declines a bot's offer to raise "
                                                    "out of turn; it is not a move"))
        said = KINDS[kind].not_now if kind in KINDS else {}
        text = said.get(self.state) or said.get(None) or "not a move now"
        phase = PHASES.get(self.state)  # what the match waits for: a raise's answer, ...
        code = getattr(text, "code", None) or (
            "not_in_variant" if kind not in self._events  # the variant has no such move
            else (phase.pending if phase is not None else None) or "not_now")
        self._illegal(action, Why(code, text))

    def _illegal(self, action: Action | Deal, why: str) -> NoReturn:
        if self.state == MATCH_OVER:
            why = Why("match_over", "the match is over")
        raise IllegalMoveError(f"{action}: {why}", self.legal_actions(),
                               move=action, why=why)

    # -- dealing ----------------------------------------------------------------------------
    def deal(self, deal: Deal) -> None:
        """Start the awaited hand with recorded cards. Raises :class:`IllegalMoveError` if it
        is not a deal of this variant for this dealer."""
        if DEAL_KIND not in self.move_table.triggers[self.state]:
            self._not_now(deal)
        ruling = Ruling()
        ruling.model = self
        if not self._events[DEAL_KIND].trigger_move(self, deal, ruling):
            self._illegal(deal, ruling.why or "not a deal now")

    def deal_next(self) -> None:
        """The chance step: deal the next hand from the seed or the queue of recorded deals, if
        there is one, as the machine's ``deal`` trigger (a seeded hand by the deal kind's quick
        move, where the variant has one); otherwise the match waits in ``deal`` for
        :meth:`deal`."""
        move: tuple[list[list[Card]], Card | None]
        if self.rng is not None:
            quick = self.move_table.quick.get(DEAL_KIND)  # the seeded deal whole (moves/deal.py)
            if quick is not None and quick(self, None) is not None:  # type: ignore[arg-type]
                return
            move = seeded_next(self, self.rng)
        elif self._deals is not None:
            nxt = next(self._deals, None)
            if nxt is None:
                self._deals = None
                return
            move = ([list(h) for h in nxt.hands], nxt.vira)  # checked when queued
        else:
            return
        self.chance(DEAL_KIND, move)

    def chance(self, kind: str, move: Any) -> bool:
        """A move the engine makes itself (the chance step, a cut not offered): not logged,
        a replay makes it again; whether it was made."""
        ruling = Ruling()
        ruling.model = self
        event = self._events[kind]
        if not COMPILED:  # the plan's runner where it is made, as apply calls it
            fire = event.fire.get(self.state)
            if fire is not None:
                return fire(self, move, ruling)
        return bool(event.trigger_move(self, move, ruling))

    def deal_problem(self, deal: Deal, dealer: int) -> str | None:
        """Why a recorded deal is not this variant's next deal for ``dealer``, or ``None``."""
        r = self.rules
        if deal.dealer != dealer:
            return Why("wrong_dealer",
                       f"the dealer is seat {dealer} by rotation, not {deal.dealer}")
        if len(deal.hands) != r.players:
            return Why("wrong_hand_count", f"expected {r.players} hands, found {len(deal.hands)}")
        for seat, hand in enumerate(deal.hands):
            if len(hand) != r.cards_per_player:
                return Why("wrong_card_count",
                           f"seat {seat} has {len(hand)} cards, expected {r.cards_per_player}")
        cards = [c for h in deal.hands for c in h]
        if r.has_vira:
            if deal.vira is None:
                return Why("vira_missing", "this variant turns a vira (P1)")
            cards.append(deal.vira)
        elif deal.vira is not None:
            return Why("vira_not_allowed", "this variant has no vira")
        deck = set(r.deck)
        for c in cards:
            if c not in deck:
                return Why("card_not_in_deck", f"{card_name(c)} is not in this variant's deck")
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            return Why("card_dealt_twice", f"{card_name(dup)} is dealt twice")
        return None

    # -- what a seat may know ---------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, as plain data: never another seat's hidden cards.

        Its own cards (not in a blind hand, P6), the partners' cards during a decision that
        shows them (M5), the cards played face up, cards shown with a raise (M4), the vira,
        the bet and the scores; and ``last_hand``, the public record of the hand that ended
        last (its cards played, cards shown, e.g. a raise's card refused in round 1 (M4), and
        round winners), since a hand's last move already deals the next one."""
        return observe(self, seat)

    def play_by_position(self, seat: int, position: int, covered: bool = False) -> Action:
        """The move of a blind hand (P6): play the card at ``position`` (0-based) of the hand,
        among the cards held (or as dealt, house rule ``play.blind_places: dealt``)."""
        return play(seat, blind_places(self, seat)[position], covered)

    def __repr__(self) -> str:
        return (f"<Match {self.rules.name} {self.state} hand {self.hand_number} "
                f"score {self.score} games {self.games}>")


#: Whether :meth:`Match.clone` may skip ``__init__`` (interpreted: see engine.slots).
_CLONE_BY_NEW = interpreted(Match)


class _Recording(Match):
    """A match that keeps the moves applied to it (:attr:`Match.history`): its ``apply`` is
    Match's, then keeps the move (an illegal one raises first); a match without history runs
    Match's own ``apply``, which keeps nothing."""

    __slots__ = ("_history",)

    def __init__(self, rules: Rules, *, seed: int | None = None, dealer: int = 0,
                 deals: Iterable[Deal] | None = None) -> None:
        self._history: list[Action] = []
        super().__init__(rules, seed=seed, dealer=dealer, deals=deals)

    def apply(self, action: object) -> list[Checkpoint]:
        checkpoints = Match.apply(self, action)
        self._history.append(cast(Action, action))  # Match.apply refused anything else
        return checkpoints

    def clone(self) -> Match:
        other = cast("_Recording", Match.clone(self))  # of this class (Match.clone)
        other._history = self._history[:]
        return other
