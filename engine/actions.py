"""Moves: small immutable values with a ``str`` in the log's own words and a ``repr`` you can
paste back into Python.

>>> a = Action.raise_to(2, 3)
>>> str(a), a.to_event()
('raise 2 3', {'event': 'raise', 'seat': 2, 'value': 3})
>>> Action.from_event({"event": "play", "seat": 1, "card": "4c", "covered": True})
Action.play(1, '4c', covered=True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.cards import CARD_CODES, Card, card_name, parse_card

Kind = Literal["play", "raise", "accept", "fold", "decide", "concede", "pass", "envido",
               "quero", "nao_quero"]


@dataclass(frozen=True, slots=True)
class Action:
    """One player's move. Build it with the class methods: :meth:`play`, :meth:`raise_to`,
    :meth:`accept`, :meth:`fold`, :meth:`decide`, :meth:`concede`.

    Two more exist only in what a bot is given (:func:`engine.bots.choose_for`), never in a
    log or :meth:`Match.apply`: a move by hand position (:meth:`play_at`, in a blind hand, P6,
    where the seat cannot see its cards) and :meth:`pass_`, declining an offer to raise out of
    turn (M3)."""

    kind: Kind
    seat: int
    card: Card | None = None
    covered: bool = False
    value: int | None = None
    play_on: bool | None = None  # the answer of a decide
    position: int | None = None  # a bot's view of a blind hand: the card's place in the hand
    call: str | None = None  # the call of a side bet (G27): envido, real envido, falta envido

    def __post_init__(self) -> None:
        # A malformed move is a clear ValueError here, once, so that Match.apply (and the
        # log, str and repr) never meet one; the per-variant move table pays this only once.
        seat, card, kind, position = self.seat, self.card, self.kind, self.position
        if type(seat) is not int or seat < 0:
            raise ValueError(f"a {kind} move's seat must be a seat number (an int, 0 or more), "
                             f"not {seat!r}")
        if card is not None and (type(card) is not int or not 0 <= card < CARD_CODES):
            raise ValueError(f"a {kind} move's card must be a card name like '4c' or 'X1', or "
                             f"a card code 0..{CARD_CODES - 1}, not {card!r}")
        if position is not None and (type(position) is not int or not 0 <= position < 52
                                     or card is not None):
            raise ValueError(f"a {kind} move's position must be a hand position (an int, "
                             f"0 or more) in place of a card, not {position!r}")
        if kind == "play":
            ok = (card is not None or position is not None) and type(self.covered) is bool \
                and self.value is None and self.play_on is None
            want = "a card, covered True or False"
        elif kind == "raise":
            ok = type(self.value) is int and self.covered is False and self.play_on is None
            want = "a value (an int) and optionally a card"
        elif kind == "decide":
            ok = type(self.play_on) is bool and card is None and self.covered is False \
                and self.value is None and position is None
            want = "play True or False"
        elif kind == "accept" or kind == "fold" or kind == "pass" or kind == "concede" \
                or kind == "quero" or kind == "nao_quero":
            ok = card is None and self.covered is False and self.value is None \
                and self.play_on is None and position is None
            want = "a seat only"
        elif kind == "envido":
            ok = card is None and self.covered is False and self.value is None \
                and self.play_on is None and position is None and type(self.call) is str \
                and 0 < len(self.call) <= 40
            want = "a call (a side bet's call, like 'real envido')"
        else:
            raise ValueError(f"{kind!r} is not a move: expected one of play, raise, accept, "
                             "fold, decide, concede, pass, envido, quero, nao_quero")
        if self.call is not None and kind != "envido":
            raise ValueError(f"a {kind} move takes no call; found call={self.call!r}")
        if not ok:
            raise ValueError(f"a {kind} move takes {want}; found card={card!r}, "
                             f"covered={self.covered!r}, value={self.value!r}, "
                             f"play_on={self.play_on!r}")

    @classmethod
    def play(cls, seat: int, card: Card | str, covered: bool = False) -> Action:
        """Play a card (face down when ``covered``, P7)."""
        return cls("play", seat, _card(card), covered)

    @classmethod
    def raise_to(cls, seat: int, value: int, card: Card | str | None = None) -> Action:
        """Raise the hand to ``value``, naming ``card`` where the variant asks (M4)."""
        return cls("raise", seat, None if card is None else _card(card), False, value)

    @classmethod
    def accept(cls, seat: int) -> Action:
        """Accept the pending raise (C9)."""
        return cls("accept", seat)

    @classmethod
    def fold(cls, seat: int) -> Action:
        """Refuse the pending raise: the raising team wins the hand (C9)."""
        return cls("fold", seat)

    @classmethod
    def decide(cls, seat: int, play: bool) -> Action:
        """Play (``True``) or fold a mão de dez / mão de 11 with a decision (M5)."""
        return cls("decide", seat, play_on=play)

    @classmethod
    def concede(cls, seat: int) -> Action:
        """Give up the hand (*correr*, a house rule): the other team scores its value."""
        return cls("concede", seat)

    @classmethod
    def envido(cls, seat: int, call: str) -> Action:
        """Call a side bet, or raise its chain (G27): ``call`` as players say it."""
        return cls("envido", seat, call=call)

    @classmethod
    def quero(cls, seat: int) -> Action:
        """Accept the pending side bet's call (G27, G30)."""
        return cls("quero", seat)

    @classmethod
    def nao_quero(cls, seat: int) -> Action:
        """Refuse the pending side bet's call: its caller's team scores the refusal (G28)."""
        return cls("nao_quero", seat)

    @classmethod
    def play_at(cls, seat: int, position: int, covered: bool = False) -> Action:
        """A bot's view of a play in a blind hand (P6): the card at ``position`` (0-based) of
        the seat's hand, unseen. :func:`engine.bots.choose_for` turns it into the real move."""
        return cls("play", seat, None, covered, position=position)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        """A bot's answer to an offer to raise out of turn (M3): no raise."""
        return cls("pass", seat)

    def to_event(self) -> dict[str, Any]:
        """The move as a log event (docs/log-format.md), keys in the log's order; ``ValueError``
        for a bot's view of a move (:meth:`play_at`, :meth:`pass_`), which is none."""
        if self.position is not None or self.kind == "pass":
            raise ValueError(f"{self} is a bot's view of a move, not a move of the log")
        ev: dict[str, Any] = {"event": self.kind, "seat": self.seat}
        if self.kind == "play":
            ev["card"] = card_name(self.card)  # type: ignore[arg-type]
            if self.covered:
                ev["covered"] = True
        elif self.kind == "raise":
            ev["value"] = self.value
            if self.card is not None:
                ev["card"] = card_name(self.card)
        elif self.kind == "decide":
            ev["play"] = self.play_on
        elif self.kind == "envido":
            ev["call"] = self.call
        return ev

    @classmethod
    def from_event(cls, ev: Mapping[str, Any]) -> Action:
        """The move of a log event (already schema-checked); raises ``ValueError`` or
        ``KeyError`` on malformed input."""
        kind = ev["event"]
        seat = ev["seat"]
        if kind == "play":
            return cls.play(seat, ev["card"], bool(ev.get("covered", False)))
        if kind == "raise":
            return cls.raise_to(seat, ev["value"], ev.get("card"))
        if kind == "accept":
            return cls.accept(seat)
        if kind == "fold":
            return cls.fold(seat)
        if kind == "decide":
            return cls.decide(seat, ev["play"])
        if kind == "concede":
            return cls.concede(seat)
        if kind == "envido":
            return cls.envido(seat, ev["call"])
        if kind == "quero":
            return cls.quero(seat)
        if kind == "nao_quero":
            return cls.nao_quero(seat)
        raise ValueError(f"{kind!r} is not a move")

    def __str__(self) -> str:
        if self.position is not None:  # as the observation of a blind hand writes it
            at = f"#{self.position + 1}"
            if self.kind == "raise":
                return f"raise {self.seat} {self.value} {at}"
            return f"play {self.seat} {at}{' covered' if self.covered else ''}"
        if self.kind == "play":
            return f"play {self.seat} {card_name(self.card)}{' covered' if self.covered else ''}"  # type: ignore[arg-type]
        if self.kind == "raise":
            named = f" {card_name(self.card)}" if self.card is not None else ""
            return f"raise {self.seat} {self.value}{named}"
        if self.kind == "decide":
            return f"decide {self.seat} {'play' if self.play_on else 'fold'}"
        if self.kind == "envido":
            return f"envido {self.seat} {self.call}"
        return f"{self.kind} {self.seat}"

    def __repr__(self) -> str:
        if self.position is not None:
            if self.kind == "raise":
                return f"Action('raise', {self.seat}, value={self.value}, position={self.position})"
            extra = ", covered=True" if self.covered else ""
            return f"Action.play_at({self.seat}, {self.position}{extra})"
        if self.kind == "pass":
            return f"Action.pass_({self.seat})"
        if self.kind == "play":
            extra = ", covered=True" if self.covered else ""
            return f"Action.play({self.seat}, {card_name(self.card)!r}{extra})"  # type: ignore[arg-type]
        if self.kind == "raise":
            named = f", {card_name(self.card)!r}" if self.card is not None else ""
            return f"Action.raise_to({self.seat}, {self.value}{named})"
        if self.kind == "decide":
            return f"Action.decide({self.seat}, {self.play_on})"
        if self.kind == "envido":
            return f"Action.envido({self.seat}, {self.call!r})"
        return f"Action.{self.kind}({self.seat})"


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of a new hand: hands indexed by seat, and the vira where the variant has one."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    vira: Card | None = None

    @classmethod
    def of(cls, dealer: int, hands: Sequence[Sequence[Card | str]],
           vira: Card | str | None = None) -> Deal:
        """Build a deal from card codes or names.

        >>> Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"]], None).hands[0]
        (3, 32, 39)
        """
        return cls(dealer, tuple(tuple(_card(c) for c in h) for h in hands),
                   None if vira is None else _card(vira))

    def to_event(self) -> dict[str, Any]:
        ev: dict[str, Any] = {"event": "deal", "dealer": self.dealer,
                              "hands": [[card_name(c) for c in h] for h in self.hands]}
        if self.vira is not None:
            ev["vira"] = card_name(self.vira)
        return ev

    def __str__(self) -> str:
        hands = " | ".join(" ".join(card_name(c) for c in h) for h in self.hands)
        vira = f" vira {card_name(self.vira)}" if self.vira is not None else ""
        return f"deal dealer {self.dealer}: {hands}{vira}"


def _card(card: Card | str) -> Card:
    return parse_card(card) if isinstance(card, str) else card
