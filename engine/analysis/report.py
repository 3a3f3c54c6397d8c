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
from engine.i18n import _, decimal, ngettext, number
from engine.rules import Rules
from engine.telling import move_words
from engine.words import pretty

#: A move's notation in words (:func:`engine.telling.move_words`), or as it is.
Say = Callable[[str], str]


def _count(n: int, what: str) -> str:
    """``n`` decisions or marks, in the reader's language."""
    forms = {
        "decision": ngettext("{n} decision", "{n} decisions", n),
        "blunder": ngettext("{n} blunder", "{n} blunders", n),
        "mistake": ngettext("{n} mistake", "{n} mistakes", n),
        "inaccuracy": ngettext("{n} inaccuracy", "{n} inaccuracies", n),
    }
    return forms[what].format(n=n)


def _mark(mark: str) -> str:
    return {"blunder": _("blunder"), "mistake": _("mistake"),
            "inaccuracy": _("inaccuracy")}.get(mark, mark)


def _win(entry: dict[str, Any]) -> str:
    return decimal(f"{entry['win']:.3f} ± {entry['win_se']:.3f}")


def _where(d: dict[str, Any], table: bool) -> str:
    """Where a decision was (``table``: its cards for people, ``A♣``, else as logged)."""
    card = pretty if table else str
    score = "-".join(map(str, d["score"]))
    cards = " ".join(map(card, d["cards"])) if d["cards"] is not None else _("blind")
    return _("line {line}, hand {hand}, round {round}, score {score}, worth {value}, holding "
             "{cards}, vira {vira}").format(line=d["line"], hand=d["hand"], round=d["round"],
                                            score=score, value=d["value"], cards=cards,
                                            vira=card(d["vira"]) if d["vira"] else "-")


def text_report(report: dict[str, Any], rules: Rules | None = None) -> str:
    """The report as text (ends with a newline), in the reader's language; with the log's
    ``rules`` each move is named in the table's words (``seis (raise to 6)``), else in the
    log's notation (``raise 1 6``)."""
    return "".join(text_chunks(report, report["decisions"], len(report["decisions"]),
                               lambda seat: worst(report, seat), rules))


def text_chunks(report: dict[str, Any], decisions: Iterable[dict[str, Any]], count: int,
                worst_of: Callable[[int], Iterable[dict[str, Any]]],
                rules: Rules | None = None) -> Iterator[str]:
    """:func:`text_report` in pieces, from the report without its decisions, the
    ``decisions`` as they are read again (``count`` of them) and each seat's worst
    (:meth:`engine.analysis.run.Summary.worst`): what ``truco analyze`` prints, one decision
    at a time."""
    say: Say = (lambda n: move_words(n, rules)) if rules is not None else str
    seed = report["log_seed"]
    how = _("seed {seed}").format(seed=seed) if seed is not None else _("recorded deals")
    head = ngettext("Analysis of {file} ({variant}, {how}): {decisions}, {playouts} playout a "
                    "move", "Analysis of {file} ({variant}, {how}): {decisions}, {playouts} "
                    "playouts a move", report["playouts"]).format(
                        file=report["file"], variant=report["variant"], how=how,
                        decisions=_count(count, "decision"), playouts=report["playouts"])
    if not report["complete"]:
        head += _(" (the log is incomplete)")
    marks = ", ".join(f"{_mark(name)} {number(least, 'g')}"
                      for name, least in reversed(report["marks"].items()))
    lines = [head, _("Marks, by the loss in chance to win the match: {marks} (and more than "
                     "{significance} standard errors)").format(
                         marks=marks, significance=number(report["significance"], "g")), ""]
    for seat in report["seats"]:
        lines += _seat_lines(report, seat, say, rules is not None, worst_of(seat["seat"]))
    lines.append(_("Decisions (win: the chance to win the match, ± its standard error; points: "
                   "the hand's, net; then every legal move):"))
    yield "\n".join(lines) + "\n"
    for d in decisions:
        text = _decision_line(d, report["hindsight"], say) + "\n"
        if d["best"] is not None:
            text += "        " + " · ".join(
                f"{say(m['move'])} {_win(m)} {number(m['points'], '+.2f')}"
                for m in d["moves"]) + "\n"
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


def _seat_lines(report: dict[str, Any], seat: dict[str, Any], say: Say,
                table: bool, worst_ones: Iterable[dict[str, Any]]) -> list[str]:
    s = seat["seat"]
    team = report["team_of"][s]
    if not seat["decisions"]:
        return [_("{name} (seat {seat}, team {team}): no decision").format(
            name=seat["name"], seat=s, team=team), ""]
    counts = ", ".join(_count(seat[m], m) for m in ("blunder", "mistake", "inaccuracy"))
    out = [_("{name} (seat {seat}, team {team}): {decisions}, accuracy {accuracy}%, best move "
             "{best} times, mean loss {loss}; {counts}").format(
                 name=seat["name"], seat=s, team=team,
                 decisions=_count(seat["decisions"], "decision"),
                 accuracy=number(seat["accuracy"], ".1f"), best=seat["best_played"],
                 loss=number(seat["mean_loss"], ".3f"), counts=counts)]
    for d in worst_ones:
        played = d["moves"][d["legal"].index(d["played"])]
        best = d["moves"][d["best"]]
        out.append("  " + _("{mark} ({where}): played {played} (win {win}), better {best} (win "
                            "{best_win}): loses {loss}").format(
            mark=_mark(d["mark"]), where=_where(d, table), played=say(d["played"]),
            win=_win(played),
            best=say(d["best_move"]), best_win=_win(best), loss=number(d["loss"], ".3f")))
    out.append("")
    return out


def _decision_line(d: dict[str, Any], hindsight: bool, say: Say) -> str:
    where = _("  line {line:>4}  seat {seat}  ").format(line=d["line"], seat=d["seat"])
    if d["best"] is None:
        return where + _("{played}: not valued").format(played=say(d["played"]))
    played = d["moves"][d["legal"].index(d["played"])]
    text = where + f"{say(d['played']):<22} " + _(
        "rank {rank}/{moves}  win {win}  points {points}").format(
        rank=d["rank"], moves=len(d["legal"]), win=_win(played),
        points=number(played["points"], "+.2f"))
    if d["rank"] != 1 or d["loss"] > 0:
        text += "  " + _("best {best} (-{loss})").format(best=say(d["best_move"]),
                                                         loss=number(d["loss"], ".3f"))
    if d["mark"] is not None:
        text += f"  {_mark(d['mark']).upper()}"
    if hindsight:
        h = d["hindsight"]
        text += "  | " + _("hindsight: best {best}, loss {loss}").format(
            best=say(h["best_move"]), loss=number(h["loss"], ".3f"))
    return text
