"""What a decision's :class:`~engine.analysis.evaluate.Table` says: each move's mean value and
its standard error, the best move, the played move's rank and loss, and the mark.

A move's value is its mean chance to win the match (ties: its mean hand points, then the order
the moves are offered in). The played move's **loss** is the best move's value less its own,
measured on the same playouts (the mean of the differences, and the standard error of that
mean: common random numbers make it small). A loss is marked by the highest threshold of
:data:`MARKS` that it exceeds by :data:`SIGNIFICANCE` standard errors (so a difference the
playouts cannot tell from noise is never marked, and a grade is given only when settled):

========== ==============================
mark       loss in chance to win the match
========== ==============================
inaccuracy 0.02 or more
mistake    0.05 or more (a hand of 1 point lost at 0-0 is about 0.056)
blunder    0.10 or more (a truco of 3 points lost at 0-0 is about 0.14)
========== ==============================

>>> from engine.analysis.evaluate import Table
>>> t = Table(((( 1.0, 2.0), (0.0, -1.0)), ((1.0, 2.0), (0.0, -1.0))))
>>> j = judge(t, 1)
>>> j["best"], j["rank"], j["loss"], j["mark"]
(0, 2, 1.0, 'blunder')
>>> judge(Table((((0.5, 1.0), (0.5, 1.0)),)), 1)["mark"] is None
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.analysis.evaluate import Table

#: The marks, the worst first, by the least loss (in chance to win the match) that earns them.
MARKS: tuple[tuple[str, float], ...] = (("blunder", 0.10), ("mistake", 0.05),
                                        ("inaccuracy", 0.02))
#: How many standard errors of the loss it must exceed to be marked.
SIGNIFICANCE = 2.0
#: A result seen at most this many times among a move's playouts is rare (:func:`settled`).
RARE = 2
#: Decimals kept in the report (values, errors, losses).
DIGITS = 4


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0 for fewer than two values).

    >>> [round(x, 4) for x in mean_se([1.0, 0.0, 1.0, 0.0])]
    [0.5, 0.2887]
    """
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def grade(loss: float) -> str | None:
    """The mark a loss earns by the thresholds of :data:`MARKS` (``None``: none).

    >>> grade(0.12), grade(0.05), grade(0.01)
    ('blunder', 'mistake', None)
    """
    return next((name for name, least in MARKS if loss >= least), None)


def settled(table: Table, played: int) -> bool:
    """Whether more playouts could hardly change the played move's mark: the loss's grade is
    the same at ``SIGNIFICANCE`` standard errors either side of it, and, the played move not
    the best, neither its outcomes nor the best's show a rare result (one seen once or
    twice: its frequency is then poorly measured)."""
    rows = table.rows
    if not rows or table.exact:
        return True
    k = len(rows[0])
    means = [(round(math.fsum(r[j][0] for r in rows), 9), round(math.fsum(r[j][1] for r in rows),
                                                                9), -j) for j in range(k)]
    best = max(range(k), key=lambda j: means[j])
    loss, se = mean_se([row[best][0] - row[played][0] for row in rows])
    if grade(loss - SIGNIFICANCE * se) != grade(loss + SIGNIFICANCE * se):
        return False
    if best == played:
        return True  # no loss to mark
    for j in (best, played):
        counts: dict[float, int] = {}
        for row in rows:
            counts[row[j][0]] = counts.get(row[j][0], 0) + 1
        if len(counts) > 1 and 1 <= len(rows) - max(counts.values()) <= RARE:
            return False
    return True


def _r(x: float) -> float:
    return round(x, DIGITS) + 0.0  # no -0.0


def judge(table: Table, played: int, count: int | None = None) -> dict[str, Any]:
    """The summary of ``table`` for the move at index ``played`` of ``count`` moves (by
    default as many as the table's rows have), as plain data:

    - ``moves``: each move's ``win``, ``win_se``, ``points``, ``points_se`` (``None`` where no
      playout was made);
    - ``best`` (an index) and the played move's ``rank`` (1 + the moves of a higher mean
      chance to win);
    - ``loss`` and ``loss_se`` (in chance to win the match), ``points_loss`` (in the hand's
      points), ``mark`` (``None``, ``inaccuracy``, ``mistake`` or ``blunder``);
    - ``samples`` (the playouts used) and ``dropped`` (the guesses left out)."""
    rows = table.rows
    k = len(rows[0]) if rows else count or 0
    if not rows:
        nothing = {"win": None, "win_se": None, "points": None, "points_se": None}
        return {"moves": [dict(nothing) for _ in range(k)], "best": None, "rank": None,
                "loss": None, "loss_se": None, "points_loss": None, "mark": None,
                "samples": 0, "dropped": table.dropped}
    moves: list[dict[str, Any]] = []
    means = []
    for j in range(k):
        win, win_se = mean_se([row[j][0] for row in rows])
        pts, pts_se = mean_se([row[j][1] for row in rows])
        means.append((round(win, 12), round(pts, 12)))
        moves.append({"win": _r(win), "win_se": _r(win_se), "points": _r(pts),
                      "points_se": _r(pts_se)})
    best = max(range(k), key=lambda j: (*means[j], -j))
    rank = 1 + sum(1 for j in range(k) if means[j][0] > means[played][0])
    loss, loss_se = mean_se([row[best][0] - row[played][0] for row in rows])
    points_loss = mean_se([row[best][1] - row[played][1] for row in rows])[0]
    mark = grade(loss - SIGNIFICANCE * loss_se)
    return {"moves": moves, "best": best, "rank": rank, "loss": _r(loss),
            "loss_se": _r(loss_se), "points_loss": _r(points_loss), "mark": mark,
            "samples": len(rows), "dropped": table.dropped}
