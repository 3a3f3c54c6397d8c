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
(:mod:`engine.machine`), which owns the phase in :attr:`Match.state` and decides every move:

- :meth:`Match.apply` checks only that it was given a move (an :class:`Action` of a seat of
  the variant), then fires the move's kind as a trigger of the machine
  (``Event.trigger(match, move, ruling)``, with a fresh :class:`~engine.machine.Ruling`). A
  kind the current state has no transition for is refused by the machine (its
  ``MachineError``, raised before any condition runs), and the match says why in the game's
  words for that state (``NOT_NOW``).
- This module registers the machine's **conditions**: ``legal_play``, ``legal_raise``,
  ``legal_accept``, ``legal_fold``, ``legal_decide`` and ``legal_deal`` judge a move by the
  rules (the checks in the order the messages are given) and, when it is legal, work out
  what it does on the ruling (the round it completes, C5-C6; the hand it decides, C7, P8; the
  points, C11, the game, M8, the match), from the state as it is. ``ends_hand``,
  ``ends_match`` and ``needs_decision`` read the ruling (or the score) to choose where the
  transition goes. Nothing changes before a transition's conditions have all passed, so an
  illegal move leaves the match as it was, and its ruling says why.
- It registers the **effects** (the transitions' ``before`` callbacks), one per kind, which
  apply the ruling to the match and write the checkpoints; and ``deal_next``, the ``on_enter``
  of ``deal``, which deals the next hand from the seed or the recorded deals as a ``deal``
  trigger.
- :meth:`Match.legal_actions` lists the moves of the triggers the machine has from the
  current state (:func:`~engine.machine.triggers_from`), each kind by its lister (``LISTERS``,
  which offers what its condition accepts, from the shared :class:`MoveTable`).

Checkpoints (what the rules made of a move) come back from :meth:`Match.apply` as log events:
``round``, ``hand``, ``game``, ``match``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NoReturn

from transitions import MachineError

from engine.actions import Action, Deal
from engine.cards import CARD_CODES, Card, card_name
from engine.errors import IllegalMoveError
from engine.machine import Ruling, build_machine, condition, effect, triggers_from
from engine.rules import COVERED, Rules
from engine.shuffle import SplitMix64
from engine.shuffle import deal as seeded_deal
from engine.variant import load_ref

Checkpoint = dict[str, Any]

# Special hands (decided by the scores when the hand starts).
NORMAL, ONE_TEAM, BOTH_TEAMS = 0, 1, 2

#: Why a move kind is not a move in a state that has no trigger for it (the state's own
#: reason first, then the kind's).
NOT_NOW: dict[tuple[str, str | None], str] = {
    ("play", "answer"): "a raise is waiting for its answer",
    ("play", "decide"): "the special hand's decision comes first",
    ("play", None): "no card is awaited",
    ("raise", None): "no raise is possible now",
    ("accept", None): "no raise is waiting for an answer",
    ("fold", None): "no raise is waiting for an answer",
    ("decide", None): "no decision is awaited",
    ("deal", None): "no deal is awaited now",
}

#: The order in which the moves of a state are listed, by kind.
LIST_ORDER = ("decide", "play", "accept", "fold", "raise")


def resolve_rules(variant: Rules | str | os.PathLike[str]) -> Rules:
    """A :class:`Rules`, a shipped variant name, or a path to a variant file, as rules."""
    return variant if isinstance(variant, Rules) else load_ref(variant)


Lister = Callable[["Match", int | None, list[Action]], None]


class MoveTable:
    """Every move of a variant, made once: :meth:`Match.legal_actions` hands out these shared,
    immutable values instead of building new ones on every call. Also what the machine's
    conditions read of the rules, precomputed, and the listers of each of its states."""

    __slots__ = ("play", "covered", "covered_from", "raises", "accept", "fold", "decide",
                 "next_value", "any_time", "players", "listers", "by_seat", "triggers")

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        self.players = n
        deck = rules.deck
        self.play = [[Action("play", s, c) for c in range(CARD_CODES)] for s in range(n)]
        self.covered = [[Action("play", s, c, True) for c in range(CARD_CODES)] for s in range(n)]
        # P7: the 0-based round from which a card may be covered (never, without covered cards)
        self.covered_from = rules.covered_from_round - 1 if rules.covered_allowed else 99
        cards: list[Card | None] = list(deck) if rules.name_card else [None]
        self.raises = {(s, step.value, c): Action("raise", s, c, False, step.value)
                       for s in range(n) for step in rules.ladder for c in cards}
        self.accept = [Action("accept", s) for s in range(n)]
        self.fold = [Action("fold", s) for s in range(n)]
        self.decide = [(Action("decide", s, play_on=True), Action("decide", s, play_on=False))
                       for s in range(n)]
        values = [rules.initial_value, *(step.value for step in rules.ladder)]
        # C8: the only raise from each value is to the next step (none at the top)
        self.next_value = dict(zip(values, values[1:], strict=False))
        self.any_time = rules.raise_timing == "any_time"
        machine = build_machine(rules)
        #: The triggers of each state, as the machine has them.
        self.triggers = {s: frozenset(triggers_from(machine, s)) for s in machine.states}
        #: The listers of each state's triggers (moves), in LIST_ORDER.
        self.listers: dict[str, tuple[Lister, ...]] = {
            s: tuple(LISTERS[k] for k in LIST_ORDER if k in self.triggers[s])
            for s in machine.states}
        #: States whose moves are listed seat by seat (the partners who answer a raise).
        self.by_seat = {"answer"}


@cache
def move_table(rules: Rules) -> MoveTable:
    """The :class:`MoveTable` of a variant, made once per process."""
    return MoveTable(rules)


class Match:
    """One match (one or more games) of one variant.

    Build it with :meth:`new` (seeded deals) or :meth:`from_deals` (recorded deals); then
    read :meth:`legal_actions` and :meth:`apply` moves until :attr:`is_over`.
    """

    __slots__ = (
        "rules", "machine", "state", "seed", "rng", "_deals", "dealer", "score", "games",
        "winner", "hand_number", "hands", "dealt", "vira", "strength", "round_no",
        "round_cards", "round_results", "leader", "turn", "value", "pending", "last_raise_team",
        "bound", "shown", "played", "special", "special_team", "blind", "last_hand", "moves",
        "_events",
    )
    # The state of the hand in play (set by _reset_hand and _setup_hand).
    hands: list[list[Card]]
    dealt: tuple[tuple[Card, ...], ...]
    vira: Card | None
    strength: tuple[int, ...]
    round_no: int
    round_cards: list[tuple[int, Card, bool]]
    round_results: list[int | None]
    leader: int
    turn: int
    value: int
    pending: tuple[int, int, Card | None] | None
    last_raise_team: int | None
    bound: list[Card | None]
    shown: list[tuple[int, Card]]
    played: list[tuple[int, int, Card, bool]]
    special: int
    special_team: int | None
    blind: bool

    def __init__(self, rules: Rules, *, seed: int | None = None, dealer: int = 0,
                 deals: Iterable[Deal] | None = None) -> None:
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer {dealer} is not a seat (0..{rules.players - 1})")
        self.rules = rules
        self.machine = build_machine(rules)
        self._events = self.machine.events
        self.moves = move_table(rules)
        self.state = "deal"
        self.seed = seed
        self.rng = SplitMix64(seed) if seed is not None else None
        queued = list(deals) if deals is not None else None
        self._deals: Iterator[Deal] | None = iter(queued) if queued is not None else None
        self.dealer = dealer
        self.score = [0, 0]
        self.games = [0, 0]
        self.winner: int | None = None
        self.hand_number = 0
        #: The public record of the hand that ended last: (number, played, shown, rounds,
        #: whether it was blind).
        self.last_hand: tuple[int, list[tuple[int, int, Card, bool]], list[tuple[int, Card]],
                              list[int | None], bool] | None = None
        self._reset_hand()
        for k, queued_deal in enumerate(queued or ()):  # recorded deals are checked up front
            why = self._deal_problem(queued_deal, (dealer + k) % rules.players)
            if why is not None:
                self._illegal(queued_deal, why)
        self._deal_next()

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def new(cls, variant: Rules | str | os.PathLike[str], *, seed: int | None = None,
            dealer: int = 0) -> Match:
        """A match with seeded deals (docs/log-format.md); with ``seed=None`` every hand waits for
        an explicit :class:`Deal` passed to :meth:`deal`."""
        return cls(resolve_rules(variant), seed=seed, dealer=dealer)

    @classmethod
    def from_deals(cls, variant: Rules | str | os.PathLike[str], deals: Iterable[Deal], *,
                   dealer: int = 0) -> Match:
        """A match whose hands are the given deals, in order (then explicit :meth:`deal`)."""
        return cls(resolve_rules(variant), dealer=dealer, deals=deals)

    def clone(self) -> Match:
        """An independent copy: the same moves on both give the same results."""
        other = Match.__new__(Match)
        for name in Match.__slots__:
            setattr(other, name, getattr(self, name))
        other.rng = self.rng.copy() if self.rng is not None else None
        other._deals = None  # a queue of recorded deals cannot be shared; the clone deals by hand
        other.score = self.score[:]
        other.games = self.games[:]
        other.hands = [h[:] for h in self.hands]
        other.round_cards = self.round_cards[:]
        other.round_results = self.round_results[:]
        other.bound = self.bound[:]
        other.shown = self.shown[:]
        other.played = self.played[:]
        return other

    # -- reading the state ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether the match is decided."""
        return self.state == "match_over"

    @property
    def awaiting_deal(self) -> bool:
        """Whether the next hand waits for an explicit :meth:`deal`."""
        return self.state == "deal"

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def mao(self) -> int:
        """The first to play in this hand: the dealer's next seat."""
        return (self.dealer + 1) % self.rules.players

    @property
    def challenged_team(self) -> int | None:
        """The team that must answer the pending raise, if any."""
        return None if self.pending is None else 1 - self.pending[0] % 2

    @property
    def manilhas(self) -> tuple[Card, ...]:
        """This hand's manilhas, weakest first."""
        return self.rules.manilhas_for(self.vira)

    def to_act(self) -> list[int]:
        """The seats that may move now (several may: either partner answers a raise)."""
        return sorted({a.seat for a in self.legal_actions()})

    # -- legal moves ------------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The moves that are legal now, for one seat or for all, in a fixed order: the moves
        of each trigger the machine has from the current state, as its lister offers them.

        Raises that the variant penalises in a special hand (P5, P6, M5, M6) are moves that
        :meth:`apply` accepts, but they are never offered here."""
        out: list[Action] = []
        st = self.state
        moves = self.moves
        listers = moves.listers[st]
        if st in moves.by_seat:
            seats = range(moves.players)
            for s in seats if seat is None else (seat,) if seat in seats else ():
                for lister in listers:
                    lister(self, s, out)
        else:
            for lister in listers:
                lister(self, seat, out)
        return out

    # -- applying moves ---------------------------------------------------------------------
    def apply(self, action: Action) -> list[Checkpoint]:
        """Perform one move; return the checkpoints it caused, as log events.

        The variant's machine decides (see the module docstring). An illegal move raises
        :class:`IllegalMoveError` (saying why, and listing what was legal) and leaves the match
        unchanged; so does anything that is not an :class:`Action` (a malformed ``Action``
        cannot be built: ``ValueError``)."""
        if action.__class__ is not Action:
            raise IllegalMoveError(f"{action!r} is not a move: expected an Action",
                                   [str(a) for a in self.legal_actions()])
        kind = action.kind
        seat = action.seat
        if not 0 <= seat < self.moves.players:
            self._illegal(action, f"there is no seat {seat}")
        event = self._events.get(kind)
        if event is None:  # no such trigger in this variant's machine
            self._not_now(action)
        ruling = Ruling()
        try:
            taken = event.trigger(self, action, ruling)
        except MachineError:
            if ruling.judged:  # raised after a condition ran: not the machine's refusal
                raise
            self._not_now(action)  # no transition for this kind from the current state
        if not taken:
            self._illegal(action, ruling.why or "not a move now")
        return ruling.checkpoints or []

    def _not_now(self, action: Action) -> NoReturn:
        """Refuse a move whose trigger the machine does not have from the current state."""
        kind = action.kind
        if kind == "pass":
            self._illegal(action, "a pass declines a bot's offer to raise out of turn; it is "
                                  "not a move")
        self._illegal(action, NOT_NOW.get((kind, self.state)) or NOT_NOW[kind, None])

    def _illegal(self, action: Action | Deal, why: str) -> NoReturn:
        if self.state == "match_over":
            why = "the match is over"
        raise IllegalMoveError(f"{action}: {why}", [str(a) for a in self.legal_actions()])

    # -- dealing ----------------------------------------------------------------------------
    def deal(self, deal: Deal) -> None:
        """Start the awaited hand with recorded cards. Raises :class:`IllegalMoveError` if it
        is not a deal of this variant for this dealer."""
        if "deal" not in self.moves.triggers[self.state]:
            self._illegal(deal, NOT_NOW["deal", None])
        ruling = Ruling()
        if not self._events["deal"].trigger(self, deal, ruling):
            self._illegal(deal, ruling.why or "not a deal now")

    def _deal_next(self) -> None:
        """The chance step: deal the next hand from the seed or the queue of recorded deals, if
        there is one, as the machine's ``deal`` trigger; otherwise the match waits in
        ``deal`` for :meth:`deal`."""
        r = self.rules
        if self.rng is not None:
            hands, vira = seeded_deal(r.deck, self.rng, r.players, r.cards_per_player,
                                      self.dealer, r.has_vira)
            move: tuple[list[list[Card]], Card | None] | Deal = (hands, vira)
        elif self._deals is not None:
            nxt = next(self._deals, None)
            if nxt is None:
                self._deals = None
                return
            move = ([list(h) for h in nxt.hands], nxt.vira)  # checked when queued
        else:
            return
        self._events["deal"].trigger(self, move, Ruling())

    def _deal_problem(self, deal: Deal, dealer: int) -> str | None:
        """Why a recorded deal is not this variant's next deal, or ``None``."""
        r = self.rules
        if deal.dealer != dealer:
            return f"the dealer is seat {dealer} by rotation, not {deal.dealer}"
        if len(deal.hands) != r.players:
            return f"expected {r.players} hands, found {len(deal.hands)}"
        for seat, hand in enumerate(deal.hands):
            if len(hand) != r.cards_per_player:
                return f"seat {seat} has {len(hand)} cards, expected {r.cards_per_player}"
        cards = [c for h in deal.hands for c in h]
        if r.has_vira:
            if deal.vira is None:
                return "this variant turns a vira (P1)"
            cards.append(deal.vira)
        elif deal.vira is not None:
            return "this variant has no vira"
        deck = set(r.deck)
        for c in cards:
            if c not in deck:
                return f"{card_name(c)} is not in this variant's deck"
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            return f"{card_name(dup)} is dealt twice"
        return None

    def _special_for(self, score: Sequence[int]) -> tuple[int, int | None]:
        """The special hand (P5, P6, M5, M6) a hand dealt at ``score`` is, and its team."""
        r = self.rules
        s0, s1 = score
        both, one = r.both_teams, r.one_team
        if both.enabled and s0 >= both.from_score and s1 >= both.from_score:  # P6, M6
            return BOTH_TEAMS, None
        if one.enabled and (s0 >= one.from_score) != (s1 >= one.from_score):  # P5, M5
            return ONE_TEAM, 0 if s0 >= one.from_score else 1
        return NORMAL, None

    def _setup_hand(self, hands: list[list[Card]], vira: Card | None) -> None:
        r = self.rules
        self.hands = hands
        self.dealt = tuple(map(tuple, hands))
        self.vira = vira
        self.strength = r.strengths(vira)
        self.hand_number += 1
        special, team = self._special_for(self.score)
        if special == BOTH_TEAMS:
            self.special = BOTH_TEAMS
            self.value = r.both_teams.value
            self.blind = r.both_teams.blind
        elif special == ONE_TEAM:
            self.special = ONE_TEAM
            self.special_team = team
            self.value = r.one_team.value
            self.blind = r.one_team.blind

    def _reset_hand(self) -> None:
        n = self.rules.players
        self.hands = [[] for _ in range(n)]
        self.dealt = ()
        self.vira = None
        self.strength = ()
        self.round_no = 0
        self.round_cards = []
        self.round_results = []
        self.leader = self.turn = (self.dealer + 1) % n
        self.value = self.rules.initial_value
        self.pending = None
        self.last_raise_team = None
        self.bound = [None] * n
        self.shown = []
        self.played = []
        self.special = NORMAL
        self.special_team = None
        self.blind = False

    # -- the effects' shared steps ----------------------------------------------------------
    def _accept_pending(self) -> None:
        seat, value, card = self.pending  # type: ignore[misc]
        self.value = value
        self.last_raise_team = seat % 2
        if card is not None and self.bound[seat] != card:
            # M4: accepted, the card is shown and must be played next (shown once, even if
            # the bound seat raises with it again)
            self.bound[seat] = card
            self.shown.append((seat, card))
        self.pending = None

    def _end(self, ruling: Ruling) -> None:
        """Apply the end of a hand (or of a game lost by a forbidden raise) as ruled; then, if
        the match goes on, the next hand's dealer and a fresh hand (the transition to ``deal``
        deals it)."""
        events = ruling.checkpoints
        if events is None:
            events = ruling.checkpoints = []
        if ruling.hand is not None:
            winner, points, score = ruling.hand
            self.score = score
            events.append({"event": "hand", "winner": winner, "points": points,
                           "score": score[:]})
        w = ruling.game
        if w is not None:
            self.games = ruling.games  # type: ignore[assignment]
            events.append({"event": "game", "winner": w, "score": self.score[:],
                           "games": self.games[:]})
            if ruling.match is not None:
                self.winner = w
                events.append({"event": "match", "winner": w, "games": self.games[:]})
                return
            self.score = [0, 0]  # M8: each game starts at 0-0
        self.dealer = (self.dealer + 1) % self.rules.players  # the next dealer is to the right
        # _reset_hand makes new lists, so the ended hand's are kept without copying
        self.last_hand = (self.hand_number, self.played, self.shown, self.round_results,
                          self.blind)
        self._reset_hand()

    # -- what a seat may know ---------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now, as plain data: never another seat's hidden cards.

        Its own cards (not in a blind hand, P6), the partners' cards during a decision that
        shows them (M5), the cards played face up, cards shown with a raise (M4), the vira,
        the bet and the scores; and ``last_hand``, the public record of the hand that ended
        last (its cards played, cards shown, e.g. a raise's card refused in round 1 (M4), and
        round winners), since a hand's last move already deals the next one."""
        r = self.rules
        n = r.players
        team = seat % 2
        blind = self.blind
        own_hand = None if blind else [card_name(c) for c in self.hands[seat]]
        partners: dict[int, list[str]] | None = None
        if (self.state == "decide" and r.one_team.show_partner_cards
                and team == self.special_team):
            partners = {s: [card_name(c) for c in self.hands[s]] for s in range(team, n, 2)}
        played = _public_played(self.played, seat, blind)
        pending = None
        if self.pending is not None:
            ps, pv, pc = self.pending
            pending = {"seat": ps, "value": pv, "name": r.step_name(pv)}
            if pc is not None and ps == seat:
                pending["card"] = card_name(pc)
        special = None
        if self.special == ONE_TEAM:
            special = {"name": r.one_team.name, "team": self.special_team}
        elif self.special == BOTH_TEAMS:
            special = {"name": r.both_teams.name, "team": None}
        legal = self.legal_actions(seat)
        last = None
        if self.last_hand is not None:
            number, last_played, last_shown, last_rounds, last_blind = self.last_hand
            last = {"hand_number": number,
                    "played": _public_played(last_played, seat, last_blind),
                    "shown": [{"seat": s, "card": card_name(c)} for s, c in last_shown],
                    "rounds": list(last_rounds)}
        return {
            "seat": seat,
            "team": team,
            "phase": self.state,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "mao": self.mao,
            "turn": self.turn if self.state == "play" else None,
            "round": self.round_no + 1,
            "hand": own_hand,
            "hand_size": len(self.hands[seat]),
            "partner_hands": partners,
            "vira": card_name(self.vira) if self.vira is not None else None,
            "manilhas": [card_name(c) for c in self.manilhas],
            "played": played,
            "rounds": list(self.round_results),
            "value": self.value,
            "pending_raise": pending,
            "last_raise_team": self.last_raise_team,
            "shown": [{"seat": s, "card": card_name(c)} for s, c in self.shown],
            "special": special,
            "blind": blind,
            "score": self.score[:],
            "games": self.games[:],
            "legal": [_blind_str(a, self.hands[seat]) if blind else str(a) for a in legal],
            "last_hand": last,
        }

    def play_by_position(self, seat: int, position: int, covered: bool = False) -> Action:
        """The move of a blind hand (P6): play the card at ``position`` (0-based) of the hand."""
        return Action.play(seat, self.hands[seat][position], covered)

    def __repr__(self) -> str:
        return (f"<Match {self.rules.name} {self.state} hand {self.hand_number} "
                f"score {self.score} games {self.games}>")


# -- the machine's conditions: the rules, judged before anything changes ------------------------
Judge = Callable[[Match, Any, Ruling], "str | None"]


def _judged(name: str, judge: Judge) -> None:
    """Register ``legal_<name>``: ``judge`` says why the move is illegal (``None``: legal) and
    writes what a legal move does on its ruling; judged once per trigger, however many
    transitions ask."""
    def check(ev: Any) -> bool:
        move, ruling = ev.args
        if not ruling.judged:
            ruling.judged = True
            ruling.why = judge(ev.model, move, ruling)
        return ruling.why is None
    condition(f"legal_{name}")(check)


def _conclude(m: Match, r: Ruling, winner: int | None, points: int,
              takes_game: bool = True) -> None:
    """Rule the end of the hand: ``winner`` scores ``points`` (C11, capped where the variant
    caps, and the game it wins, M8, P5/M5 where the special hand's winner takes it)."""
    rules = m.rules
    score = m.score[:]
    game = None
    if winner is not None:
        before = score[winner]
        score[winner] += points
        if rules.cap_score and score[winner] > rules.target:
            score[winner] = rules.target
        points = score[winner] - before  # C11 (house cap): what the score rose by
        takes_game = takes_game and (
            (m.special == ONE_TEAM and rules.one_team.winner_takes_game)
            or (m.special == BOTH_TEAMS and rules.both_teams.winner_takes_game))
        if score[winner] >= rules.target or takes_game:
            game = winner
    else:
        points = 0
    r.hand = (winner, points, score)
    r.ends = True
    if game is not None:
        _win_game(m, r, game)


def _win_game(m: Match, r: Ruling, winner: int) -> None:
    games = m.games[:]
    games[winner] += 1
    r.ends = True
    r.game = winner
    r.games = games
    if games[winner] >= m.rules.games_to_win:
        r.match = winner


def _hand_result(m: Match, results: list[int | None]) -> tuple[bool, int | None]:
    """C7: whether the hand is decided by its rounds so far, and for whom."""
    wins0 = results.count(0)
    wins1 = results.count(1)
    if wins0 >= 2:
        return True, 0
    if wins1 >= 2:
        return True, 1
    if None in results and (wins0 or wins1):
        # A tie with a win: the first round won decides (C7, and C7 pinned for 1-2-tie).
        return True, next(w for w in results if w is not None)
    if len(results) < m.rules.cards_per_player:
        return False, None
    how = m.rules.all_tied  # P8, M7
    if how == "nobody":
        return True, None
    return True, (m.mao % 2 if how == "mao_team" else m.dealer % 2)


def _judge_play(m: Match, a: Action, r: Ruling) -> str | None:
    seat = a.seat
    card = a.card
    if seat != m.turn:
        return f"it is seat {m.turn}'s turn"
    hand = m.hands[seat]
    if card not in hand:
        if card is None:
            return ("a move by position is a bot's view of a blind hand: "
                    "engine.bots.choose_for or play_by_position gives the move")
        return f"seat {seat} does not hold {card_name(card)}"
    bound = m.bound[seat]
    if bound is not None and card != bound:
        return f"seat {seat} raised with {card_name(bound)} and must play it (M4)"
    covered = a.covered
    if covered:
        rules = m.rules
        if not rules.covered_allowed:
            return "this variant has no covered cards (P7)"
        if m.round_no + 1 < rules.covered_from_round:
            return f"covered cards only from round {rules.covered_from_round} (P7)"
        if bound is not None:
            return "a card shown with a raise cannot be covered (M4)"
    cards = m.round_cards
    if len(cards) + 1 < m.moves.players:
        return None
    # The card completes the round. C5: the strongest card wins; equal strongest across teams
    # tie; P7: covered is nothing.
    strength = m.strength
    best = -2
    tops: list[int] = []
    for s, c, cov in (*cards, (seat, card, covered)):
        v = COVERED if cov else strength[c]
        if v > best:
            best = v
            tops = [s]
        elif v == best:
            tops.append(s)
    teams = {s % 2 for s in tops}
    if best != COVERED and len(teams) == 1:
        winner: int | None = tops[0] % 2
        leader = tops[0]  # C5 pinned: the first of a team's equal cards leads
    else:
        winner = None
        how = m.rules.tied_round_leader  # C6
        # P7: a covered card ties nothing: after a round all face down, its leader leads
        leader = m.leader if how == "same_leader" or best == COVERED else (
            tops[0] if how == "first_tied_card" else tops[-1])
    r.round = (winner, leader)
    decided, hand_winner = _hand_result(m, [*m.round_results, winner])
    if decided:
        _conclude(m, r, hand_winner, m.value if hand_winner is not None else 0)
    return None


def _judge_raise(m: Match, a: Action, r: Ruling) -> str | None:
    rules = m.rules
    seat = a.seat
    st = m.state
    if m.special != NORMAL:
        # P5, P6, M5, M6: any raise in a special hand is penalised (or refused)
        team = seat % 2
        if m.special == ONE_TEAM:
            one = rules.one_team
            name, raises = one.name, one.raises
            penalty = (one.penalty_team_at_score if team == m.special_team
                       else one.penalty_other_team)
        else:
            both = rules.both_teams
            name, raises, penalty = both.name, both.raises, both.penalty
        if raises == "illegal" or st not in ("play", "decide"):
            return f"no raise is allowed in the {name}"
        if penalty == "lose_hand":
            _conclude(m, r, 1 - team, m.value)
        else:  # lose_game: the game ends at once, the other team wins it, scores unchanged
            _win_game(m, r, 1 - team)
        return None
    if st == "answer":
        assert m.pending is not None
        if seat % 2 != m.challenged_team:
            return "only the challenged team may raise back"
        base = m.pending[1]
    else:  # play: the only other state with a raise in a normal hand
        if rules.raise_timing == "own_turn" and seat != m.turn:
            return f"a raise only on one's own turn (P4); it is seat {m.turn}'s"
        if seat % 2 == m.last_raise_team:
            return "a team cannot raise twice in a row (C10)"
        base = m.value
    step = rules.next_step(base)
    if step is None:
        return f"the ladder stops at {base}"
    if a.value != step.value:
        return f"a raise names the next step, {step.value} ({step.name})"
    card = a.card
    if a.position is not None:
        return "a raise by position is a bot's view of a blind hand, not a move"
    if rules.name_card:
        hand = m.hands[seat]
        if not hand:
            return "a seat with no card left cannot raise (M4)"
        if card is None:
            return "the raiser names the card he raises with (M4)"
        if card not in hand:
            return f"seat {seat} does not hold {card_name(card)}"
        bound = m.bound[seat]
        if bound is not None and card != bound:
            return f"seat {seat} is bound to {card_name(bound)} (M4)"
    elif card is not None:
        return "this variant's raises name no card"
    return None


def _judge_answer(m: Match, a: Action, r: Ruling) -> str | None:
    if a.seat % 2 != m.challenged_team:
        return "only the challenged team answers a raise"
    if a.kind == "fold":
        # C9: the raising team wins the hand, at the value before the raise
        _conclude(m, r, m.pending[0] % 2, m.value)  # type: ignore[index]
    return None


def _judge_decide(m: Match, a: Action, r: Ruling) -> str | None:
    if a.seat % 2 != m.special_team:
        return f"only team {m.special_team} decides this hand"
    if not a.play_on:
        # M5: a fold gives "only" the fold points; it is not winning the hand that decides
        # the game where the winner of the special hand takes it.
        _conclude(m, r, 1 - a.seat % 2, m.rules.one_team.fold_points, takes_game=False)
    return None


def _judge_deal(m: Match, deal: Deal | tuple[list[list[Card]], Card | None],
                r: Ruling) -> str | None:
    if not isinstance(deal, Deal):
        return None  # the match's own: from the seed, or recorded and checked when queued
    if m.rng is not None:
        return "a seeded match deals from its seed"
    return m._deal_problem(deal, m.dealer)


_judged("play", _judge_play)
_judged("raise", _judge_raise)
_judged("accept", _judge_answer)
_judged("fold", _judge_answer)
_judged("decide", _judge_decide)
_judged("deal", _judge_deal)


@condition("ends_hand")
def _ends_hand(ev: Any) -> bool:
    """The ruled move ends the hand (or the game, P5/P6)."""
    return bool(ev.args[1].ends)


@condition("ends_match")
def _ends_match(ev: Any) -> bool:
    """The ruled move wins the match."""
    return ev.args[1].match is not None


@condition("needs_decision")
def _needs_decision(ev: Any) -> bool:
    """M5: the hand about to be dealt is a mão de dez with a decision."""
    m = ev.model
    return bool(m._special_for(m.score)[0] == ONE_TEAM and m.rules.one_team.decision)


# -- the machine's effects: a ruled move applied ------------------------------------------------
@effect("play")
def _play(ev: Any) -> None:
    m: Match = ev.model
    a, r = ev.args
    seat = a.seat
    card = a.card
    m.hands[seat].remove(card)
    if m.bound[seat] is not None:
        m.bound[seat] = None
    m.played.append((m.round_no, seat, card, a.covered))
    m.round_cards.append((seat, card, a.covered))
    if r.round is None:
        m.turn = (seat + 1) % m.moves.players
        return
    winner, leader = r.round
    m.round_results.append(winner)
    r.checkpoints = [{"event": "round", "winner": winner}]
    if r.ends:
        m._end(r)
    else:
        m.round_no += 1
        m.round_cards = []
        m.leader = m.turn = leader


@effect("raise")
def _raise(ev: Any) -> None:
    m: Match = ev.model
    a, r = ev.args
    if r.ends:  # penalised in a special hand
        m._end(r)
        return
    if m.state == "answer":
        m._accept_pending()  # a raise back accepts the pending raise (C9 pinned)
    m.pending = (a.seat, a.value, a.card)


@effect("accept")
def _accept(ev: Any) -> None:
    ev.model._accept_pending()


@effect("fold")
def _fold(ev: Any) -> None:
    m: Match = ev.model
    r = ev.args[1]
    seat, _, card = m.pending  # type: ignore[misc]
    if card is not None and m.round_no + 1 in m.rules.refused_card_shown_in_rounds:
        m.shown.append((seat, card))  # M4: refused in round 1, shown even so
    m.pending = None
    m._end(r)


@effect("decide")
def _decide(ev: Any) -> None:
    r = ev.args[1]
    if r.ends:
        ev.model._end(r)


@effect("deal")
def _deal(ev: Any) -> None:
    m: Match = ev.model
    deal = ev.args[0]
    if isinstance(deal, Deal):
        m._setup_hand([list(h) for h in deal.hands], deal.vira)
    else:
        m._setup_hand(*deal)


@effect("deal_next")
def _deal_next(ev: Any) -> None:
    """On entering ``deal``: the chance step comes at once where the match has the cards."""
    ev.model._deal_next()


# -- the moves of each trigger, as the machine's conditions accept them ------------------------
def _list_play(m: Match, seat: int | None, out: list[Action]) -> None:
    t = m.turn
    if seat is None or seat == t:
        moves = m.moves
        bound = m.bound[t]
        row = moves.play[t]
        if bound is not None:
            out.append(row[bound])
        else:
            hand = m.hands[t]
            out.extend([row[c] for c in hand])
            if m.round_no >= moves.covered_from:
                row = moves.covered[t]
                out.extend([row[c] for c in hand])


def _list_raise(m: Match, seat: int | None, out: list[Action]) -> None:
    """Raises in a normal hand (those a special hand penalises are never offered)."""
    if m.special != NORMAL:
        return
    moves = m.moves
    if m.state == "answer":
        pending = m.pending
        assert pending is not None and seat is not None
        value = moves.next_value.get(pending[1])
        if value is not None and seat % 2 != pending[0] % 2:
            _raises(m, seat, value, out)
        return
    value = moves.next_value.get(m.value)
    if value is None:
        return
    if moves.any_time:
        team = m.last_raise_team
        for s in range(moves.players):
            if (seat is None or seat == s) and s % 2 != team:
                _raises(m, s, value, out)
    else:
        t = m.turn
        if (seat is None or seat == t) and t % 2 != m.last_raise_team:
            _raises(m, t, value, out)


def _raises(m: Match, seat: int, value: int, out: list[Action]) -> None:
    table = m.moves.raises
    if not m.rules.name_card:
        out.append(table[seat, value, None])
        return
    bound = m.bound[seat]
    for c in (m.hands[seat] if bound is None else (bound,)):
        out.append(table[seat, value, c])


def _list_accept(m: Match, seat: int | None, out: list[Action]) -> None:
    if seat is not None and seat % 2 != m.pending[0] % 2:  # type: ignore[index]
        out.append(m.moves.accept[seat])


def _list_fold(m: Match, seat: int | None, out: list[Action]) -> None:
    if seat is not None and seat % 2 != m.pending[0] % 2:  # type: ignore[index]
        out.append(m.moves.fold[seat])


def _list_decide(m: Match, seat: int | None, out: list[Action]) -> None:
    for s in range(m.special_team, m.moves.players, 2):  # type: ignore[arg-type]
        if seat is None or seat == s:
            out.extend(m.moves.decide[s])


#: The lister of each move kind: what its trigger offers now.
LISTERS: dict[str, Lister] = {"play": _list_play, "raise": _list_raise,
                              "accept": _list_accept, "fold": _list_fold,
                              "decide": _list_decide}


def _public_played(played: Sequence[tuple[int, int, Card, bool]],
                   seat: int, blind: bool) -> list[dict[str, Any]]:
    """Cards played, as ``seat`` saw them: a covered card's face only to its player (P7), and
    not even to him in a blind hand, where he played it unseen (P6)."""
    return [{"round": rnd + 1, "seat": s,
             "card": card_name(c) if (not cov or (s == seat and not blind)) else None,
             "covered": cov}
            for rnd, s, c, cov in played]


def _blind_str(action: Action, hand: Sequence[Card]) -> str:
    if action.kind == "play":
        pos = hand.index(action.card)
        return f"play {action.seat} #{pos + 1}{' covered' if action.covered else ''}"
    return str(action)
