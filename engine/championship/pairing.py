"""Who meets whom: the seeding, a Swiss round, the knockout bracket and the round robin's
schedule. Pure functions of their arguments (no clock, no global random state): the same
arguments give the same pairings, which is how ``truco championship verify`` recomputes them.

* **Seeding** (:func:`seed_order`): ``given`` keeps the registration order; ``draw`` shuffles
  it with a Fisher-Yates driven by SplitMix64 seeded with the championship's seed.
* **Swiss** (:func:`swiss_round`): the teams in ranking order (points, then the tie-breaks of
  :mod:`engine.championship.standings`). With an odd number of teams, the bye goes to the
  lowest-ranked team that has not had one (a team gets at most one), and to the next one up
  only when the rest cannot be paired without a rematch. Then the best-ranked team not yet
  paired meets the next-best it has not met, down the list, backtracking when the teams left
  could not be paired without a rematch. No two teams meet twice: when no such pairing exists
  the round is refused.
* **Knockout** (:func:`bracket`): the field is filled to the next power of two with byes; seed
  1 meets the last seed, and seeds 1 and 2 can meet only in the final (the usual bracket:
  ``1-8, 4-5, 2-7, 3-6``); the byes go to the best seeds. Each later round pairs the winners of
  neighbouring pairings.
* **Round robin** (:func:`round_robin`): the circle method; with an odd number of teams one
  team rests (a bye) each round. Everyone meets everyone once.

>>> bracket(5)
[(0, None), (3, 4), (1, None), (2, None)]
>>> round_robin(4)
[[(0, 3), (1, 2)], [(2, 0), (3, 1)], [(0, 1), (2, 3)]]
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.championship.model import ChampionshipError
from engine.shuffle import SplitMix64

#: Steps a Swiss pairing may take before it gives up (the backtracking is exponential only
#: where no pairing without a rematch exists, or nearly so).
MAX_STEPS = 200_000
Pair = tuple[str, str]


def seed_order(names: Sequence[str], seeding: str, seed: int) -> list[str]:
    """The teams in seeding order: as given, or drawn from ``seed``.

    >>> seed_order(["a", "b", "c"], "given", 1)
    ['a', 'b', 'c']
    >>> seed_order(["a", "b", "c"], "draw", 1) == seed_order(["a", "b", "c"], "draw", 1)
    True
    """
    order = list(names)
    if seeding == "draw":
        rng = SplitMix64(seed)
        for i in range(len(order) - 1, 0, -1):
            j = rng.next() % (i + 1)
            order[i], order[j] = order[j], order[i]
    return order


def swiss_round(ranked: Sequence[str], met: set[frozenset[str]],
                had_bye: set[str]) -> tuple[list[Pair], str | None]:
    """A Swiss round: the pairings (the better-ranked team first) and the team with the bye
    (``None`` with an even number), from the teams in ranking order, the pairs that ``met``
    already and the teams that ``had_bye``. Raises :class:`ChampionshipError` when every
    pairing would hold a rematch.

    >>> swiss_round(["a", "b", "c", "d"], {frozenset("ab")}, set())
    ([('a', 'c'), ('b', 'd')], None)
    >>> swiss_round(["a", "b", "c"], set(), {"c"})
    ([('a', 'c')], 'b')
    """
    steps = [0]
    order = list(ranked)
    candidates: list[str | None] = [None]
    if len(order) % 2:
        candidates = [t for t in reversed(order) if t not in had_bye]
    for bye in candidates:
        rest = [t for t in order if t != bye]
        pairs = _pair(rest, met, steps)
        if pairs is not None:
            return pairs, bye
    raise ChampionshipError(f"no Swiss pairing of these {len(order)} teams avoids a rematch "
                            "(or a second bye): the championship has more rounds than its "
                            "teams can play")


def _pair(rest: list[str], met: set[frozenset[str]], steps: list[int]) -> list[Pair] | None:
    """The first pairing of ``rest`` (in order) without a rematch, or ``None``."""
    if not rest:
        return []
    steps[0] += 1
    if steps[0] > MAX_STEPS:
        return None
    first = rest[0]
    for i in range(1, len(rest)):
        other = rest[i]
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[1:i] + rest[i + 1:], met, steps)
        if tail is not None:
            return [(first, other), *tail]
    return None


def bracket_positions(size: int) -> list[int]:
    """The seeds (0-based) in bracket order for a power of two ``size``: neighbours meet in
    the first round, seeds 0 and 1 only in the final.

    >>> bracket_positions(8)
    [0, 7, 3, 4, 1, 6, 2, 5]
    """
    order = [0]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n - 1 - seed)]
    return order


def bracket(teams: int) -> list[tuple[int, int | None]]:
    """The first knockout round of ``teams`` seeds (0-based): pairs of seeds in bracket
    order, ``(seed, None)`` for a bye."""
    size = 1
    while size < teams:
        size *= 2
    slots = [s if s < teams else None for s in bracket_positions(size)]
    out: list[tuple[int, int | None]] = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        assert a is not None  # the better seed of each pair is a team: byes go to the best
        out.append((a, b))
    return out


def knockout_rounds(teams: int) -> int:
    """How many rounds a knockout of ``teams`` takes.

    >>> knockout_rounds(16), knockout_rounds(5), knockout_rounds(2)
    (4, 3, 1)
    """
    return max(1, (teams - 1).bit_length())


def round_robin(teams: int) -> list[list[tuple[int, int]]]:
    """Each round of a round robin of ``teams`` (0-based indexes): the circle method, team 0
    fixed and the others turning; with an odd number, the pairing with the missing index
    ``teams`` (the rest) is left out. Home and away alternate for team 0."""
    n = teams + teams % 2
    ring = list(range(1, n))
    rounds: list[list[tuple[int, int]]] = []
    for r in range(n - 1):
        line = [0, *ring]
        pairs = [(line[i], line[n - 1 - i]) for i in range(n // 2)]
        if r % 2:
            pairs[0] = (pairs[0][1], pairs[0][0])
        rounds.append([(a, b) for a, b in pairs if a < teams and b < teams])
        ring = ring[-1:] + ring[:-1]
    return rounds
