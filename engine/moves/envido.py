"""``envido``: a player starts a side bet with one of its calls, or the other team raises the
chain of a pending call (G24-G27; the variant's ``side_bets``, :mod:`engine.sidebets`).

- **Start** (state ``play``): in the bet's round (G24: round 1), by the player whose card is
  awaited, before he plays it (a partner who has not played may still start it); once per hand;
  not once a truco has been accepted in the hand (G25), or called (``truco.closes: called``,
  GH8); only the pés where ``window.callers: pes`` (GH9). The call must be a chain of one call.
- **Envido está primero** (state ``answer``, G26): while the ladder's first step waits for its
  answer, a player who may answer it and has not played his card of the round starts the bet
  instead (``truco.precedence``); the truco stays pending and is answered after the bet.
- **Raise** (state ``bet_answer``): a player of the other team than the last caller calls the
  next call of a legal chain (G27: the chain so far followed by the call is listed). A raise
  answers the call before it (it is accepted into the chain, G28).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import Why
from engine.i18n import _, person
from engine.moves import MoveKind, Words, has_ladder, register
from engine.moves.answers import who_answers
from engine.moves.bets import (
    AT_HAND_END,
    bet_answerers,
    bet_of_call,
    judge_bet_answer,
    pending_bet,
)
from engine.payload import LogEvent, Payload, Text
from engine.ruling import Ruling
from engine.sidebets import BetState
from engine.state import BET_ANSWER, PLAY, Phase

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.sidebets import SideBet
    from engine.view import MatchView


def has_side_bets(rules: Rules) -> bool:
    """Whether the variant has side bets (G22-G32)."""
    return bool(rules.side_bets)


@cache
def calls_of(rules: Rules) -> dict[tuple[int, str], Action]:
    """Every call of every seat, made once per variant: (seat, call) -> the move."""
    return {(s, c): envido(s, c) for s in range(rules.players)
            for bet in rules.side_bets if bet.kind == "envido" for c in bet.calls}


@cache
def pes(rules: Rules, mao: int) -> frozenset[int]:
    """GH9: the pés, the last player of each team in playing order from the mão."""
    n = rules.players
    last: dict[int, int] = {}
    for k in range(n):
        s = (mao + k) % n
        last[rules.team_of[s]] = s
    return frozenset(last.values())


def start_problem(m: MatchView, seat: int, b: BetState) -> str | None:
    """Why ``seat`` may not start the bet ``b`` now (any call), or ``None`` (G24-G26, GH8,
    GH9). The state is ``play`` or ``answer``."""
    bet = b.bet
    hand = m.hand
    rnd = m.round
    if b.started or b.killed:
        return Why("bet_done", f"one {bet.name} dispute per hand (G24)")
    if rnd.number != bet.round:
        return Why("bet_window_closed",
                   f"{bet.name} is started only in round {bet.round + 1} (G24)")
    if hand.last_raise_team is not None:
        return Why("bet_closed_by_truco", f"a truco was accepted: no {bet.name} now (G25)")
    if m.state == PLAY:
        turn = rnd.turn
        if seat != turn:
            return Why("not_your_turn",
                       f"{bet.name} is started on one's own turn (G24); it is seat {turn}'s")
    else:  # a truco waits for its answer: envido está primero (G26)
        pending = hand.pending
        assert pending is not None
        if not bet.truco_precedence:  # GH8: a truco called closes the bet
            return Why("bet_closed_by_truco", f"a truco was called: no {bet.name} now "
                                              "(truco.closes: called, GH8)")
        if pending[1] != m.rules.ladder[0].value:
            return Why("not_first_truco", f"only the first step of the ladder gives way to "
                                          f"{bet.name} (G26)")
        team_of = m.rules.team_of
        if team_of[seat] == team_of[pending[0]]:
            return Why("not_challenged", f"only a player who must answer the truco may call "
                                         f"{bet.name} instead (G26)")
        why = who_answers(m, seat)
        if why is not None:
            return why
        for s, _, _ in rnd.cards:
            if s == seat:
                return Why("card_played", f"seat {seat} has played his card of round "
                                          f"{rnd.number + 1} (G26)")
    if bet.callers == "pes" and seat not in pes(m.rules, m.mao):
        return Why("not_a_pe", f"only the pés start {bet.name} (window.callers: pes, GH9)")
    return None


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    found = bet_of_call(m, a.call, "envido")
    if found is None:
        names = [c for bet in m.rules.side_bets if bet.kind == "envido" for c in bet.calls]
        return Why("unknown_call", f"{a.call!r} is not a call of this variant: expected one of "
                                   f"{', '.join(names)}")
    b = found[1]
    if m.state == BET_ANSWER:
        answering = judge_bet_answer(m, a.seat)
        if isinstance(answering, str):
            return answering
        if answering[1] is not b:
            return Why("other_bet_pending", f"the {answering[1].chain[-1]} waits for its answer")
        call: str = a.call  # type: ignore[assignment]  # found by its call: not None
        chain = (*b.chain, call)
        if chain not in b.bet.chains:
            return Why("chain_not_allowed", f"{' - '.join(chain)} is not a legal chain of "
                                            f"{b.bet.name} (G27)")
        return None
    why = start_problem(m, a.seat, b)
    if why is not None:
        return why
    if (a.call,) not in b.bet.chains:
        return Why("chain_not_allowed", f"{a.call} does not start {b.bet.name} (G27)")
    return None


def _effect(a: Any, r: Ruling) -> None:
    m: MatchView = r.model
    found = bet_of_call(m, a.call, "envido")
    assert found is not None
    b = found[1]
    b.chain = (*b.chain, a.call)
    b.caller = a.seat
    b.pending = True


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    side = m.hand.side
    assert side is not None
    table = calls_of(m.rules)
    if m.state == BET_ANSWER:
        found = pending_bet(m)
        assert found is not None
        b = found[1]
        if b.bet.kind != "envido":  # a flor's raise waits (G39): the flor kind answers it
            return
        nxt = b.bet.next_calls(b.chain)
        for s in bet_answerers(m, b):
            if seat is None or s == seat:
                out.extend(table[s, c] for c in nxt)
        return
    if m.state == PLAY:
        t = m.round.turn
        if seat is not None and seat != t:
            return
        seats: tuple[int, ...] = (t,)
    else:  # answer: listed seat by seat
        assert seat is not None
        seats = (seat,)
    for b in side:
        bet: SideBet = b.bet
        if b.started or m.round.number != bet.round or bet.kind != "envido":
            continue
        for s in seats:
            if start_problem(m, s, b) is None:
                out.extend(table[s, c] for c in bet.next_calls(()))


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"trigger": "envido", "source": Phase.PLAY, "dest": Phase.BET_ANSWER,
         "conditions": ["legal_envido"], "before": ["envido"]}]
    if has_ladder(rules) and any(b.truco_precedence for b in rules.side_bets):
        out.append({"trigger": "envido", "source": Phase.ANSWER, "dest": Phase.BET_ANSWER,
                    "conditions": ["legal_envido"], "before": ["envido"]})
    out.append({"trigger": "envido", "source": Phase.BET_ANSWER, "dest": None,
                "conditions": ["legal_envido"], "before": ["envido"]})
    return out


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you call {call}"), _("{who} calls {call}"), who=w.who,
                  call=(a.call or "").upper())


def _menu(a: Action, w: Words) -> str:
    return _("{call} (side bet)").format(call=a.call)


def _space(rules: Rules) -> list[tuple[tuple[int, ...], dict[str, Any], str]]:
    """Each call of each side bet but the flor, once, in the bets' order (G27)."""
    out: list[tuple[tuple[int, ...], dict[str, Any], str]] = []
    seen: set[str] = set()
    for i, bet in enumerate(rules.side_bets):
        if bet.kind != "flor":
            fresh = [c for c in dict.fromkeys(bet.calls) if c not in seen]
            seen.update(fresh)
            out += [((6, i), {"call": c}, c) for c in fresh]
    return out


def _told(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you call: {call}"), _("{who} calls: {call}"), who=w.who,
                  call=a.call)


# -- its bets in a position (engine.matchpos) ---------------------------------------------
def _position_call(m: MatchView, b: BetState) -> tuple[Why, str] | None:
    """A call waits only in the bet's round, before a truco is accepted (G24, G25); a called
    bet is pending or settled (unless a flor killed it, G37)."""
    bet = b.bet
    if b.pending and (m.round.number != bet.round or m.hand.last_raise_team is not None):
        return Why("bet_window", f"{bet.name} is called only in round {bet.round + 1}, before "
                                 "a truco is accepted (G24, G25)"), "pending"
    if b.chain and not b.pending and not b.settled and not b.killed:
        return Why("bet_settled", "a called side bet is pending or settled"), "settled"
    return None


def _position_result(m: MatchView, b: BetState) -> tuple[Why, str] | None:
    """A settled bet has a winning team and points; refused, the last caller's team wins the
    chain's refused value (G28)."""
    w = b.winner
    if w is None or b.points < 1 or (not b.accepted and w != m.rules.team_of[b.caller or 0]):
        return Why("bet_result", "a settled side bet has a winning team and points (a "
                                 "refusal: the last caller's team)"), "winner"
    if not b.accepted and b.points != (refused := b.bet.chains[b.chain].refused):
        return Why("bet_result", f"refused, {' - '.join(b.chain)} pays {refused} (G28)"), "points"
    return None


def envido(seat: Any, call: Any) -> Action:
    """A side bet called, or its chain raised (G27): ``call`` as players say it."""
    return Action("envido", seat, call=call)

KIND = register(MoveKind(
    name="envido", tell=_tell, menu=_menu, order=6, judge=_judge, effect=_effect,
    lister=_lister, transitions=_transitions, enabled=has_side_bets, hand_end=AT_HAND_END,
    payload=Payload((Text(what="a call (a side bet's call, like 'real envido')",
                          doc=("A call of a side bet, as the variant names it (G27: envido, real "
                               "envido, falta envido).")),), factories=(envido,)),
    log=LogEvent(place=7, version=2, named="a side bet's envido event",
                 about=("Move (version 2, variants with side_bets): the seat starts a side bet "
                        "with one of its calls, or raises the chain of the pending call "
                        "(G24-G27).")),
    not_now={None: "no side bet may be called now",
             Phase.DECIDE: "the special hand's decision comes first",
             # truco.precedence: false (GH8): a truco called closes the bet
             Phase.ANSWER: Why("bet_closed_by_truco", "a truco was called: no side bet now "
                                                       "(truco.closes: called, GH8)")},
    keys=("side_bets",),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    hint=(5, lambda legal, rules: "/".join(dict.fromkeys(
        a.call for a in legal if a.kind == "envido" and a.call is not None))),
    told=_told,
    space=_space,
    bet_rules="G28-G30", bet_call=_position_call, bet_result=_position_result))
