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

The work is done in the match's layer, by :mod:`engine.matchpos` (which the match calls and
which never imports it); this module builds on the match.
"""

from __future__ import annotations

from engine.game import Match
from engine.matchpos.checks import check
from engine.matchpos.exporting import export, hand_has_moves
from engine.matchpos.restore import set_position as _set_position
from engine.matchpos.schema import POSITION_FORMAT, position_schema
from engine.rules import Rules

__all__ = ["POSITION_FORMAT", "build", "check", "export", "hand_has_moves", "position_schema"]


def build(rules: Rules, position: object, *, trusted: bool = False) -> Match:
    """The match in the state ``position`` describes (checked first: :func:`check`).

    ``trusted``: skip the JSON Schema check (most of the cost) for a position a program built
    itself as plain data of the right shapes (a search bot's guesses); the rules' checks run."""
    m = Match(rules)  # no seed, no deals: waits in "deal" with a fresh hand
    _set_position(m, position, trusted=trusted)
    return m
