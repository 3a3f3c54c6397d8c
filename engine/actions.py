"""Moves: small immutable values with a ``str`` in the log's own words and a ``repr`` you can
paste back into Python.

What a move of each kind carries, and how it is checked, logged, written and read back, is
declared by its kind's module (:class:`engine.payload.Payload`, registered with
:func:`declare`); nothing here knows one kind from another.

>>> a = Action.raise_to(2, 3)
>>> str(a), a.to_event()
('raise 2 3', {'event': 'raise', 'seat': 2, 'value': 3})
>>> Action.from_event({"event": "play", "seat": 1, "card": "4c", "covered": True})
Action.play(1, '4c', covered=True)
>>> Action.parse("envido 0 real envido") == Action.envido(0, "real envido")
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import CARD_CODES, Card, card_name, parse_card
from engine.payload import SLOTS, CardField, NotationError, Payload, is_number

#: A move's kind: the name of a declared kind (:func:`declare`).
Kind = str


@dataclass(frozen=True)
class _Spec:
    """What Action derives from a kind's payload, once, when the kind is declared."""

    payload: Payload
    #: (slot, check) for every payload slot: the field's check, or "holds its default"
    checks: tuple[tuple[str, Callable[[Any], bool]], ...]
    card: CardField | None
    takes_call: bool
    want: str


#: The declared kinds, by name, in declaration order.
_SPECS: dict[str, _Spec] = {}
#: The kind of each factory of moves offered as Action's, by the factory's name (:func:`declare`).
_FACTORIES: dict[str, str] = {}


def declare(kind: str, payload: Payload) -> None:
    """Declare the payload of a kind of move (a kind's module does it, through
    :func:`engine.moves.register`); Action's checks, log event, notation and ``repr`` of the
    kind are derived here, once, and the kind's factories (``payload.factories``, functions
    of its module) are offered as Action's: ``Action.play(1, "4c")`` is
    :func:`engine.moves.play.play`. A factory takes its fields as ``Any``: compiled (the
    kinds' modules are, build_native.py), a typed parameter would refuse a wrong type with
    mypyc's own ``TypeError``; Action's checks say what is wrong, in the same words both ways."""
    for factory in payload.factories:
        name = factory.__name__
        if name in vars(Action) and _FACTORIES.get(name) != kind:
            raise ValueError(f"the {kind} kind's factory {name!r} is already Action's")
    fields = {f.slot: f for f in payload.fields}
    checks: list[tuple[str, Callable[[Any], bool]]] = []
    for slot, default in SLOTS.items():
        field = fields.get(slot)
        if field is not None:
            checks.append((slot, field.ok))
        elif slot != "call":  # an unused call gets its own message
            checks.append((slot, _is_none if default is None else _is_false))
    card = fields.get("card")
    _SPECS[kind] = _Spec(payload, tuple(checks), card if isinstance(card, CardField) else None,
                         "call" in fields, payload.want)
    for factory in payload.factories:  # the kind's own, offered as Action.<name>
        _FACTORIES[factory.__name__] = kind
        setattr(Action, factory.__name__, staticmethod(factory))


def _is_none(value: Any) -> bool:
    return value is None


def _is_false(value: Any) -> bool:
    return value is False


def kinds() -> tuple[str, ...]:
    """The declared kinds of move, in declaration order."""
    return tuple(_SPECS)


def _not_a_move(kind: object) -> ValueError:
    return ValueError(f"{kind!r} is not a move: expected one of {', '.join(_SPECS)}")


@dataclass(frozen=True, slots=True)
class Action:
    """One player's move. Build it with its kind's factories, which each kind's module
    declares and Action offers by name once the kinds are loaded (``Action.play``,
    ``Action.raise_to``, ``Action.accept``, ``Action.fold``, ``Action.decide``,
    ``Action.concede``, ...: :func:`declare`), with :meth:`of` (any kind, its fields by their
    log keys) or from its text with :meth:`parse`.

    Two more exist only in what a bot is given (:func:`engine.bots.choose_for`), never in a
    log or :meth:`Match.apply`: a move by hand position (``Action.play_at``, in a blind hand,
    P6, where the seat cannot see its cards) and ``Action.pass_``, declining an offer to
    raise out of turn (M3)."""

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
        spec = _SPECS.get(kind)
        if spec is None:
            raise _not_a_move(kind)
        if self.call is not None and not spec.takes_call:
            raise ValueError(f"a {kind} move takes no call; found call={self.call!r}")
        ok = True
        for slot, check in spec.checks:
            if not check(getattr(self, slot)):
                ok = False
                break
        if ok:
            takes = spec.card
            if takes is None:
                ok = position is None  # a position stands for a card
            elif takes.required:
                ok = card is not None or position is not None
        if not ok:
            raise ValueError(f"a {kind} move takes {spec.want}; found card={card!r}, "
                             f"covered={self.covered!r}, value={self.value!r}, "
                             f"play_on={self.play_on!r}")

    @classmethod
    def of(cls, kind: str, seat: int, **fields: Any) -> Action:
        """A move of any declared kind, its fields named by their log keys (as
        :meth:`from_event` reads them), a bot's view (a pass) included.

        >>> Action.of("decide", 0, play=False)
        Action.decide(0, False)
        """
        spec = _SPECS.get(kind)
        if spec is None:
            raise _not_a_move(kind)
        keys = {f.key for f in spec.payload.fields}
        extra = sorted(set(fields) - keys)
        if extra:
            raise ValueError(f"a {kind} move takes {spec.want}; found {', '.join(extra)}")
        return cls(kind, seat, **{f.slot: f.take(fields) for f in spec.payload.fields})

    @classmethod
    def parse(cls, text: str) -> Action:
        """The move that ``str(Action)`` writes as ``text`` (the log notation read back: the
        kind, the seat, then the kind's fields); a :class:`~engine.payload.NotationError`
        (a ``ValueError``) saying what was expected for anything else.

        >>> Action.parse("raise 2 3 4c")
        Action.raise_to(2, 3, '4c')
        >>> Action.parse("decide 0 play"), Action.parse("play 1 #2 covered")
        (Action.decide(0, True), Action.play_at(1, 1, covered=True))
        >>> Action.parse("play 1 4c face-down")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        engine.payload.NotationError: 'play 1 4c face-down': unexpected 'face-down' after ...
        """
        words = text.split() if isinstance(text, str) else []
        kind = words[0] if words else ""
        spec = _SPECS.get(kind)
        if spec is None:
            raise NotationError(f"{text!r} is not a move: expected a kind of move (one of "
                                f"{', '.join(_SPECS)}), a seat, then what the kind takes")
        payload = spec.payload
        form = f"(a {kind} move is written: {payload.form(kind)})"
        if len(words) < 2 or not is_number(words[1]):
            found = repr(words[1]) if len(words) > 1 else "the end of the move"
            raise NotationError(f"{text!r}: expected a seat number after {kind!r}, found "
                                f"{found} {form}")
        into: dict[str, Any] = {}
        at = 2
        try:
            for field in payload.fields:
                at = field.read(words, at, into)
        except NotationError as err:
            raise NotationError(f"{text!r}: {err} {form}") from None
        if at < len(words):
            raise NotationError(f"{text!r}: unexpected {words[at]!r} after "
                                f"{' '.join(words[:at])!r} {form}")
        try:
            return cls(kind, int(words[1]), **into)
        except ValueError as err:  # read, but not a move: a position too far, a call too long
            raise NotationError(f"{text!r}: {err}") from None

    def to_event(self) -> dict[str, Any]:
        """The move as a log event (docs/log-format.md), keys in the log's order; ``ValueError``
        for a bot's view of a move (:meth:`play_at`, :meth:`pass_`), which is none."""
        payload = _SPECS[self.kind].payload
        if self.position is not None or not payload.logged:
            raise ValueError(f"{self} is a bot's view of a move, not a move of the log")
        ev: dict[str, Any] = {"event": self.kind, "seat": self.seat}
        for field in payload.fields:
            field.put(ev, getattr(self, field.slot))
        return ev

    @classmethod
    def from_event(cls, ev: Mapping[str, Any]) -> Action:
        """The move of a log event (already schema-checked); raises ``ValueError`` or
        ``KeyError`` on malformed input."""
        kind = ev["event"]
        seat = ev["seat"]
        spec = _SPECS.get(kind)
        if spec is None or not spec.payload.logged:
            raise ValueError(f"{kind!r} is not a move")
        return cls(kind, seat, **{f.slot: f.take(ev) for f in spec.payload.fields})

    def __str__(self) -> str:
        out = f"{self.kind} {self.seat}"
        for field in _SPECS[self.kind].payload.fields:
            word = field.write(self)
            if word is not None:
                out += " " + word
        return out

    def __repr__(self) -> str:
        payload = _SPECS[self.kind].payload
        factory = payload.factories[0].__name__ if payload.factories else None
        if self.position is not None:
            if payload.view_factory is None:  # the constructor, with what is set
                set_ = [f"{slot}={getattr(self, slot)!r}" for slot, default in SLOTS.items()
                        if getattr(self, slot) is not default]
                args = ", ".join([repr(self.kind), str(self.seat), *set_,
                                  f"position={self.position}"])
                return f"Action({args})"
            factory = payload.view_factory
        if factory is None:  # a kind with no factory: Action.of, by log keys
            ev = self.to_event()
            named = [f"{k}={v!r}" for k, v in ev.items() if k not in ("event", "seat")]
            return f"Action.of({', '.join([repr(self.kind), str(self.seat), *named])})"
        shown = [s for s in (f.shown(self) for f in payload.fields) if s is not None]
        return f"Action.{factory}({', '.join([str(self.seat), *shown])})"


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
        return cls(dealer, tuple(tuple(as_card(c) for c in h) for h in hands),
                   None if vira is None else as_card(vira))

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


def as_card(card: object) -> Any:
    """A card given by its code or its name (``'4c'``), as its code; anything else as it is,
    for :class:`Action` to refuse in its own words. Typed ``Any`` both ways: a compiled kind's
    factory (build_native.py) would otherwise refuse a float with mypyc's ``TypeError``, and
    turn ``True`` into the card 1, where Action says what is wrong."""
    return parse_card(card) if isinstance(card, str) else card
