"""The impact of a rule change: recorded games and simulated statistics under two variants.

:func:`compare_logs` replays every log written under variant A with variant B, without editing
it (:func:`engine.replay.replay` with ``rules=``), and sorts each into: ``same`` (valid under B,
every checkpoint as under A), ``invalid`` (B rejects a line: the first one, and why), ``changed``
(B accepts every move but the outcome differs: the first differing checkpoint). A's outcome is
what the engine computes under A, so a log with checkpoints and a moves-only log are compared the
same way. Logs written under other variants are skipped and counted; a log that A already
rejects is reported as such (it says nothing about the change).

:func:`compare_simulations` lets the same bots play the same seeded matches under both variants,
puts the statistics of :func:`engine.simulate.run_simulation` side by side and tests each
difference on per-match numbers (:func:`two_proportions`, :func:`welch` on a per-match mean or on
a ratio's delta-method linearization, :func:`holm` for the many tests at once).

>>> report = compare_logs("mineiro", "mineiro-12", ["replays/mineiro-seed1.jsonl"])
>>> [(log.file, log.status) for log in report.logs]
[('replays/mineiro-seed1.jsonl', 'same')]
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.actions import Action
from engine.errors import VariantError
from engine.game import Checkpoint, Match, resolve_rules
from engine.logformat import dumps_event
from engine.logread import MAX_FILE_BYTES, LogItem, LogProblem, read_log
from engine.reading import read_regular
from engine.replay import Visitor, replay, resolve_variant
from engine.rules import Rules
from engine.simulate import Progress, Tally, run_simulation, wilson
from engine.variant import resolve_source

CORRECTIONS = ("holm", "none")
Status = Literal["same", "invalid", "changed", "invalid_under_a", "skipped"]
STATUSES: tuple[Status, ...] = ("same", "invalid", "changed", "invalid_under_a", "skipped")


# -- logs ----------------------------------------------------------------------------------------
@dataclass
class _Computed:
    """One checkpoint the engine computed: the line of the move that caused it, and the line of
    the log's own checkpoint standing for it (if the log has one)."""

    move_line: int
    checkpoint: Checkpoint
    line: int | None = None


class _Outcome(Visitor):
    """Collects every checkpoint the engine computes, and stops at the first problem (a
    checkpoint that disagrees is no problem when ``checkpoints_are_a``: they are A's)."""

    def __init__(self, checkpoints_are_a: bool) -> None:
        self.checkpoints_are_a = checkpoints_are_a
        self.computed: list[_Computed] = []
        self._last: list[_Computed] = []

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self._last = [_Computed(item.line, cp) for cp in checkpoints]
        self.computed.extend(self._last)

    def checkpoint(self, item: LogItem, engine: Checkpoint | None) -> None:
        for c in self._last:
            if c.checkpoint is engine:
                c.line = item.line

    def problem(self, problem: LogProblem) -> None:
        if self.checkpoints_are_a and problem.kind == "checkpoint":
            return
        raise problem


@dataclass(frozen=True)
class Difference:
    """The first checkpoint where B's outcome differs from A's: ``line`` is the log's line of
    that checkpoint (or of the move that caused it, in a log without it); ``expected`` is A's
    checkpoint, ``found`` B's (``None`` where one of them has none)."""

    line: int
    move_line: int
    expected: Checkpoint | None
    found: Checkpoint | None

    def as_dict(self) -> dict[str, Any]:
        """The difference as plain data."""
        return {"line": self.line, "move_line": self.move_line, "expected": self.expected,
                "found": self.found}


@dataclass
class LogComparison:
    """What variant B makes of one log: its ``status`` (one of :data:`STATUSES`), the first
    ``problem`` (for ``invalid`` under B or ``invalid_under_a``), the first ``difference`` of
    outcome, and for a skipped log the ``reason``."""

    file: str
    status: Status
    problem: LogProblem | None = None
    difference: Difference | None = None
    reason: str | None = None
    #: Whether the match is over at the end of the log, under A and under B.
    complete: tuple[bool, bool] = (False, False)

    def as_dict(self) -> dict[str, Any]:
        """The comparison as plain data (``truco compare --json``)."""
        return {"file": self.file, "status": self.status,
                "problem": None if self.problem is None else self.problem.as_dict(),
                "difference": None if self.difference is None else self.difference.as_dict(),
                "reason": self.reason, "complete": list(self.complete)}


@dataclass
class LogsReport:
    """Every log compared, in path order, and the variants' descriptions."""

    a: dict[str, str]
    b: dict[str, str]
    logs: list[LogComparison] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many logs have each status, and how many there are."""
        out = {"logs": len(self.logs)}
        for status in STATUSES:
            out[status] = sum(log.status == status for log in self.logs)
        return out

    @property
    def changed(self) -> bool:
        """Whether B rejects or changes any log of A."""
        return any(log.status in ("invalid", "changed") for log in self.logs)

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data (``truco compare --json``)."""
        return {"a": self.a, "b": self.b, "summary": self.counts(), "changed": self.changed,
                "logs": [log.as_dict() for log in self.logs]}


def describe(ref: str, rules: Rules) -> dict[str, str]:
    """A variant as the reports name it: as given, its name and its fingerprint."""
    return {"variant": ref, "name": rules.name, "variant_sha256": rules.fingerprint}


def log_files(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The logs under ``paths``: files as given, folders searched recursively for ``.jsonl``
    files, in sorted order."""
    out: list[str] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            out.extend(str(x) for x in sorted(p.rglob("*.jsonl")) if x.is_file())
        else:
            out.append(os.fspath(given))
    return out


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def written_under(ref: str, base: Path, a_source: Path, a: Rules) -> bool:
    """Whether a header's ``variant`` (relative to the log's folder ``base``) is variant A: the
    same name or file, or a variant with the same fingerprint. Raises
    :class:`~engine.errors.VariantError` when it names no loadable variant."""
    if _same_file(resolve_source(ref, base), a_source):
        return True
    return resolve_variant(ref, base).fingerprint == a.fingerprint


def first_difference(a: Sequence[_Computed], b: Sequence[_Computed],
                     until: int | None = None) -> Difference | None:
    """The first checkpoint where ``b`` (B's computed checkpoints) differs from ``a`` (A's),
    both in log order; with ``until``, only those caused by moves before that line."""
    if until is not None:
        a = [c for c in a if c.move_line < until]
        b = [c for c in b if c.move_line < until]
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x is not None and y is not None and x.move_line == y.move_line \
                and x.checkpoint == y.checkpoint:
            continue
        # The earlier move is where they part: its checkpoint has no counterpart in the other.
        if x is not None and (y is None or x.move_line < y.move_line):
            y = None
        elif y is not None and (x is None or y.move_line < x.move_line):
            x = None
        first = x or y
        assert first is not None
        line = (x.line if x is not None else None) or (y.line if y is not None else None)
        return Difference(line or first.move_line, first.move_line,
                          None if x is None else x.checkpoint,
                          None if y is None else y.checkpoint)
    return None


def _outcome(data: bytes, file: str, base: Path, rules: Rules | None
             ) -> tuple[_Outcome, LogProblem | None]:
    visitor = _Outcome(checkpoints_are_a=rules is not None)
    try:
        replay(data, file, visitor, base, rules=rules)
    except LogProblem as problem:
        return visitor, problem
    return visitor, None


def _complete(computed: Sequence[_Computed]) -> bool:
    return any(c.checkpoint["event"] == "match" for c in computed)


def compare_log(path: str, a_ref: str, a: Rules, b: Rules) -> LogComparison:
    """Replay the log at ``path`` under A (its header's variant) and under B, and compare."""
    p = Path(path)
    try:
        data = read_regular(p, MAX_FILE_BYTES)  # a regular file, bounded (engine.reading)
    except OSError as exc:
        return LogComparison(path, "skipped", reason=f"cannot read the log: {exc.strerror}")
    base = p.resolve().parent
    first = next(iter(read_log(data, path)))
    if isinstance(first, LogProblem):
        return LogComparison(path, "skipped", reason=f"no header: {first.message}")
    ref = first.data["variant"]
    try:
        ours = written_under(ref, base, resolve_source(a_ref), a)
    except VariantError as exc:
        return LogComparison(path, "skipped",
                             reason=f"variant {ref!r}: {str(exc).splitlines()[0]}")
    if not ours:
        return LogComparison(path, "skipped", reason=f"written under variant {ref!r}")
    under_a, problem = _outcome(data, path, base, None)
    if problem is not None:
        return LogComparison(path, "invalid_under_a", problem=problem)
    under_b, problem = _outcome(data, path, base, b)
    complete = (_complete(under_a.computed), _complete(under_b.computed))
    if problem is not None:
        diff = first_difference(under_a.computed, under_b.computed, until=problem.line)
        return LogComparison(path, "invalid", problem=problem, difference=diff,
                             complete=complete)
    diff = first_difference(under_a.computed, under_b.computed)
    return LogComparison(path, "same" if diff is None else "changed", difference=diff,
                         complete=complete)


def compare_logs(a: str, b: str, paths: Iterable[str | os.PathLike[str]]) -> LogsReport:
    """Compare every log under ``paths`` (files, or folders searched recursively) written under
    variant ``a`` with variant ``b`` (each a shipped name or a variant file). Raises
    :class:`~engine.errors.VariantError` if either variant is invalid.

    >>> report = compare_logs("mineiro-12", "mineiro", ["replays/mineiro-12-special.jsonl"])
    >>> log = report.logs[0]
    >>> log.status, log.problem.line, log.problem.kind
    ('invalid', 12, 'illegal')
    """
    a_rules, b_rules = resolve_rules(a), resolve_rules(b)
    report = LogsReport(describe(a, a_rules), describe(b, b_rules))
    for path in log_files(paths):
        report.logs.append(compare_log(path, a, a_rules, b_rules))
    return report


def _checkpoint_text(cp: Checkpoint | None, kind: str) -> str:
    return f"no {kind} checkpoint" if cp is None else dumps_event(cp)


def difference_text(d: Difference, a: str, b: str) -> str:
    """A :class:`Difference` in words: ``a gives ..., b gives ...``."""
    kind = (d.expected or d.found or {"event": "?"})["event"]
    return (f"{a} gives {_checkpoint_text(d.expected, kind)}, "
            f"{b} gives {_checkpoint_text(d.found, kind)}")


def labels(report_a: dict[str, str], report_b: dict[str, str]) -> tuple[str, str]:
    """How the text output calls the two variants: their names, or as given where the names
    are the same."""
    if report_a["name"] != report_b["name"]:
        return report_a["name"], report_b["name"]
    return report_a["variant"], report_b["variant"]


def format_logs(report: LogsReport) -> str:
    """A :class:`LogsReport` as text: one line per log of A (``file:line: ...`` where B rejects
    or changes it), then a summary."""
    a, b = labels(report.a, report.b)
    out = [f"logs of {a} replayed under {b}:"]
    for log in report.logs:
        d, problem = log.difference, log.problem
        if log.status == "same":
            out.append(f"{log.file}: same outcome")
        elif log.status == "changed" and d is not None:
            out.append(f"{log.file}:{d.line}: outcome changed: {difference_text(d, a, b)}")
        elif log.status == "invalid" and problem is not None:
            text = f"{log.file}:{problem.line}: invalid under {b}: {problem.message}"
            if d is not None:
                text += f"; the outcome changed first at line {d.line}: {difference_text(d, a, b)}"
            out.append(text)
        elif log.status == "invalid_under_a" and problem is not None:
            out.append(f"{log.file}:{problem.line}: invalid under {a} already, not compared: "
                       f"{problem.message}")
    c = report.counts()
    compared = c["same"] + c["invalid"] + c["changed"]
    out.append(f"{compared} log{'s' * (compared != 1)} of {a}: {c['same']} same outcome, "
               f"{c['invalid']} invalid under {b}, {c['changed']} outcome changed; "
               f"{c['invalid_under_a']} invalid under {a} already; {c['skipped']} skipped "
               "(other variants or no readable header)")
    return "\n".join(out) + "\n"


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


# -- simulations ---------------------------------------------------------------------------------
_TEAM = (("matches_won", "matches won"), ("match_win_rate", "match win rate"),
         ("games_won", "games won"), ("hands_won", "hands won"), ("points", "points"),
         ("points_per_hand", "points per hand"))
_STEP = (("reached", "reached"), ("reached_per_hand", "reached per hand"),
         ("accepted", "accepted"), ("accept_rate", "accept rate"), ("folded", "folded"))
_ONE = (("hands", "hands"), ("rate", "rate"), ("won_by_team_at_score", "won by team at score"),
        ("won_by_other_team", "won by other team"), ("nobody", "won by nobody"),
        ("decided_play", "decided to play"), ("decided_fold", "decided to fold"))
_FLOR = (("sung", "sung"), ("contested", "contested"), ("contest_rate", "contest rate"),
         ("won_by_mao_team_any", "won by the mão's team, contested or not"),
         ("mao_team_rate_any", "mão's team rate, contested or not"))
_SIDE = (("called", "called"), ("called_per_hand", "called per hand"),
         ("accepted", "accepted"), ("accept_rate", "accept rate"),
         ("won_by_mao_team", "won by the mão's team"), ("mao_team_rate", "mão's team rate"),
         ("points", "points"), ("average_points", "average points"),
         ("average_accepted_points", "average points accepted"))

Metric = tuple[str, str, int | float | None]  # key, label, value


def _get(data: Any, key: str) -> Any:
    for part in key.split("."):
        if isinstance(data, list):
            data = data[int(part)] if int(part) < len(data) else None
        elif isinstance(data, dict):
            data = data.get(part)
        if data is None:
            return None
    return data


def _metric_keys(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str]]:
    """Every number of two statistics dicts worth comparing, as ``(key, label)`` in reading
    order; ladder steps are the union of both ladders, by value."""
    teams = max(len(a["teams"]), len(b["teams"]))  # every team of either variant
    keys = [(f"teams.{t}.{k}", f"team {t} {label}") for t in range(teams) for k, label in _TEAM]
    keys += [("games", "games"), ("hands", "hands"), ("hands_per_game.mean", "hands per game"),
             ("points_per_hand", "points per hand"), ("folds.hands", "hands ended by a fold"),
             ("folds.rate", "fold rate"), ("all_tied_hands.hands", "all-tied hands"),
             ("all_tied_hands.rate", "all-tied rate"),
             ("forfeited_games", "games lost by a forbidden raise"),
             ("out_of_turn_raises.raises", "raises out of turn"),
             ("out_of_turn_raises.per_hand", "raises out of turn per hand")]
    steps: dict[int, str] = {}
    for stats in (a, b):
        for s in stats["ladder"]:
            steps.setdefault(s["value"], s["name"])
    for value in sorted(steps):
        keys += [(f"ladder.{value}.{k}", f"{steps[value]} ({value}) {label}") for k, label in _STEP]
    if "concedes" in a or "concedes" in b:
        keys += [("concedes.hands", "hands conceded"), ("concedes.rate", "concede rate")]
    bets = list(dict.fromkeys(s["bet"] for stats in (a, b) for s in stats.get("side_bets", [])))
    flores = {s["bet"] for stats in (a, b) for s in stats.get("side_bets", []) if "sung" in s}
    for bet in bets:
        rows = _SIDE + (_FLOR if bet in flores else ())
        keys += [(f"side_bets.{bet}.{k}", f"{bet} {label}") for k, label in rows]
    for special, fields in (("one_team", _ONE), ("both_teams", (
            ("hands", "hands"), ("rate", "rate"), ("won.0", "won by team 0"),
            ("won.1", "won by team 1"), ("nobody", "won by nobody")))):
        name = a["special_hands"][special]["name"] or b["special_hands"][special]["name"]
        keys += [(f"special_hands.{special}.{k}", f"{name} {label}") for k, label in fields]
    return keys


def _ladder_by_value(stats: dict[str, Any]) -> dict[str, Any]:
    """The statistics with the ladder by step value and the side bets by name (so that a
    metric key reaches them)."""
    return {**stats, "ladder": {str(s["value"]): s for s in stats["ladder"]},
            "side_bets": {s["bet"]: s for s in stats.get("side_bets", [])}}


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """The statistics of two runs (:func:`engine.simulate.run_simulation`) side by side: one
    row per number, with B minus A (``difference``) and that relative to A (``relative``,
    ``None`` where A is 0 or either side lacks the number).

    >>> stats = run_simulation("paulista", games=2, seed=1, bots=["random"])
    >>> rows = differences(stats, stats)
    >>> rows[0]["label"], rows[0]["difference"], [r for r in rows if r["difference"]]
    ('team 0 matches won', 0, [])
    """
    la, lb = _ladder_by_value(a), _ladder_by_value(b)
    rows = []
    for key, label in _metric_keys(a, b):
        x, y = _get(la, key), _get(lb, key)
        diff = None if x is None or y is None else round(y - x, 4)
        rel = None if diff is None or not x else round(diff / x, 4)
        rows.append({"metric": key, "label": label, "a": x, "b": y, "difference": diff,
                     "relative": rel})
    return rows


def compare_simulations(a: str, b: str, *, games: int, seed: int, bots: Sequence[str],
                        jobs: int = 1, progress: Progress | None = None, alpha: float = 0.05,
                        correction: str = "holm") -> dict[str, Any]:
    """Let ``bots`` play ``games`` matches of variant ``a`` and the same matches (same seeds,
    same bots, same bot seeds) of ``b``; return both statistics and their :func:`differences`,
    each tested (:func:`assess`) at ``alpha`` with ``correction`` (``"holm"`` or ``"none"``),
    ``counts`` of what differs, and ``changed``: whether any difference is significant.
    ``progress(done, total)`` counts the matches of both runs.

    >>> result = compare_simulations("paulista", "paulista", games=3, seed=1, bots=["random"])
    >>> result["changed"], result["counts"]["significant"]
    (False, 0)
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, not {correction!r}")

    def half(offset: int) -> Progress | None:
        if progress is None:
            return None
        report = progress
        return lambda done, _total: report(offset + done, 2 * games)

    ma, mb = Moments(), Moments()
    sa = run_simulation(a, games=games, seed=seed, bots=bots, jobs=jobs, progress=half(0),
                        on_tally=ma.add)
    sb = run_simulation(b, games=games, seed=seed, bots=bots, jobs=jobs, progress=half(games),
                        on_tally=mb.add)
    rows = differences(sa, sb)
    tests = assess(rows, ma, mb, alpha=alpha, correction=correction)
    shown = [r for r in rows if r["a"] or r["b"]]
    tested = [r for r in shown if r["significant"] is not None]
    significant = sum(bool(r["significant"]) for r in tested)
    counts = {"statistics": len(shown), "differ": sum(r["a"] != r["b"] for r in shown),
              "tested": len(tested), "significant": significant,
              "within_noise": len(tested) - significant, "not_tested": len(shown) - len(tested),
              "tests": tests}
    return {"a": sa, "b": sb, "alpha": alpha, "confidence": round(1 - alpha, 10),
            "correction": correction, "counts": counts, "differences": rows,
            "changed": significant > 0}


def _number(x: int | float | None, signed: bool = False) -> str:
    if x is None:
        return "-"
    if isinstance(x, int):
        return f"{x:+d}" if signed and x else str(x)
    text = f"{x:+.4f}" if signed else f"{x:.4f}"
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text


def _interval(row: dict[str, Any]) -> str:
    if row["interval"] is None:
        return ""
    places = 1 if isinstance(row["a"], int) else 4
    low, high = row["interval"]
    return f"{low:+.{places}f} to {high:+.{places}f}"


def _p(p: float | None) -> str:
    if p is None:
        return ""
    return "<0.0001" if p < 0.0001 else f"{p:.4f}"


def format_simulations(result: dict[str, Any], a: str, b: str) -> str:
    """:func:`compare_simulations` as text: a table of every number that is not 0 in both
    runs, A and B side by side with the difference, its relative size, its interval and
    p-value and ``*`` where it is significant, then how many differ significantly."""
    from engine.tui import columns

    sa, alpha, holm_ = result["a"], result["alpha"], result["correction"] == "holm"
    confidence = f"{100 * result['confidence']:.10g}%"
    rows: list[list[object]] = [["", a, b, "difference", "relative", f"{confidence} interval",
                                 "p (Holm)" if holm_ else "p", ""]]
    for r in result["differences"]:
        if not r["a"] and not r["b"]:
            continue
        rel = "-" if r["relative"] is None else f"{100 * r['relative']:+.1f}%"
        rows.append([r["label"], _number(r["a"]), _number(r["b"]),
                     _number(r["difference"], signed=True), rel if r["difference"] else "",
                     _interval(r), _p(r["p_adjusted"]), "*" if r["significant"] else ""])
    c = result["counts"]
    head = (f"{a} vs {b}: {sa['matches']} matches each, seed {sa['seed']}, bots by seat: "
            f"{', '.join(sa['bots'])}")
    if not c["differ"]:
        tail = f"no difference in {c['statistics']} statistics"
    elif not c["tests"]:
        tail = (f"{c['differ']} of {c['statistics']} statistics differ; none can be tested "
                "(a test needs 2 matches or more)")
    else:
        how = (f"Holm's correction over {c['tests']} tests" if holm_
               else f"no correction for {c['tests']} tests")
        tail = (f"{c['significant']} of {c['statistics']} statistics differ significantly (*) "
                f"at alpha {alpha:g}, {how}; {c['within_noise']} within noise")
        if c["not_tested"]:
            tail += f", {c['not_tested']} not tested"
    return "\n".join([head, "", columns(rows), "", tail]) + "\n"
