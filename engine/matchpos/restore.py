"""A fresh match put in a position: :func:`set_position`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.matchpos.checks import check
from engine.matchpos.reading import read, set_up
from engine.matchpos.schema import schema_check

if TYPE_CHECKING:
    from engine.game import Match


def set_position(m: Match, position: object, *, trusted: bool = False) -> None:
    """Put ``m``, a fresh match (no seed, no deals: waiting in ``deal``), in the state
    ``position`` describes: its fields read (:func:`~engine.matchpos.reading.read`), the match
    set up from them (:func:`~engine.matchpos.reading.set_up`), checked
    (:func:`~engine.matchpos.checks.check`), then its state set; an impossible position
    raises :class:`~engine.errors.PositionError`.

    ``trusted``: skip the JSON Schema check (most of the cost) for a position a program built
    itself as plain data of the right shapes (a search bot's guesses); the rules' checks run."""
    if not trusted:
        schema_check(position)
    assert isinstance(position, dict)
    data = read(m.rules, position, set(m.machine.states))
    set_up(m, data)
    check(m, position)
    setattr(m, m.machine.model_attribute, data.state)  # as Machine.set_state sets it
    m.is_over = data.state == "match_over"
