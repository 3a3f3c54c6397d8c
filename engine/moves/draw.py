"""The first dealer drawn (house rule, issue 42): before a seeded match's first hand every
seat draws a card, the highest deals, and the seats tied for the highest draw again.

``match.first_dealer: drawn`` turns it on (``given``, the default: the first dealer is the one
the log's header or :class:`~engine.game.Match` names, seat 0 unless told). The draw is a chance
step from the match's own generator, before the first hand's shuffle (docs/log-format.md,
"The first dealer drawn"):

1. the variant's deck is shuffled as a hand's is (Fisher-Yates from the canonical order);
2. the seats draw the next card from the top, seat 0 first, in seat order;
3. the highest card by the variant's order before a vira is turned (``Rules.strengths(None)``:
   the ordinary ranks, and the fixed manilhas of a variant without a vira) wins; a tie of
   strength is broken by ``match.first_dealer_suits`` (the suit named first is higher), and
   the seats still tied draw again, in seat order, the next cards. A deck drawn out is shuffled
   again, whole, from the same generator;
4. the winner deals the first hand, whose shuffle continues the generator.

A log writes the draw in its header (``draw``: one list a round, by seat, the card drawn or
``null`` for a seat that did not draw in that round) and the winner as its ``dealer``;
:func:`draw_problem` is what ``truco verify`` asks of them.

This module registers no move kind: the draw is no move, and happens once a match, before the
machine's first state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import Card, card_name, card_suit, parse_card
from engine.shuffle import SplitMix64, shuffle

if TYPE_CHECKING:
    from engine.rules import Rules

#: A draw: one list a round, by seat, the card drawn or ``None`` (the seat did not draw).
Draw = list[list[Card | None]]


def drawn(rules: Rules) -> bool:
    """Whether the variant draws its first dealer (``match.first_dealer: drawn``)."""
    return rules.match.first_dealer == "drawn"


def _key(rules: Rules, card: Card) -> tuple[int, int]:
    """A card's place in the draw: its strength, then its suit's (``first_dealer_suits``)."""
    suits = rules.match.first_dealer_suits
    suit = card_suit(card)
    return (rules.strengths(None)[card], len(suits) - suits.index(suit) if suit in suits else 0)


def highest(rules: Rules, drawn_cards: list[Card | None]) -> list[int]:
    """The seats whose card is the highest of one round (several: they draw again)."""
    keys = {s: _key(rules, c) for s, c in enumerate(drawn_cards) if c is not None}
    top = max(keys.values())
    return [s for s, k in keys.items() if k == top]


def draw_first_dealer(rules: Rules, rng: SplitMix64) -> tuple[Draw, int]:
    """The draw (its rounds) and the seat that deals first, the generator advanced past it.

    >>> from engine.variant import find_variant
    >>> draw, dealer = draw_first_dealer(find_variant("first-dealer-drawn"), SplitMix64(7))
    >>> [card_name(c) for c in draw[0] if c is not None], dealer
    (['2h', '7h', 'Jh', '3h'], 3)
    """
    deck: list[Card] = []
    rounds: Draw = []
    seats = list(range(rules.players))
    while len(seats) > 1 or not rounds:
        row: list[Card | None] = [None] * rules.players
        for seat in seats:
            if not deck:
                deck = shuffle(rules.deck, rng)[::-1]  # popped from the end: the top first
            row[seat] = deck.pop()
        rounds.append(row)
        seats = highest(rules, row)
    return rounds, seats[0]


def draw_problem(rules: Rules, names: list[list[str | None]], dealer: int) -> str | None:
    """Why ``names`` (a header's draw, cards by name, of the log schema's shape) is not a draw
    of this variant won by ``dealer``, or ``None``: cards of the deck, none twice; the first
    round has every seat, each later round exactly the seats tied for the highest of the
    round before."""
    if not names:
        return "expected at least one round"
    deck, seen = set(rules.deck), set()
    seats = list(range(rules.players))
    for k, names_row in enumerate(names):
        if len(seats) < 2:
            return f"round {k + 1}: seat {seats[0]} won the draw already"
        if len(names_row) != rules.players:
            return f"round {k + 1}: expected one entry per seat ({rules.players})"
        row = [None if n is None else parse_card(n) for n in names_row]
        for c in row:
            if c is not None and (c not in deck or c in seen):
                why = "is drawn twice" if c in seen else "is not in this variant's deck"
                return f"round {k + 1}: {card_name(c)} {why}"
            seen.add(c)
        who = [s for s, c in enumerate(row) if c is not None]
        if who != seats:
            return (f"round {k + 1}: expected cards from seats {seats}, found from "
                    f"seats {who}")
        seats = highest(rules, row)
    if len(seats) > 1:
        return f"the draw ends tied between seats {seats}: they draw again"
    if seats[0] != dealer:
        return f"the draw's highest card is seat {seats[0]}'s, not the dealer's ({dealer})"
    return None


def draw_names(draw: Draw) -> list[list[str | None]]:
    """A draw as a log writes it: cards by name."""
    return [[None if c is None else card_name(c) for c in row] for row in draw]


def header_problem(rules: Rules, seed: int | None, dealer: int | None,
                   names: list[list[str | None]] | None) -> str | None:
    """Why a log header's ``dealer`` and ``draw`` (``None``: absent) are not this variant's
    first dealer: with a seed, the seed's draw and its winner; without one, a ``draw`` must be
    a draw of the deck won by the header's dealer (seat 0 unless named)."""
    if not drawn(rules):
        return None if names is None else (
            "draw: this variant does not draw its first dealer (match.first_dealer: given)")
    if seed is None:
        return None if names is None else draw_problem(rules, names, dealer or 0)
    draw, winner = draw_first_dealer(rules, SplitMix64(seed))
    if names is not None and names != draw_names(draw):
        return (f"draw: the seed's draw of the first dealer is {draw_names(draw)}, not "
                f"{names}")
    if dealer is not None and dealer != winner:
        return (f"dealer: the seed's draw gives the first deal to seat {winner} "
                f"(match.first_dealer: drawn), not to seat {dealer}")
    return None
