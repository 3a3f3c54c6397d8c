"""A position's side bets (G22-G41): their records (:func:`check_bets`) and their results as
the engine's own settlement gives them (:func:`check_bet_results`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations, product
from math import prod
from typing import TYPE_CHECKING

from engine.cards import Card
from engine.errors import PositionError, Why
from engine.matchpos.schema import Position, refuse
from engine.moves import KINDS, BetProblem, MoveKind
from engine.moves.bets import settle
from engine.ruling import Ruling
from engine.sidebets import shown_set

if TYPE_CHECKING:
    from engine.ruling import Settlement
    from engine.sidebets import BetState
    from engine.view import MatchView


def kind_of(b: BetState) -> MoveKind:
    """The move kind of bet ``b``'s kind (``SideBet.kind``): what a position is of its bets."""
    return KINDS[b.bet.kind]


def _settlement(m: MatchView, k: int, score: Sequence[int]) -> Settlement:
    """What the engine's own settlement of side bet ``k`` (engine.moves.bets) rules from the
    dealt cards, its chain and the score it was settled at (``score``)."""
    side = m.hand.side
    assert side is not None
    b = side[k]
    own = kind_of(b).bet_settle
    r = Ruling()
    r.model = m
    kept = m.score
    m.score = list(score)
    try:
        if own is None:
            settle(m, r, k, b, b.accepted)
        else:
            own(m, r, k, b)
    finally:
        m.score = kept
    assert r.side is not None, "a settlement rules its side bet"
    return r.side


def _same_points(m: MatchView, b: BetState, engine: tuple[int, tuple[Card, ...]] | None,
                 record: tuple[int, tuple[Card, ...]] | None) -> bool:
    """A show in a record is as good as the engine's where it is the same seat's, as many of
    his dealt cards, making the same points: which of equal cards is shown depends on the
    cards still held when the bet was settled (G32), which a position no longer tells."""
    if engine is None or record is None or engine == record:
        return engine == record
    (seat, cards), (other, mine) = engine, record
    dealt = m.hand.dealt[seat]
    vira = m.hand.vira
    return (seat == other and len(cards) == len(mine) == len(set(mine))
            and all(c in dealt for c in mine)
            and b.bet.points(list(mine), vira) == b.bet.points(list(cards), vira)
            # listed as the engine lists a show (the highest value first, then card order)
            and shown_set(list(mine), list(mine), mine, b.bet, vira) == tuple(mine))


def _result_problem(b: BetState, s: Settlement, at: str, m: MatchView,
                    points: bool = True) -> PositionError | None:
    """How bet ``b``'s record differs from the settlement ``s`` the engine rules for it, or
    ``None``; ``points``: compare the points too."""
    rule = kind_of(b).bet_rules
    chain = " - ".join(b.chain)
    if s.team != b.winner:
        return refuse(Why("bet_result", f"{chain} goes to team {s.team} by the cards dealt "
                                        f"({rule})"), f"{at}.winner")
    if s.accepted != b.accepted:
        return refuse(Why("bet_result", f"{chain} is settled {'by' if s.accepted else 'without'}"
                                        f" comparing the points ({rule})"), f"{at}.accepted")
    if points and s.points != b.points:
        return refuse(Why("bet_result", f"{chain} pays {s.points} here ({rule})"),
                      f"{at}.points")
    if not _same_points(m, b, s.shown, b.shown):
        return refuse(Why("bet_shown", "the cards shown are the winning points' of an "
                                       "accepted bet (G32)"), f"{at}.shown")
    if s.flores != b.flores:
        return refuse(Why("bet_shown", "the flores shown are the ones compared, else the "
                                       "scoring team's (G41)"), f"{at}.flores")
    return None


def check_bet_results(m: MatchView, live: bool, start: Sequence[int]) -> None:
    """Each settled bet's winner, points and cards shown are what the engine's settlement
    gives (G28-G32, G38-G41). In a live hand the bets are settled again from the score the
    hand began with, in an order they could have been settled in (a bet a flor kills, G37,
    before the flor), each crediting its points in turn; at ``match_over``, where the score
    has the hand's points too, a bet's points are those of some score up to the final one."""
    side = m.hand.side
    assert side is not None
    settled = [k for k, b in enumerate(side) if b.settled]
    if not settled:
        return
    if not live:
        for k in settled:
            _check_final_result(m, k)
        return
    first: PositionError | None = None
    for order in permutations(settled):
        if not _may_settle_in(side, order):
            continue
        problem = _replay_results(m, order, start)
        if problem is None:
            return
        first = first or problem
    assert first is not None
    raise first


def _may_settle_in(side: Sequence[BetState], order: Sequence[int]) -> bool:
    """Whether the bets could have been settled in ``order``: a flor sung kills the bets it
    names that are not settled (G37), so those settled came before it."""
    for i, k in enumerate(order):
        kills = side[k].bet.kills
        if any(side[j].bet.name in kills for j in order[i + 1:]):
            return False
    return True


def _replay_results(m: MatchView, order: Sequence[int],
                    start: Sequence[int]) -> PositionError | None:
    score = list(start)
    for k in order:
        s = _settlement(m, k, score)
        problem = _result_problem(m.hand.side[k], s, f"side_bets[{k}]", m)  # type: ignore[index]
        if problem is not None:
            return problem
        if s.score is not None:  # credited at once (G31)
            score = s.score
    return None


#: The most scores :func:`_check_final_result` tries for a bet's points at ``match_over``.
_FINAL_SCORES = 4096


def _check_final_result(m: MatchView, k: int) -> None:
    """At ``match_over``: bet ``k``'s record as the engine settles it, its points those of some
    score from 0 to the final one (scores only rise within a game)."""
    b = m.hand.side[k]  # type: ignore[index]
    at = f"side_bets[{k}]"
    s = _settlement(m, k, m.score)
    problem = _result_problem(b, s, at, m, points=False)
    if problem is not None:
        raise problem
    if s.points == b.points:
        return
    boxes = [range(t + 1) for t in m.score]
    if prod(len(r) for r in boxes) <= _FINAL_SCORES and not any(
            _settlement(m, k, score).points == b.points for score in product(*boxes)):
        raise refuse(Why("bet_result", f"{' - '.join(b.chain)} pays {b.points} at no score "
                                       "this game had (G28, G29)"), f"{at}.points")


def check_bets(m: MatchView, p: Position) -> None:
    """The side bets' records (G24-G32): a chain the bet has, a caller exactly when called,
    a pending call exactly in state ``bet_answer`` in the bet's round with no truco accepted,
    a settlement with its winner and points, points owed only where credited at the end of
    the hand (GH6), cards shown only by a settled bet, a bet killed exactly where a flor
    killed it (G37); and what each bet's kind checks of its own record, call and result
    (``MoveKind.bet_record``, ``bet_call``, ``bet_result``: the window of an envido's call,
    G24, G25; a flor's songs, G35-G39). The results themselves: :func:`check_bet_results`."""
    side = m.hand.side
    assert side is not None
    state = p["state"]
    pending = [k for k, b in enumerate(side) if b.pending]
    if ((state == "bet_answer") != bool(pending) and state != "sing"  # G35(b): an envido
            or len(pending) > 1):
        raise refuse(Why("bet_pending_state", "a side bet's call waits for its answer "
                                              "exactly in state bet_answer, one at a time"),
                     f"side_bets[{pending[-1] if pending else 0}].pending")
    for k, b in enumerate(side):
        at = f"side_bets[{k}]"
        bet = b.bet
        kind = kind_of(b)
        _check_killed(m, b, at)
        if kind.bet_record is not None:
            _refuse_problem(kind.bet_record(m, b, state), at)
        if b.chain and b.chain not in bet.chains:
            raise refuse(Why("bet_chain", f"{' - '.join(b.chain)} is not a chain of "
                                          f"{bet.name} (G27)"), f"{at}.calls")
        if (b.caller is None) != (not b.chain):
            raise refuse(Why("bet_caller", "a side bet has a last caller exactly when it was "
                                           "called"), f"{at}.caller")
        if b.pending and b.settled:
            raise refuse(Why("bet_settled", "a settled side bet waits for nothing"),
                         f"{at}.settled")
        if kind.bet_call is not None:
            _refuse_problem(kind.bet_call(m, b), at)
        if b.settled:
            if kind.bet_result is not None:
                _refuse_problem(kind.bet_result(m, b), at)
        elif b.winner is not None or b.points or b.accepted:
            raise refuse(Why("bet_result", "a side bet not settled has no result"),
                         f"{at}.winner")
        if b.owed and (not b.settled or bet.credit != "end_of_hand"):
            raise refuse(Why("bet_owed", "points are owed only by a settled bet credited at "
                                         "the end of the hand (GH6)"), f"{at}.owed")
        if b.settled and bet.credit == "end_of_hand" and not b.owed and state != "match_over":
            raise refuse(Why("bet_owed", "a settled bet credited at the end of the hand "
                                         "owes its points until then (GH6)"), f"{at}.owed")
        if not b.settled and (b.shown is not None or b.flores):
            raise refuse(Why("bet_shown", "only a settled bet shows cards (G32, G41)"),
                         f"{at}.flores" if b.flores else f"{at}.shown")


def _check_killed(m: MatchView, b: BetState, at: str) -> None:
    """G37: a bet is killed exactly when a flor that names it was sung before it was settled;
    killed, it waits for nothing."""
    side = m.hand.side
    assert side is not None
    by = any(f.sung and b.bet.name in f.bet.kills for f in side)
    if b.killed != (by and not b.settled) or (b.killed and b.pending):
        raise refuse(Why("bet_killed", "a bet is annulled exactly when a flor that kills it "
                                       "was sung before it was settled (G37)"
                         if not b.killed or by else
                         f"no flor that kills {b.bet.name} was sung (G37)"), f"{at}.killed")


def _refuse_problem(problem: BetProblem | None, at: str) -> None:
    """Raise the refusal a kind found in the record of the bet at ``at``, if any."""
    if problem is not None:
        why, key = problem
        raise refuse(why, f"{at}.{key}")
