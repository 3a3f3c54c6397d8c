"""Analysis of a game log, as chess players analyse theirs (``truco analyze LOG``): every
decision of a seat valued from that seat's observation, each legal move's chance to win the
match and expected hand points with their standard errors, the played move ranked, mistakes
marked (docs/analysis.md).

The package's modules, lowest first: :mod:`engine.analysis.evaluate` (one decision's moves
played out), :mod:`engine.analysis.judge` (means, errors, the loss and its mark),
:mod:`engine.analysis.walk` (a log's decisions), :mod:`engine.analysis.run` (a whole log, on an
executor) and :mod:`engine.analysis.report` (the text report).
"""

from __future__ import annotations

from engine.analysis.evaluate import DEFAULT_PLAYOUTS, Table, fair_values, hindsight_values
from engine.analysis.judge import MARKS, SIGNIFICANCE, judge
from engine.analysis.run import analyse, value_decision
from engine.analysis.walk import Decision, decision_at, decisions

__all__ = ["DEFAULT_PLAYOUTS", "MARKS", "SIGNIFICANCE", "Decision", "Table", "analyse",
           "decision_at", "decisions", "fair_values", "hindsight_values", "judge",
           "value_decision"]
