"""Cards: integer codes in the hot path, the log notation (``4c``, ``Kd``) at the edges.

A card is an ``int``: ``suit * 13 + rank``, with ranks in ``A 2 3 4 5 6 7 8 9 T J Q K``
order and suits in ``c d h s`` order (paus, ouros, copas, espadas). Sorting card codes
therefore gives the canonical deck order of docs/log-format.md ("for suit in c d h s, for rank
in A..K").

>>> parse_card("4c")
3
>>> card_name(3), card_pretty(3)
('4c', '4♣')
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
#: Portuguese suit names, as players say them.
SUIT_NAMES_PT = {"c": "paus", "d": "ouros", "h": "copas", "s": "espadas"}

Card = int

_NAMES = [r + s for s in SUITS for r in RANKS]
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
            f"followed by a suit of {' '.join(SUITS)}, like '4c'"
        )
    return code


def card_name(card: Card) -> str:
    """The log notation of a card code: ``'7h'``."""
    return _NAMES[card]


def card_rank(card: Card) -> str:
    """The rank letter of a card: ``'7'`` for ``7h``."""
    return RANKS[card % 13]


def card_suit(card: Card) -> str:
    """The suit letter of a card: ``'h'`` for ``7h``."""
    return SUITS[card // 13]


def card_pretty(card: Card) -> str:
    """The card for people: ``'7♥'`` (ten is written ``10``)."""
    rank = card_rank(card)
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card_suit(card)]


def make_card(rank: str, suit: str) -> Card:
    """The code of the card of this rank and suit letter."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def canonical_deck(ranks: Iterable[str]) -> list[Card]:
    """The variant's deck in canonical order: for suit in c d h s, for rank in A..K.

    >>> [card_name(c) for c in canonical_deck("A23")][:4]
    ['Ac', '2c', '3c', 'Ad']
    """
    kept = set(ranks)
    return [c for c in range(52) if RANKS[c % 13] in kept]
