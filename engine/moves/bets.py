"""What the side-bet moves share (G22-G32): finding the bet a call or an answer is about,
settling a dispute (the declarations, the winner, the stake, the crediting) and what the end of
the hand owes and shows. Not a move kind: a plain module, so that importing it registers
nothing (the kinds are :mod:`engine.moves.envido`, :mod:`engine.moves.quero`,
:mod:`engine.moves.nao_quero` and :mod:`engine.moves.flor`; a flor's settlement is
:func:`settle_flor`).

**Declarations are checkpoints, not moves.** G30 pins that the declared values are computed by
the engine (nobody may declare a false value) and fixes who speaks; so there is nothing for a
player to choose, and the engine writes the declarations when a call is accepted, as
``side_declare`` checkpoints, followed by the ``side_bet`` checkpoint with the points scored
and the score after (docs/log-format.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from engine.cards import Card, card_name
from engine.checkpoint import Checkpoint, SideBetEnd
from engine.errors import Why
from engine.moves.scoring import HandEnd, end_hand, win_game
from engine.ruling import Owed, Settlement, condition
from engine.sidebets import (
    FALTA_PLUS_FLORES,
    FLORES,
    BetState,
    Stake,
    best_points,
    declarations,
    falta_value,
    flor_points,
    is_flor,
    seats_from_mao,
    shown_set,
)
from engine.state import Phase

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.ruling import Ruling
    from engine.sidebets import SideBet
    from engine.view import MatchView


class Declared(TypedDict):
    """What a player said when a side bet was accepted (G30): his points, or ``None`` for
    "são boas" (his points stay hidden)."""

    seat: int
    points: int | None


class SideBetView(TypedDict):
    """A side bet of the hand as every seat sees it (G22-G32, G49), and the seat's own points
    (``my_points``, from its own cards only)."""

    bet: str
    calls: list[str]
    caller: int | None
    pending: bool
    settled: bool
    accepted: bool
    winner: int | None
    points: int
    declared: list[Declared]
    my_points: int | None
    #: Flor (G49): the seats that sang, in order (``my_points``: the seat's own flor value,
    #: ``None`` without one; ``declared``: the flores compared).
    sung: NotRequired[list[int]]


def holders(m: MatchView, b: BetState) -> tuple[int, ...]:
    """The seats that hold a flor, in playing order from the mão (computed once a hand)."""
    got = b.holders
    if got is None:
        dealt = m.hand.dealt
        got = b.holders = tuple(s for s in seats_from_mao(m.rules, m.mao)
                                if is_flor(b.bet, dealt[s], m.hand.vira))
    return got


def pending_bet(m: MatchView) -> tuple[int, BetState] | None:
    """The side bet whose call waits for its answer, with its index, or ``None``."""
    side = m.hand.side
    if side is not None:
        for i, b in enumerate(side):
            if b.pending:
                return i, b
    return None


def bet_of_call(m: MatchView, call: str | None,
                kind: str = "envido") -> tuple[int, BetState] | None:
    """The hand's record of the bet of ``kind`` that has the call ``call`` (and its index), or
    ``None``."""
    side = m.hand.side
    if side is not None and call is not None:
        for i, b in enumerate(side):
            if b.bet.kind == kind and call in b.bet.calls:
                return i, b
    return None


def judge_bet_answer(m: MatchView, seat: int) -> tuple[int, BetState] | str:
    """Who may answer the pending call (G27): a player of another team than its caller's,
    any one, the first answer counting (as C9); a flor's raise, only a player of a team that
    holds a flor (G39: with two teams, the other team; with more, not a team outside the
    dispute). The pending bet, or why not."""
    found = pending_bet(m)
    assert found is not None, "bet_answer without a pending call"
    b = found[1]
    team_of = m.rules.team_of
    if team_of[seat] == team_of[b.caller]:  # type: ignore[index]
        return Why("not_challenged_bet", f"only another team answers the {b.chain[-1]} (G27)")
    if b.bet.kind == "flor" and team_of[seat] not in _flor_teams(m, b):
        return Why("not_challenged_bet", f"only a team holding a {b.bet.name} answers the "
                                         f"{b.chain[-1]} (G39)")
    return found


def bet_answerers(m: MatchView, b: BetState) -> tuple[int, ...]:
    """The seats that may answer ``b``'s pending call (:func:`judge_bet_answer`), in seat
    order."""
    team_of = m.rules.team_of
    others = _other_seats(team_of, team_of[b.caller])  # type: ignore[index]
    if b.bet.kind != "flor":
        return others
    teams = _flor_teams(m, b)
    return tuple(s for s in others if team_of[s] in teams)


def list_answers(m: MatchView, seat: int | None, out: list[Action],
                 table: tuple[Action, ...]) -> None:
    """Append the moves of ``table`` (one by seat) of the seats that may answer the pending
    call (:func:`bet_answerers`); of ``seat`` only, where one is given."""
    found = pending_bet(m)
    assert found is not None
    seats = bet_answerers(m, found[1])
    if seat is None:
        out.extend(table[s] for s in seats)
    elif seat in seats:
        out.append(table[seat])


@cache
def _other_seats(team_of: tuple[int, ...], team: int) -> tuple[int, ...]:
    """The seats of every team but ``team``, in seat order (a table per variant: answering
    is listed at every decision while a side bet's call waits)."""
    return tuple(s for s, t in enumerate(team_of) if t != team)


def _flor_teams(m: MatchView, b: BetState) -> set[int]:
    """The teams holding a flor this hand."""
    team_of = m.rules.team_of
    return {team_of[s] for s in holders(m, b)}


def settle(m: MatchView, r: Ruling, index: int, b: BetState, accepted: bool) -> None:
    """Rule the dispute of the pending call: accepted (G28, G30: the best points win, the
    player nearer the mão on a tie; the falta from the score, G29) or refused (the last
    caller's team scores the chain's refused value); credited at once (G31, and the game may
    end, G46) or owed to the end of the hand (GH6). Nothing changes here."""
    if b.bet.kind == "flor":  # G40: a contested flor's raise answered (or refused, G20)
        settle_flor(m, r, b, "compare" if accepted else "refused", index=index)
        return
    rules = m.rules
    bet = b.bet
    chain = bet.chains[b.chain]
    team_of = rules.team_of
    said: list[tuple[int, int | None]] = []
    shown = None
    if accepted:
        vira = m.hand.vira
        made = [best_points(cards, bet, vira) for cards in m.hand.dealt]
        said, seat = declarations(rules, bet, m.mao, [p for p, _ in made])
        team = team_of[seat]
        points = (chain.accepted if chain.accepted is not None
                  else falta_value(bet.falta, rules.target, m.score, team))
        if bet.reveal == "winner":
            shown = (seat, made[seat][1])
    else:
        team = team_of[b.caller]  # type: ignore[index]
        points = chain.refused
    r.side = Settlement(index, accepted, team, points, said, shown, _credit(m, r, bet, team,
                                                                             points))


def _credit(m: MatchView, r: Ruling, bet: SideBet, team: int, points: int) -> list[int] | None:
    """The score after crediting ``points`` to ``team`` at once (G31; the game may end, G46),
    or ``None`` where the bet is credited at the end of the hand (GH6)."""
    if bet.credit != "at_once":
        return None
    rules = m.rules
    score = m.score[:]
    score[team] += points
    if rules.cap_score and score[team] > rules.target:
        score[team] = rules.target
    if score[team] >= rules.target:  # G46: the game ends at once, mid-hand
        win_game(m, r, team)
    return score


def settle_flor(m: MatchView, r: Ruling, b: BetState, how: str,
                chain: tuple[str, ...] | None = None, index: int | None = None) -> None:
    """Rule a flor dispute (G38, G40), nothing changed yet: ``uncontested`` (the singers'
    team scores ``per_flor`` per flor), ``compare`` (the best flor's team scores the chain's
    accepted stake; the flores compared are declared, G49), ``concede`` (me achico: the team
    of the first singer, in singing order, scores the accepted stake) or ``refused`` (the
    last caller's team scores the refused stake). The flores that scored are shown at the
    end of the hand (G41): every flor compared (bet sequence 3: "both flores are shown"),
    else the scoring team's."""
    rules = m.rules
    bet = b.bet
    team_of = rules.team_of
    dealt = m.hand.dealt
    order = [s for s in seats_from_mao(rules, m.mao)]
    flores = {s: f for s in order
              if (f := flor_points(dealt[s], bet, m.hand.vira)) is not None}
    hs = list(flores)
    chain = b.chain if chain is None else chain
    said: list[tuple[int, int | None]] = []
    stake: Stake | None
    if how == "uncontested":
        team, stake = team_of[hs[0]], FLORES
    elif how == "compare":
        best = max(hs, key=lambda s: (flores[s][0], -hs.index(s)))  # G34: ties as G30
        team = team_of[best]
        stake = bet.flor_chains[chain].accepted  # type: ignore[index]
        said = [(s, flores[s][0]) for s in hs]
    elif how == "concede":  # G40: to the first singer, who may not be first from the mão (GH14)
        first = b.sung[0] if b.sung else hs[0]
        team, stake = team_of[first], bet.flor_chains[chain].accepted  # type: ignore[index]
    else:
        team = team_of[b.caller]  # type: ignore[index]
        stake = bet.flor_chains[chain].refused  # type: ignore[index]
        assert stake is not None
    own = sum(1 for s in hs if team_of[s] == team)
    if isinstance(stake, int):
        points = stake
    elif stake == FLORES:
        points = bet.per_flor * own
    else:
        points = falta_value(bet.falta, rules.target, m.score, team)
        if stake == FALTA_PLUS_FLORES:
            points += bet.per_flor * len(hs)
    shown = tuple((s, flores[s][1]) for s in hs if how == "compare" or team_of[s] == team) \
        if bet.reveal == "scored" else ()  # G41: compared, both teams' (bet sequence 3)
    if index is None:
        index = (m.hand.side or []).index(b)
    r.side = Settlement(index, how == "compare", team, points, said, None,
                        _credit(m, r, bet, team, points), shown)


def apply_settlement(m: MatchView, r: Ruling) -> None:
    """Apply a ruled settlement: the bet's record, the declarations and the crediting as
    checkpoints (``side_declare``, ``side_bet``), the score; and the end of the hand (a game
    won, G46) where the ruling ends it."""
    s = r.side
    assert s is not None, "no settlement ruled"
    b = m.hand.side[s.index]  # type: ignore[index]
    b.pending = False
    b.settled = True
    b.accepted = s.accepted
    b.winner = s.team
    b.points = s.points
    b.shown = s.shown
    b.flores = s.flores
    events = r.checkpoints
    if events is None:
        events = r.checkpoints = []
    for seat, pts in s.said:
        events.append({"event": "side_declare", "seat": seat, "points": pts})
    if s.score is None:
        b.owed = True  # GH6: credited when the hand ends
    else:
        before = m.score[s.team]
        m.score = s.score
        events.append(_bet_event(b, s.score[s.team] - before, s.score))
    if r.ends:  # G46: the game ends mid-hand; a truco still pending (G26) is moot
        m.hand.pending = None
        end_hand(m, r)


def _bet_event(b: BetState, points: int, score: list[int]) -> SideBetEnd:
    return {"event": "side_bet", "bet": b.bet.name, "calls": list(b.chain),
            "accepted": b.accepted, "winner": b.winner, "points": points, "score": score[:]}


def credit_owed(m: MatchView, r: Ruling, score: list[int]) -> int | None:
    """GH6, at the end of the hand (ruled from :func:`engine.moves.outcome.conclude`, the
    :data:`AT_HAND_END` hook): add the points the side bets won to ``score``, in the order
    they were settled, and record them on the ruling; the first team they bring to the target
    wins the game (pinned: the side bet first), else ``None`` (and in a hand without side
    bets)."""
    side = m.hand.side
    if side is None:
        return None
    owed = [(i, b.winner, b.points) for i, b in enumerate(side)
            if b.owed and b.winner is not None]
    s = r.side
    if s is not None and s.score is None:  # settled by this very move (G20, a concede)
        owed.append((s.index, s.team, s.points))
    game = None
    for i, team, points in owed:
        score[team] += points
        if r.owed is None:
            r.owed = []
        r.owed.append(Owed(i, team, points, score[:]))
        if game is None and score[team] >= m.rules.target:
            game = team
    return game


def side_bets_at_end(m: MatchView, r: Ruling, events: list[Checkpoint]) -> None:
    """The end of the hand (:func:`engine.moves.scoring.end_hand`, the :data:`AT_HAND_END`
    hook): the points owed (GH6) as ``side_bet`` checkpoints, then the cards of each winning
    declaration still in hand become public (G32, G50): a ``side_show`` checkpoint, and the
    hand's shown cards. Where other cards make the same points, the set with more cards still
    held is shown (:func:`engine.sidebets.shown_set`), and the bet's record keeps that set.
    Nothing in a hand without side bets."""
    hand = m.hand
    side = hand.side
    if side is None:
        return
    for i, _team, points, score in r.owed or ():
        b = side[i]
        b.owed = False
        events.append(_bet_event(b, points, score))
    for b in side:
        bet, vira = b.bet, hand.vira
        if b.shown is not None:  # G32 pinned: of equal cards, the ones still in hand
            seat, cards = b.shown
            b.shown = (seat, shown_set(hand.dealt[seat], cards, hand.hands[seat], bet, vira))
        elif b.flores:
            b.flores = tuple((seat, shown_set(hand.dealt[seat], cards, hand.hands[seat], bet,
                                              vira))
                             for seat, cards in b.flores)
        for seat, cards in (b.flores if b.shown is None else (b.shown,)):
            held = [c for c in cards if c in hand.hands[seat]]
            if held:
                events.append({"event": "side_show", "seat": seat,
                               "cards": [card_name(c) for c in held]})
                hand.shown.extend((seat, c) for c in held)


#: The side bets' end-of-hand hook (GH6, G32), declared by the side-bet kinds
#: (:mod:`engine.moves.envido`, :mod:`engine.moves.flor`): :func:`credit_owed` when a move
#: ends the hand, :func:`side_bets_at_end` when the end is applied.
AT_HAND_END = HandEnd("side_bets", credit_owed, side_bets_at_end)


@condition("truco_pending")
def _truco_pending(move: Any, r: Ruling) -> bool:
    """A truco raise still waits for its answer (G26: the side bet was called instead)."""
    return r.model.hand.pending is not None


def answer_transitions(kind: str, has_answer: bool) -> list[dict[str, Any]]:
    """The transitions of an answer to a side bet's call (quero, não quero): back to the
    truco's answer where one waits (G26), else to play, unless the crediting wins the game
    (G46: to ``deal``, or ``match_over``)."""
    legal = f"legal_{kind}"
    out: list[dict[str, Any]] = []
    if has_answer:
        out.append({"trigger": kind, "source": Phase.BET_ANSWER, "dest": Phase.ANSWER,
                    "conditions": [legal, "truco_pending"], "unless": ["ends_hand"],
                    "before": [kind]})
    out += [{"trigger": kind, "source": Phase.BET_ANSWER, "dest": Phase.PLAY,
             "conditions": [legal], "unless": ["ends_hand"], "before": [kind]},
            {"trigger": kind, "source": Phase.BET_ANSWER, "dest": Phase.MATCH_OVER,
             "conditions": [legal, "ends_match"], "before": [kind]},
            {"trigger": kind, "source": Phase.BET_ANSWER, "dest": Phase.DEAL,
             "conditions": [legal, "ends_hand"], "before": [kind]}]
    return out


def side_view(m: MatchView, seat: int) -> list[SideBetView]:
    """The hand's side bets as ``seat`` may know them (G49): the calls, the answers, the
    declarations (public: the values declared, ``None`` for "são boas"), the result; of the
    points, only the seat's own (from its own dealt cards; ``None`` in a blind hand)."""
    side = m.hand.side
    assert side is not None
    out: list[SideBetView] = []
    own = m.hand.dealt[seat] if m.hand.dealt and not m.hand.blind else ()
    vira = m.hand.vira
    for b in side:
        bet = b.bet
        said: list[tuple[int, int | None]] = []
        if bet.kind == "flor":  # G49: the flores sung, the values compared; G34 its own flor
            if b.accepted:
                said = [(s, _flor_value(bet, m.hand.dealt[s], vira)) for s in b.sung]
            mine = _flor_value(bet, own, vira) if own else None
            view: SideBetView = {
                "bet": bet.name, "calls": list(b.chain), "caller": b.caller,
                "pending": b.pending, "settled": b.settled, "accepted": b.accepted,
                "winner": b.winner, "points": b.points,
                "declared": [{"seat": s, "points": p} for s, p in said],
                "my_points": mine, "sung": list(b.sung)}
            out.append(view)
            continue
        if b.accepted:
            pts = [best_points(cards, bet, vira)[0] for cards in m.hand.dealt]
            said = declarations(m.rules, bet, m.mao, pts)[0]
        out.append({"bet": bet.name, "calls": list(b.chain), "caller": b.caller,
                    "pending": b.pending, "settled": b.settled, "accepted": b.accepted,
                    "winner": b.winner, "points": b.points,
                    "declared": [{"seat": s, "points": p} for s, p in said],
                    "my_points": bet.points(own, vira) if own else None})
    return out


def own_points(bet: SideBet, own: Sequence[Card], vira: Card | None) -> int | None:
    """A seat's own points for ``bet`` from its dealt cards ``own`` (``()`` in a blind hand:
    ``None``), as :func:`side_view` gives them (``my_points``): a flor's value (G34, ``None``
    without one), else the bet's points."""
    if not own:
        return None
    if bet.kind == "flor":
        return _flor_value(bet, own, vira)
    return bet.points(own, vira)


def _flor_value(bet: SideBet, cards: Sequence[Card], vira: Card | None) -> int | None:
    """G34: the flor value of ``cards`` (the hand's vira ``vira``), or ``None`` without a
    flor."""
    got = flor_points(cards, bet, vira)
    return None if got is None else got[0]


def open_penalty(m: MatchView) -> int:
    """GH11: what going to the baralho (a concede) costs more while a side bet may still be
    started this hand (not started, in its round, no truco accepted): the sum of those bets'
    ``open_fold_penalty``."""
    side = m.hand.side
    assert side is not None
    rnd = m.round.number
    if m.hand.last_raise_team is not None:
        return 0
    return sum(b.bet.open_fold_penalty for b in side
               if not b.started and not b.killed and rnd == b.bet.round)
