"""A fresh match put in a position: :func:`set_position`; a copy of one put in another
position with the same fields but its cards: :func:`set_cards`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.matchpos.checks import check, check_cards
from engine.matchpos.reading import read, read_cards, set_up
from engine.matchpos.schema import schema_check

if TYPE_CHECKING:
    from engine.view import MatchView


def set_position(m: MatchView, position: object, *, trusted: bool = False) -> None:
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


def set_cards(m: MatchView, position: object) -> None:
    """Put on ``m`` the cards of ``position``, then check it as :func:`set_position` does:
    ``m`` is a copy (:meth:`Match.clone`) of a match that :func:`set_position` put in a
    position that differs from this one at most in where its cards are (the hands, the cards
    as dealt, the faces of the cards played, a pending raise's card, the cards a side bet's
    winner shows): the guesses of the hidden cards behind one observation, which a search
    bot builds by the hundred. The same refusals as :func:`set_position` of the whole
    position (the fields that are not cards were read and checked when ``m``'s original was
    laid out, and nothing else in them varies): a card outside the deck or twice, then the
    checks that read the cards (:func:`~engine.matchpos.checks.check_cards`). ``position`` is
    trusted (the shapes of the JSON Schema); ``m`` is left unusable where it raises."""
    assert isinstance(position, dict)
    hands, played, round_cards, dealt, pending, side = read_cards(m.rules, position)
    hand, rnd = m.hand, m.round
    hand.hands = hands
    hand.played = played
    rnd.cards = round_cards
    hand.dealt = dealt
    hand.pending = pending
    for b, shows in zip(hand.side or (), side, strict=False):
        b.shown, b.flores = shows
        b.holders = None  # worked out from the dealt cards when first asked, as in a fresh hand
    attr = m.machine.model_attribute
    state = getattr(m, attr)
    setattr(m, attr, str(m.machine.initial))  # as a fresh match is while it is checked
    m.is_over = False
    check_cards(m, position)
    setattr(m, attr, state)
    m.is_over = state == "match_over"
