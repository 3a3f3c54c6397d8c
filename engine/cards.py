"""Cards: integer codes in the hot path, the log notation (``4c``, ``Kd``) at the edges.

A card is an ``int``: ``suit * 13 + rank``, with ranks in ``A 2 3 4 5 6 7 8 9 T J Q K``
order and suits in ``c d h s`` order (paus, ouros, copas, espadas). Sorting card codes
therefore gives the canonical deck order of docs/log-format.md ("for suit in c d h s, for rank
in A..K").

**Extra cards** (jokers, C2 ``deck.extra``) lie outside the 52: ``X1``, ``X2``, ... up to
``X16``, codes ``52`` to ``67`` (``X1`` is 52), after every ordinary card in canonical order.
The notation cannot clash with rank and suit: ``X`` is no rank and a digit is no suit. An extra
card has no rank and no suit (:func:`card_rank` gives ``"X"``, :func:`card_suit` ``""``) and is
written ``X1`` on screen too.

>>> parse_card("4c")
3
>>> card_name(3), card_pretty(3)
('4c', '4♣')
>>> parse_card("X2"), card_name(53)
(53, 'X2')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
#: Portuguese suit names, as players say them.
SUIT_NAMES_PT = {"c": "paus", "d": "ouros", "h": "copas", "s": "espadas"}
#: The word for a card played face down (P7), in play and in transcripts alike.
COBERTA: Final = "coberta"

Card = int

#: How many extra cards (``X1`` .. ``X16``) a deck may hold beyond the 52.
MAX_EXTRA = 16
#: Codes of the 52 ordinary cards.
ORDINARY = 52
#: Every card code is below this: the size of a table indexed by card code.
CARD_CODES = ORDINARY + MAX_EXTRA
#: The letter of extra cards' notation (no rank uses it).
EXTRA_LETTER = "X"

_NAMES = [r + s for s in SUITS for r in RANKS] + [f"X{k}" for k in range(1, MAX_EXTRA + 1)]
_CODES = {name: code for code, name in enumerate(_NAMES)}


class CardError(ValueError):
    """A string is not a card in the log notation."""


def parse_card(text: str) -> Card:
    """Parse ``"4c"`` (rank then suit) into a card code; raises :class:`CardError`.

    >>> card_name(parse_card("Ts"))
    'Ts'
    """
    code = _CODES.get(text) if isinstance(text, str) else None
    if code is None:
        raise CardError(
            f"{text!r} is not a card: expected a rank of {' '.join(RANKS)} "
            f"followed by a suit of {' '.join(SUITS)}, like '4c' (or an extra card X1 to "
            f"X{MAX_EXTRA})"
        )
    return code


def is_extra(card: Card) -> bool:
    """Whether a card is an extra card (``X1``...), outside the 52."""
    return card >= ORDINARY


def card_name(card: Card) -> str:
    """The log notation of a card code: ``'7h'``."""
    return _NAMES[card]


def card_rank(card: Card) -> str:
    """The rank letter of a card: ``'7'`` for ``7h``; ``'X'`` for an extra card (no rank)."""
    return RANKS[card % 13] if card < ORDINARY else EXTRA_LETTER


def card_suit(card: Card) -> str:
    """The suit letter of a card: ``'h'`` for ``7h``; ``''`` for an extra card (no suit)."""
    return SUITS[card // 13] if card < ORDINARY else ""


def card_pretty(card: Card) -> str:
    """The card for people: ``'7♥'`` (ten is written ``10``); an extra card as in logs, ``X1``."""
    if card >= ORDINARY:
        return _NAMES[card]
    rank = card_rank(card)
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card_suit(card)]


def make_card(rank: str, suit: str) -> Card:
    """The code of the card of this rank and suit letter."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def canonical_deck(ranks: Iterable[str], minus: Iterable[Card] = (), plus: Iterable[Card] = (),
                   extra: Iterable[Card] = ()) -> list[Card]:
    """The variant's deck in canonical order: for suit in c d h s, for rank in A..K, every card
    of the kept ``ranks`` not in ``minus``, and the cards of ``plus``; then the ``extra`` cards
    (X1, X2, ...). That order is sorted card codes.

    >>> [card_name(c) for c in canonical_deck("A23")][:4]
    ['Ac', '2c', '3c', 'Ad']
    >>> [card_name(c) for c in canonical_deck("A", [0], [parse_card("2s")], [53, 52])]
    ['Ad', 'Ah', 'As', '2s', 'X1', 'X2']
    """
    kept = set(ranks)
    out = {c for c in range(ORDINARY) if RANKS[c % 13] in kept}
    out.difference_update(minus)
    out.update(plus)
    out.update(extra)
    return sorted(out)
