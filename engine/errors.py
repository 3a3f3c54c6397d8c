"""The error hierarchy. Every error the tools report is a :class:`TrucoError`: it knows where
it happened (file, line, column, key path or event) and says what was expected.

>>> err = TrucoError("must increase", file="house.yaml", line=3, column=5, path="betting.ladder")
>>> str(err)
'house.yaml:3:5: betting.ladder: must increase'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Move(Protocol):
    """A move as an error lists it: an :class:`engine.actions.Action` (a layer above; the
    error only holds it, and writes it with ``str``)."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int: ...


class TrucoError(ValueError):
    """Base of every error this package reports to users (a ``ValueError``, like python-chess)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.path = path

    @property
    def location(self) -> str:
        """``file:line:column`` with whatever parts are known."""
        parts = [p for p in (self.file, self.line, self.column) if p is not None]
        return ":".join(str(p) for p in parts)

    def __str__(self) -> str:
        prefix = self.location
        body = f"{self.path}: {self.message}" if self.path else self.message
        return f"{prefix}: {body}" if prefix else body


class VariantError(TrucoError):
    """A variant file cannot be read, fails its schema, or says something inconsistent.

    ``errors`` holds every problem found (each a :class:`VariantError` with its own location);
    the error itself reads as the first of them.
    """

    def __init__(
        self,
        message: str,
        *,
        errors: list[VariantError] | None = None,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message, file=file, line=line, column=column, path=path)
        self.errors: list[VariantError] = errors if errors is not None else [self]

    def lines(self) -> list[str]:
        """One ``file:line:column: path: message`` line per problem."""
        return [TrucoError.__str__(e) for e in self.errors]

    def __str__(self) -> str:
        return "\n".join(self.lines())


class Why(str):
    """Why a move is illegal: the reason in words (it is the ``str``), and a stable ``code``
    that programs can test instead of the words.

    >>> why = Why("not_your_turn", "it is seat 2's turn")
    >>> why, why.code
    ("it is seat 2's turn", 'not_your_turn')
    """

    code: str

    def __new__(cls, code: str, text: str) -> Why:
        why = super().__new__(cls, text)
        why.code = code
        return why

    def __repr__(self) -> str:
        return str.__repr__(self)


class IllegalMoveError(TrucoError):
    """A move that the rules do not allow now. ``legal`` lists what was legal instead, as
    :class:`~engine.actions.Action` values (the message writes them in the log's words).

    The structured parts: ``move`` (what was refused: an Action, a Deal, or what was given),
    ``why`` (the reason in words, without the move and the legal list) and ``code`` (its
    stable code, e.g. ``not_your_turn``, ``answer_pending``, ``match_over``: docs/error-codes.md
    lists them; ``illegal`` where a reason has no code of its own)."""

    def __init__(self, message: str, legal: Sequence[Move] | None = None, *,
                 move: object = None, why: str | None = None, code: str | None = None,
                 **kw: object) -> None:
        self.legal: list[Move] = list(legal or ())
        self.move = move
        self.why = why if why is not None else message
        self.code: str = code or getattr(why, "code", None) or "illegal"
        if legal is not None:
            listed = ", ".join(map(str, legal)) if legal else "nothing (a deal is awaited)"
            message = f"{message}; legal: {listed}"
        super().__init__(message, **kw)  # type: ignore[arg-type]


class LogError(TrucoError):
    """A game log is not valid: bad JSON, a schema violation, or a replay that disagrees."""


class PositionError(TrucoError):
    """A position (docs/positions.md) that no play of the rules could reach, or that is not a
    position at all. ``path`` names the field (a key path like ``hands[2][1]``), ``code`` is
    stable (docs/error-codes.md, "Positions") and ``why`` says it in words.

    >>> err = PositionError(Why("card_twice", "4c is also at hands[0][1]"), path="hands[2][1]")
    >>> str(err), err.code
    ('hands[2][1]: 4c is also at hands[0][1]', 'card_twice')
    """

    def __init__(self, why: str, *, path: str | None = None, code: str | None = None,
                 **kw: object) -> None:
        self.why = why
        self.code: str = code or getattr(why, "code", None) or "position"
        super().__init__(str(why), path=path, **kw)  # type: ignore[arg-type]
