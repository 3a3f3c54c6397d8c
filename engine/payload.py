"""What a move carries besides its kind and seat: a kind's **payload**, declared by the kind's
module (:mod:`engine.moves`) as a :class:`Payload` of fields, and from which
:class:`~engine.actions.Action` derives its validation, its log event (``to_event`` /
``from_event``), its notation (``str`` and ``Action.parse``) and its ``repr``.

A field is stored in one of Action's slots (:data:`SLOTS`: ``card``, ``covered``, ``value``,
``play_on``, ``call``) and has its own log key and its own words in the notation. The field
types are :class:`CardField` (a card by name, or in a bot's view of a blind hand, P6, its place
in the hand: ``#2``), :class:`Flag` (a word written when true: ``covered``), :class:`Number`,
:class:`Choice` (one of two words: ``play`` / ``fold``) and :class:`Text` (the rest of the
line: a side bet's call). A move is written ``KIND SEAT`` and its fields in the declared order:

>>> from engine.actions import Action
>>> Action.parse("play 1 4c covered")
Action.play(1, '4c', covered=True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from engine.cards import Card, CardError, card_name, parse_card
from engine.errors import TrucoError


class Slotted(Protocol):
    """A move as a payload field reads it (an :class:`engine.actions.Action`): the field's
    slot, by name (:data:`SLOTS`), and the card's place in a blind hand."""

    @property
    def card(self) -> Card | None: ...
    @property
    def position(self) -> int | None: ...

#: A place a move kind leaves out (its ``order``, its log event's ``place``; a place of its
#: moves in the environment is then ``()``): :func:`engine.moves.register` derives it, this
#: plus the kind's registration index, after every place given (the shipped kinds give theirs,
#: all below it), so that a new kind needs no number and the order is stable.
DERIVED = 1000
#: Action's payload slots, each with the value it holds when a kind does not use it.
SLOTS: dict[str, Any] = {"card": None, "covered": False, "value": None, "play_on": None,
                         "call": None}


class NotationError(TrucoError):
    """A move's text is not a move in the log notation (:meth:`Action.parse`)."""


@dataclass(frozen=True)
class Field:
    """One field of a payload: the Action ``slot`` holding it, its log ``key``, and how it is
    checked, logged, written, read back and shown in a ``repr`` (the subclasses)."""

    slot: ClassVar[str]
    key: str

    @property
    def want(self) -> str:
        """What the field takes, for an error message."""
        raise NotImplementedError

    @property
    def form(self) -> str:
        """How the field is written in the notation, for an error message (``CARD``)."""
        raise NotImplementedError

    def ok(self, value: Any) -> bool:
        """Whether ``value`` may stand in the field's slot."""
        raise NotImplementedError

    def put(self, event: dict[str, Any], value: Any) -> None:
        """Write the field's value into a log event."""
        event[self.key] = value

    def take(self, event: Mapping[str, Any]) -> Any:
        """The slot's value read from a (schema-checked) log event; ``KeyError`` if missing."""
        return event[self.key]

    def write(self, a: Slotted) -> str | None:
        """The field in the notation (``None``: nothing is written)."""
        raise NotImplementedError

    def read(self, words: list[str], at: int, into: dict[str, Any]) -> int:
        """Read the field from ``words[at:]`` into ``into`` (slot: value); the next index.
        Raises :class:`NotationError` saying what was expected."""
        raise NotImplementedError

    def shown(self, a: Slotted) -> str | None:
        """The field as an argument of the kind's factory in a ``repr`` (``None``: left out)."""
        raise NotImplementedError

    #: Whether a log event must have the field.
    needed: ClassVar[bool] = True

    def schema(self) -> dict[str, Any]:
        """The field's JSON Schema in the log event (``schemas/log.schema.json``)."""
        raise NotImplementedError


def _doc(schema: dict[str, Any], doc: str) -> dict[str, Any]:
    return {**schema, "description": doc} if doc else schema


def is_number(word: str) -> bool:
    """Whether ``word`` is written with the digits 0-9 only (``int`` reads it)."""
    return word.isascii() and word.isdigit()


def _expected(what: str, words: list[str], at: int) -> NotationError:
    found = repr(words[at]) if at < len(words) else "the end of the move"
    return NotationError(f"expected {what} after {' '.join(words[:at])!r}, found {found}")


@dataclass(frozen=True)
class CardField(Field):
    """A card: its name (``4c``), or in a bot's view of a blind hand (P6) its 1-based place in
    the hand (``#2``, the Action's ``position``); ``required=False``: it may be left out."""

    slot: ClassVar[str] = "card"
    key: str = "card"
    required: bool = True
    #: The field's description in the log schema.
    doc: str = ""

    @property
    def needed(self) -> bool:  # type: ignore[override]
        return self.required

    def schema(self) -> dict[str, Any]:
        return _doc({"$ref": "#/$defs/card"}, self.doc)

    @property
    def want(self) -> str:
        return "a card" if self.required else "optionally a card"

    @property
    def form(self) -> str:
        return "CARD" if self.required else "[CARD]"

    def ok(self, value: Any) -> bool:
        return True  # the card code is checked for every kind; a missing one with position

    def put(self, event: dict[str, Any], value: Any) -> None:
        if value is not None:
            event[self.key] = card_name(value)

    def take(self, event: Mapping[str, Any]) -> Any:
        card = event[self.key] if self.required else event.get(self.key)
        return parse_card(card) if isinstance(card, str) else card

    def write(self, a: Slotted) -> str | None:
        if a.position is not None:
            return f"#{a.position + 1}"
        return None if a.card is None else card_name(a.card)

    def read(self, words: list[str], at: int, into: dict[str, Any]) -> int:
        if at >= len(words):
            if self.required:
                raise _expected("a card (like '4c', or '#1' for a hand's first card)", words, at)
            return at
        word = words[at]
        if word.startswith("#"):
            if not is_number(word[1:]) or int(word[1:]) < 1:
                raise _expected("a card's place in the hand (#1, #2, ...)", words, at)
            into["position"] = int(word[1:]) - 1
            return at + 1
        try:
            into[self.slot] = parse_card(word)
        except CardError as err:
            raise NotationError(f"expected a card after {' '.join(words[:at])!r}: {err}") \
                from None
        return at + 1

    def shown(self, a: Slotted) -> str | None:
        if a.position is not None:
            return str(a.position)
        return None if a.card is None else repr(card_name(a.card))


@dataclass(frozen=True)
class Flag(Field):
    """A yes-or-no field written as one word when true (``covered``), left out of the log and
    of the notation when false, and given to the factory by keyword (``covered=True``)."""

    slot: ClassVar[str] = "covered"
    key: str = "covered"
    doc: str = ""
    needed: ClassVar[bool] = False

    def schema(self) -> dict[str, Any]:
        return _doc({"type": "boolean"}, self.doc)

    @property
    def want(self) -> str:
        return f"{self.key} True or False"

    @property
    def form(self) -> str:
        return f"[{self.key}]"

    def ok(self, value: Any) -> bool:
        return type(value) is bool

    def put(self, event: dict[str, Any], value: Any) -> None:
        if value:
            event[self.key] = True

    def take(self, event: Mapping[str, Any]) -> Any:
        return bool(event.get(self.key, False))

    def write(self, a: Slotted) -> str | None:
        return self.key if getattr(a, self.slot) else None

    def read(self, words: list[str], at: int, into: dict[str, Any]) -> int:
        if at < len(words) and words[at] == self.key:
            into[self.slot] = True
            return at + 1
        return at

    def shown(self, a: Slotted) -> str | None:
        return f"{self.key}=True" if getattr(a, self.slot) else None


@dataclass(frozen=True)
class Number(Field):
    """A whole number (a raise's value)."""

    slot: ClassVar[str] = "value"
    key: str = "value"
    #: The least value a log may give (``None``: any integer).
    minimum: int | None = None
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "integer"}
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        return _doc(schema, self.doc)

    @property
    def want(self) -> str:
        return f"a {self.key} (an int)"

    @property
    def form(self) -> str:
        return self.key.upper()

    def ok(self, value: Any) -> bool:
        return type(value) is int

    def write(self, a: Slotted) -> str | None:
        return str(getattr(a, self.slot))

    def read(self, words: list[str], at: int, into: dict[str, Any]) -> int:
        word = words[at] if at < len(words) else ""
        if not is_number(word.removeprefix("-")):
            raise _expected(f"a {self.key} (a number)", words, at)
        into[self.slot] = int(word)
        return at + 1

    def shown(self, a: Slotted) -> str | None:
        return str(getattr(a, self.slot))


@dataclass(frozen=True)
class Choice(Field):
    """A choice between two words: ``yes`` (``True``) and ``no`` (``False``), logged as a
    boolean under ``key`` (a decision: ``play`` or ``fold``)."""

    slot: ClassVar[str] = "play_on"
    yes: str
    no: str
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        return _doc({"type": "boolean"}, self.doc)

    @property
    def want(self) -> str:
        return f"{self.key} True or False"

    @property
    def form(self) -> str:
        return f"{self.yes}|{self.no}"

    def ok(self, value: Any) -> bool:
        return type(value) is bool

    def write(self, a: Slotted) -> str | None:
        return self.yes if getattr(a, self.slot) else self.no

    def read(self, words: list[str], at: int, into: dict[str, Any]) -> int:
        word = words[at] if at < len(words) else None
        if word != self.yes and word != self.no:
            raise _expected(f"{self.yes} or {self.no}", words, at)
        into[self.slot] = word == self.yes
        return at + 1

    def shown(self, a: Slotted) -> str | None:
        return str(getattr(a, self.slot))


@dataclass(frozen=True)
class Text(Field):
    """Words, up to ``longest`` characters: the rest of the move's line (a side bet's call,
    ``real envido``); ``what`` says what they are, for error messages."""

    slot: ClassVar[str] = "call"
    key: str = "call"
    what: str = "a call"
    longest: int = 40
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        return _doc({"type": "string", "minLength": 1, "maxLength": self.longest}, self.doc)

    @property
    def want(self) -> str:
        return self.what

    @property
    def form(self) -> str:
        return f"{self.key.upper()}..."

    def ok(self, value: Any) -> bool:
        return type(value) is str and 0 < len(value) <= self.longest

    def write(self, a: Slotted) -> str | None:
        return str(getattr(a, self.slot))

    def read(self, words: list[str], at: int, into: dict[str, Any]) -> int:
        if at >= len(words):
            raise _expected(self.what, words, at)
        into[self.slot] = " ".join(words[at:])
        return len(words)

    def shown(self, a: Slotted) -> str | None:
        return repr(getattr(a, self.slot))


@dataclass(frozen=True)
class LogEvent:
    """How a kind's moves stand in a log (docs/log-format.md): ``place``, the event's place
    among the format's moves (its tables, the schema, the events an error lists); ``about``,
    its description in ``schemas/log.schema.json``; ``version``, the format version that has
    it (a log of an older version refuses it), and ``named``, how that refusal names it (``None``:
    ``a KIND move``); ``schema``, the event's schema for a kind whose moves are no Action (a
    deal), else derived from its payload (:func:`engine.logschema.build`)."""

    about: str
    #: Left out (:data:`DERIVED`): after the places given, in the kinds' order.
    place: int = DERIVED
    version: int = 1
    named: str | None = None
    schema: dict[str, Any] | None = None


@dataclass(frozen=True)
class Payload:
    """A kind's payload: its ``fields`` in the order the log, the notation and the factory
    take them; ``factories``: the kind's functions that build its moves, offered as
    :class:`~engine.actions.Action`'s by their names (``Action.play``), the first the one its
    ``repr`` writes (none: ``Action.of``); ``view_factory``: the name of the one of a bot's
    view of a blind hand (a card by position, P6; ``None``: the constructor);
    ``logged=False``: a bot's view of a move only, never in a log (a pass, M3)."""

    fields: tuple[Field, ...] = ()
    factories: tuple[Callable[..., Any], ...] = ()
    view_factory: str | None = None
    logged: bool = True

    def __post_init__(self) -> None:
        slots = [f.slot for f in self.fields]
        if len(set(slots)) != len(slots):
            raise ValueError(f"two fields of a payload share a slot: {slots}")
        texts = [i for i, f in enumerate(self.fields) if isinstance(f, Text)]
        if texts and texts[0] != len(self.fields) - 1:
            raise ValueError("a Text field reads the rest of the line: it must come last")

    @property
    def want(self) -> str:
        """What a move of the kind takes besides its seat, for an error message."""
        return ", ".join(f.want for f in self.fields) or "a seat only"

    def form(self, kind: str) -> str:
        """How a move of the kind is written: ``play SEAT CARD [covered]``."""
        return " ".join([kind, "SEAT", *(f.form for f in self.fields)])
