"""The annotations ``truco replay LOG --html FILE --analysis A.json`` adds to the viewer: what
``truco analyze LOG --json`` found at each decision, by the log line of its move, for the
evaluation bar along the game and the marks in the move list (engine/viewer/assets).

The page decides nothing: it shows the analysis's numbers, so every one is checked first
(:func:`overlay`). An analysis is tied to its log by the log's digest (``log_sha256``,
:class:`engine.replay.identity.LogDigest`): an analysis of another log, however like this
one, is refused with :class:`AnalysisMismatch`; so is a file that is not an analysis, or one
whose values the page could not draw (a chance to win that is not a number from 0 to 1, a
mark that is not one of the analysis's marks, a decision at a line with no move...), each
named by its key path.

>>> steps = [{"k": "deal", "ln": 2}, {"k": "move", "ln": 2}]
>>> info = {"teams": 2, "team_of": [0, 1, 0, 1]}
>>> a = {"analysis": 2, "log_sha256": "ab" * 32, "teams": 2, "hindsight": False,
...      "marks": {"blunder": 0.1}, "decisions": [{"line": 2, "seat": 1, "team": 1,
...      "played": "play 1 2h", "legal": ["play 1 2h"], "moves": [{"win": 0.4}], "best": 0,
...      "best_move": "play 1 2h", "loss": 0.0, "mark": None}]}
>>> overlay(a, steps, info, "ab" * 32)["by_line"]["2"][:5]
[1, 1, 0.4, 0.4, 0.0]
>>> overlay(a, steps, info, "cd" * 32)
Traceback (most recent call last):
...
engine.viewer.annotations.AnalysisMismatch: the analysis is of another log: ...
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from engine.errors import TrucoError

#: The analysis format this viewer reads (``"analysis": 2``: with its log's digest).
FORMAT = 2
#: What a mark's name may be (it becomes a class name in the page).
_MARK = re.compile(r"[a-z][a-z_]{0,31}")


class AnalysisMismatch(TrucoError):
    """The ``--analysis`` file is not an analysis of this log (exit 1)."""


def _bad(path: str, expected: str, found: object) -> AnalysisMismatch:
    shown = repr(found)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return AnalysisMismatch(f"not an analysis of truco analyze --json: {path}: expected "
                            f"{expected}, found {shown}")


def _int(d: dict[str, Any], key: str, path: str, below: int) -> int:
    v = d.get(key)
    if type(v) is not int or not 0 <= v < below:
        raise _bad(f"{path}.{key}", f"a whole number from 0 to {below - 1}", v)
    return v


def _number(v: object, path: str, low: float, high: float, *, none: bool = False) -> None:
    if v is None and none:
        return
    if not (isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high
            and math.isfinite(v)):
        raise _bad(path, f"a number from {low:g} to {high:g}" + (" or null" if none else ""), v)


def _text(v: object, path: str, among: Sequence[str] | None = None, *,
          none: bool = False) -> None:
    if v is None and none:
        return
    if not isinstance(v, str) or (among is not None and v not in among):
        what = "one of " + ", ".join(map(repr, among[:6])) if among is not None else "a string"
        raise _bad(path, what + (" or null" if none else ""), v)


def _header(analysis: object, info: dict[str, Any], digest: str) -> dict[str, Any]:
    if not isinstance(analysis, dict) or analysis.get("analysis") not in (1, FORMAT):
        raise AnalysisMismatch(f"not an analysis (truco analyze --json, \"analysis\": {FORMAT})")
    if analysis["analysis"] != FORMAT or "log_sha256" not in analysis:
        raise AnalysisMismatch("an analysis of format 1 names no digest of its log: make it "
                               "again with truco analyze LOG --json")
    if analysis["log_sha256"] != digest:
        raise AnalysisMismatch("the analysis is of another log: its log_sha256 is "
                               f"{str(analysis['log_sha256'])[:16]}..., this log's "
                               f"{digest[:16]}... (the header, deals and moves differ)")
    if analysis.get("teams") != info["teams"]:
        raise _bad("teams", f"{info['teams']}, the log's", analysis.get("teams"))
    marks = analysis.get("marks")
    if not isinstance(marks, dict):
        raise _bad("marks", "an object of marks", marks)
    for name, least in marks.items():
        if not _MARK.fullmatch(name):
            raise _bad(f"marks.{name}", "a mark's name: lower-case letters and '_'", name)
        _number(least, f"marks.{name}", 0, 1)
    if not isinstance(analysis.get("decisions"), list):
        raise _bad("decisions", "a list", analysis.get("decisions"))
    return marks


def overlay(analysis: object, steps: Sequence[dict[str, Any]],
            info: dict[str, Any], digest: str,
            words: Callable[[str], str] | None = None) -> dict[str, Any]:
    """The page's ``an`` data from ``analysis`` (the JSON of ``truco analyze --json``), checked
    against the log's ``steps``, header ``info`` (its ``teams`` and ``team_of``) and
    ``digest`` (:class:`~engine.replay.identity.LogDigest`): ``teams``, ``marks`` and
    ``by_line`` (per decision line: seat, team, the played move's chance to win, the best
    move's, the loss, the mark, the played move, the best move, and in hindsight the best
    move and the loss, or ``None``): the moves in the table's words where ``words`` turns a
    notation into them (:func:`engine.telling.move_words`). Raises :class:`AnalysisMismatch`."""
    marks = _header(analysis, info, digest)
    assert isinstance(analysis, dict)
    moves = {s["ln"] for s in steps if s.get("k") == "move"}
    by_line: dict[str, list[Any]] = {}
    for k, d in enumerate(analysis["decisions"]):
        at = f"decisions[{k}]"
        if not isinstance(d, dict):
            raise _bad(at, "an object", d)
        line = d.get("line")
        if type(line) is not int or line not in moves:
            raise AnalysisMismatch(f"the analysis is of another log: {at} is at line "
                                   f"{line!r}, where the log has no move")
        entry = _entry(d, at, info, list(marks))
        if words is not None:  # the played, best and hindsight's best moves, for people
            entry[6:9] = [m if m is None else words(m) for m in entry[6:9]]
        by_line[str(line)] = entry
    return {"teams": info["teams"], "marks": marks, "by_line": by_line}


def _entry(d: dict[str, Any], at: str, info: dict[str, Any], marks: list[str]) -> list[Any]:
    team_of = info["team_of"]
    seat = _int(d, "seat", at, len(team_of))
    if d.get("team") != team_of[seat]:
        raise _bad(f"{at}.team", f"{team_of[seat]}, seat {seat}'s team", d.get("team"))
    legal = d.get("legal")
    if not isinstance(legal, list) or not legal or not all(isinstance(m, str) for m in legal):
        raise _bad(f"{at}.legal", "a list of moves", legal)
    _text(d.get("played"), f"{at}.played", legal)
    moves = d.get("moves")
    if not isinstance(moves, list) or len(moves) != len(legal) or not all(
            isinstance(m, dict) for m in moves):
        raise _bad(f"{at}.moves", f"a list of {len(legal)} objects, one per legal move", moves)
    best = d.get("best")
    _text(d.get("mark"), f"{at}.mark", marks, none=True)
    hind = d.get("hindsight")
    if hind is not None:
        if not isinstance(hind, dict):
            raise _bad(f"{at}.hindsight", "an object", hind)
        _text(hind.get("best_move"), f"{at}.hindsight.best_move", legal, none=True)
        _number(hind.get("loss"), f"{at}.hindsight.loss", -1, 1, none=True)
    if best is None:  # no playout valued it
        return [seat, team_of[seat], None, None, None, None, d["played"], None, None, None]
    if type(best) is not int or not 0 <= best < len(legal):
        raise _bad(f"{at}.best", f"the index of a legal move (0 to {len(legal) - 1}) or null",
                   best)
    _text(d.get("best_move"), f"{at}.best_move", [legal[best]])
    for j, m in enumerate(moves):
        _number(m.get("win"), f"{at}.moves[{j}].win", 0, 1)
    _number(d.get("loss"), f"{at}.loss", -1, 1)
    played = moves[legal.index(d["played"])]["win"]
    return [seat, team_of[seat], played, moves[best]["win"], d["loss"], d.get("mark"),
            d["played"], d["best_move"], hind["best_move"] if hind else None,
            hind["loss"] if hind else None]
