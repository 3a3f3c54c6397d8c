"""The annotations ``truco replay LOG --html FILE --analysis A.json`` adds to the viewer: what
``truco analyze LOG --json`` found at each decision, by the log line of its move, for the
evaluation bar along the game and the marks in the move list (engine/viewer/assets).

The page decides nothing: it shows the analysis's numbers. An analysis of another log (another
variant or seed, or decisions at lines where this log has no move) is refused with
:class:`AnalysisMismatch`; a file that is not an analysis, with the same error.

>>> steps = [{"k": "deal", "ln": 2}, {"k": "move", "ln": 2}]
>>> info = {"variant": "paulista", "seed": 7}
>>> a = {"analysis": 1, "variant": "paulista", "log_seed": 7, "teams": 2, "hindsight": False,
...      "marks": {"blunder": 0.1}, "decisions": [{"line": 2, "seat": 1, "team": 1,
...      "played": "play 1 2h", "legal": ["play 1 2h"], "moves": [{"win": 0.4}], "best": 0,
...      "best_move": "play 1 2h", "loss": 0.0, "mark": None}]}
>>> overlay(a, steps, info)["by_line"]["2"][:5]
[1, 1, 0.4, 0.4, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import TrucoError

#: The analysis format this viewer reads (``"analysis": 1``).
FORMAT = 1


class AnalysisMismatch(TrucoError):
    """The ``--analysis`` file is not an analysis of this log (exit 1)."""


def overlay(analysis: object, steps: Sequence[dict[str, Any]],
            info: dict[str, Any]) -> dict[str, Any]:
    """The page's ``an`` data from ``analysis`` (the JSON of ``truco analyze --json``), checked
    against the log's ``steps`` and header ``info``: ``teams``, ``marks`` and ``by_line``
    (per decision line: seat, team, the played move's chance to win, the best move's, the
    loss, the mark, the played move, the best move, and in hindsight the best move and the
    loss, or ``None``)."""
    if not isinstance(analysis, dict) or analysis.get("analysis") != FORMAT or not isinstance(
            analysis.get("decisions"), list):
        raise AnalysisMismatch(f"not an analysis (truco analyze --json, \"analysis\": {FORMAT})")
    for key, mine in (("variant", "variant"), ("log_seed", "seed")):
        if analysis.get(key) != info.get(mine):
            raise AnalysisMismatch(f"the analysis is of another log: its {key} is "
                                   f"{analysis.get(key)!r}, the log's {info.get(mine)!r}")
    moves = {s["ln"] for s in steps if s.get("k") == "move"}
    by_line: dict[str, list[Any]] = {}
    try:
        for d in analysis["decisions"]:
            if d["line"] not in moves:
                raise AnalysisMismatch(f"the analysis is of another log: it has a decision at "
                                       f"line {d['line']}, where the log has no move")
            by_line[str(d["line"])] = _entry(d)
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise AnalysisMismatch(f"not an analysis (truco analyze --json): {exc!r}") from None
    return {"teams": analysis.get("teams", 2), "marks": analysis.get("marks", {}),
            "by_line": by_line}


def _entry(d: dict[str, Any]) -> list[Any]:
    if d["best"] is None:  # no playout valued it
        return [d["seat"], d["team"], None, None, None, None, d["played"], None, None, None]
    played = d["moves"][d["legal"].index(d["played"])]["win"]
    best = d["moves"][d["best"]]["win"]
    h = d.get("hindsight")
    return [d["seat"], d["team"], played, best, d["loss"], d["mark"], d["played"],
            d["best_move"], h["best_move"] if h else None, h["loss"] if h else None]
