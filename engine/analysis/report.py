"""The text report of an analysis (:func:`engine.analysis.run.analyse`): per seat its
decisions, accuracy and worst moves (where, and what was better), then every decision on a line.

>>> from engine.analysis.run import analyse
>>> report = analyse(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...                  b'{"event": "play", "seat": 1, "card": "2h"}\\n', "a.jsonl", playouts=4)
>>> print(text_report(report).splitlines()[0])
Analysis of a.jsonl (paulista, seed 7): 1 decision, 4 playouts a move (the log is incomplete)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.analysis.run import worst


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s" if not word.endswith("y") \
        else f"{n} {word[:-1]}ies"


def _win(entry: dict[str, Any]) -> str:
    return f"{entry['win']:.3f} ± {entry['win_se']:.3f}"


def _where(d: dict[str, Any]) -> str:
    score = "-".join(map(str, d["score"]))
    cards = " ".join(d["cards"]) if d["cards"] is not None else "blind"
    return (f"line {d['line']}, hand {d['hand']}, round {d['round']}, score {score}, "
            f"worth {d['value']}, holding {cards}, vira {d['vira'] or '-'}")


def text_report(report: dict[str, Any]) -> str:
    """The report as text (ends with a newline)."""
    return "".join(text_chunks(report, report["decisions"], len(report["decisions"]),
                               lambda seat: worst(report, seat)))


def text_chunks(report: dict[str, Any], decisions: Iterable[dict[str, Any]], count: int,
                worst_of: Callable[[int], Iterable[dict[str, Any]]]) -> Iterator[str]:
    """:func:`text_report` in pieces, from the report without its decisions, the
    ``decisions`` as they are read again (``count`` of them) and each seat's worst
    (:meth:`engine.analysis.run.Summary.worst`): what ``truco analyze`` prints, one decision
    at a time."""
    seed = report["log_seed"]
    how = f"seed {seed}" if seed is not None else "recorded deals"
    head = (f"Analysis of {report['file']} ({report['variant']}, {how}): "
            f"{_plural(count, 'decision')}, {report['playouts']} playouts a move")
    if not report["complete"]:
        head += " (the log is incomplete)"
    marks = ", ".join(f"{name} {least:g}" for name, least in reversed(report["marks"].items()))
    lines = [head, f"Marks, by the loss in chance to win the match: {marks} (and more than "
             f"{report['significance']:g} standard errors)", ""]
    for seat in report["seats"]:
        lines += _seat_lines(report, seat, worst_of(seat["seat"]))
    lines.append("Decisions (win: the chance to win the match, ± its standard error; points: "
                 "the hand's, net; then every legal move):")
    yield "\n".join(lines) + "\n"
    for d in decisions:
        text = _decision_line(d, report["hindsight"]) + "\n"
        if d["best"] is not None:
            text += "        " + " · ".join(
                f"{m['move']} {_win(m)} {m['points']:+.2f}" for m in d["moves"]) + "\n"
        yield text


def json_chunks(report: dict[str, Any], decisions: Iterable[dict[str, Any]]) -> Iterator[str]:
    """``json.dumps(report, ensure_ascii=False, indent=1) + "\\n"`` of the report with its
    ``decisions`` (its last key) in pieces: the report without them, then one decision at a
    time as they are read again. The same bytes as the whole report dumped at once.

    >>> import json
    >>> r = {"a": 1, "decisions": [{"b": [1, 2]}, {"c": None}]}
    >>> "".join(json_chunks({"a": 1}, r["decisions"])) == json.dumps(r, indent=1) + "\\n"
    True
    """
    head = json.dumps({**report, "decisions": []}, ensure_ascii=False, indent=1)
    empty = "[]\n}"
    assert head.endswith(empty)
    sep = head[:-len(empty)] + "[\n"
    for d in decisions:
        text = json.dumps(d, ensure_ascii=False, indent=1)
        yield sep + "\n".join("  " + line for line in text.split("\n"))
        sep = ",\n"
    yield ("\n ]\n}\n" if sep == ",\n" else head + "\n")


def _seat_lines(report: dict[str, Any], seat: dict[str, Any],
                worst_ones: Iterable[dict[str, Any]]) -> list[str]:
    s = seat["seat"]
    team = report["team_of"][s]
    if not seat["decisions"]:
        return [f"{seat['name']} (seat {s}, team {team}): no decision", ""]
    counts = ", ".join(_plural(seat[m], m) for m in ("blunder", "mistake", "inaccuracy"))
    out = [f"{seat['name']} (seat {s}, team {team}): {_plural(seat['decisions'], 'decision')}, "
           f"accuracy {seat['accuracy']:.1f}%, best move {seat['best_played']} times, mean "
           f"loss {seat['mean_loss']:.3f}; {counts}"]
    for d in worst_ones:
        played = d["moves"][d["legal"].index(d["played"])]
        best = d["moves"][d["best"]]
        out.append(f"  {d['mark']} ({_where(d)}): played {d['played']} (win {_win(played)}), "
                   f"better {d['best_move']} (win {_win(best)}): loses {d['loss']:.3f}")
    out.append("")
    return out


def _decision_line(d: dict[str, Any], hindsight: bool) -> str:
    if d["best"] is None:
        return f"  line {d['line']:>4}  seat {d['seat']}  {d['played']}: not valued"
    played = d["moves"][d["legal"].index(d["played"])]
    text = (f"  line {d['line']:>4}  seat {d['seat']}  {d['played']:<22} "
            f"rank {d['rank']}/{len(d['legal'])}  win {_win(played)}  "
            f"points {played['points']:+.2f}")
    if d["rank"] != 1 or d["loss"] > 0:
        text += f"  best {d['best_move']} (-{d['loss']:.3f})"
    if d["mark"] is not None:
        text += f"  {d['mark'].upper()}"
    if hindsight:
        h = d["hindsight"]
        text += f"  | hindsight: best {h['best_move']}, loss {h['loss']:.3f}"
    return text
