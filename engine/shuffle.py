"""The seeded shuffle of docs/log-format.md: SplitMix64, the bounded draw, Fisher-Yates, dealing.

Any implementation in any language reproduces these deals from the seed alone, so nothing
here may depend on Python's own ``random``. The generator is a value owned by one match:
there is no global random state.

>>> rng = SplitMix64(0)
>>> hex(rng.next())
'0xe220a8397b1dcdaf'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


class SplitMix64:
    """SplitMix64 over an unsigned 64-bit state; the state starts as the seed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MASK64:
            raise ValueError(f"seed {seed} is outside 0..2^64-1")
        self.state = seed

    def next(self) -> int:
        """The next 64-bit draw."""
        self.state = z = (self.state + _GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * _M1) & MASK64
        z = ((z ^ (z >> 27)) * _M2) & MASK64
        return z ^ (z >> 31)

    def bounded(self, n: int) -> int:
        """A uniform draw in ``[0, n)`` by rejection: ``limit = 2^64 - (2^64 mod n)``."""
        if n < 1:
            raise ValueError(f"cannot draw from an empty range [0, {n})")
        limit = _LIMITS[n] if n < _NLIMITS else (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def copy(self) -> SplitMix64:
        """An independent generator at the same point of the stream."""
        clone = SplitMix64.__new__(SplitMix64)
        clone.state = self.state
        return clone


def shuffle(deck: Sequence[Card], rng: SplitMix64) -> list[Card]:
    """Fisher-Yates from the given (canonical) order:
    ``for i = len-1 .. 1: swap(i, rng.bounded(i+1))``.

    The draws are :meth:`SplitMix64.bounded`'s, with the generator's step written out in the
    loop: this is most of the cost of a seeded deal (39 draws a hand), and a method call per
    draw would be a third of it.
    """
    cards = list(deck)
    state = rng.state
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n < _NLIMITS else (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + _GAMMA) & MASK64
            z = ((state ^ (state >> 30)) * _M1) & MASK64
            z = ((z ^ (z >> 27)) * _M2) & MASK64
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        cards[i], cards[j] = cards[j], cards[i]
    rng.state = state
    return cards


_LIMITS = [0] + [(1 << 64) - ((1 << 64) % n) for n in range(1, 65)]
_NLIMITS = len(_LIMITS)


def deal(
    deck: Sequence[Card], rng: SplitMix64, players: int, cards_each: int, dealer: int, vira: bool
) -> tuple[list[list[Card]], Card | None]:
    """Shuffle and deal one hand: consecutive slices from the mão (dealer + 1) round to the
    dealer, then the vira (the next card) where the variant has one.

    Returns the hands indexed by seat, and the vira or ``None``.
    """
    cards = shuffle(deck, rng)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(players):
        seat = (dealer + 1 + i) % players
        hands[seat] = cards[i * cards_each : (i + 1) * cards_each]
    return hands, (cards[players * cards_each] if vira else None)
