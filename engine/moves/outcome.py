"""What several move kinds share: ruling the end of a hand (C7, C11), the game it wins (M8,
P9), and a raise accepted (C9). Applying the end of a hand is :mod:`engine.moves.scoring`'s,
below this module and the side bets'."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.moves.scoring import win_game
from engine.ruling import HandResult, Ruling, condition, effect
from engine.state import DEAL, MATCH_OVER, HandState, Ruled

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import MatchView


def other_team(rules: Rules, team: int | None) -> int:
    """The team that scores when ``team`` folds or is penalised: with two teams, the other."""
    return next(t for t in range(rules.teams) if t != team)


#: ``tuple.__new__``: a ``NamedTuple`` made from its fields' tuple without its class's
#: ``__new__`` (a Python function, a call more a hand).
_new_result = tuple.__new__


def conclude(m: MatchView, r: Ruling, winner: int | None, points: int,
             takes_game: bool = True) -> None:
    """Rule the end of the hand: ``winner`` scores ``points`` (C11, capped where the variant
    caps, and the game it wins, M8, P5/M5 where the special hand's winner takes it). A hand
    worth the game (a ladder step ``value: game``, accepted) takes the winner's score to the
    target: it scores what it lacked (and a hand worth the match wins the match too)."""
    rules = m.rules
    side = r.side  # a side bet settled by the same move (G20): its crediting comes first
    score = m.score[:] if side is None or side.score is None else side.score[:]
    game = None
    for hook in m.move_table.hand_ends:  # GH6: side bets credited at the end of the hand, first
        won = hook.rule(m, r, score)
        if game is None:
            game = won
    whole = False  # the hand is won at a ladder step worth the game or the match
    if winner is not None:
        before = score[winner]
        score[winner] += points
        whole = (points == rules.game_value and m.hand.value == points
                 and m.hand.last_raise_team is not None)  # reached by an accepted raise
        if score[winner] > rules.target and (rules.cap_score or whole):
            score[winner] = rules.target
        points = score[winner] - before  # C11 (house cap): what the score rose by
        rule = m.hand.rule
        takes_game = takes_game and rule is not None and rule.winner_takes_game
        if game is None and (score[winner] >= rules.target or takes_game):
            game = winner
    else:
        points = 0
    r.hand = _new_result(HandResult, (winner, points, score))  # HandResult(winner, ...)
    r.ends = True
    if game is not None:
        win_game(m, r, game, whole and rules.match_step)


def hand_result(m: Ruled, results: list[int | None]) -> tuple[bool, int | None]:
    """C7: whether the hand is decided by its rounds so far, and for whom.

    ``results`` holds each round's winning team (``None``: tied). The hand goes to the team
    with the most round wins; equal wins go to the one of them that won a round first (so,
    with three cards: round 1 won and round 2 tied, round 1 tied and round 2 won, rounds 1 and
    2 split and round 3 tied, all as C7 says); a majority of ``cards_per_player`` rounds
    (2 of 3, 3 of 5) always takes it. The hand is decided as soon as no result of the rounds
    left could change that. No round won at all: ``rounds.all_tied`` (P8, M7)."""
    rules = m.rules
    played = len(results)
    left = rules.cards_per_player - played
    if rules.teams == 2:  # the same rule, without the lists (a hot path)
        # Ahead, a team is caught by the other winning every round left: more wins, or as
        # many and an earlier first win (a win to come is later than the leader's)
        w0 = results.count(0)
        w1 = results.count(1)
        if w0 > w1:
            reach = w1 + left
            if reach < w0:
                return True, 0
            if reach > w0 or (w1 and results.index(1) < results.index(0)):
                return False, None
            return True, 0
        if w1 > w0:
            reach = w0 + left
            if reach < w1:
                return True, 1
            if reach > w1 or (w0 and results.index(0) < results.index(1)):
                return False, None
            return True, 1
        if left:  # as many wins (or none): either team may still win more
            return False, None
        if not w0:
            return True, _all_tied(m)
        return True, 0 if results.index(0) < results.index(1) else 1
    if left > played:
        return False, None  # another team could still win more rounds than anyone has
    wins = [results.count(t) for t in range(rules.teams)]
    best = max(wins)
    if not best:
        if left:
            return False, None
        return True, _all_tied(m)
    # The hand's winner if it ended now: the most wins, then the first round won
    if wins.count(best) == 1:
        leader = wins.index(best)
    else:
        leader = next(w for w in results if w is not None and wins[w] == best)
    if left:
        # Decided unless another team, winning every round left, would catch up: more
        # wins, or as many and an earlier first win (a win to come is later than the leader's)
        for t, n in enumerate(wins):
            if t != leader:
                reach = n + left
                if reach > best or (reach == best and n
                                    and results.index(t) < results.index(leader)):
                    return False, None
    return True, leader


def _all_tied(m: Any) -> int | None:
    """P8, M7: the team that takes a hand whose every round tied (``None``: nobody). ``m``: a
    :class:`Match`, or what stands for one with its rules, mão, dealer and hand (``Any``: a
    bot's :class:`~engine.state.Ruled` never gets here, with no round won)."""
    rules: Rules = m.rules
    how = rules.all_tied
    if how == "nobody":
        return None
    if how == "mao_team":
        return rules.team_of[int(m.mao)]
    if how == "dealer_team":
        return rules.team_of[int(m.dealer)]
    # first_round_first_card (house): round 1's first strongest face-up card; the others only
    # matched it. Round 1 all face down (no card tied it, C6 pinned): its leader, the mão.
    hand = m.hand
    strength = hand.strength
    best, seat = -1, int(m.mao)
    for rnd, s, card, covered in hand.played:
        if rnd == 0 and not covered and strength[card] > best:
            best, seat = strength[card], s
    return rules.team_of[seat]


def accept_pending(hand: HandState, team_of: Sequence[int]) -> None:
    """The pending raise is accepted: the hand is worth its value (C9); ``team_of`` is each
    seat's team."""
    seat, value, card = hand.pending  # type: ignore[misc]
    hand.value = value
    hand.last_raise_team = team_of[seat]
    if card is not None and hand.bound[seat] != card:
        # M4: accepted, the card is shown and must be played next (shown once, even if
        # the bound seat raises with it again)
        hand.bound[seat] = card
        hand.shown.append((seat, card))
    hand.pending = None


# The machine's end-of-hand conditions and effect (engine.moves.move_transitions' transitions
# ask them of every move that may end a hand).
@condition("ends_hand")
def _ends_hand(move: Any, ruling: Ruling) -> bool:
    """The ruled move ends the hand (or the game, P5/P6)."""
    return ruling.ends


@effect("match_decided")
def _match_decided(move: Any, ruling: Ruling) -> None:
    """On entering ``match_over``: the match says it is over (:attr:`Match.is_over`)."""
    ruling.model.is_over = True


@condition("ends_match")
def _ends_match(move: Any, ruling: Ruling) -> bool:
    """The ruled move wins the match."""
    return ruling.match is not None


def enter_after_hand(m: MatchView, move: Any, r: Ruling, to_deal: Sequence[Any],
                     to_end: Sequence[Any]) -> None:
    """A quick move that ended the hand (:mod:`engine.moves.quick`) goes where the kind's
    transitions go: to ``match_over`` where the match is won (``r.match``), else to ``deal``;
    the state set, the effects of entering it run (``to_end`` or ``to_deal``, the machine's
    ``on_enter`` callbacks: the next deal, the match over), as the machine's plan runs them."""
    if r.match is None:
        m.state = DEAL
        enters = to_deal
    else:
        m.state = MATCH_OVER
        enters = to_end
    for func in enters:
        func(move, r)
