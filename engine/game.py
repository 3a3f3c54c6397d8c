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

The match is the model of its variant's one ``transitions`` machine (:mod:`engine.machine`),
which owns the phase in :attr:`Match.state`. Checkpoints (what the rules made of a move) come
back from :meth:`Match.apply` as log events: ``round``, ``hand``, ``game``, ``match``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NoReturn

from engine.actions import Action, Deal
from engine.cards import Card, card_name
from engine.errors import IllegalMoveError
from engine.machine import build_machine, event_data, fire
from engine.rules import COVERED, Rules
from engine.shuffle import SplitMix64
from engine.shuffle import deal as seeded_deal
from engine.variant import load_ref

Checkpoint = dict[str, Any]

# Special hands (decided by the scores when the hand starts).
NORMAL, ONE_TEAM, BOTH_TEAMS = 0, 1, 2


def resolve_rules(variant: Rules | str | os.PathLike[str]) -> Rules:
    """A :class:`Rules`, a shipped variant name, or a path to a variant file, as rules."""
    return variant if isinstance(variant, Rules) else load_ref(variant)


class MoveTable:
    """Every move of a variant, made once: :meth:`Match.legal_actions` hands out these shared,
    immutable values instead of building new ones on every call."""

    __slots__ = ("play", "covered", "covered_from", "raises", "accept", "fold", "decide",
                 "next_value", "any_time")

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        deck = rules.deck
        self.play = [[Action("play", s, c) for c in range(52)] for s in range(n)]
        self.covered = [[Action("play", s, c, True) for c in range(52)] for s in range(n)]
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
        "game_winner", "winner", "hand_number", "hands", "dealt", "vira", "strength", "round_no",
        "round_cards", "round_results", "leader", "turn", "value", "pending", "last_raise_team",
        "bound", "shown", "played", "special", "special_team", "decision_pending", "blind",
        "last_hand", "moves", "hand_ready", "_event",
    )
    # The state of the hand in play (set by _reset_hand and _start_hand).
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
    decision_pending: bool
    blind: bool

    def __init__(self, rules: Rules, *, seed: int | None = None, dealer: int = 0,
                 deals: Iterable[Deal] | None = None) -> None:
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer {dealer} is not a seat (0..{rules.players - 1})")
        self.rules = rules
        self.machine = build_machine(rules)
        self._event = event_data(self.machine, self)
        self.moves = move_table(rules)
        self.state = "deal"
        self.seed = seed
        self.rng = SplitMix64(seed) if seed is not None else None
        queued = list(deals) if deals is not None else None
        self._deals: Iterator[Deal] | None = iter(queued) if queued is not None else None
        self.dealer = dealer
        self.score = [0, 0]
        self.games = [0, 0]
        self.game_winner: int | None = None
        self.winner: int | None = None
        self.hand_number = 0
        #: The public record of the hand that ended last: (number, played, shown, rounds,
        #: whether it was blind).
        self.last_hand: tuple[int, list[tuple[int, int, Card, bool]], list[tuple[int, Card]],
                              list[int | None], bool] | None = None
        self._reset_hand()
        for k, queued_deal in enumerate(queued or ()):  # recorded deals are checked up front
            self._check_deal(queued_deal, (dealer + k) % rules.players)
        if self._auto_deal():
            self._fire("deal_hand")

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
        other._event = event_data(self.machine, other)
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

    def _fire(self, event: str) -> None:
        """Trigger a phase change on this variant's machine (engine.machine.fire)."""
        fire(self.machine, event, self, self._event)

    # -- legal moves ------------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The moves that are legal now, for one seat or for all, in a fixed order.

        Raises that the variant penalises in a special hand (P5, P6, M5, M6) are moves that
        :meth:`apply` accepts, but they are never offered here."""
        st = self.state
        out: list[Action] = []
        moves = self.moves
        if st == "play":
            t = self.turn
            if seat is None or seat == t:
                bound = self.bound[t]
                row = moves.play[t]
                if bound is not None:
                    out.append(row[bound])
                else:
                    hand = self.hands[t]
                    out.extend([row[c] for c in hand])
                    if self.round_no >= moves.covered_from:
                        row = moves.covered[t]
                        out.extend([row[c] for c in hand])
            if self.special == NORMAL:
                value = moves.next_value.get(self.value)
                if value is not None:
                    if moves.any_time:
                        team = self.last_raise_team
                        for s in range(self.rules.players):
                            if (seat is None or seat == s) and s % 2 != team:
                                self._raises(s, value, out)
                    elif (seat is None or seat == t) and t % 2 != self.last_raise_team:
                        self._raises(t, value, out)
        elif st == "answer":
            assert self.pending is not None
            value = moves.next_value.get(self.pending[1])
            for s in range(1 - self.pending[0] % 2, self.rules.players, 2):
                if seat is None or seat == s:
                    out.append(moves.accept[s])
                    out.append(moves.fold[s])
                    if value is not None:
                        self._raises(s, value, out)
        elif st == "decide":
            for s in range(self.special_team, self.rules.players, 2):  # type: ignore[arg-type]
                if seat is None or seat == s:
                    out.extend(moves.decide[s])
        return out

    def _raises(self, seat: int, value: int, out: list[Action]) -> None:
        table = self.moves.raises
        if not self.rules.name_card:
            out.append(table[seat, value, None])
            return
        bound = self.bound[seat]
        for c in (self.hands[seat] if bound is None else (bound,)):
            out.append(table[seat, value, c])

    # -- applying moves ---------------------------------------------------------------------
    def apply(self, action: Action) -> list[Checkpoint]:
        """Perform one move; return the checkpoints it caused, as log events.

        An illegal move raises :class:`IllegalMoveError` (saying why, and listing what was
        legal) and leaves the match unchanged; so does anything that is not an
        :class:`Action` (a malformed ``Action`` cannot be built: ``ValueError``)."""
        if action.__class__ is not Action:
            raise IllegalMoveError(f"{action!r} is not a move: expected an Action",
                                   [str(a) for a in self.legal_actions()])
        kind = action.kind
        seat = action.seat
        if not (isinstance(seat, int) and 0 <= seat < self.rules.players):
            self._illegal(action, f"there is no seat {seat}")
        st = self.state
        if kind == "play":
            return self._apply_play(action)
        if kind == "raise":
            if self.special != NORMAL and st in ("play", "decide"):
                return self._apply_special_raise(action)
            return self._apply_raise(action)
        if kind in ("accept", "fold"):
            if st != "answer":
                self._illegal(action, "no raise is waiting for an answer")
            if seat % 2 != self.challenged_team:
                self._illegal(action, "only the challenged team answers a raise")
            return self._accept() if kind == "accept" else self._fold()
        if kind == "decide":
            if st != "decide":
                self._illegal(action, "no decision is awaited")
            if seat % 2 != self.special_team:
                self._illegal(action, f"only team {self.special_team} decides this hand")
            return self._decide(bool(action.play_on))
        if kind == "pass":
            self._illegal(action, "a pass declines a bot's offer to raise out of turn; it is "
                                  "not a move")
        self._illegal(action, f"unknown move {kind!r}")

    def _illegal(self, action: Action | Deal, why: str) -> NoReturn:
        if self.state == "match_over":
            why = "the match is over"
        raise IllegalMoveError(f"{action}: {why}", [str(a) for a in self.legal_actions()])

    def _apply_play(self, action: Action) -> list[Checkpoint]:
        st = self.state
        seat = action.seat
        card = action.card
        if st != "play":
            reason = {"answer": "a raise is waiting for its answer",
                      "decide": "the special hand's decision comes first"}.get(
                st, "no card is awaited")
            self._illegal(action, reason)
        if seat != self.turn:
            self._illegal(action, f"it is seat {self.turn}'s turn")
        hand = self.hands[seat]
        if card not in hand:
            if card is None:
                self._illegal(action, "a move by position is a bot's view of a blind hand: "
                                      "engine.bots.choose_for or play_by_position gives the move")
            self._illegal(action, f"seat {seat} does not hold {card_name(card)}")
        bound = self.bound[seat]
        if bound is not None and card != bound:
            self._illegal(action,
                          f"seat {seat} raised with {card_name(bound)} and must play it (M4)")
        if action.covered:
            r = self.rules
            if not r.covered_allowed:
                self._illegal(action, "this variant has no covered cards (P7)")
            if self.round_no + 1 < r.covered_from_round:
                self._illegal(action, f"covered cards only from round {r.covered_from_round} (P7)")
            if bound is not None:
                self._illegal(action, "a card shown with a raise cannot be covered (M4)")
        return self._play(seat, card, action.covered)

    def _play(self, seat: int, card: Card, covered: bool) -> list[Checkpoint]:
        self.hands[seat].remove(card)
        if self.bound[seat] is not None:
            self.bound[seat] = None
        self.played.append((self.round_no, seat, card, covered))
        cards = self.round_cards
        cards.append((seat, card, covered))
        n = self.rules.players
        if len(cards) < n:
            self.turn = (seat + 1) % n
            return []
        # C5: the strongest card wins; equal strongest across teams tie; P7: covered is nothing.
        strength = self.strength
        best = -2
        tops: list[int] = []
        for s, c, cov in cards:
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
            how = self.rules.tied_round_leader  # C6
            # P7: a covered card ties nothing: after a round all face down, its leader leads
            leader = self.leader if how == "same_leader" or best == COVERED else (
                tops[0] if how == "first_tied_card" else tops[-1])
        self.round_results.append(winner)
        events: list[Checkpoint] = [{"event": "round", "winner": winner}]
        decided, hand_winner = self._hand_result()
        if decided:
            points = self.value if hand_winner is not None else 0
            events.extend(self._end_hand(hand_winner, points))
        else:
            self.round_no += 1
            self.round_cards = []
            self.leader = self.turn = leader
        return events

    def _hand_result(self) -> tuple[bool, int | None]:
        """C7: whether the hand is decided by its rounds so far, and for whom."""
        results = self.round_results
        wins0 = results.count(0)
        wins1 = results.count(1)
        if wins0 >= 2:
            return True, 0
        if wins1 >= 2:
            return True, 1
        if None in results and (wins0 or wins1):
            # A tie with a win: the first round won decides (C7, and C7 pinned for 1-2-tie).
            return True, next(w for w in results if w is not None)
        if len(results) < self.rules.cards_per_player:
            return False, None
        how = self.rules.all_tied  # P8, M7
        if how == "nobody":
            return True, None
        return True, (self.mao % 2 if how == "mao_team" else self.dealer % 2)

    def _apply_raise(self, action: Action) -> list[Checkpoint]:
        r = self.rules
        seat = action.seat
        st = self.state
        if self.special != NORMAL:
            what = r.one_team.name if self.special == ONE_TEAM else r.both_teams.name
            self._illegal(action, f"no raise is allowed in the {what}")
        if st == "answer":
            assert self.pending is not None
            if seat % 2 != self.challenged_team:
                self._illegal(action, "only the challenged team may raise back")
            base = self.pending[1]
        elif st == "play":
            if r.raise_timing == "own_turn" and seat != self.turn:
                self._illegal(action,
                              f"a raise only on one's own turn (P4); it is seat {self.turn}'s")
            if seat % 2 == self.last_raise_team:
                self._illegal(action, "a team cannot raise twice in a row (C10)")
            base = self.value
        else:
            self._illegal(action, "no raise is possible now")
        step = r.next_step(base)
        if step is None:
            self._illegal(action, f"the ladder stops at {base}")
        if action.value != step.value:
            self._illegal(action, f"a raise names the next step, {step.value} ({step.name})")
        card = action.card
        if action.position is not None:
            self._illegal(action, "a raise by position is a bot's view of a blind hand, not a "
                                  "move")
        if r.name_card:
            hand = self.hands[seat]
            if not hand:
                self._illegal(action, "a seat with no card left cannot raise (M4)")
            if card is None:
                self._illegal(action, "the raiser names the card he raises with (M4)")
            if card not in hand:
                self._illegal(action, f"seat {seat} does not hold {card_name(card)}")
            bound = self.bound[seat]
            if bound is not None and card != bound:
                self._illegal(action, f"seat {seat} is bound to {card_name(bound)} (M4)")
        elif card is not None:
            self._illegal(action, "this variant's raises name no card")
        if st == "answer":
            self._accept_pending()  # a raise back accepts the pending raise (C9 pinned)
        self.pending = (seat, step.value, card)
        self._fire("raise_bet")
        return []

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

    def _accept(self) -> list[Checkpoint]:
        self._accept_pending()
        self._fire("accept_bet")
        return []

    def _fold(self) -> list[Checkpoint]:
        seat, _, card = self.pending  # type: ignore[misc]
        if card is not None and self.round_no + 1 in self.rules.refused_card_shown_in_rounds:
            self.shown.append((seat, card))  # M4: refused in round 1, shown even so
        self.pending = None
        return self._end_hand(seat % 2, self.value)  # C9: the value before the raise

    def _decide(self, play: bool) -> list[Checkpoint]:
        self.decision_pending = False
        if play:
            self._fire("decide_play")
            return []
        other = 1 - self.special_team  # type: ignore[operator]
        # M5: a fold gives "only" the fold points; it is not winning the hand that decides
        # the game where the winner of the special hand takes it.
        return self._end_hand(other, self.rules.one_team.fold_points, takes_game=False)

    def _apply_special_raise(self, action: Action) -> list[Checkpoint]:
        """P5, P6, M5, M6: any raise in a special hand is penalised (or refused)."""
        r = self.rules
        team = action.seat % 2
        if self.special == ONE_TEAM:
            hand = r.one_team
            penalty = (hand.penalty_team_at_score if team == self.special_team
                       else hand.penalty_other_team)
        else:
            both = r.both_teams
            hand, penalty = both, both.penalty  # type: ignore[assignment]
        if hand.raises == "illegal":
            self._illegal(action, f"no raise is allowed in the {hand.name}")
        other = 1 - team
        if penalty == "lose_hand":
            return self._end_hand(other, self.value)
        # lose_game: the game ends at once, the other team wins it, scores unchanged.
        self.decision_pending = False
        self.game_winner = other
        self._fire("forfeit_game")
        return self._end_game()

    # -- the end of a hand, a game, a match -------------------------------------------------
    def _end_hand(self, winner: int | None, points: int, *,
                  takes_game: bool = True) -> list[Checkpoint]:
        r = self.rules
        score = self.score
        if winner is not None:
            before = score[winner]
            score[winner] += points
            if r.cap_score and score[winner] > r.target:
                score[winner] = r.target
            points = score[winner] - before  # C11 (house cap): what the score rose by
            takes_game = takes_game and (
                (self.special == ONE_TEAM and r.one_team.winner_takes_game)
                or (self.special == BOTH_TEAMS and r.both_teams.winner_takes_game))
            if score[winner] >= r.target or takes_game:
                self.game_winner = winner
        events: list[Checkpoint] = [
            {"event": "hand", "winner": winner, "points": points if winner is not None else 0,
             "score": score[:]}]
        self._fire("end_hand")
        if self.game_winner is not None:
            self._fire("next_hand")
            events.extend(self._end_game())
        else:
            self._next_hand()
            self._fire("next_hand")
        return events

    def _end_game(self) -> list[Checkpoint]:
        w = self.game_winner
        assert w is not None
        self.games[w] += 1
        events: list[Checkpoint] = [
            {"event": "game", "winner": w, "score": self.score[:], "games": self.games[:]}]
        if self.games[w] >= self.rules.games_to_win:
            self.winner = w
            events.append({"event": "match", "winner": w, "games": self.games[:]})
        if self.winner is None:
            self.score = [0, 0]  # M8: each game starts at 0-0
            self.game_winner = None
            self._next_hand()
        self._fire("next_game")
        return events

    def _next_hand(self) -> None:
        self.dealer = (self.dealer + 1) % self.rules.players  # the next dealer is to the right
        # _reset_hand makes new lists, so the ended hand's are kept without copying
        self.last_hand = (self.hand_number, self.played, self.shown, self.round_results,
                          self.blind)
        self._reset_hand()
        self._auto_deal()  # the transition out of hand_over / game_over sees hand_ready

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
        self.decision_pending = False
        self.blind = False
        self.hand_ready = False

    # -- dealing ----------------------------------------------------------------------------
    def _auto_deal(self) -> bool:
        """Deal the next hand from the seed or the queue of recorded deals, if there is one;
        the caller fires the machine's transition (which reads ``hand_ready``)."""
        r = self.rules
        if self.rng is not None:
            hands, vira = seeded_deal(r.deck, self.rng, r.players, r.cards_per_player,
                                      self.dealer, r.has_vira)
            self._setup_hand(hands, vira)
        elif self._deals is not None:
            nxt = next(self._deals, None)
            if nxt is None:
                self._deals = None
                return False
            self._setup_hand([list(h) for h in nxt.hands], nxt.vira)
        else:
            return False
        return True

    def deal(self, deal: Deal) -> None:
        """Start the awaited hand with recorded cards. Raises :class:`IllegalMoveError` if it
        is not a deal of this variant for this dealer."""
        if self.state != "deal":
            self._illegal(deal, "no deal is awaited now")
        if self.rng is not None:
            self._illegal(deal, "a seeded match deals from its seed")
        self._check_deal(deal, self.dealer)
        self._setup_hand([list(h) for h in deal.hands], deal.vira)
        self._fire("deal_hand")

    def _check_deal(self, deal: Deal, dealer: int) -> None:
        r = self.rules
        if deal.dealer != dealer:
            self._illegal(deal, f"the dealer is seat {dealer} by rotation, not {deal.dealer}")
        if len(deal.hands) != r.players:
            self._illegal(deal, f"expected {r.players} hands, found {len(deal.hands)}")
        for seat, hand in enumerate(deal.hands):
            if len(hand) != r.cards_per_player:
                self._illegal(deal,
                              f"seat {seat} has {len(hand)} cards, expected {r.cards_per_player}")
        cards = [c for h in deal.hands for c in h]
        if r.has_vira:
            if deal.vira is None:
                self._illegal(deal, "this variant turns a vira (P1)")
            cards.append(deal.vira)
        elif deal.vira is not None:
            self._illegal(deal, "this variant has no vira")
        deck = set(r.deck)
        for c in cards:
            if c not in deck:
                self._illegal(deal, f"{card_name(c)} is not in this variant's deck")
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            self._illegal(deal, f"{card_name(dup)} is dealt twice")

    def _setup_hand(self, hands: list[list[Card]], vira: Card | None) -> None:
        r = self.rules
        self.hands = hands
        self.dealt = tuple(tuple(h) for h in hands)
        self.vira = vira
        self.strength = r.strengths(vira)
        self.hand_number += 1
        s0, s1 = self.score
        both, one = r.both_teams, r.one_team
        if both.enabled and s0 >= both.from_score and s1 >= both.from_score:  # P6, M6
            self.special = BOTH_TEAMS
            self.value = both.value
            self.blind = both.blind
        elif one.enabled and (s0 >= one.from_score) != (s1 >= one.from_score):  # P5, M5
            self.special = ONE_TEAM
            self.special_team = 0 if s0 >= one.from_score else 1
            self.value = one.value
            self.blind = one.blind
            self.decision_pending = one.decision
        self.hand_ready = True

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
