"""Positions: the exact state of a match at a moment between moves, as plain JSON data
(``schemas/position.schema.json``, ``docs/positions.md``), and a match built back from one.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> p = m.position()
>>> p["state"], p["hands"][1]
('play', ['2h', '7h', 'Jh'])
>>> Match.from_position("paulista", p).position() == p
True

:func:`export` reads a match; :func:`build` makes one, after :func:`check` has refused an
impossible position with a :class:`~engine.errors.PositionError` naming the field (a key path
like ``hands[2][1]``) and a stable ``code`` (docs/error-codes.md, "Positions").
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import permutations, product
from math import prod
from typing import TYPE_CHECKING, Any

from engine.cards import Card, card_name, parse_card
from engine.errors import PositionError, Why
from engine.moves.deal import decider_seat, special_for
from engine.moves.outcome import hand_result, new_hand
from engine.moves.play import round_outcome
from engine.resources import schema_path
from engine.schemas import strict_validator
from engine.shuffle import SplitMix64
from engine.sidebets import shown_set
from engine.state import NORMAL, Played

if TYPE_CHECKING:
    from engine.game import Match
    from engine.moves.bets import Settlement
    from engine.rules import Rules
    from engine.sidebets import BetState

__all__ = ["POSITION_FORMAT", "build", "check", "export", "hand_has_moves", "position_schema"]

#: The version of the position format (the ``position`` key).
POSITION_FORMAT = 1

Position = dict[str, Any]


# -- export ---------------------------------------------------------------------------------
def _card(c: Card | None) -> str | None:
    return None if c is None else card_name(c)


def _played(cards: Sequence[tuple[int, Card, bool]]) -> list[dict[str, Any]]:
    return [{"seat": s, "card": card_name(c), "covered": cov} for s, c, cov in cards]


def export(m: Match) -> Position:
    """The position of ``m`` now: a JSON-ready dict (docs/positions.md)."""
    hand = m.hand
    rnd = m.round
    rounds = [{"cards": _played([(s, c, cov) for r, s, c, cov in hand.played if r == i]),
               "winner": w} for i, w in enumerate(hand.results)]
    special: dict[str, Any] | None = None
    if hand.special != NORMAL:
        assert hand.rule is not None
        special = {"entry": hand.special - 1, "name": hand.rule.name,
                   "team": hand.special_team, "decider": hand.decider}
    pending: dict[str, Any] | None = None
    if hand.pending is not None:
        ps, pv, pc = hand.pending
        pending = {"seat": ps, "value": pv, "card": _card(pc)}
    last: dict[str, Any] | None = None
    if m.last_hand is not None:
        number, played, shown, results, blind = m.last_hand
        last = {"hand_number": number,
                "played": [{"round": r + 1, "seat": s, "card": card_name(c), "covered": cov}
                           for r, s, c, cov in played],
                "shown": [{"seat": s, "card": card_name(c)} for s, c in shown],
                "rounds": list(results), "blind": blind}
    return {
        "position": POSITION_FORMAT,
        "state": m.state,
        "score": m.score[:],
        "games": m.games[:],
        "winner": m.winner,
        "dealer": m.dealer,
        "hand_number": m.hand_number,
        "value": hand.value,
        "special": special,
        "pending": pending,
        # the folds of the pending raise (whole_team): a raise refused, they are over with it
        "refused": list(hand.refused) if hand.pending is not None else [],
        "last_raise_team": hand.last_raise_team,
        "vira": _card(hand.vira),
        "hands": [[card_name(c) for c in h] for h in hand.hands],
        "dealt": [[card_name(c) for c in h] for h in hand.dealt],
        "rounds": rounds,
        "round": {"number": rnd.number + 1, "leader": rnd.leader, "turn": rnd.turn,
                  "cards": _played(rnd.cards)},
        "shown": [{"seat": s, "card": card_name(c)} for s, c in hand.shown],
        "bound": [_card(c) for c in hand.bound],
        "last_hand": last,
        "rng": m.rng.state if m.rng is not None else None,
        **({"side_bets": _export_bets(hand.side)} if hand.side is not None else {}),
        **({"must_kill": list(hand.must_kill)} if m.rules.raiser_must_kill else {}),
    }


def _export_bets(side: Sequence[BetState]) -> list[dict[str, Any]]:
    """The hand's side bets (G22-G32), one entry per bet of the variant, in its order; in a
    variant with flor (G33-G41) also whether each was killed (G37), and of the flor the seats
    that sang and the flores that scored."""
    out: list[dict[str, Any]] = [
        {"bet": b.bet.name, "calls": list(b.chain), "caller": b.caller,
         "pending": b.pending, "settled": b.settled, "accepted": b.accepted,
         "winner": b.winner, "points": b.points, "owed": b.owed,
         "shown": None if b.shown is None else
         {"seat": b.shown[0], "cards": [card_name(c) for c in b.shown[1]]}}
        for b in side]
    if any(b.bet.kind == "flor" for b in side):
        for entry, b in zip(out, side, strict=True):
            entry["killed"] = b.killed
            if b.bet.kind == "flor":
                entry["sung"] = list(b.sung)
                entry["flores"] = [{"seat": s, "cards": [card_name(c) for c in cards]}
                                   for s, cards in b.flores]
    return out


def hand_has_moves(m: Match) -> bool:
    """Whether a move was made in the hand in play since its deal (a card, a raise, a side
    bet called or a flor sung, a special hand decided): a log starting at such a position has
    no ``deal`` line for this hand."""
    hand = m.hand
    if hand.played or hand.pending is not None or hand.last_raise_team is not None:
        return True
    if any(b.chain or b.sung or b.killed for b in hand.side or ()):
        return True
    rule = hand.rule
    return m.state == "play" and rule is not None and rule.decision  # M5: decided


# -- import ---------------------------------------------------------------------------------
def _refuse(why: Why, path: str) -> PositionError:
    return PositionError(why, path=path)


@cache
def position_schema() -> dict[str, Any]:
    """The JSON Schema of a position (``schemas/position.schema.json``)."""
    with open(schema_path("position"), encoding="utf-8") as f:
        schema: dict[str, Any] = json.load(f)
    return schema


@cache
def _validator() -> Any:
    return strict_validator(position_schema())  # JSON integers only, never 1.0 or true


def key_path(parts: Sequence[str | int]) -> str:
    """A key path as the errors write it: ``hands[2][1]``, ``round.turn``."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def _schema_check(position: object) -> None:
    errors = sorted(_validator().iter_errors(position),
                    key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        e = errors[0]
        where: list[str | int] = list(e.absolute_path)
        if e.validator == "required" and isinstance(e.instance, dict):  # name the missing key
            where += [k for k in e.validator_value if k not in e.instance][:1]
        raise _refuse(Why("position_schema", f"not a position: {e.message}"), key_path(where))


class _Reader:
    """The position's cards as card codes, checked against the deck and counted."""

    def __init__(self, rules: Rules) -> None:
        self.deck = frozenset(rules.deck)
        self.seen: dict[Card, str] = {}

    def card(self, name: str, path: str, *, once: bool = True) -> Card:
        c = parse_card(name)  # the schema's pattern makes it a card
        if c not in self.deck:
            raise _refuse(Why("card_outside_deck", f"{name} is not in this variant's deck"),
                          path)
        if once:
            if c in self.seen:
                raise _refuse(Why("card_twice", f"{name} is also at {self.seen[c]}"), path)
            self.seen[c] = path
        return c


def _seat(value: int, players: int, path: str) -> int:
    if not 0 <= value < players:
        raise _refuse(Why("seat_out_of_range", f"there is no seat {value} (0..{players - 1})"),
                      path)
    return value


def _team(value: int | None, teams: int, path: str) -> int | None:
    if value is not None and not 0 <= value < teams:
        raise _refuse(Why("team_out_of_range", f"there is no team {value} (0..{teams - 1})"),
                      path)
    return value


def build(rules: Rules, position: object, *, trusted: bool = False) -> Match:
    """The match in the state ``position`` describes (checked first: :func:`check`).

    ``trusted``: skip the JSON Schema check (most of the cost) for a position a program built
    itself as plain data of the right shapes (a search bot's guesses); the rules' checks run."""
    from engine.game import Match

    if not trusted:
        _schema_check(position)
    assert isinstance(position, dict)
    p: Position = position
    n = rules.players
    teams = rules.teams
    m = Match(rules)  # no seed, no deals: waits in "deal" with a fresh hand
    states = set(m.machine.states)
    state = p["state"]
    if state not in states:
        raise _refuse(Why("state_not_in_variant",
                          f"this variant's match is never in {state!r} "
                          f"(its states: {', '.join(sorted(states))})"), "state")
    for key, size, what in (("score", teams, "team"), ("games", teams, "team"),
                            ("hands", n, "seat"), ("bound", n, "seat")):
        if len(p[key]) != size:
            raise _refuse(Why("wrong_length", f"expected one entry per {what} ({size}), "
                                              f"found {len(p[key])}"), key)
    if p["dealt"] and len(p["dealt"]) != n:
        raise _refuse(Why("wrong_length", f"expected one entry per seat ({n}), "
                                          f"found {len(p['dealt'])}"), "dealt")
    dealer = _seat(p["dealer"], n, "dealer")
    winner = _team(p["winner"], teams, "winner")
    last_team = _team(p["last_raise_team"], teams, "last_raise_team")
    m.dealer = dealer
    m.score = list(p["score"])
    m.games = list(p["games"])
    m.winner = winner
    m.hand_number = p["hand_number"]
    m.rng = SplitMix64(p["rng"]) if p["rng"] is not None else None
    m.seed = None
    new_hand(m)
    hand = m.hand
    rnd = m.round
    cards = _Reader(rules)
    # the cards: the vira, what each seat holds, the rounds, the current round
    if p["vira"] is not None:
        hand.vira = cards.card(p["vira"], "vira")
    hand.hands = [[cards.card(c, f"hands[{s}][{i}]") for i, c in enumerate(h)]
                  for s, h in enumerate(p["hands"])]
    played: list[Played] = []
    for i, rd in enumerate(p["rounds"]):
        for j, pc in enumerate(rd["cards"]):
            path = f"rounds[{i}].cards[{j}]"
            played.append((i, _seat(pc["seat"], n, f"{path}.seat"),
                           cards.card(pc["card"], f"{path}.card"), pc["covered"]))
        hand.results.append(_team(rd["winner"], teams, f"rounds[{i}].winner"))
    cur = p["round"]
    rnd.number = cur["number"] - 1
    rnd.leader = _seat(cur["leader"], n, "round.leader")
    rnd.turn = _seat(cur["turn"], n, "round.turn")
    repeat = rnd.number < len(p["rounds"])  # match_over: the round that ended the match
    for j, pc in enumerate(cur["cards"]):
        path = f"round.cards[{j}]"
        entry = (_seat(pc["seat"], n, f"{path}.seat"),
                 cards.card(pc["card"], f"{path}.card", once=not repeat), pc["covered"])
        rnd.cards.append(entry)
        if not repeat:
            played.append((rnd.number, *entry))
    hand.played = played
    hand.dealt = tuple(tuple(cards.card(c, f"dealt[{s}][{i}]", once=False)
                             for i, c in enumerate(h)) for s, h in enumerate(p["dealt"]))
    for k, sh in enumerate(p["shown"]):
        hand.shown.append((_seat(sh["seat"], n, f"shown[{k}].seat"),
                           cards.card(sh["card"], f"shown[{k}].card", once=False)))
    hand.bound = [None if c is None else cards.card(c, f"bound[{s}]", once=False)
                  for s, c in enumerate(p["bound"])]
    if state != "deal" and (hand.vira is not None or not rules.has_vira):
        hand.strength = rules.strengths(hand.vira)
    # the bet
    hand.value = p["value"]
    hand.last_raise_team = last_team
    pend = p["pending"]
    if pend is not None:
        hand.pending = (_seat(pend["seat"], n, "pending.seat"), pend["value"],
                        None if pend["card"] is None
                        else cards.card(pend["card"], "pending.card", once=False))
    hand.refused = tuple(_seat(s, n, f"refused[{k}]") for k, s in enumerate(p["refused"]))
    sp = p["special"]
    if sp is not None:
        k = sp["entry"]
        if not 0 <= k < len(rules.special_hands):
            raise _refuse(Why("special_mismatch",
                              f"this variant has {len(rules.special_hands)} special hands"),
                          "special.entry")
        entry = rules.special_hands[k]
        if sp["name"] != entry.name:
            raise _refuse(Why("special_mismatch",
                              f"special hand {k} is the {entry.name}, not {sp['name']!r}"),
                          "special.name")
        hand.special = k + 1
        hand.rule = entry
        hand.blind = entry.blind
        hand.special_team = _team(sp["team"], teams, "special.team")
        hand.decider = (None if sp["decider"] is None
                        else _seat(sp["decider"], n, "special.decider"))
    lh = p["last_hand"]
    if lh is not None:
        m.last_hand = (lh["hand_number"],
                       [(e["round"] - 1, _seat(e["seat"], n, f"last_hand.played[{k}].seat"),
                         cards.card(e["card"], f"last_hand.played[{k}].card", once=False),
                         e["covered"]) for k, e in enumerate(lh["played"])],
                       [(_seat(e["seat"], n, f"last_hand.shown[{k}].seat"),
                         cards.card(e["card"], f"last_hand.shown[{k}].card", once=False))
                        for k, e in enumerate(lh["shown"])],
                       [_team(w, teams, f"last_hand.rounds[{k}]")
                        for k, w in enumerate(lh["rounds"])],
                       lh["blind"])
    _build_bets(m, p, cards)
    _build_must_kill(m, p)
    check(m, p)
    setattr(m, m.machine.model_attribute, state)  # as Machine.set_state sets it
    m.is_over = state == "match_over"
    return m


def _build_must_kill(m: Match, p: Position) -> None:
    """The raisers who must beat the table with their card of the round (C8 house,
    ``play.raiser_must_kill``): present exactly in a variant with the rule; each a seat that
    raised against a card of another team face up in the round in play and has not played
    since, in state play or answer."""
    from engine.moves.play import kill_target

    rules = m.rules
    given = p.get("must_kill")
    if (given is not None) != rules.raiser_must_kill:
        said = ("this variant has play.raiser_must_kill: expected must_kill, the raisers who "
                "must beat the table" if given is None
                else "this variant has no play.raiser_must_kill")
        raise _refuse(Why("bad_must_kill", said), "must_kill")
    if not given:
        return
    if p["state"] not in ("play", "answer"):
        raise _refuse(Why("bad_must_kill", f"a raiser must beat the table only while the "
                                           f"round is played, not in state {p['state']}"),
                      "must_kill")
    seats: list[int] = []
    for k, s in enumerate(given):
        at = f"must_kill[{k}]"
        seat = _seat(s, rules.players, at)
        if seat in seats:
            raise _refuse(Why("bad_must_kill", f"seat {seat} is listed twice"), at)
        if any(c[0] == seat for c in m.round.cards):
            raise _refuse(Why("bad_must_kill", f"seat {seat} has played his card of the round: "
                                               "he has nothing more to beat it with"), at)
        if kill_target(m, seat) is None:
            raise _refuse(Why("bad_must_kill", f"no card of another team than seat {seat}'s is "
                                               "face up on the table: nothing to beat"), at)
        seats.append(seat)
    m.hand.must_kill = tuple(seats)


def _build_bets(m: Match, p: Position, cards: _Reader) -> None:
    """The hand's side bets from the position (G22-G32): one entry per bet of the variant,
    or none at all in a variant without side bets."""
    rules = m.rules
    given = p.get("side_bets")
    if not rules.side_bets:
        if given is not None:
            raise _refuse(Why("side_bets_not_in_variant", "this variant has no side bets"),
                          "side_bets")
        return
    if given is None:
        raise _refuse(Why("side_bets_missing", "this variant has side bets: expected "
                                               "side_bets, one entry per bet"), "side_bets")
    if len(given) != len(rules.side_bets):
        raise _refuse(Why("wrong_length", f"expected one entry per side bet "
                                          f"({len(rules.side_bets)}), found {len(given)}"),
                      "side_bets")
    n = rules.players
    side = m.hand.side
    assert side is not None
    for k, (b, e) in enumerate(zip(side, given, strict=True)):
        at = f"side_bets[{k}]"
        if e["bet"] != b.bet.name:
            raise _refuse(Why("side_bet_mismatch", f"side bet {k} is {b.bet.name}, not "
                                                   f"{e['bet']!r}"), f"{at}.bet")
        b.chain = tuple(e["calls"])
        b.caller = None if e["caller"] is None else _seat(e["caller"], n, f"{at}.caller")
        b.pending = e["pending"]
        b.settled = e["settled"]
        b.accepted = e["accepted"]
        b.winner = _team(e["winner"], rules.teams, f"{at}.winner")
        b.points = e["points"]
        b.owed = e["owed"]
        b.killed = e.get("killed", False)
        b.sung = tuple(_seat(s, n, f"{at}.sung[{i}]") for i, s in enumerate(e.get("sung", ())))
        b.flores = tuple((_seat(f["seat"], n, f"{at}.flores[{i}].seat"),
                          tuple(cards.card(c, f"{at}.flores[{i}].cards[{j}]", once=False)
                                for j, c in enumerate(f["cards"])))
                         for i, f in enumerate(e.get("flores", ())))
        sh = e["shown"]
        if sh is not None:
            b.shown = (_seat(sh["seat"], n, f"{at}.shown.seat"),
                       tuple(cards.card(c, f"{at}.shown.cards[{i}]", once=False)
                             for i, c in enumerate(sh["cards"])))


# -- checking -------------------------------------------------------------------------------
def _fresh(m: Match) -> Position:
    """The hand part of a position in ``deal``: a fresh hand, its first round led by the mão."""
    other = m.clone()
    new_hand(other)
    return export(other)


def check(m: Match, p: Position) -> None:
    """Refuse (:class:`PositionError`) a position that no play of the rules could reach;
    ``m`` is the match built from it (its state not yet set). The checks go block by block,
    in this order (the first refusal is the one raised): the score, the last hand's record,
    the state between hands, the cards, the special hand, the bet, the cards shown and bound,
    a decision, the rounds and the side bets."""
    state = p["state"]
    live = state != "match_over"
    _check_score(m, live)
    if p["last_hand"] is not None:
        _check_last_number(m, p, state)
        _check_last_hand(m)
    if state == "deal":  # between hands: nothing dealt yet
        _check_between_hands(m, p)
        return
    _check_cards(m)
    start = _check_special(m, live)
    _check_bet(m, state)
    _check_shown(m, state)
    if state == "decide":
        _check_decision(m)
    _check_rounds(m, p, live, start)


def _check_score(m: Match, live: bool) -> None:
    """The match's score: a live match has no winner and no finished game; one over has the
    winner of the match."""
    rules = m.rules
    if live:
        if m.winner is not None:
            raise _refuse(Why("winner_of_live_match",
                              "a match with a winner is over (state match_over)"), "winner")
        for t, s in enumerate(m.score):
            if s >= rules.target:
                raise _refuse(Why("finished_score",
                                  f"team {t} has {s} points, the target is {rules.target}: "
                                  "the game is over"), f"score[{t}]")
        for t, g in enumerate(m.games):
            if g >= rules.games_to_win:
                raise _refuse(Why("finished_games",
                                  f"team {t} has won {g} games, and {rules.games_to_win} "
                                  "win the match: it is over"), f"games[{t}]")
    elif m.winner is None:
        raise _refuse(Why("match_over_without_winner", "a match over has a winner"), "winner")
    elif m.games[m.winner] < (1 if rules.match_step else rules.games_to_win):
        raise _refuse(Why("match_winner",
                          f"team {m.winner} has won {m.games[m.winner]} games: not the match"),
                      "winner")


def _check_last_number(m: Match, p: Position, state: str) -> None:
    """The last hand's record is of the hand before this one."""
    expect = m.hand_number if state == "deal" else m.hand_number - 1
    if p["last_hand"]["hand_number"] != expect or expect < 1:
        raise _refuse(Why("last_hand_number",
                          f"the hand before this one is hand {expect}"),
                      "last_hand.hand_number")


def _check_between_hands(m: Match, p: Position) -> None:
    """State ``deal``: nothing dealt, called or raised yet; a seeded match never waits there."""
    if m.rng is not None:
        raise _refuse(Why("deal_awaited_with_seed",
                          "a seeded match deals the next hand at once: it never waits "
                          "in state deal"), "rng")
    fresh = _fresh(m)
    for key in ("value", "special", "pending", "refused", "last_raise_team", "vira",
                "hands", "dealt", "rounds", "round", "shown", "bound"):
        if p[key] != fresh[key]:
            raise _refuse(Why("dealt_before_deal",
                              f"no hand is dealt in state deal: expected {fresh[key]!r}"),
                          key)
    if "side_bets" in fresh and p["side_bets"] != fresh["side_bets"]:  # G24: not called
        raise _refuse(Why("dealt_before_deal", "no side bet is called in state deal"),
                      "side_bets")


def _check_cards(m: Match) -> None:
    """The hand in play: its number, the vira, each seat's cards held and played as dealt."""
    rules, hand, n = m.rules, m.hand, m.rules.players
    if m.hand_number < 1:
        raise _refuse(Why("hand_number", "a hand in play is hand 1 or later"), "hand_number")
    if rules.has_vira and hand.vira is None:
        raise _refuse(Why("missing_vira", "this variant turns a vira (P1)"), "vira")
    if not rules.has_vira and hand.vira is not None:
        raise _refuse(Why("extra_vira", "this variant has no vira"), "vira")
    by_seat: list[list[Card]] = [[] for _ in range(n)]
    for _, s, c, _ in hand.played:
        by_seat[s].append(c)
    for s in range(n):
        count = len(hand.hands[s]) + len(by_seat[s])
        if count != rules.cards_per_player:
            raise _refuse(Why("card_count",
                              f"seat {s} holds {len(hand.hands[s])} cards and played "
                              f"{len(by_seat[s])}, expected {rules.cards_per_player} in all"),
                          f"hands[{s}]")
    if len(hand.dealt) != n:
        raise _refuse(Why("dealt_mismatch", "a hand in play has its cards as dealt"), "dealt")
    for s in range(n):
        dealt = hand.dealt[s]
        if Counter(dealt) != Counter(hand.hands[s] + by_seat[s]):
            raise _refuse(Why("dealt_mismatch",
                              f"seat {s}'s cards as dealt are not those held and played"),
                          f"dealt[{s}]")
        order = [c for c in dealt if c in hand.hands[s]]
        if order != hand.hands[s]:
            raise _refuse(Why("dealt_mismatch",
                              f"seat {s} holds his cards in the order dealt"), f"hands[{s}]")


def _check_special(m: Match, live: bool) -> list[int]:
    """The special hand the score makes, its team and decider; returns the score the hand
    began with (G31: side bets credited this hand come off it)."""
    rules, hand = m.rules, m.hand
    start = _hand_start_score(m) if live else m.score  # G31: side bets credited this hand
    special, team = special_for(rules, start) if live else (hand.special, hand.special_team)
    if special != hand.special:
        name = "a normal hand" if special == NORMAL else (
            f"the {rules.special_hands[special - 1].name}")
        raise _refuse(Why("special_mismatch", f"at the score {m.score} the hand is {name}"),
                      "special")
    rule = hand.rule
    if rule is not None:
        if team != hand.special_team:
            raise _refuse(Why("special_mismatch",
                              f"the team at the {rule.name}'s score is {team}"), "special.team")
        decider = (decider_seat(rules, m.mao, team)
                   if rule.decision and rule.decider == "first_from_mao" and team is not None
                   else None)
        if decider != hand.decider:
            raise _refuse(Why("special_mismatch",
                              f"the {rule.name}'s decider is {decider}"), "special.decider")
    return list(start)


def _check_bet(m: Match, state: str) -> None:
    """The hand's value on the ladder, a pending raise (C8-C10, P4-P6, M5, M6) and the
    refusals kept while it waits."""
    rules, hand, rnd, team_of = m.rules, m.hand, m.round, m.rules.team_of
    rule = hand.rule
    values = [rules.initial_value, *(step.value for step in rules.ladder)]
    base = rule.value if rule is not None else rules.initial_value
    if hand.value not in values and hand.value != base:
        raise _refuse(Why("value_not_on_ladder",
                          f"{hand.value} is not a value of the ladder {values} (C8)"), "value")
    if rule is not None and rule.raises != "allowed" and hand.value != rule.value:
        raise _refuse(Why("special_value",
                          f"the {rule.name} is worth {rule.value}, and no raise is allowed "
                          "(P5, P6, M5, M6)"),
                      "value")
    if (hand.last_raise_team is None) != (hand.value == base):
        said = (f"with no raise accepted the hand is worth {base}"
                if hand.last_raise_team is None
                else f"a raise was accepted: the hand is worth more than {base}")
        raise _refuse(Why("value_without_raise", said), "value")
    if hand.value < base:
        raise _refuse(Why("value_not_on_ladder", f"the hand is worth at least {base} (C8)"),
                      "value")
    pending = hand.pending
    if (state == "answer") != (pending is not None) and not (
            state in ("bet_answer", "sing") and hand.side is not None):  # G26, G36: waits
        raise _refuse(Why("pending_state", "a raise waits for its answer exactly in state "
                                           f"answer (the state is {state}, C9)"), "pending")
    if pending is not None:
        ps, pv, pc = pending
        if rule is not None and rule.raises != "allowed":
            # P5, P6, M5, M6: a raise there is refused, or penalised at once: it never waits
            raise _refuse(Why("raise_in_special",
                              f"no raise is allowed in the {rule.name}: none waits for an "
                              "answer (P5, P6, M5, M6)"), "pending")
        if team_of[ps] == hand.last_raise_team:
            raise _refuse(Why("raised_twice",
                              f"team {team_of[ps]} raised last: it cannot raise again (C10)"),
                          "pending.seat")
        step = rules.next_step(hand.value)
        if step is None or step.value != pv:
            raise _refuse(Why("pending_not_next_step",
                              f"a raise from {hand.value} is to "
                              f"{'nothing' if step is None else step.value} (C8)"),
                          "pending.value")
        if rules.name_card != (pc is not None):
            raise _refuse(Why("pending_card", "a raise names a card exactly where the variant "
                                              "says (M4)"), "pending.card")
        if pc is not None and pc not in hand.hands[ps]:
            raise _refuse(Why("pending_card", f"seat {ps} does not hold {card_name(pc)}"),
                          "pending.card")
        if (hand.last_raise_team is None and rules.raise_timing == "own_turn"
                and ps != rnd.turn):
            # P4: the first raise of the hand (no raise accepted: not a raise back) is made
            # on the raiser's own turn
            raise _refuse(Why("pending_not_on_turn",
                              f"a raise only on one's own turn (P4): seat {rnd.turn}'s"),
                          "pending.seat")
    if hand.refused:
        challenged = m.challenged_team
        if pending is None or rules.refusal != "whole_team":
            raise _refuse(Why("bad_refusal", "refusals are kept only while a raise waits, "
                                             "where the whole team refuses"), "refused")
        for k, s in enumerate(hand.refused):
            if team_of[s] != challenged or hand.refused.count(s) > 1:
                raise _refuse(Why("bad_refusal", f"seat {s} cannot have refused this raise"),
                              f"refused[{k}]")


def _check_shown(m: Match, state: str) -> None:
    """Cards shown with a raise and the cards a raiser is bound to (M4)."""
    rules, hand = m.rules, m.hand
    revealed = {(s, c) for b in hand.side or ()
                for s, cards in (b.flores if b.shown is None else (b.shown,))
                for c in cards}  # G32, G41: shown when the hand (and the match) ended
    for k, (s, c) in enumerate(hand.shown):
        if (s, c) in revealed and state == "match_over":
            continue
        if not rules.name_card or c not in hand.dealt[s]:
            raise _refuse(Why("bad_shown", f"seat {s} cannot have shown {card_name(c)}"),
                          f"shown[{k}]")
    for s, b in enumerate(hand.bound):
        if b is not None and (b not in hand.hands[s] or (s, b) not in hand.shown):
            raise _refuse(Why("bad_bound",
                              f"seat {s} is bound only to a card he holds and showed"),
                          f"bound[{s}]")


def _check_decision(m: Match) -> None:
    """State ``decide``: a special hand with a decision, before any card (M5)."""
    hand = m.hand
    rule = hand.rule
    if rule is None or not rule.decision:
        raise _refuse(Why("decision_outside_special",
                          "a decision is awaited only in a special hand with one (M5)"),
                      "state")
    if hand.played or hand.value != rule.value:
        raise _refuse(Why("decision_after_play", "the decision comes before any card"),
                      "rounds" if hand.results else "round.cards")


def _check_rounds(m: Match, p: Position, live: bool, start: Sequence[int]) -> None:
    """The rounds played (their order, winners, a hand already decided), the round in play
    (its number, leader, order and turn) and, last, the side bets."""
    rules, hand, rnd, n = m.rules, m.hand, m.round, m.rules.players
    covered_from = rules.covered_from_round if rules.covered_allowed else None
    leader = m.mao
    results = hand.results
    for i in range(len(results)):
        path = f"rounds[{i}]"
        rcards = [(s, c, cov) for r, s, c, cov in hand.played if r == i]
        _order(rcards, leader, n, path, covered_from, i)
        if len(rcards) != n:
            raise _refuse(Why("incomplete_round", f"a completed round has {n} cards"),
                          f"{path}.cards")
        winner, leader = round_outcome(m, rcards, leader)
        if winner != results[i]:
            raise _refuse(Why("round_winner", f"round {i + 1} is " + (
                "tied" if winner is None else f"won by team {winner}")),
                          f"{path}.winner")
        if live and 2 * (i + 1) >= rules.cards_per_player and hand_result(m, results[:i + 1])[0]:
            raise _refuse(Why("hand_already_decided",
                              f"round {i + 1} decided the hand: it should have ended"),
                          f"{path}.winner")
    number = rnd.number
    if not live and number < len(results):  # the round that ended the match: its last
        ended = [(s, c, cov) for r, s, c, cov in hand.played if r == number]
        if number != len(results) - 1 or rnd.cards != ended:
            raise _refuse(Why("match_over_round", "the round the match ended in is the last "
                                                  "of the rounds, or the round after them"),
                          "round.cards")
        if rnd.turn != ended[-1][0]:
            raise _refuse(Why("wrong_turn", f"the last card was seat {ended[-1][0]}'s"),
                          "round.turn")
        if hand.side is not None:
            _check_side(m, p, start)
        return
    if number != len(results):
        raise _refuse(Why("round_number", f"after {len(results)} rounds the round in play is "
                                          f"round {len(results) + 1}"), "round.number")
    if rnd.leader != leader:
        if number == 0:
            raise _refuse(Why("round_one_leader", f"the mão (seat {leader}) leads round 1"),
                          "round.leader")
        raise _refuse(Why("round_leader", f"round {number + 1} is led by seat {leader}"),
                      "round.leader")
    _order(rnd.cards, leader, n, "round", covered_from, number)
    if live and len(rnd.cards) >= n:
        raise _refuse(Why("round_full", "a round with every card played is over"),
                      "round.cards")
    turn = (leader + len(rnd.cards)) % n
    if rnd.turn != turn:
        raise _refuse(Why("wrong_turn", f"the next card is seat {turn}'s"), "round.turn")
    if hand.side is not None:
        _check_side(m, p, start)


def _check_last_hand(m: Match) -> None:
    """The last hand's record is one a hand leaves: each card played once, the rounds in
    order, each round's cards from a leader on, one a seat, covered only where allowed; every
    round before the last complete, a winner for each complete round; a card shown and played
    by the same seat. Its round winners and ``blind`` are not checked: its vira and score
    are not in the position."""
    assert m.last_hand is not None
    _, played, shown, results, _ = m.last_hand
    rules = m.rules
    n = rules.players
    covered_from = rules.covered_from_round if rules.covered_allowed else None
    by_card: dict[Card, tuple[int, int]] = {}
    rounds: list[list[int]] = []
    for k, (r, s, c, cov) in enumerate(played):
        at = f"last_hand.played[{k}]"
        if c in by_card:
            raise _refuse(Why("card_twice", f"{card_name(c)} is also at "
                                            f"last_hand.played[{by_card[c][1]}]"), f"{at}.card")
        by_card[c] = (s, k)
        if r < len(rounds) - 1 or r >= rules.cards_per_player or r > len(rounds):
            raise _refuse(Why("last_hand_record", "the last hand's cards are played round "
                                                  f"after round, 1 to {rules.cards_per_player}"),
                          f"{at}.round")
        if r == len(rounds):
            if rounds and len(rounds[-1]) != n:
                raise _refuse(Why("last_hand_record", f"round {r} of the last hand has "
                                                      f"{len(rounds[-1])} cards, not {n}: no "
                                                      "round followed it"), f"{at}.round")
            rounds.append([])
        seats = rounds[-1]
        if seats and s != (seats[0] + len(seats)) % n:
            raise _refuse(Why("wrong_play_order", f"card {len(seats) + 1} of the last hand's "
                                                  f"round {r + 1} is seat "
                                                  f"{(seats[0] + len(seats)) % n}'s"),
                          f"{at}.seat")
        if cov and (covered_from is None or r + 1 < covered_from):
            raise _refuse(Why("covered_forbidden", "no covered card there (P7)"),
                          f"{at}.covered")
        seats.append(s)
    complete = sum(1 for seats in rounds if len(seats) == n)
    if len(results) != complete:
        raise _refuse(Why("last_hand_record", f"the last hand has {complete} complete rounds: "
                                              "a winner (or a tie) for each"),
                      "last_hand.rounds")
    for k, (s, c) in enumerate(shown):
        if c in by_card and by_card[c][0] != s:
            raise _refuse(Why("last_hand_record", f"{card_name(c)} was played by seat "
                                                  f"{by_card[c][0]}, not shown by seat {s}"),
                          f"last_hand.shown[{k}].seat")


def _check_side(m: Match, p: Position, start: Sequence[int]) -> None:
    """The side bets (G22-G41): their records, their results as the engine settles them,
    and the score that holds what they were credited (``start``: the score the hand began
    with, :func:`_hand_start_score`)."""
    _check_bets(m, p)
    _check_bet_results(m, p["state"] != "match_over", start)
    if p["state"] != "match_over":
        for t, s in enumerate(start):
            if s < 0:
                raise _refuse(Why("bet_credit", f"team {t} has {m.score[t]} points, less than "
                                                f"the {m.score[t] - s} its side bets were "
                                                "credited this hand (G31)"), f"score[{t}]")


def _hand_start_score(m: Match) -> list[int]:
    """The score the hand in play began with: the score less the side bets' points credited
    at once this hand (G31; nothing else is credited before the hand ends)."""
    score = m.score[:]
    for b in m.hand.side or ():
        if b.settled and not b.owed and b.winner is not None and 0 <= b.winner < len(score):
            score[b.winner] -= b.points
    return score


def _settlement(m: Match, k: int, score: Sequence[int]) -> Settlement:
    """What the engine's own settlement of side bet ``k`` (engine.moves.bets) rules from the
    dealt cards, its chain and the score it was settled at (``score``)."""
    from engine.machine import Ruling
    from engine.moves.bets import settle, settle_flor
    from engine.moves.flor import chooser

    side = m.hand.side
    assert side is not None
    b = side[k]
    how = None
    if b.bet.kind == "flor":  # G38-G40: uncontested, a choice settled at once, or a raise
        chain = (b.bet.flor_chains or {}).get(b.chain)
        if chooser(m, b) is None:
            how = "uncontested"
        elif len(b.chain) == 1 and chain is not None and chain.at_once is not None:
            how = chain.at_once
    r = Ruling()
    r.model = m
    kept = m.score
    m.score = list(score)
    try:
        if how is None:
            settle(m, r, k, b, b.accepted)
        else:
            settle_flor(m, r, b, how, chain=b.chain, index=k)
    finally:
        m.score = kept
    result: Settlement = r.side
    return result


def _same_points(m: Match, b: BetState, engine: tuple[int, tuple[Card, ...]] | None,
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


def _result_problem(b: BetState, s: Settlement, at: str, m: Match,
                    points: bool = True) -> PositionError | None:
    """How bet ``b``'s record differs from the settlement ``s`` the engine rules for it, or
    ``None``; ``points``: compare the points too."""
    flor = b.bet.kind == "flor"
    rule = "G38-G40" if flor else "G28-G30"
    chain = " - ".join(b.chain)
    if s.team != b.winner:
        return _refuse(Why("bet_result", f"{chain} goes to team {s.team} by the cards dealt "
                                         f"({rule})"), f"{at}.winner")
    if s.accepted != b.accepted:
        return _refuse(Why("bet_result", f"{chain} is settled {'by' if s.accepted else 'without'}"
                                         f" comparing the points ({rule})"), f"{at}.accepted")
    if points and s.points != b.points:
        return _refuse(Why("bet_result", f"{chain} pays {s.points} here ({rule})"),
                       f"{at}.points")
    if not _same_points(m, b, s.shown, b.shown):
        return _refuse(Why("bet_shown", "the cards shown are the winning points' of an "
                                        "accepted bet (G32)"), f"{at}.shown")
    if s.flores != b.flores:
        return _refuse(Why("bet_shown", "the flores shown are the ones compared, else the "
                                        "scoring team's (G41)"), f"{at}.flores")
    return None


def _check_bet_results(m: Match, live: bool, start: Sequence[int]) -> None:
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


def _replay_results(m: Match, order: Sequence[int], start: Sequence[int]) -> PositionError | None:
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


def _check_final_result(m: Match, k: int) -> None:
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
        raise _refuse(Why("bet_result", f"{' - '.join(b.chain)} pays {b.points} at no score "
                                        "this game had (G28, G29)"), f"{at}.points")


def _check_bets(m: Match, p: Position) -> None:
    """The side bets' records (G24-G32): a chain the bet has, a caller exactly when called,
    a pending call exactly in state ``bet_answer`` in the bet's round with no truco accepted,
    a settlement with its winner and points, points owed only where credited at the end of
    the hand (GH6), cards shown only by a settled bet, a bet killed exactly where a flor
    killed it (G37); the results themselves: :func:`_check_bet_results`."""
    rules = m.rules
    hand = m.hand
    side = hand.side
    assert side is not None
    state = p["state"]
    team_of = rules.team_of
    pending = [k for k, b in enumerate(side) if b.pending]
    if ((state == "bet_answer") != bool(pending) and state != "sing"  # G35(b): an envido
            or len(pending) > 1):
        raise _refuse(Why("bet_pending_state", "a side bet's call waits for its answer "
                                               "exactly in state bet_answer, one at a time"),
                      f"side_bets[{pending[-1] if pending else 0}].pending")
    for k, b in enumerate(side):
        at = f"side_bets[{k}]"
        bet = b.bet
        _check_killed(m, b, at)
        if bet.kind == "flor":
            _check_flor(m, b, state, at)
        if b.chain and b.chain not in bet.chains:
            raise _refuse(Why("bet_chain", f"{' - '.join(b.chain)} is not a chain of "
                                           f"{bet.name} (G27)"), f"{at}.calls")
        if (b.caller is None) != (not b.chain):
            raise _refuse(Why("bet_caller", "a side bet has a last caller exactly when it was "
                                            "called"), f"{at}.caller")
        if b.pending and b.settled:
            raise _refuse(Why("bet_settled", "a settled side bet waits for nothing"),
                          f"{at}.settled")
        if b.pending and bet.kind != "flor" and (  # a flor's raise: after its songs (GH14)
                m.round.number != bet.round or hand.last_raise_team is not None):
            raise _refuse(Why("bet_window", f"{bet.name} is called only in round "
                                            f"{bet.round + 1}, before a truco is accepted "
                                            "(G24, G25)"), f"{at}.pending")
        if (b.chain and not b.pending and not b.settled and not b.killed
                and bet.kind != "flor"):  # a flor's choice may wait for the last songs
            raise _refuse(Why("bet_settled", "a called side bet is pending or settled"),
                          f"{at}.settled")
        if b.settled and bet.kind == "flor":
            if b.winner is None or b.points < 1:
                raise _refuse(Why("bet_result", "a settled flor has a winning team and points"),
                              f"{at}.winner")
        elif b.settled:
            w = b.winner
            if w is None or b.points < 1 or (not b.accepted and w != team_of[b.caller or 0]):
                raise _refuse(Why("bet_result", "a settled side bet has a winning team and "
                                                "points (a refusal: the last caller's team)"),
                              f"{at}.winner")
            if not b.accepted and b.points != bet.chains[b.chain].refused:
                raise _refuse(Why("bet_result", f"refused, {' - '.join(b.chain)} pays "
                                                f"{bet.chains[b.chain].refused} (G28)"),
                              f"{at}.points")
        elif b.winner is not None or b.points or b.accepted:
            raise _refuse(Why("bet_result", "a side bet not settled has no result"),
                          f"{at}.winner")
        if b.owed and (not b.settled or bet.credit != "end_of_hand"):
            raise _refuse(Why("bet_owed", "points are owed only by a settled bet credited at "
                                          "the end of the hand (GH6)"), f"{at}.owed")
        if b.settled and bet.credit == "end_of_hand" and not b.owed and state != "match_over":
            raise _refuse(Why("bet_owed", "a settled bet credited at the end of the hand "
                                          "owes its points until then (GH6)"), f"{at}.owed")
        if not b.settled and (b.shown is not None or b.flores):
            raise _refuse(Why("bet_shown", "only a settled bet shows cards (G32, G41)"),
                          f"{at}.flores" if b.flores else f"{at}.shown")


def _check_killed(m: Match, b: BetState, at: str) -> None:
    """G37: a bet is killed exactly when a flor that names it was sung before it was settled;
    killed, it waits for nothing."""
    side = m.hand.side
    assert side is not None
    by = any(f.sung and b.bet.name in f.bet.kills for f in side)
    if b.killed != (by and not b.settled) or (b.killed and b.pending):
        raise _refuse(Why("bet_killed", "a bet is annulled exactly when a flor that kills it "
                                        "was sung before it was settled (G37)"
                          if not b.killed or by else
                          f"no flor that kills {b.bet.name} was sung (G37)"), f"{at}.killed")


def _check_flor(m: Match, b: BetState, state: str, at: str) -> None:
    """The flor's record (G35, G36): the seats that sang are the holders, in playing order
    from the mão; state ``sing`` exactly while a holder is still to sing after the first, or
    before the first song where a flor is due; the flores shown are the ones compared, else the
    scoring team's (G41)."""
    from engine.moves.flor import holders, order

    hs = order(m, b)  # from the mão; GH14: from a holder who sang of his own will
    if b.sung != hs[:len(b.sung)] or (b.sung and b.bet.timing == "first_turn"
                                       and b.sung[0] != holders(m, b)[0]):
        raise _refuse(Why("flor_sung", f"the holders sing in playing order from the mão: "
                                       f"{list(hs)} (G35, G36)"), f"{at}.sung")
    if state == "sing" and len(b.sung) == len(hs):
        raise _refuse(Why("flor_state", "state sing: a holder is still to sing (G35)"),
                      f"{at}.sung")
    if state != "sing" and 0 < len(b.sung) < len(hs):
        raise _refuse(Why("flor_state", "every holder sings before play goes on: expected "
                                        "state sing (G36)"), f"{at}.sung")
    if b.settled != (bool(hs) and len(b.sung) == len(hs) and not b.pending):
        raise _refuse(Why("flor_state", "a flor is settled exactly when every holder has "
                                        "sung and no raise waits (G38-G40)"), f"{at}.settled")
    _check_flor_chain(m, b, hs, at)


def _check_flor_chain(m: Match, b: BetState, hs: Sequence[int], at: str) -> None:
    """The flor's chain follows its songs (G38, G39): uncontested, none until it is settled,
    then the first singer's flor; contested, none before the chooser (the first holder of the
    other team) sang, then his choice, which may wait for the holders after him; raises over
    it only once every holder sang, each by the other team than the last caller's."""
    from engine.moves.flor import chooser

    bet = b.bet
    chains = bet.flor_chains or {}
    first = chooser(m, b)
    if first is None:  # G38
        want = ((bet.calls[0],), b.sung[0]) if b.settled else ((), None)
        if (b.chain, b.caller) != want:
            raise _refuse(Why("bet_chain", "an uncontested flor has no call but its first "
                                           "singer's flor, once every holder sang (G38)"),
                          f"{at}.calls")
        return
    if first not in b.sung:
        if b.chain:
            raise _refuse(Why("bet_chain", f"seat {first} chooses the contested flor when he "
                                           "sings (G39): no call before"), f"{at}.calls")
        return
    if b.chain[:1] not in chains:
        raise _refuse(Why("bet_chain", f"seat {first} chose when he sang (G39): the chain "
                                       "starts with one of the flor's first calls"),
                      f"{at}.calls")
    team_of = m.rules.team_of
    if len(b.chain) == 1 and b.caller != first or b.caller is None or (
            (team_of[b.caller] == team_of[first]) != (len(b.chain) % 2 == 1)):
        raise _refuse(Why("bet_caller", f"seat {first} chose (G39), and each raise over his "
                                        "choice is the other team's"), f"{at}.caller")
    last = chains.get(b.chain)
    if (len(b.chain) > 1 or b.pending) and (
            len(b.sung) < len(hs) or last is None or last.at_once is not None):
        raise _refuse(Why("bet_chain", "a contested flor's raise waits for its answer once "
                                       "every holder sang (G39)"), f"{at}.calls")


def _order(cards: Sequence[tuple[int, Card, bool]], leader: int, n: int, path: str,
           covered_from: int | None, number: int) -> None:
    """The cards of a round are played from its leader on, and covered only where allowed."""
    for j, (s, _, cov) in enumerate(cards):
        if s != (leader + j) % n:
            raise _refuse(Why("wrong_play_order",
                              f"card {j + 1} of the round is seat {(leader + j) % n}'s"),
                          f"{path}.cards[{j}].seat")
        if cov and (covered_from is None or number + 1 < covered_from):
            raise _refuse(Why("covered_forbidden",
                              "this variant has no covered cards (P7)" if covered_from is None
                              else f"covered cards only from round {covered_from} (P7)"),
                          f"{path}.cards[{j}].covered")
