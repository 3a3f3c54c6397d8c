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
from engine.matchpos.restore import set_cards as _set_cards
from engine.matchpos.restore import set_position as _set_position
from engine.matchpos.schema import POSITION_FORMAT, position_schema
from engine.rules import Rules

__all__ = ["POSITION_FORMAT", "build", "build_like", "check", "export", "hand_has_moves",
           "position_schema"]


def build(rules: Rules, position: object, *, trusted: bool = False) -> Match:
    """The match in the state ``position`` describes (checked first: :func:`check`).

    ``trusted``: skip the JSON Schema check (most of the cost) for a position a program built
    itself as plain data of the right shapes (a search bot's guesses); the rules' checks run."""
    m = Match(rules)  # no seed, no deals: waits in "deal" with a fresh hand
    _set_position(m, position, trusted=trusted)
    return m


def build_like(laid_out: Match, position: object) -> Match:
    """The match in the state ``position`` describes, checked (:func:`build` with
    ``trusted``: the position is plain data of the right shapes), where ``laid_out`` is a
    match built from a position that differs from this one at most in where its cards are
    (the guesses of the hidden cards behind one observation): a copy of it with the cards
    placed (:func:`engine.matchpos.restore.set_cards`), refused exactly where :func:`build`
    refuses, at a fraction of the cost. ``laid_out`` is left as it was.

    >>> from engine import Match
    >>> m = Match.new("paulista", seed=7)
    >>> p = dict(m.position(), rng=None)
    >>> laid = build(m.rules, p, trusted=True)
    >>> q = dict(p, hands=[p["hands"][0], *p["hands"][2:], p["hands"][1]])
    >>> q["dealt"] = [q["hands"][s] for s in range(4)]
    >>> build_like(laid, q).position() == build(m.rules, q, trusted=True).position()
    True
    """
    m = laid_out.clone()
    _set_cards(m, position)
    return m
