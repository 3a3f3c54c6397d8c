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

The package's modules, in the order a position is read: :mod:`~engine.position.schema` (its
shape), :mod:`~engine.position.reading` (its fields, one by one, and a match set up from
them), :mod:`~engine.position.checks` and :mod:`~engine.position.bets` (the fields against
each other and the rules, block by block), :mod:`~engine.position.exporting` (a match's
position).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.position.checks import check
from engine.position.exporting import export, hand_has_moves
from engine.position.reading import read, set_up
from engine.position.schema import POSITION_FORMAT, position_schema, schema_check

if TYPE_CHECKING:
    from engine.game import Match
    from engine.rules import Rules

__all__ = ["POSITION_FORMAT", "build", "check", "export", "hand_has_moves", "position_schema"]


def build(rules: Rules, position: object, *, trusted: bool = False) -> Match:
    """The match in the state ``position`` describes (checked first: :func:`check`).

    ``trusted``: skip the JSON Schema check (most of the cost) for a position a program built
    itself as plain data of the right shapes (a search bot's guesses); the rules' checks run."""
    from engine.game import Match

    if not trusted:
        schema_check(position)
    assert isinstance(position, dict)
    m = Match(rules)  # no seed, no deals: waits in "deal" with a fresh hand
    data = read(rules, position, set(m.machine.states))
    set_up(m, data)
    check(m, position)
    setattr(m, m.machine.model_attribute, data.state)  # as Machine.set_state sets it
    m.is_over = data.state == "match_over"
    return m
