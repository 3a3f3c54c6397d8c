"""The statistical tests of a rule change's simulated statistics, on per-match numbers:
:func:`two_proportions`, :func:`welch` (on a mean, or on a ratio's delta-method linearization),
:func:`holm` for the many tests at once; :class:`Moments` gathers what they need from matches.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.simulate import Tally, wilson

#: The ways a run of many tests is corrected: Holm's step-down adjustment, or none.
CORRECTIONS = ("holm", "none")


# -- statistical tests ---------------------------------------------------------------------------
# The matches of a run are independent trials, so every test works on per-match numbers: a
# count's per-match mean (Welch), a ratio of two per-match sums (the delta method, the match as
# the unit), the match win rate (two proportions). The hands of a match are not independent of
# each other (the score steers the bots), so no test treats a hand as a trial.

def _stats() -> Any:
    """``scipy.stats``, imported on first use: only ``truco compare --matches`` pays for it."""
    return importlib.import_module("scipy.stats")


@dataclass(frozen=True)
class Sample:
    """An estimate from ``n`` independent matches and the sample variance of the per-match
    values behind it (for a ratio, of their linearization): its squared standard error is
    ``variance / n``."""

    n: int
    estimate: float
    variance: float


def mean_sample(n: int, total: int, squares: int) -> Sample:
    """The per-match mean of a count from its sum and sum of squares over ``n`` matches.

    >>> mean_sample(4, 10, 30)  # the values 1, 2, 3, 4
    Sample(n=4, estimate=2.5, variance=1.6666666666666667)
    """
    if n < 2:
        raise ValueError("a variance needs at least 2 matches")
    return Sample(n, total / n, (n * squares - total * total) / (n * (n - 1)))


def ratio_sample(n: int, sx: int, sy: int, sxx: int, syy: int, sxy: int) -> Sample:
    """The ratio of two per-match sums, ``R = sum x / sum y``, with the variance of its
    linearization ``(x - R y) / mean y`` (the delta method, each match one cluster), from the
    sums, sums of squares and sum of products over ``n`` matches. Exact integer arithmetic up to
    the last division.

    >>> ratio_sample(3, 6, 3, 14, 3, 6)  # y = 1 in every match: the mean of x (1, 2, 3)
    Sample(n=3, estimate=2.0, variance=1.0)
    """
    if n < 2 or sy == 0:
        raise ValueError("a ratio needs at least 2 matches and a denominator that is not 0")
    residual = sxx * sy * sy - 2 * sx * sy * sxy + sx * sx * syy  # sy^2 * sum (x - R y)^2
    return Sample(n, sx / sy, residual * n * n / ((n - 1) * sy**4))


@dataclass(frozen=True)
class Significance:
    """The difference B - A of one statistic with its confidence interval ``[low, high]`` and
    the two-sided p-value of "no difference"."""

    difference: float
    low: float
    high: float
    p_value: float

    def scaled(self, factor: int) -> Significance:
        """The same test for the statistic times ``factor`` (a total over ``factor``
        matches)."""
        return Significance(self.difference * factor, self.low * factor, self.high * factor,
                            self.p_value)


def welch(a: Sample, b: Sample, alpha: float) -> Significance | None:
    """Welch's t-test of B's estimate against A's, with the Welch-Satterthwaite degrees of
    freedom, and the ``1 - alpha`` interval of the difference. ``None`` when both are constant
    and equal (nothing to test); two different constants differ with p 0.

    >>> r = welch(Sample(30, 2.0, 1.0), Sample(30, 2.5, 1.0), 0.05)
    >>> round(r.p_value, 4), round(r.low, 4), round(r.high, 4)
    (0.0577, -0.0168, 1.0168)
    """
    d = b.estimate - a.estimate
    va, vb = a.variance / a.n, b.variance / b.n
    se2 = va + vb
    if se2 <= 0:
        return None if d == 0 else Significance(d, d, d, 0.0)
    df = se2 * se2 / (va * va / (a.n - 1) + vb * vb / (b.n - 1))
    t = _stats().t
    se = math.sqrt(se2)
    half = float(t.ppf(1 - alpha / 2, df)) * se
    return Significance(d, d - half, d + half, min(1.0, float(2 * t.sf(abs(d) / se, df))))


def two_proportions(x_a: int, n_a: int, x_b: int, n_b: int, alpha: float
                    ) -> Significance | None:
    """The two-proportion z-test (pooled, as the chi-squared test of the 2x2 table without
    continuity correction) of B's ``x_b / n_b`` against A's ``x_a / n_a``, and Newcombe's
    hybrid score interval of the difference (from the two Wilson intervals at ``1 - alpha``).
    ``None`` when both are 0 or both are 1 (nothing to test).

    >>> r = two_proportions(48, 80, 56, 70, 0.05)  # Newcombe (1998), example (a)
    >>> round(r.difference, 4), round(r.low, 4), round(r.high, 4)
    (0.2, 0.0524, 0.3339)
    """
    if n_a == 0 or n_b == 0:
        return None
    pa, pb = x_a / n_a, x_b / n_b
    pooled = (x_a + x_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return None
    norm = _stats().norm
    z = float(norm.ppf(1 - alpha / 2))
    la, ua = wilson(x_a, n_a, z)
    lb, ub = wilson(x_b, n_b, z)
    d = pb - pa
    return Significance(d, d - math.hypot(pb - lb, ua - pa), d + math.hypot(ub - pb, pa - la),
                        min(1.0, float(2 * norm.sf(abs(d) / se))))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: the i-th smallest of m p-values is multiplied by
    ``m - i + 1``, and no adjusted p-value is below one before it. A hypothesis is rejected at
    ``alpha`` when its adjusted p-value is at most ``alpha``; the chance of any false rejection
    stays at most ``alpha``, whatever the dependence between the tests.

    >>> holm([0.01, 0.04, 0.03, 0.005])
    [0.03, 0.06, 0.06, 0.02]
    """
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def match_values(tally: Tally) -> dict[str, int]:
    """The numbers of one match (a tally of :mod:`engine.simulate`) that the statistics add
    up, by name: ``win.T`` (1 if team T won the match), ``games_won.T``, ``hands_won.T``,
    ``points.T``, ``points``, ``games``, ``hands``, ``game_hands`` (the hands of its games),
    ``folds``, ``all_tied``, ``forfeits``, ``out_of_turn`` (raises made out of turn),
    ``steps.V.reached`` (``accepted``, ``folded``) per
    ladder step, ``one_team.I`` and ``both_teams.I`` (the tally's special-hand counters)."""
    v: dict[str, int] = {}
    for t in range(len(tally["points"])):  # every team of the variant
        v[f"win.{t}"] = int(tally["winner"] == t)
        for key in ("games_won", "hands_won", "points"):
            v[f"{key}.{t}"] = tally[key][t]
    v["points"] = sum(tally["points"])
    for key in ("games", "hands", "folds", "all_tied", "forfeits"):
        v[key] = tally[key]
    v["out_of_turn"] = tally["out_of_turn_raises"]
    v["game_hands"] = sum(tally["hands_per_game"])
    for value, counts in tally["steps"].items():
        for name, count in zip(("reached", "accepted", "folded"), counts, strict=True):
            v[f"steps.{value}.{name}"] = count
    for special in ("one_team", "both_teams"):
        for i, count in enumerate(tally[special]):
            v[f"{special}.{i}"] = count
    v["concedes"] = tally.get("concedes", 0)
    for bet, slots in tally.get("side_bets", {}).items():  # G22-G32: per bet (simulate)
        for name, count in zip(_SIDE_SLOTS, slots, strict=False):  # a flor has two more
            v[f"side.{bet}.{name}"] = count
    return v


#: A side bet's per-match counters in a tally (engine.simulate), in order.
_SIDE_SLOTS = ("called", "accepted", "won_by_mao_team", "accepted_points", "points",
               "contested", "mao_any")


class Moments:
    """A run's per-match sums, sums of squares and sums of products (of every value with each
    denominator of a ratio: hands, games, a ladder step reached), added up match by match: what
    Welch's test and the delta method need, in memory that does not grow with the matches.
    Integers only, so the result does not depend on the order of addition."""

    def __init__(self) -> None:
        self.n = 0
        self.sums: dict[str, int] = {}
        self.squares: dict[str, int] = {}
        self.products: dict[tuple[str, str], int] = {}

    def add(self, tally: Tally) -> None:
        """Add one match (its tally)."""
        values = match_values(tally)
        self.n += 1
        for key, x in values.items():
            self.sums[key] = self.sums.get(key, 0) + x
            self.squares[key] = self.squares.get(key, 0) + x * x
        for den in ("hands", "games", *(k for k in values if k.endswith(
                (".reached", ".called", ".accepted")))):
            y = values[den]
            for key, x in values.items():
                self.products[key, den] = self.products.get((key, den), 0) + x * y

    def mean(self, key: str) -> Sample | None:
        """The per-match mean of value ``key``; ``None`` without it or with fewer than 2
        matches."""
        if self.n < 2 or key not in self.sums:
            return None
        return mean_sample(self.n, self.sums[key], self.squares[key])

    def ratio(self, num: str, den: str) -> Sample | None:
        """``sum num / sum den`` (see :func:`ratio_sample`); ``None`` without them, with fewer
        than 2 matches or a denominator of 0."""
        if self.n < 2 or (num, den) not in self.products or not self.sums[den]:
            return None
        return ratio_sample(self.n, self.sums[num], self.sums[den], self.squares[num],
                            self.squares[den], self.products[num, den])


# How each statistic is tested: ("proportion", value) the share of matches with value 1,
# ("mean", value) a per-match mean, ("ratio", num, den) sum num / sum den; and whether the
# statistic is a total over the matches (its difference and interval are the matches times
# those of the per-match mean).
Spec = tuple[str, ...]
_TEAM_SPECS: dict[str, tuple[Spec, bool]] = {
    "matches_won": (("proportion", "win.{t}"), True),
    "match_win_rate": (("proportion", "win.{t}"), False),
    "games_won": (("mean", "games_won.{t}"), True),
    "hands_won": (("mean", "hands_won.{t}"), True),
    "points": (("mean", "points.{t}"), True),
    "points_per_hand": (("ratio", "points.{t}", "hands"), False),
}
_RUN_SPECS: dict[str, tuple[Spec, bool]] = {
    "games": (("mean", "games"), True),
    "hands": (("mean", "hands"), True),
    "hands_per_game.mean": (("ratio", "game_hands", "games"), False),
    "points_per_hand": (("ratio", "points", "hands"), False),
    "folds.hands": (("mean", "folds"), True),
    "folds.rate": (("ratio", "folds", "hands"), False),
    "all_tied_hands.hands": (("mean", "all_tied"), True),
    "all_tied_hands.rate": (("ratio", "all_tied", "hands"), False),
    "forfeited_games": (("mean", "forfeits"), True),
    "out_of_turn_raises.raises": (("mean", "out_of_turn"), True),
    "out_of_turn_raises.per_hand": (("ratio", "out_of_turn", "hands"), False),
    "concedes.hands": (("mean", "concedes"), True),
    "concedes.rate": (("ratio", "concedes", "hands"), False),
}
_SIDE_SPECS: dict[str, tuple[Spec, bool]] = {
    "called": (("mean", "side.{b}.called"), True),
    "called_per_hand": (("ratio", "side.{b}.called", "hands"), False),
    "accepted": (("mean", "side.{b}.accepted"), True),
    "accept_rate": (("ratio", "side.{b}.accepted", "side.{b}.called"), False),
    "won_by_mao_team": (("mean", "side.{b}.won_by_mao_team"), True),
    "mao_team_rate": (("ratio", "side.{b}.won_by_mao_team", "side.{b}.accepted"), False),
    "points": (("mean", "side.{b}.points"), True),
    "average_points": (("ratio", "side.{b}.points", "side.{b}.called"), False),
    "average_accepted_points": (("ratio", "side.{b}.accepted_points", "side.{b}.accepted"),
                                False),
    # a flor (G38-G40): sung (its calls), contested, won by the mão's team contested or not
    "sung": (("mean", "side.{b}.called"), True),
    "contested": (("mean", "side.{b}.contested"), True),
    "contest_rate": (("ratio", "side.{b}.contested", "side.{b}.called"), False),
    "won_by_mao_team_any": (("mean", "side.{b}.mao_any"), True),
    "mao_team_rate_any": (("ratio", "side.{b}.mao_any", "side.{b}.called"), False),
}
_STEP_SPECS: dict[str, tuple[Spec, bool]] = {
    "reached": (("mean", "steps.{v}.reached"), True),
    "reached_per_hand": (("ratio", "steps.{v}.reached", "hands"), False),
    "accepted": (("mean", "steps.{v}.accepted"), True),
    "accept_rate": (("ratio", "steps.{v}.accepted", "steps.{v}.reached"), False),
    "folded": (("mean", "steps.{v}.folded"), True),
}
_SPECIAL_SLOTS = {
    "one_team": {"hands": 0, "won_by_team_at_score": 1, "won_by_other_team": 2, "nobody": 3,
                 "decided_play": 4, "decided_fold": 5},
    "both_teams": {"hands": 0, "won.0": 1, "won.1": 2, "nobody": 3},
}

TEST_NAMES = {"proportion": "two proportions", "mean": "welch", "ratio": "welch, delta method"}


def spec_of(metric: str) -> tuple[Spec, bool] | None:
    """How the statistic ``metric`` (a key of :func:`differences`) is tested, and whether it
    is a total over the matches; ``None`` for a statistic without a test.

    >>> spec_of("teams.1.points_per_hand")
    (('ratio', 'points.1', 'hands'), False)
    >>> spec_of("ladder.3.accepted")
    (('mean', 'steps.3.accepted'), True)
    """
    parts = metric.split(".")
    found: tuple[Spec, bool] | None = None
    fill: dict[str, str] = {}
    if parts[0] == "teams" and len(parts) == 3:
        found, fill = _TEAM_SPECS.get(parts[2]), {"t": parts[1]}
    elif parts[0] == "ladder" and len(parts) == 3:
        found, fill = _STEP_SPECS.get(parts[2]), {"v": parts[1]}
    elif parts[0] == "side_bets" and len(parts) == 3:
        found, fill = _SIDE_SPECS.get(parts[2]), {"b": parts[1]}
    elif parts[0] == "special_hands" and len(parts) >= 3 and parts[1] in _SPECIAL_SLOTS:
        rest = ".".join(parts[2:])
        if rest == "rate":
            found = (("ratio", f"{parts[1]}.0", "hands"), False)
        elif rest in _SPECIAL_SLOTS[parts[1]]:
            found = (("mean", f"{parts[1]}.{_SPECIAL_SLOTS[parts[1]][rest]}"), True)
    else:
        found = _RUN_SPECS.get(metric)
    if found is None:
        return None
    spec, total = found
    return tuple(part.format(**fill) for part in spec), total


def run_test(spec: Spec, a: Moments, b: Moments, alpha: float) -> Significance | None:
    """The test ``spec`` (see :func:`spec_of`) of run B against run A, for the per-match
    quantity (a proportion, a per-match mean, a ratio); ``None`` when it cannot be tested
    (a value missing in one run, fewer than 2 matches, a denominator of 0, nothing varies)."""
    kind, *keys = spec
    if kind == "proportion":
        if a.n < 2 or b.n < 2 or keys[0] not in a.sums or keys[0] not in b.sums:
            return None
        return two_proportions(a.sums[keys[0]], a.n, b.sums[keys[0]], b.n, alpha)
    sa, sb = (a.mean(keys[0]), b.mean(keys[0])) if kind == "mean" else \
        (a.ratio(keys[0], keys[1]), b.ratio(keys[0], keys[1]))
    if sa is None or sb is None:
        return None
    return welch(sa, sb, alpha)


def assess(rows: list[dict[str, Any]], a: Moments, b: Moments, *, alpha: float,
           correction: str) -> int:
    """Add to each row of :func:`differences` its ``test``, the ``interval`` of the difference
    at ``1 - alpha``, its ``p_value``, ``p_adjusted`` (Holm's over every distinct test made,
    with ``correction="holm"``; else the p-value) and ``significant`` (``None`` where the
    statistic is not tested). A total's interval is that of the whole run (both runs have the
    same number of matches). Return how many distinct tests were made (a count and its rate,
    as matches won and the match win rate, are one test)."""
    if a.n != b.n:
        raise ValueError("both runs must have the same number of matches")
    results: dict[Spec, Significance] = {}
    for row in rows:
        found = spec_of(row["metric"])
        row.update(test=None, interval=None, p_value=None, p_adjusted=None, significant=None)
        if found is None or row["a"] is None or row["b"] is None:
            continue
        spec, total = found
        if spec not in results:
            result = run_test(spec, a, b, alpha)
            if result is None:
                continue
            results[spec] = result
        result = results[spec].scaled(a.n) if total else results[spec]
        row.update(test=TEST_NAMES[spec[0]], interval=[round(result.low, 4),
                                                       round(result.high, 4)],
                   p_value=result.p_value, _spec=spec)
    specs = list(results)
    p_values = [results[s].p_value for s in specs]
    adjusted = dict(zip(specs, holm(p_values) if correction == "holm" else p_values,
                        strict=True))
    for row in rows:
        spec = row.pop("_spec", None)
        if spec is not None:
            row["p_adjusted"] = adjusted[spec]
            row["significant"] = adjusted[spec] <= alpha
    return len(specs)
