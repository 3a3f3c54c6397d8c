"""``flor``: a player sings his flor, or chooses and raises in a contested flor (G33-G41; a
side bet of ``kind: flor`` in the variant's ``side_bets``, :mod:`engine.sidebets`).

- **Singing is compulsory** (G35, G36). The machine of a flor variant has a ``sing`` state
  whose only move is this one: the deal, a play, a raise or an envido call go there instead of
  where they would go when a flor is due (condition ``flor_due``, added to the other kinds'
  transitions by :func:`reroute`, only in flor variants): (a) the seat whose first turn comes
  holds a flor; (b) an envido is called and anybody holds one; (c) a raise is made and the
  team that must answer it holds one. Then every holder sings, one move each, in playing order
  from the mão (pinned: G35(b)'s order for every moment; G36), and nobody else moves.
- **Contested** (G39): the first holder of another team than the first singer's sings one of
  the bet's first calls (flor: compared at once; com flor me achico: conceded; contra-flor,
  contra-flor ao resto: a raise the first singer's team answers, once every holder has sung,
  with quero, não quero or, where the chain goes on, a raise over it, state ``bet_answer``).
  The other holders sing plain ``flor`` (the bet's first call).
- **Settled** (G38, G40) when the last holder has sung (uncontested: ``per_flor`` per flor;
  a choice settled at once) or when a raise is answered (:mod:`engine.moves.quero`,
  :mod:`engine.moves.nao_quero`); credited as the envido (G41, G31); the first song annuls
  the bets named in ``kills`` (G37). Then play goes back to the truco's answer where one waits,
  else to the card awaited.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from engine.actions import Action, Deal
from engine.errors import Why
from engine.i18n import _, person
from engine.moves import MoveKind, Waiting, Words, has_ladder, move_transitions, register
from engine.moves.bets import (
    AT_HAND_END,
    apply_settlement,
    bet_answerers,
    holders,
    judge_bet_answer,
    pending_bet,
    settle_flor,
)
from engine.moves.cut import seeded_cut_deal
from engine.payload import LogEvent, Payload, Text
from engine.ruling import Ruling, condition
from engine.sidebets import BetState, is_flor
from engine.state import BET_ANSWER, PLAY, Phase

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import MatchView


@cache
def flor_index(rules: Rules) -> int | None:
    """The index of the variant's flor bet in ``rules.side_bets`` (``None``: no flor)."""
    for i, bet in enumerate(rules.side_bets):
        if bet.kind == "flor":
            return i
    return None


def has_flor(rules: Rules) -> bool:
    """Whether the variant plays flor (G33; GH12: sem flor)."""
    return flor_index(rules) is not None


@cache
def songs_of(rules: Rules) -> dict[tuple[int, str], Action]:
    """Every flor call of every seat, made once per variant."""
    i = flor_index(rules)
    calls = rules.side_bets[i].calls if i is not None else ()
    return {(s, c): flor(s, c) for s in range(rules.players) for c in calls}


def record(m: MatchView) -> BetState:
    """The hand's record of the flor bet."""
    side = m.hand.side
    i = flor_index(m.rules)
    assert side is not None and i is not None
    return side[i]


def order(m: MatchView, b: BetState, first: int | None = None) -> tuple[int, ...]:
    """The singing order (G36): the holders in playing order from the mão; from the first
    singer on where he sang of his own will, before it was due (``timing: round_end``,
    GH14). ``first``: the seat about to sing first."""
    hs = holders(m, b)
    start = b.sung[0] if b.sung else first
    if start is None or start not in hs or hs[0] == start:
        return hs
    k = hs.index(start)
    return hs[k:] + hs[:k]


def chooser(m: MatchView, b: BetState, first: int | None = None) -> int | None:
    """G39: the first holder (in singing order) of another team than the first singer's, who
    chooses; ``None``: uncontested."""
    hs = order(m, b, first)
    if not hs:
        return None
    team_of = m.rules.team_of
    first = team_of[hs[0]]
    return next((s for s in hs if team_of[s] != first), None)


def next_singer(m: MatchView, b: BetState) -> int | None:
    """The holder who sings next (``None``: all have sung)."""
    sung = b.sung
    return next((s for s in order(m, b) if s not in sung), None)


def _singers(m: MatchView) -> list[int]:
    """Who sings now (G35, G36): the next holder."""
    singer = next_singer(m, record(m))
    assert singer is not None
    return [singer]


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    bet = m.rules.side_bets[flor_index(m.rules)]  # type: ignore[index]
    if a.call not in bet.calls:
        return Why("unknown_call", f"{a.call!r} is not a call of {bet.name}: expected one of "
                                   f"{', '.join(bet.calls)}")
    b = record(m)
    chains = bet.flor_chains
    assert chains is not None
    if m.state == BET_ANSWER:  # a raise over a contested flor's raise (G39)
        found = pending_bet(m)
        assert found is not None
        if found[1] is not b:
            return Why("other_bet_pending", f"the {found[1].chain[-1]} waits for its answer")
        answering = judge_bet_answer(m, a.seat)  # G39: a team holding a flor
        if isinstance(answering, str):
            return answering
        chain = (*b.chain, a.call)
        if chain not in chains:
            return Why("chain_not_allowed", f"{' - '.join(chain)} is not a legal chain of "
                                            f"{bet.name} (G39)")
        return None
    first = None
    if m.state == PLAY:  # GH14: a holder sings on his turn of the flor's round, unasked
        why = _own_will_problem(m, b, a.seat)
        if why is not None:
            return why
        first = a.seat
    else:  # state sing (G35, G36)
        singer = next_singer(m, b)
        assert singer is not None, "sing with nobody left to sing"
        if a.seat != singer:
            return Why("not_your_song", f"seat {singer} sings his {bet.name} now (G36)")
    choosing = a.seat == chooser(m, b, first) and not b.chain
    if choosing:
        if (a.call,) not in chains:
            return Why("chain_not_allowed", f"{a.call} does not start {bet.name} (G39)")
    elif a.call != bet.calls[0]:
        return Why("plain_song", f"seat {a.seat} sings {bet.calls[0]} (G35; only the first "
                                 "holder of the other team chooses, G39)")
    if len(b.sung) + 1 < len(holders(m, b)):
        r.flor = "more"
        return None
    chain = (a.call,) if choosing else b.chain
    if not chain:  # G38: uncontested
        settle_flor(m, r, b, "uncontested")
        return None
    fc = chains[chain]
    if fc.at_once is None:
        r.flor = "raised"
    else:
        settle_flor(m, r, b, fc.at_once, chain=chain)
    return None


def _own_will_problem(m: MatchView, b: BetState, seat: int) -> str | None:
    """GH14 (``timing: round_end``): why ``seat`` may not sing now of his own will, in state
    ``play``: only the seat whose card is awaited, in the flor's round, holding a flor, before
    any flor was sung."""
    bet = b.bet
    if m.round.number != bet.round:
        return Why("bet_window_closed", f"{bet.name} is sung only in round {bet.round + 1} "
                                        "(GH14)")
    if seat != m.round.turn:
        return Why("not_your_turn", f"{bet.name} is sung on one's own turn (GH14); it is seat "
                                    f"{m.round.turn}'s")
    if seat not in holders(m, b) or b.sung:
        return Why("no_flor", f"seat {seat} has no {bet.name} to sing (G35)" if not b.sung
                   else f"the {bet.name} was sung already (G36)")
    return None


def _effect(a: Any, r: Ruling) -> None:
    m: MatchView = r.model
    b = record(m)
    if m.state == BET_ANSWER:
        b.chain = (*b.chain, a.call)
        b.caller = a.seat
        return
    if not b.sung:  # G37: the first flor sung annuls the bets it kills (GH14: not settled)
        kills = b.bet.kills
        for other in m.hand.side or ():
            if other.bet.name in kills and not other.settled:
                other.killed = True
                other.pending = False
    chosen = a.seat == chooser(m, b, a.seat) and not b.chain
    b.sung = (*b.sung, a.seat)
    if chosen:
        b.chain = (a.call,)
        b.caller = a.seat
    if r.flor == "raised":
        b.pending = True
    elif r.side is not None:
        if not b.chain:  # G38 uncontested: the chain is the first singer's flor
            b.chain = (b.bet.calls[0],)
            b.caller = b.sung[0]
        apply_settlement(m, r)


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    b = record(m)
    table = songs_of(m.rules)
    bet = b.bet
    if m.state == BET_ANSWER:
        found = pending_bet(m)
        if found is None or found[1] is not b:
            return
        nxt = [c for c in bet.calls if (*b.chain, c) in bet.flor_chains]  # type: ignore[operator]
        for s in bet_answerers(m, b):
            if seat is None or s == seat:
                out.extend(table[s, c] for c in nxt)
        return
    if m.state == PLAY:  # GH14: the seat whose card is awaited may sing of his own will
        t = m.round.turn
        if (seat is None or seat == t) and _own_will_problem(m, b, t) is None:
            out.append(table[t, bet.calls[0]])
        return
    singer = next_singer(m, b)
    if singer is None or (seat is not None and seat != singer):
        return
    if singer == chooser(m, b) and not b.chain:
        out.extend(table[singer, c] for c in bet.calls
                   if (c,) in bet.flor_chains)  # type: ignore[operator]
    else:
        out.append(table[singer, bet.calls[0]])


@condition("flor_due")
def _flor_due(move: Any, ruling: Ruling) -> bool:
    """G35: after this move a flor must be sung: (a) the next turn's seat holds one (on the
    deal, the mão; after a card of the flor's round that does not end it, the next seat);
    (b) an envido is called; (c) a raise is made and the team that must answer holds one.
    Never once a flor was sung this hand (every holder sang then, G36)."""
    m: MatchView = ruling.model
    b = record(m)
    if b.sung or m.round.number != b.bet.round:
        return False
    trigger = move.kind if isinstance(move, Action) else "deal"
    if b.bet.timing == "round_end":  # GH14: due at the end of the round, or a call to answer
        if trigger == "play":
            return ruling.round is not None and bool(holders(m, b))
        if trigger != "raise":
            return False
    if trigger == "deal":
        hands, vira = (move.hands, move.vira) if isinstance(move, Deal) else move
        return is_flor(b.bet, hands[m.round.leader], vira)
    if trigger == "cut":  # a seeded cut deals the hand (engine.moves.cut)
        dealt = seeded_cut_deal(m, move)
        return dealt is not None and is_flor(b.bet, dealt[0][m.round.leader], dealt[1])
    hs = holders(m, b)
    if not hs:
        return False
    if trigger == "play":
        return ruling.round is None and (move.seat + 1) % m.rules.players in hs
    if trigger == "raise":
        return any(s in hs for s in _raise_answerers(m, move.seat))
    return True  # envido


def _raise_answerers(m: MatchView, raiser: int) -> list[int]:
    """G35(c): the seats of the teams a raise by ``raiser`` is put to: every other team's
    (C9), or, where the next seat answers (``betting.answered_by: next_seat``), his team's
    (with two teams, the other team either way)."""
    rules = m.rules
    team_of = rules.team_of
    team = team_of[raiser]
    others = [s for s in range(rules.players) if team_of[s] != team]
    if rules.answered_by == "next_seat":
        n = rules.players
        nxt = next(s for s in ((raiser + k) % n for k in range(1, n)) if team_of[s] != team)
        return [s for s in others if team_of[s] == team_of[nxt]]
    return others


@condition("flor_more")
def _flor_more(move: Any, ruling: Ruling) -> bool:
    """More holders sing after this song (G36)."""
    return ruling.flor == "more"


@condition("flor_raised")
def _flor_raised(move: Any, ruling: Ruling) -> bool:
    """Every holder has sung, and the choice was a raise that waits for its answer (G39)."""
    return ruling.flor == "raised"


#: The triggers whose moves may bring a flor's moment (G35), and the states they leave.
_MOMENTS = {"deal": (Phase.DEAL, Phase.CUT), "cut": (Phase.CUT,), "play": (Phase.PLAY,),
            "raise": (Phase.PLAY, Phase.ANSWER), "envido": (Phase.PLAY, Phase.ANSWER)}


def reroute(rules: Rules, transitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The other kinds' transitions, each that may bring a flor's moment (G35) preceded by its
    copy going to ``sing`` where ``flor_due``."""
    out: list[dict[str, Any]] = []
    for tr in transitions:
        sources = _MOMENTS.get(tr["trigger"], ())
        conds = tr.get("conditions", [])
        if (tr["source"] in sources
                and tr["dest"] in (Phase.PLAY, Phase.ANSWER, Phase.BET_ANSWER, None)
                and "ends_match" not in conds and "ends_hand" not in conds):
            out.append({**tr, "dest": Phase.SING, "conditions": [*conds, "flor_due"]})
        out.append(tr)
    return out


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    legal = ["legal_flor"]
    out: list[dict[str, Any]] = [
        {"trigger": "flor", "source": Phase.SING, "dest": None,
         "conditions": [*legal, "flor_more"], "before": ["flor"]},
        {"trigger": "flor", "source": Phase.SING, "dest": Phase.BET_ANSWER,
         "conditions": [*legal, "flor_raised"], "before": ["flor"]}]
    if has_ladder(rules):
        out.append({"trigger": "flor", "source": Phase.SING, "dest": Phase.ANSWER,
                    "conditions": [*legal, "truco_pending"], "unless": ["ends_hand"],
                    "before": ["flor"]})
    out += [{"trigger": "flor", "source": Phase.SING, "dest": Phase.PLAY, "conditions": legal,
             "unless": ["ends_hand"], "before": ["flor"]},
            {"trigger": "flor", "source": Phase.SING, "dest": Phase.MATCH_OVER,
             "conditions": [*legal, "ends_match"], "before": ["flor"]},
            {"trigger": "flor", "source": Phase.SING, "dest": Phase.DEAL,
             "conditions": [*legal, "ends_hand"], "before": ["flor"]},
            {"trigger": "flor", "source": Phase.BET_ANSWER, "dest": None, "conditions": legal,
             "before": ["flor"]}]
    if any(b.timing == "round_end" for b in rules.side_bets):  # GH14: sung of one's will
        out += [{"trigger": "flor", "source": Phase.PLAY, "dest": Phase.SING,
                 "conditions": [*legal, "flor_more"], "before": ["flor"]},
                *move_transitions("flor", Phase.PLAY, None)]
    return out


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you sing {call}"), _("{who} sings {call}"), who=w.who,
                  call=(a.call or "").upper())


def _menu(a: Action, w: Words) -> str:
    if a.call == "com flor me achico":
        return _("com flor me achico / é boa (concede the flor)")
    return f"{a.call} (flor)"


def _space(rules: Rules) -> list[tuple[tuple[int, ...], dict[str, Any], str]]:
    """Each call of the flor, its songs, choices and raises (G39), once, at the flor's place
    among the side bets."""
    out: list[tuple[tuple[int, ...], dict[str, Any], str]] = []
    for i, bet in enumerate(rules.side_bets):
        if bet.kind == "flor":
            calls = [*bet.calls, *(c for chain in (bet.flor_chains or {}) for c in chain)]
            out += [((6, i), {"call": c}, c) for c in dict.fromkeys(calls)
                    if all(c != o[1]["call"] for o in out)]
    return out


def _told(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you sing: {call}"), _("{who} sings: {call}"), who=w.who,
                  call=a.call)


def _typed(rules: Rules) -> list[tuple[int, tuple[str, ...], str]]:
    """G39: "é boa" for the choice that concedes the flor (com flor me achico)."""
    bet = next((b for b in rules.side_bets if b.kind == "flor"), None)
    chains = (bet.flor_chains or {}) if bet is not None else {}
    return [(0, ("é boa", "e boa", "eboa"), chain[0]) for chain, c in chains.items()
            if len(chain) == 1 and c.at_once == "concede"]


# -- its bet in a position (engine.matchpos) ----------------------------------------------
def _position_record(m: MatchView, b: BetState, state: str) -> tuple[Why, str] | None:
    """The flor's record (G35, G36): the seats that sang are the holders, in playing order
    from the mão; state ``sing`` exactly while a holder is still to sing after the first, or
    before the first song where a flor is due; settled once every holder sang and no raise
    waits; its chain as its songs make it (:func:`_position_chain`)."""
    hs = order(m, b)  # from the mão; GH14: from a holder who sang of his own will
    if b.sung != hs[:len(b.sung)] or (b.sung and b.bet.timing == "first_turn"
                                       and b.sung[0] != holders(m, b)[0]):
        return Why("flor_sung", f"the holders sing in playing order from the mão: "
                                f"{list(hs)} (G35, G36)"), "sung"
    if state == "sing" and len(b.sung) == len(hs):
        return Why("flor_state", "state sing: a holder is still to sing (G35)"), "sung"
    if state != "sing" and 0 < len(b.sung) < len(hs):
        return Why("flor_state", "every holder sings before play goes on: expected state "
                                 "sing (G36)"), "sung"
    if b.settled != (bool(hs) and len(b.sung) == len(hs) and not b.pending):
        return Why("flor_state", "a flor is settled exactly when every holder has sung and "
                                 "no raise waits (G38-G40)"), "settled"
    return _position_chain(m, b, hs)


def _position_chain(m: MatchView, b: BetState, hs: tuple[int, ...]) -> tuple[Why, str] | None:
    """The flor's chain follows its songs (G38, G39): uncontested, none until it is settled,
    then the first singer's flor; contested, none before the chooser (the first holder of the
    other team) sang, then his choice, which may wait for the holders after him; raises over
    it only once every holder sang, each by the other team than the last caller's."""
    bet = b.bet
    chains = bet.flor_chains or {}
    first = chooser(m, b)
    if first is None:  # G38
        want = ((bet.calls[0],), b.sung[0]) if b.settled else ((), None)
        if (b.chain, b.caller) != want:
            return Why("bet_chain", "an uncontested flor has no call but its first singer's "
                                    "flor, once every holder sang (G38)"), "calls"
        return None
    if first not in b.sung:
        if b.chain:
            return Why("bet_chain", f"seat {first} chooses the contested flor when he sings "
                                    "(G39): no call before"), "calls"
        return None
    if b.chain[:1] not in chains:
        return Why("bet_chain", f"seat {first} chose when he sang (G39): the chain starts "
                                "with one of the flor's first calls"), "calls"
    team_of = m.rules.team_of
    if len(b.chain) == 1 and b.caller != first or b.caller is None or (
            (team_of[b.caller] == team_of[first]) != (len(b.chain) % 2 == 1)):
        return Why("bet_caller", f"seat {first} chose (G39), and each raise over his choice "
                                 "is the other team's"), "caller"
    last = chains.get(b.chain)
    if (len(b.chain) > 1 or b.pending) and (
            len(b.sung) < len(hs) or last is None or last.at_once is not None):
        return Why("bet_chain", "a contested flor's raise waits for its answer once every "
                                "holder sang (G39)"), "calls"
    return None


def _position_result(m: MatchView, b: BetState) -> tuple[Why, str] | None:
    """A settled flor has a winning team and points."""
    if b.winner is None or b.points < 1:
        return Why("bet_result", "a settled flor has a winning team and points"), "winner"
    return None


def _position_settle(m: MatchView, r: Ruling, index: int, b: BetState) -> None:
    """The engine's settlement of the flor from its record (G38-G40): uncontested, a choice
    settled at once, or a raise answered (or refused)."""
    chain = (b.bet.flor_chains or {}).get(b.chain)
    if chooser(m, b) is None:
        how = "uncontested"
    elif len(b.chain) == 1 and chain is not None and chain.at_once is not None:
        how = chain.at_once
    else:
        how = "compare" if b.accepted else "refused"
    settle_flor(m, r, b, how, chain=b.chain, index=index)


def _position_fields(b: BetState, card: Any) -> dict[str, Any]:
    """The seats that sang, and the flores that scored (``card`` naming a card)."""
    return {"sung": list(b.sung),
            "flores": [{"seat": s, "cards": [card(c) for c in cards]} for s, cards in b.flores]}


def flor(seat: Any, call: Any) -> Action:
    """A flor sung, or a choice or raise in a contested flor (G35-G39): ``call`` as players
    say it (flor, contra-flor, contra-flor ao resto, com flor me achico)."""
    return Action("flor", seat, call=call)

KIND = register(MoveKind(
    name="flor", tell=_tell, menu=_menu, order=9, judge=_judge, effect=_effect,
    lister=_lister, transitions=_transitions, enabled=has_flor, adjust=reroute,
    hand_end=AT_HAND_END,
    payload=Payload((Text(what="a call (a flor's song, choice or raise, like 'contra-flor')",
                          doc=("A call of the flor bet, as the variant names it (G39: flor, com "
                               "flor me achico, contra-flor, contra-flor ao resto).")),),
                    factories=(flor,)),
    log=LogEvent(place=8, version=2, named="a side bet's flor event",
                 about=("Move (version 2, variants with a flor, G33-G41): the seat sings his "
                        "flor (compulsory, G35, G36), or, the first holder of the other team, "
                        "chooses (flor, com flor me achico, contra-flor, contra-flor ao resto, "
                        "G39), or raises over a pending contra-flor (G39).")),
    phases=(Waiting(Phase.SING, _singers, pending="flor_pending",
                    about="a flor must be sung, G35, G36"),),
    not_now={None: "no flor is sung now",
             Phase.BET_ANSWER: "no flor's call waits for its answer"},
    keys=("side_bets",),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    settles_as="sung",
    hint=(5, lambda legal, rules: "/".join(dict.fromkeys(
        a.call for a in legal if a.kind == "flor" and a.call is not None))),
    typed=_typed,
    told=_told,
    space=_space,
    bet_rules="G38-G40", bet_record=_position_record, bet_result=_position_result,
    bet_settle=_position_settle, bet_fields=_position_fields, bet_kills=True))
