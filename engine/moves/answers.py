"""Who answers a raise for the challenged team (C9, and its house rules): what accept, fold,
a raise back and a concede instead of an answer share. Not a move kind: a plain module, so
that importing it registers nothing (the kinds register in :data:`engine.moves.SHIPPED`
order, which is the order of the machine's transitions).

Any player of the challenged team answers (``betting.answered_by: challenged_team``, C9
pinned), only the next seat after the raiser in playing order (``next_seat``), or only the
team's designated seat (``designated``, ``betting.answerers``: "only the player may accept,
never his partner for him"); where the
whole team must refuse (``betting.refusal: whole_team``) a player who has folded the pending
raise answers no more."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.errors import Why
from engine.moves import PHASES
from engine.moves.scoring import end_hand
from engine.state import ANSWER

if TYPE_CHECKING:
    from engine.cards import Card
    from engine.rules import Rules
    from engine.ruling import Ruling
    from engine.view import Lister, MatchView

#: ``betting.answered_by`` as C9 pins it: any player of the challenged team answers.
PINNED = "challenged_team"


#: Each answer lister's moves by seat (:func:`answer_lister`), by the lister: what
#: :func:`seat_listing` reads.
SEAT_MOVES: dict[Lister, list[Action]] = {}


def answer_lister(kind: str, rules: Rules) -> Lister:
    """The lister of an answer of the ``kind`` (accept, fold) in the variant: the move of the
    seat asked, one that may answer (C9 and its house rules), over every seat's made once."""
    moves = [Action(kind, s) for s in range(rules.players)]

    def lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
        if seat is not None:  # a seat that may answer (answering_seats)
            out.append(moves[seat])

    SEAT_MOVES[lister] = moves
    return lister


def by_seat_states(present: Collection[str]) -> list[str]:
    """The states whose moves are listed seat by seat (``Waiting.by_seat``: the partners who
    answer a raise), of those ``present`` in the variant (without a ladder, no answer)."""
    return [str(p) for p, waiting in PHASES.items() if waiting.by_seat and str(p) in present]


def seat_listing(listers: tuple[Lister, ...],
                 players: int) -> tuple[list[tuple[Action, ...]], tuple[Lister, ...]]:
    """The listers of a state whose moves are listed seat by seat (``Waiting.by_seat``: the
    seats that may answer), as what ``Match.legal_actions`` lists for each of those seats:
    the moves of the answer listers that lead them (:func:`answer_lister`: one move a seat,
    made once), by seat, then the listers after them, called as before."""
    k = 0
    while k < len(listers) and listers[k] in SEAT_MOVES:
        k += 1
    return ([tuple(SEAT_MOVES[lister][s] for lister in listers[:k]) for s in range(players)],
            listers[k:])


def judge_answer(m: MatchView, a: Action, r: Ruling) -> str | None:
    """Who may answer a raise: a player of the challenged team (C9), and of those the one the
    variant names (:func:`who_answers`)."""
    rules = m.rules
    hand = m.hand
    team_of = rules.team_of
    if team_of[a.seat] == team_of[hand.pending[0]]:  # type: ignore[index]
        return Why("not_challenged", "only the challenged team answers a raise")
    if hand.refused or rules.answered_by != PINNED:
        return who_answers(m, a.seat)
    return None


def who_answers(m: MatchView, seat: int) -> str | None:
    """For a seat of the challenged team: why it may not answer the pending raise now (it
    folded already, or it is not the next seat), or ``None``. Nothing to check, and no cost,
    under the pinned C9 (any player answers, one fold refuses)."""
    hand = m.hand
    refused = hand.refused
    if refused and seat in refused:
        return Why("folded_already",
                   f"seat {seat} has folded: a partner who has not answers (betting.refusal)")
    by = m.rules.answered_by
    if by == "next_seat":
        first = answerer(m)
        if seat != first:
            return Why("not_next_seat",
                       f"only seat {first}, the next seat after the raiser, answers "
                       "(betting.answered_by)")
    elif by == "designated":
        team = m.rules.team_of[seat]
        first = designated(m.rules)[team]
        if seat != first:
            return Why("not_designated",
                       f"only seat {first} answers for team {team}, never a partner for him "
                       "(betting.answerers)")
    return None


def designated(rules: Rules) -> tuple[int, ...]:
    """``betting.answered_by: designated``: the seat that answers each team's raises, team by
    team (``betting.answerers``; left out, each team's first seat).

    >>> from engine.variant import load_variant
    >>> designated(load_variant("only-the-player-answers"))
    (0, 1)
    """
    given = rules.block("betting")["answerers"]
    if given is not None:
        return tuple(given)
    team_of = rules.team_of
    return tuple(team_of.index(t) for t in range(rules.teams))


def answerer(m: MatchView) -> int:
    """``betting.answered_by: next_seat``: the seat that answers the pending raise, the first
    after the raiser in playing order on another team that has not folded it."""
    rules = m.rules
    team_of = rules.team_of
    n = rules.players
    raiser = m.hand.pending[0]  # type: ignore[index]
    refused = m.hand.refused
    team = team_of[raiser]
    for k in range(1, n):
        s = (raiser + k) % n
        if team_of[s] != team and s not in refused:
            return s
    raise AssertionError("a pending raise with nobody left to answer it")


def answering_seats(m: MatchView) -> tuple[int, ...]:
    """The seats that may answer the pending raise now (accept, fold, raise back), in seat
    order: the challenged team's, of those the one the variant names (:func:`who_answers`)."""
    hand = m.hand
    rules = m.rules
    seats = m.move_table.opponents[rules.team_of[hand.pending[0]]]  # type: ignore[index]
    if hand.refused or rules.answered_by != PINNED:
        return tuple(s for s in seats if who_answers(m, s) is None)
    return seats


def may_answer(m: MatchView, seat: int) -> bool:
    """Whether ``seat`` may answer the pending raise now (accept, fold, raise back)."""
    rules = m.rules
    hand = m.hand
    team_of = rules.team_of
    if team_of[seat] == team_of[hand.pending[0]]:  # type: ignore[index]
        return False
    if hand.refused or rules.answered_by != PINNED:
        return who_answers(m, seat) is None
    return True


def answered_alone(m: MatchView, seat: int,
                   team_of: tuple[int, ...]) -> tuple[int, int, Card | None] | None:
    """The pending raise, where ``seat`` answers it alone now (the accept and fold kinds'
    quick moves, C9 pinned: a player of the challenged team, none of whom has folded);
    else ``None``."""
    hand = m.hand
    pending = hand.pending
    if (m.state != ANSWER or hand.refused or pending is None
            or team_of[seat] == team_of[pending[0]]):
        return None
    return pending


def refuse(m: MatchView, r: Ruling) -> None:
    """Apply a refusal that ends the hand: the raise's named card shown where a refused raise
    shows it (M4), and the hand's end as ruled."""
    hand = m.hand
    seat, _, card = hand.pending  # type: ignore[misc]
    if card is not None and m.round.number + 1 in m.rules.refused_card_shown_in_rounds:
        hand.shown.append((seat, card))  # M4: refused in round 1, shown even so
    hand.pending = None
    end_hand(m, r)
