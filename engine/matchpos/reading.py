"""A position read: its fields as the engine holds them (:class:`PositionData`: cards as
card codes, each checked against the deck and counted once, each seat and team in range, the
special hand and the side bets the variant's), then set up on a fresh match (:func:`set_up`)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.cards import Card, card_name, parse_card
from engine.errors import Why
from engine.matchpos.schema import Position, between_hands, refuse
from engine.moves import kind_states
from engine.moves.scoring import new_hand
from engine.shuffle import SplitMix64
from engine.state import NO_OWN, Played

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import LastHandRecord, MatchView  # the last hand as Match holds it

#: A show: the seat and his cards.
Show = tuple[int, tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class SpecialRecord:
    """The special hand of a position: its entry in the variant's ``special_hands``, its team
    and its decider."""

    entry: int
    team: int | None
    decider: int | None


@dataclass(frozen=True, slots=True)
class SideBetRecord:
    """One side bet's record (G22-G41), as :class:`~engine.sidebets.BetState` holds it."""

    chain: tuple[str, ...]
    caller: int | None
    pending: bool
    settled: bool
    accepted: bool
    winner: int | None
    points: int
    owed: bool
    killed: bool
    sung: tuple[int, ...]
    flores: tuple[Show, ...]
    shown: Show | None


@dataclass(frozen=True, slots=True)
class PositionData:
    """A position's fields, read and checked one by one (not yet against each other: that is
    :func:`engine.matchpos.check`, on the match they make)."""

    state: str
    score: list[int]
    games: list[int]
    winner: int | None
    dealer: int
    hand_number: int
    rng: int | None
    vira: Card | None
    hands: list[list[Card]]
    #: Every card played in the hand (round, seat, card, covered), the round in play's too.
    played: list[Played]
    results: list[int | None]
    round_number: int
    leader: int
    turn: int
    round_cards: list[tuple[int, Card, bool]]
    dealt: tuple[tuple[Card, ...], ...]
    shown: list[tuple[int, Card]]
    bound: list[Card | None]
    value: int
    last_raise_team: int | None
    pending: tuple[int, int, Card | None] | None
    refused: tuple[int, ...]
    special: SpecialRecord | None
    last_hand: LastHandRecord | None
    #: One record per side bet of the variant; ``None`` in a variant without side bets.
    side_bets: tuple[SideBetRecord, ...] | None
    #: The kinds' own state (:class:`engine.moves.KindState`), by key, as given (checked on
    #: the match: ``check``); a state the position leaves out fresh.
    own: dict[str, Any]


class _Reader:
    """The position's cards as card codes, checked against the deck and counted; its seats
    and teams checked in range."""

    def __init__(self, rules: Rules) -> None:
        self.deck = frozenset(rules.deck)
        self.seen: dict[Card, str] = {}
        self.players = rules.players
        self.teams = rules.teams

    def card(self, name: str, path: str, *, once: bool = True) -> Card:
        c = parse_card(name)  # the schema's pattern makes it a card
        if c not in self.deck:
            raise refuse(Why("card_outside_deck", f"{name} is not in this variant's deck"), path)
        if once:
            if c in self.seen:
                raise refuse(Why("card_twice", f"{name} is also at {self.seen[c]}"), path)
            self.seen[c] = path
        return c

    def seat(self, value: int, path: str) -> int:
        return seat_in_range(value, self.players, path)

    def team(self, value: int | None, path: str) -> int | None:
        if value is not None and not 0 <= value < self.teams:
            raise refuse(Why("team_out_of_range",
                             f"there is no team {value} (0..{self.teams - 1})"), path)
        return value

    def played(self, entry: dict[str, Any], path: str, *,
               once: bool = True) -> tuple[int, Card, bool]:
        return (self.seat(entry["seat"], f"{path}.seat"),
                self.card(entry["card"], f"{path}.card", once=once), entry["covered"])

    def show(self, entry: dict[str, Any], path: str) -> tuple[int, Card]:
        return (self.seat(entry["seat"], f"{path}.seat"),
                self.card(entry["card"], f"{path}.card", once=False))


def seat_in_range(value: int, players: int, path: str) -> int:
    """``value``, refused (``seat_out_of_range``) unless a seat of ``players``."""
    if not 0 <= value < players:
        raise refuse(Why("seat_out_of_range", f"there is no seat {value} (0..{players - 1})"),
                     path)
    return value


def _check_sizes(rules: Rules, p: Position, states: Collection[str]) -> None:
    """The state is one of the variant's, and each list has one entry per team or seat."""
    n, teams = rules.players, rules.teams
    state = p["state"]
    if state not in states:
        raise refuse(Why("state_not_in_variant",
                         f"this variant's match is never in {state!r} "
                         f"(its states: {', '.join(sorted(states))})"), "state")
    for key, size, what in (("score", teams, "team"), ("games", teams, "team"),
                            ("hands", n, "seat"), ("bound", n, "seat")):
        if len(p[key]) != size:
            raise refuse(Why("wrong_length", f"expected one entry per {what} ({size}), "
                                             f"found {len(p[key])}"), key)
    if p["dealt"] and len(p["dealt"]) != n:
        raise refuse(Why("wrong_length", f"expected one entry per seat ({n}), "
                                         f"found {len(p['dealt'])}"), "dealt")


def read(rules: Rules, p: Position, states: Collection[str]) -> PositionData:
    """The fields of position ``p`` (of the right shapes: the schema's) for the variant of
    ``rules``, whose match has the ``states``; a field no match of the variant could have is
    refused (:class:`~engine.errors.PositionError`), the first in the position's order."""
    _check_sizes(rules, p, states)
    r = _Reader(rules)
    dealer = r.seat(p["dealer"], "dealer")
    winner = r.team(p["winner"], "winner")
    last_team = r.team(p["last_raise_team"], "last_raise_team")
    vira = None if p["vira"] is None else r.card(p["vira"], "vira")
    hands = [[r.card(c, f"hands[{s}][{i}]") for i, c in enumerate(h)]
             for s, h in enumerate(p["hands"])]
    played: list[Played] = []
    results: list[int | None] = []
    for i, rd in enumerate(p["rounds"]):
        played += [(i, *r.played(pc, f"rounds[{i}].cards[{j}]"))
                   for j, pc in enumerate(rd["cards"])]
        results.append(r.team(rd["winner"], f"rounds[{i}].winner"))
    cur = p["round"]
    number = cur["number"] - 1
    leader = r.seat(cur["leader"], "round.leader")
    turn = r.seat(cur["turn"], "round.turn")
    repeat = number < len(p["rounds"])  # match_over: the round that ended the match
    round_cards = [r.played(pc, f"round.cards[{j}]", once=not repeat)
                   for j, pc in enumerate(cur["cards"])]
    if not repeat:
        played += [(number, *entry) for entry in round_cards]
    dealt = tuple(tuple(r.card(c, f"dealt[{s}][{i}]", once=False) for i, c in enumerate(h))
                  for s, h in enumerate(p["dealt"]))
    shown = [r.show(sh, f"shown[{k}]") for k, sh in enumerate(p["shown"])]
    bound = [None if c is None else r.card(c, f"bound[{s}]", once=False)
             for s, c in enumerate(p["bound"])]
    pend = p["pending"]
    pending = None if pend is None else (
        r.seat(pend["seat"], "pending.seat"), pend["value"],
        None if pend["card"] is None else r.card(pend["card"], "pending.card", once=False))
    refused = tuple(r.seat(s, f"refused[{k}]") for k, s in enumerate(p["refused"]))
    return PositionData(
        state=p["state"], score=list(p["score"]), games=list(p["games"]), winner=winner,
        dealer=dealer, hand_number=p["hand_number"], rng=p["rng"], vira=vira, hands=hands,
        played=played, results=results, round_number=number, leader=leader, turn=turn,
        round_cards=round_cards, dealt=dealt, shown=shown, bound=bound, value=p["value"],
        last_raise_team=last_team, pending=pending, refused=refused,
        special=_read_special(rules, p["special"], r), last_hand=_read_last(p["last_hand"], r),
        side_bets=_read_bets(rules, p.get("side_bets"), r),
        own={s.key: s.fresh if p.get(s.key) is None else s.read(p[s.key])
             for s in kind_states(rules)})


#: The cards of a position (:func:`read_cards`): the hands, every card played, the round in
#: play's, the cards as dealt, the pending raise, and each side bet's shows (its ``shown`` and
#: ``flores``).
Cards = tuple[list[list[Card]], list[Played], list[tuple[int, Card, bool]],
              tuple[tuple[Card, ...], ...], "tuple[int, int, Card | None] | None",
              list[tuple["Show | None", tuple[Show, ...]]]]


def read_cards(rules: Rules, p: Position) -> Cards:
    """The cards of position ``p``, read as :func:`read` reads them (each in the deck; the
    vira, the hands and the cards played once each, by seats in range), where the fields that
    are not cards were read before, from a position that differs from ``p`` in its cards only.
    A position whose cards pass is read by table lookups; one that does not, by
    :func:`read`'s own reader, which refuses it as :func:`read` does."""
    codes = deck_codes(rules)
    n = rules.players
    try:
        vira = p["vira"]
        once = [codes[vira]] if vira is not None else []
        hands = [[codes[c] for c in h] for h in p["hands"]]
        for h in hands:
            once += h
        played: list[Played] = []
        for i, rd in enumerate(p["rounds"]):
            for pc in rd["cards"]:
                seat = pc["seat"]
                if not 0 <= seat < n:
                    raise KeyError(seat)
                played.append((i, seat, codes[pc["card"]], pc["covered"]))
        cur = p["round"]
        number = cur["number"] - 1
        repeat = number < len(p["rounds"])
        round_cards = []
        for pc in cur["cards"]:
            seat = pc["seat"]
            if not 0 <= seat < n:
                raise KeyError(seat)
            round_cards.append((seat, codes[pc["card"]], pc["covered"]))
        if not repeat:
            played += [(number, *entry) for entry in round_cards]
        once += [c for _, _, c, _ in played]
        if len(set(once)) != len(once):
            raise KeyError("twice")
        dealt = tuple(tuple(codes[c] for c in h) for h in p["dealt"])
        pend = p["pending"]
        pending = None if pend is None else (
            pend["seat"], pend["value"], None if pend["card"] is None else codes[pend["card"]])
        side: list[tuple[Show | None, tuple[Show, ...]]] = []
        for e in p.get("side_bets") or ():
            sh = e["shown"]
            side.append((None if sh is None else _show_codes(sh, codes, n),
                         tuple(_show_codes(f, codes, n) for f in e.get("flores", ()))))
    except KeyError:  # a card outside the deck or twice, a seat out of range: refused
        return _read_cards(rules, p)
    return hands, played, round_cards, dealt, pending, side


@cache
def deck_codes(rules: Rules) -> dict[str, Card]:
    """The code of each card of the variant's deck, by its name (made once per variant)."""
    return {card_name(c): c for c in rules.deck}


def _show_codes(e: dict[str, Any], codes: dict[str, Card], n: int) -> Show:
    """A show (:func:`_read_show`) by table lookups: ``KeyError`` where it is refused."""
    seat = e["seat"]
    if not 0 <= seat < n:
        raise KeyError(seat)
    return seat, tuple(codes[c] for c in e["cards"])


def _read_cards(rules: Rules, p: Position) -> Cards:
    """:func:`read_cards` by :func:`read`'s reader, which refuses what it would refuse."""
    r = _Reader(rules)
    if p["vira"] is not None:
        r.card(p["vira"], "vira")
    card = r.card
    hands = [[card(c, f"hands[{s}][{i}]") for i, c in enumerate(h)]
             for s, h in enumerate(p["hands"])]
    played: list[Played] = []
    for i, rd in enumerate(p["rounds"]):
        played += [(i, *r.played(pc, f"rounds[{i}].cards[{j}]"))
                   for j, pc in enumerate(rd["cards"])]
    cur = p["round"]
    number = cur["number"] - 1
    repeat = number < len(p["rounds"])
    round_cards = [r.played(pc, f"round.cards[{j}]", once=not repeat)
                   for j, pc in enumerate(cur["cards"])]
    if not repeat:
        played += [(number, *entry) for entry in round_cards]
    dealt = tuple(tuple(card(c, f"dealt[{s}][{i}]", once=False) for i, c in enumerate(h))
                  for s, h in enumerate(p["dealt"]))
    pend = p["pending"]
    pending = None if pend is None else (
        pend["seat"], pend["value"],
        None if pend["card"] is None else card(pend["card"], "pending.card", once=False))
    side = []
    for k, e in enumerate(p.get("side_bets") or ()):
        at = f"side_bets[{k}]"
        sh = e["shown"]
        side.append((None if sh is None else _read_show(sh, f"{at}.shown", r),
                     tuple(_read_show(f, f"{at}.flores[{i}]", r)
                           for i, f in enumerate(e.get("flores", ())))))
    return hands, played, round_cards, dealt, pending, side


def _read_special(rules: Rules, sp: dict[str, Any] | None, r: _Reader) -> SpecialRecord | None:
    """The special hand: an entry of the variant's, by its name, with its team and decider."""
    if sp is None:
        return None
    k = sp["entry"]
    if not 0 <= k < len(rules.special_hands):
        raise refuse(Why("special_mismatch",
                         f"this variant has {len(rules.special_hands)} special hands"),
                     "special.entry")
    entry = rules.special_hands[k]
    if sp["name"] != entry.name:
        raise refuse(Why("special_mismatch",
                         f"special hand {k} is the {entry.name}, not {sp['name']!r}"),
                     "special.name")
    team = r.team(sp["team"], "special.team")
    decider = None if sp["decider"] is None else r.seat(sp["decider"], "special.decider")
    return SpecialRecord(k, team, decider)


def _read_last(lh: dict[str, Any] | None, r: _Reader) -> LastHandRecord | None:
    """The last hand's record (its cards counted apart: they are back in the deck)."""
    if lh is None:
        return None
    at = "last_hand"
    return (lh["hand_number"],
            [(e["round"] - 1, *r.played(e, f"{at}.played[{k}]", once=False))
             for k, e in enumerate(lh["played"])],
            [r.show(e, f"{at}.shown[{k}]") for k, e in enumerate(lh["shown"])],
            [r.team(w, f"{at}.rounds[{k}]") for k, w in enumerate(lh["rounds"])],
            lh["blind"])


def _read_bets(rules: Rules, given: list[dict[str, Any]] | None,
               r: _Reader) -> tuple[SideBetRecord, ...] | None:
    """The hand's side bets (G22-G32): one entry per bet of the variant, or none at all in a
    variant without side bets."""
    if not rules.side_bets:
        if given is not None:
            raise refuse(Why("side_bets_not_in_variant", "this variant has no side bets"),
                         "side_bets")
        return None
    if given is None:
        raise refuse(Why("side_bets_missing", "this variant has side bets: expected "
                                              "side_bets, one entry per bet"), "side_bets")
    if len(given) != len(rules.side_bets):
        raise refuse(Why("wrong_length", f"expected one entry per side bet "
                                         f"({len(rules.side_bets)}), found {len(given)}"),
                     "side_bets")
    return tuple(_read_bet(k, bet.name, e, r)
                 for k, (bet, e) in enumerate(zip(rules.side_bets, given, strict=True)))


def _read_bet(k: int, name: str, e: dict[str, Any], r: _Reader) -> SideBetRecord:
    at = f"side_bets[{k}]"
    if e["bet"] != name:
        raise refuse(Why("side_bet_mismatch", f"side bet {k} is {name}, not "
                                              f"{e['bet']!r}"), f"{at}.bet")
    caller = None if e["caller"] is None else r.seat(e["caller"], f"{at}.caller")
    winner = r.team(e["winner"], f"{at}.winner")
    sung = tuple(r.seat(s, f"{at}.sung[{i}]") for i, s in enumerate(e.get("sung", ())))
    flores = tuple(_read_show(f, f"{at}.flores[{i}]", r)
                   for i, f in enumerate(e.get("flores", ())))
    sh = e["shown"]
    return SideBetRecord(
        chain=tuple(e["calls"]), caller=caller, pending=e["pending"], settled=e["settled"],
        accepted=e["accepted"], winner=winner, points=e["points"], owed=e["owed"],
        killed=e.get("killed", False), sung=sung, flores=flores,
        shown=None if sh is None else _read_show(sh, f"{at}.shown", r))


def _read_show(e: dict[str, Any], at: str, r: _Reader) -> Show:
    return (r.seat(e["seat"], f"{at}.seat"),
            tuple(r.card(c, f"{at}.cards[{j}]", once=False) for j, c in enumerate(e["cards"])))


def set_up(m: MatchView, data: PositionData) -> None:
    """Put a fresh match (no seed, no deals: waiting in ``deal``) in the position ``data``
    reads, its state not yet set (the checks come first: ``check``)."""
    rules = m.rules
    m.dealer = data.dealer
    m.score = data.score
    m.games = data.games
    m.winner = data.winner
    m.hand_number = data.hand_number
    m.rng = SplitMix64(data.rng) if data.rng is not None else None
    m.seed = None
    new_hand(m)
    hand, rnd = m.hand, m.round
    hand.vira = data.vira
    hand.hands = data.hands
    hand.results = data.results
    rnd.number, rnd.leader, rnd.turn = data.round_number, data.leader, data.turn
    rnd.cards = data.round_cards
    hand.played = data.played
    hand.dealt = data.dealt
    hand.shown = data.shown
    hand.bound = data.bound
    if not between_hands(data.state) and (hand.vira is not None or not rules.has_vira):
        hand.strength = rules.strengths(hand.vira)
    hand.value = data.value
    hand.last_raise_team = data.last_raise_team
    hand.pending = data.pending
    hand.refused = data.refused
    if data.special is not None:
        entry = rules.special_hands[data.special.entry]
        hand.special = data.special.entry + 1
        hand.rule = entry
        hand.blind = entry.blind
        hand.special_team = data.special.team
        hand.decider = data.special.decider
    m.last_hand = data.last_hand
    for b, rec in zip(hand.side or (), data.side_bets or (), strict=True):
        (b.chain, b.caller, b.pending, b.settled, b.accepted, b.winner, b.points, b.owed,
         b.killed, b.sung, b.flores, b.shown) = (
            rec.chain, rec.caller, rec.pending, rec.settled, rec.accepted, rec.winner,
            rec.points, rec.owed, rec.killed, rec.sung, rec.flores, rec.shown)
    hand.own = data.own or NO_OWN
