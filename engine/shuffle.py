"""The seeded shuffle of docs/log-format.md: SplitMix64, the bounded draw, Fisher-Yates, dealing.

Any implementation in any language reproduces these deals from the seed alone, so nothing
here may depend on Python's own ``random``. The generator is a value owned by one match:
there is no global random state.

>>> rng = SplitMix64(0)
>>> hex(rng.next())
'0xe220a8397b1dcdaf'
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, Final, TypeVar

from mypy_extensions import i64

from engine.cards import Card
from engine.slots import interpreted

MASK64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_M1: Final = 0xBF58476D1CE4E5B9
_M2: Final = 0x94D049BB133111EB


class SplitMix64:
    """SplitMix64 over an unsigned 64-bit state; the state starts as the seed.

    Its outputs are computed :data:`BATCH` at a time (:func:`draws`, a few big-integer
    operations instead of a loop of 64-bit arithmetic per draw) and handed out one by one:
    :attr:`state` is always the state after the draws handed out so far, as if each were made
    alone, and setting it starts from there."""

    __slots__ = ("_origin", "_buf", "_pos")

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MASK64:
            raise ValueError(f"seed {seed} is outside 0..2^64-1")
        self._origin = seed  # the state before the draws in _buf
        self._buf: tuple[int, ...] = ()  # the next outputs from _origin
        self._pos = 0  # how many of them were handed out

    @property
    def state(self) -> int:
        """The generator's state: the seed advanced by gamma once per draw handed out."""
        return (self._origin + self._pos * _GAMMA) & MASK64

    @state.setter
    def state(self, value: int) -> None:
        self._origin = value
        self._buf = ()
        self._pos = 0

    def next(self) -> int:
        """The next 64-bit draw."""
        pos = self._pos
        try:
            z = self._buf[pos]
        except IndexError:
            self._refill()
            pos = 0
            z = self._buf[0]
        self._pos = pos + 1
        return z

    def _refill(self) -> None:
        self._origin = origin = (self._origin + self._pos * _GAMMA) & MASK64
        self._buf = draws(origin, BATCH)
        self._pos = 0

    def bounded(self, n: int) -> int:
        """A uniform draw in ``[0, n)`` by rejection: ``limit = 2^64 - (2^64 mod n)``."""
        pos = self._pos
        try:
            z = self._buf[pos]
        except IndexError:
            return self._rejecting(n)  # the batch is used up: the long way refills it
        if z < _SAFE and n in _SMALL:  # accepted whatever n up to 64 (nearly always)
            self._pos = pos + 1
            return z % n
        return self._rejecting(n)

    def _rejecting(self, n: int) -> int:
        """:meth:`bounded` the long way: any ``n``, with a draw that may be rejected."""
        if n < 1:
            raise ValueError(f"cannot draw from an empty range [0, {n})")
        limit = _LIMITS[n] if n < _NLIMITS else (1 << 64) - ((1 << 64) % n)
        while True:
            z = self.next()
            if z < limit:
                return z % n

    def copy(self) -> SplitMix64:
        """An independent generator at the same point of the stream."""
        clone = SplitMix64.__new__(SplitMix64) if _BY_NEW else SplitMix64(0)
        clone._origin = self._origin
        clone._buf = self._buf  # a tuple: shared, never changed
        clone._pos = self._pos
        return clone


#: Whether :meth:`SplitMix64.copy` may skip ``__init__`` (interpreted: see engine.slots).
_BY_NEW = interpreted(SplitMix64)
#: Whether this module is compiled (``build_native.py``): then draws and deals are computed
#: in 64-bit machine integers, which wrap around as SplitMix64's arithmetic does
#: (:func:`_draws_in_words`, :func:`_in_machine_words`).
_COMPILED = not _BY_NEW

#: Outputs a :class:`SplitMix64` computes at once (a whole number of :func:`draws`' lanes:
#: 64 cost 7.3 us on the project's machine, 114 ns a draw; one at a time, about 400 ns).
BATCH = 64


def draws(state: int, count: int) -> tuple[int, ...]:
    """The next ``count`` outputs of a SplitMix64 whose state is ``state`` (the state is not
    advanced: it would be ``state + count * gamma``), bit for bit those of :meth:`SplitMix64.next`.

    SplitMix64's state is a counter, so its k-th output depends on ``state + k * gamma`` alone:
    the draws are computed together, each in a 128-bit lane of one Python integer (the lane's
    value in its low 64 bits, so a product by a 64-bit constant stays inside its lane and a
    right shift brings only the next lane's bits into the high half, masked off), a few
    big-integer operations in C instead of a loop of 64-bit arithmetic in Python.
    """
    if _COMPILED:
        return _draws_in_words(state, count)
    return _lanes(state, count, 0)[0]


def _lanes(state: int, count: int, below: int) -> tuple[tuple[int, ...], bool]:
    """:func:`draws` (interpreted), and whether every draw is below ``below`` (``0``: not
    asked, False), told by two more big-integer operations on the lanes: a draw ``z`` is at or
    above it exactly when ``z + 2^64 - below`` carries into its lane's bit 64 (comparing the
    draws one by one costs five times as much)."""
    out: tuple[int, ...] = ()
    under = below > 0
    while count > 0:
        c = min(count, _LANES)
        ones, steps, mask, unpack = _LANE_CONSTANTS.get(c) or _lane_constants(c)
        z = (state * ones + steps) & mask
        z = (((z ^ (z >> 30)) & mask) * _M1) & mask
        z = (((z ^ (z >> 27)) & mask) * _M2) & mask
        z = (z ^ (z >> 31)) & mask
        if under:
            gap, top = _BELOW.get((c, below)) or _below(c, below)
            under = not ((z + gap) & top)
        out += unpack(z.to_bytes(16 * c, "little"))  # each lane's value, its zeros skipped
        state = (state + c * _GAMMA) & MASK64
        count -= c
    return out, under


_LANES = 64
_LANE_CONSTANTS: dict[int, tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]] = {}


def _lane_constants(c: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]:
    ones = sum(1 << (128 * k) for k in range(c))
    steps = sum(((k + 1) * _GAMMA) << (128 * k) for k in range(c))
    # "<Q8x" per lane: its value (the low 64 bits), its high half (zeros) skipped
    got = (ones, steps, MASK64 * ones, struct.Struct("<" + "Q8x" * c).unpack)
    _LANE_CONSTANTS[c] = got
    return got


#: By (lanes, bound): what :func:`_lanes` adds to the lanes, and the bit above each lane.
_BELOW: dict[tuple[int, int], tuple[int, int]] = {}


def _below(c: int, below: int) -> tuple[int, int]:
    ones = (_LANE_CONSTANTS.get(c) or _lane_constants(c))[0]
    got = _BELOW[c, below] = (ones * ((1 << 64) - below), ones << 64)
    return got


#: A hand dealt: the cards by seat, and the vira (``None``: the variant has none).
Dealt = tuple[list[list[Card]], Card | None]
#: What :func:`shuffle` shuffles: cards, or anything else in a sequence (card names).
T = TypeVar("T")


def shuffle(deck: Sequence[T], rng: SplitMix64) -> list[T]:
    """Fisher-Yates from the given (canonical) order:
    ``for i = len-1 .. 1: swap(i, rng.bounded(i+1))``.

    The draws are :meth:`SplitMix64.bounded`'s: the shuffle's ``len - 1`` draws are computed
    at once (:func:`draws`), and more if a draw is rejected (rarely: at most 63 in 2^64 for a
    range of up to 64). This is most of the cost of a seeded deal (39 draws a hand).
    """
    return _shuffled(deck, rng, len(deck))


def _shuffled(deck: Sequence[T], rng: SplitMix64, needed: int) -> list[T]:
    """The first ``needed`` cards of :func:`shuffle`'s result, the generator left where the
    whole shuffle leaves it. A step ``i`` of Fisher-Yates fixes the card at ``i`` for good,
    so for ``i >= needed`` only the card it moves down matters (one store instead of a swap:
    a deal needs the first 13 of 40)."""
    cards = list(deck)
    size = len(cards)
    needed = min(needed, size)
    state = (rng._origin + rng._pos * _GAMMA) & MASK64  # rng.state, without the property's call
    if _COMPILED and size <= _NLIMITS:
        if _in_machine_words(cards, state, needed):
            rng.state = (state + (size - 1) * _GAMMA) & MASK64
            del cards[needed:]
            return cards
        cards = list(deck)  # a draw may be rejected: the general way, from the deck's order
    drawn, safe = (draws(state, size - 1), False) if _COMPILED else _lanes(state, size - 1, _SAFE)
    if size <= _NLIMITS and safe:
        # No draw can be rejected (every limit up to 64 is at least _SAFE): one draw a step,
        # in the straight-line steps made for this size (a loop, in Python, costs twice as
        # much: docs/performance.md)
        steps = _STEPS.get((size, needed)) or _straight_steps(size, needed)
        steps(cards, drawn)
        rng.state = (state + len(drawn) * _GAMMA) & MASK64
        return cards
    k = 0
    for i in range(size - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n < _NLIMITS else (1 << 64) - ((1 << 64) % n)
        while True:
            if k == len(drawn):  # only after a rejection
                drawn += draws((state + k * _GAMMA) & MASK64, size)
            z = drawn[k]
            k += 1
            if z < limit:
                break
        j = z % n
        cards[i], cards[j] = cards[j], cards[i]
    rng.state = (state + k * _GAMMA) & MASK64
    del cards[needed:]
    return cards


#: The straight-line steps of :func:`_shuffled`'s no-rejection path, by (size, needed).
_STEPS: dict[tuple[int, int], Callable[[list[T], tuple[int, ...]], None]] = {}


def _straight_steps(size: int, needed: int) -> Callable[[list[T], tuple[int, ...]], None]:
    """Fisher-Yates' steps for a pack of ``size`` cards of which the first ``needed`` are
    kept, written out one statement a step with the draws as local names (no loop, no index
    arithmetic at run time), compiled once per size: ``steps(cards, drawn)`` shuffles
    ``cards`` in place with the ``size - 1`` draws ``drawn`` (none rejected) and drops the
    cards past ``needed``, exactly as the loop would.

    >>> cards = list(range(5))
    >>> _straight_steps(5, 2)(cards, (7, 8, 9, 10)); cards
    [1, 4]
    """
    names = [f"z{k}" for k in range(size - 1)]
    body = [f"    {', '.join(names)}, = drawn"] if names else []
    for k, i in enumerate(range(size - 1, 0, -1)):
        if i >= needed:  # the card at i is dropped: only the one moved down matters
            body.append(f"    cards[z{k} % {i + 1}] = cards[{i}]")
        else:
            body.append(f"    j = z{k} % {i + 1}; cards[{i}], cards[j] = cards[j], cards[{i}]")
    body.append(f"    del cards[{needed}:]")
    source = "def steps(cards, drawn):\n" + "\n".join(body) + "\n"
    space: dict[str, Callable[[list[T], tuple[int, ...]], None]] = {}
    exec(compile(source, f"<engine.shuffle steps {size} {needed}>", "exec"), space)
    _STEPS[size, needed] = steps = space["steps"]
    return steps


_LIMITS = [0] + [(1 << 64) - ((1 << 64) % n) for n in range(1, 65)]
_NLIMITS = len(_LIMITS)
#: The ranges ``[0, n)`` whose rejection limit is in :data:`_LIMITS`, by ``n`` (a set: one
#: hash lookup of a small int costs about half of two comparisons; a ``range``'s test more).
_SMALL = frozenset(range(1, _NLIMITS))
#: The smallest rejection limit of a range of up to 64: a draw below it is never rejected.
_SAFE = min(_LIMITS[1:])


# SplitMix64's constants as signed 64-bit integers (the same bits)
_GAMMA_S: Final = i64(_GAMMA - (1 << 64))
_M1_S: Final = i64(_M1 - (1 << 64))
_M2_S: Final = i64(_M2 - (1 << 64))
_I64_MAX: Final = i64((1 << 63) - 1)


def _signed(u: int) -> i64:
    """The unsigned 64-bit ``u`` as the signed integer of the same bits."""
    return i64(u - (1 << 64) if u >> 63 else u)


def _mix(s: i64) -> i64:
    """SplitMix64's output for the state ``s``, in signed 64-bit arithmetic that wraps around
    (compiled only: see :func:`_in_machine_words`); a logical right shift is the arithmetic
    one with the sign's copies masked off."""
    z = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * _M1_S
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _M2_S
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _draws_in_words(state: int, count: int) -> tuple[int, ...]:
    """:func:`draws` in 64-bit machine integers, for the compiled build only."""
    s = _signed(state)
    out: list[int] = []
    for _ in range(count):
        s += _GAMMA_S
        out.append(int(_mix(s)) & MASK64)
    return tuple(out)


def _in_machine_words(cards: list[T], state: int, needed: int) -> bool:
    """:func:`_shuffled`'s no-rejection path in 64-bit machine integers, for the compiled
    build only: interpreted, ``i64`` is Python's ``int``, whose products never wrap, and the
    big-integer lanes of :func:`draws` are what is fast.

    Shuffles ``cards`` in place from ``state`` as far as ``needed`` (see :func:`_shuffled`)
    and returns True; returns False, ``cards`` partly moved, as soon as a draw is at or
    above ``_SAFE`` (it might be rejected: the caller starts again the general way).

    Each draw is :func:`_mix`'s, signed: a draw ``z`` stands for ``z + 2^64`` when negative,
    so ``u mod n = ((z & (2^63 - 1)) mod n + 2^63 mod n) mod n``.
    """
    s = _signed(state)
    safe = _signed(_SAFE)  # _SAFE is above 2^63 (unless a test lowers it)
    high = _SAFE >> 63 == 1
    i: i64 = len(cards) - 1
    while i > 0:
        s += _GAMMA_S
        z = _mix(s)
        n = i + 1
        if z >= 0:
            if not (high or z < safe):
                return False
            j = z % n
        else:
            if not (high and z < safe):
                return False
            j = ((z & _I64_MAX) % n + (_I64_MAX % n + 1) % n) % n
        if i >= needed:
            cards[j] = cards[i]
        else:
            cards[i], cards[j] = cards[j], cards[i]
        i -= 1
    return True


def deal(
    deck: Sequence[Card], rng: SplitMix64, players: int, cards_each: int, dealer: int, vira: bool
) -> Dealt:
    """Shuffle and deal one hand: consecutive slices from the mão (dealer + 1) round to the
    dealer, then the vira (the next card) where the variant has one.

    Returns the hands indexed by seat, and the vira or ``None``.
    """
    if not _COMPILED:  # interpreted: the whole deal in one function (:func:`fused_deal`)
        got = (_FUSED.get((len(deck), players, cards_each, dealer, vira))
               or fused_deal(len(deck), players, cards_each, dealer, vira))(deck, rng)
        if got is not None:
            return got
    dealt = players * cards_each
    cards = _shuffled(deck, rng, dealt + 1 if vira else dealt)
    cut = _CUTS.get((players, cards_each, dealer)) or _cut(players, cards_each, dealer)
    return cut(cards), (cards[dealt] if vira else None)


#: By (players, cards each, dealer): the hands of a shuffled pack, by seat (:func:`_cut`).
_CUTS: dict[tuple[int, int, int], Callable[[list[Card]], list[list[Card]]]] = {}


def _cut(players: int, each: int, dealer: int) -> Callable[[list[Card]], list[list[Card]]]:
    """What :func:`deal` gives each seat of a shuffled pack, made once per table and dealer:
    seat ``(dealer + 1 + i) % players`` takes the ``i``-th slice of ``each`` cards (slicing
    in C, by ``operator.itemgetter``, rather than a comprehension and a rotation).

    >>> _cut(3, 2, 0)(list(range(6)))
    [[4, 5], [0, 1], [2, 3]]
    """
    places = [slice(at, at + each) for at in
              (((s - dealer - 1) % players) * each for s in range(players))]
    get = itemgetter(*places)

    def cut(cards: list[Card]) -> list[list[Card]]:
        got = get(cards)
        return [got] if players == 1 else list(got)

    _CUTS[players, each, dealer] = cut
    return cut


#: By (deck size, players, cards each, dealer, vira): :func:`fused_deal`'s functions.
_FUSED: dict[tuple[int, int, int, int, bool],
             Callable[[Sequence[Card], SplitMix64], Dealt | None]] = {}


def fused_deal(size: int, players: int, each: int, dealer: int,
               vira: bool) -> Callable[[Sequence[Card], SplitMix64], Dealt | None]:
    """:func:`deal` of a deck of ``size`` cards for ``dealer`` as one function
    ``dealt(deck, rng)``, written out as Python source once per table and dealer (interpreted
    only: compiled, :func:`_in_machine_words` is faster): the state read, the draws
    (:func:`_lanes`' big-integer operations, the check that none can be rejected), the
    straight-line Fisher-Yates steps of :func:`_straight_steps`, the generator's state
    set and the hands cut by seat as :func:`_cut` cuts them, without the five calls between
    them. It returns ``None``, the generator untouched, where a draw might be rejected (at
    most 63 in 2^64 a draw) or the deck is too large for one lane batch: :func:`deal` then
    deals the general way.

    >>> rng, twin = SplitMix64(5), SplitMix64(5)
    >>> fused = fused_deal(40, 4, 3, 1, True)  # compiled: one that always returns None
    >>> hands, vira = fused(list(range(40)), rng) or deal(list(range(40)), rng, 4, 3, 1, True)
    >>> cards = _shuffled(list(range(40)), twin, 13)
    >>> (hands, vira) == (_cut(4, 3, 1)(cards), cards[12]), rng.state == twin.state
    (True, True)
    """
    key = (size, players, each, dealer, vira)
    dealt = players * each
    needed = dealt + 1 if vira else dealt
    count = size - 1
    if _COMPILED or not 0 < count <= _LANES or size > _NLIMITS or needed > size:
        _FUSED[key] = _never
        return _never
    ones, steps, mask, unpack = _LANE_CONSTANTS.get(count) or _lane_constants(count)
    gap, top = _BELOW.get((count, _SAFE)) or _below(count, _SAFE)
    names = [f"z{k}" for k in range(count)]
    body = ["    state = (rng._origin + rng._pos * GAMMA) & MASK64",
            "    z = (state * ONES + STEPS) & LANES",
            "    z = (((z ^ (z >> 30)) & LANES) * M1) & LANES",
            "    z = (((z ^ (z >> 27)) & LANES) * M2) & LANES",
            "    z = (z ^ (z >> 31)) & LANES",
            "    if (z + GAP) & TOP:",  # a draw at or above _SAFE: it might be rejected
            "        return None",
            f"    {', '.join(names)}, = UNPACK(z.to_bytes({16 * count}, 'little'))",
            "    cards = list(deck)"]
    for k, i in enumerate(range(size - 1, 0, -1)):
        if i >= needed:  # the card at i is not dealt: only the one moved down matters
            body.append(f"    cards[z{k} % {i + 1}] = cards[{i}]")
        else:
            body.append(f"    j = z{k} % {i + 1}; cards[{i}], cards[j] = cards[j], cards[{i}]")
    hands = [f"cards[{at}:{at + each}]" for at in
             (((s - dealer - 1) % players) * each for s in range(players))]
    body += [f"    rng._origin = (state + {count * _GAMMA}) & MASK64",  # rng.state's setter
             "    rng._buf = ()",
             "    rng._pos = 0",
             f"    return [{', '.join(hands)}], {f'cards[{dealt}]' if vira else 'None'}"]
    source = "def dealt(deck, rng):\n" + "\n".join(body) + "\n"
    space: dict[str, Any] = {"GAMMA": _GAMMA, "MASK64": MASK64, "ONES": ones, "STEPS": steps,
                             "LANES": mask, "M1": _M1, "M2": _M2, "GAP": gap, "TOP": top,
                             "UNPACK": unpack}
    exec(compile(source, f"<engine.shuffle deal {size} {players} {each} {dealer} {vira}>",
                 "exec"), space)
    _FUSED[key] = made = space["dealt"]
    return made  # type: ignore[no-any-return]


def _never(deck: Sequence[Card], rng: SplitMix64) -> Dealt | None:
    """:func:`fused_deal` where there is none (compiled, or a deck too large): never dealt."""
    return None

