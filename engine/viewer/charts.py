"""The statistics of ``truco simulate`` and ``truco compare`` as a page with charts drawn as
inline SVG (no script, no network): win rates with their intervals, the ladder steps reached
and accepted, the special hands; for a comparison, A and B side by side and each tested
difference with its interval.

>>> from engine.simulate import run_simulation
>>> page = simulate_page(run_simulation("paulista", games=2, seed=1, bots=["random"]))
>>> page.count("<svg") >= 3, "http://" in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from engine.compare.simulations import metric_keys
from engine.i18n import _, current, decimal, mark, ngettext, number

#: Bar colours by series (team 0, team 1, team 2; or A, B).
COLOURS = ("#1b5eab", "#b3261e", "#6a3ea1", "#2e7d32")
_CSS = """
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #1d2327; background: #f3f5f3; }
header { padding: 10px 18px; background: #20352b; color: #f4f1e6; }
header h1 { margin: 0; font-size: 19px; } header p { margin: 2px 0 0; opacity: .85; }
main { padding: 12px 18px; display: grid; grid-template-columns: repeat(auto-fit,
  minmax(min(460px, 100%), 1fr)); gap: 14px; }
section { min-width: 0; overflow-x: auto; background: #fff; border-radius: 8px;
  padding: 10px 14px; box-shadow: 0 1px 2px #0003; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 15px; margin: 0 0 6px; }
p.note { color: #555; font-size: 12px; margin: 4px 0; }
table { border-collapse: collapse; font-size: 13px; width: 100%; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.significant td { background: #fff3cd; font-weight: 600; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font: 12px system-ui, sans-serif; fill: #1d2327; }
svg .axis { stroke: #999; } svg .grid { stroke: #e4e4e4; } svg .half { stroke: #777;
  stroke-dasharray: 4 3; } svg .ci { stroke: #111; stroke-width: 1.5; }
.legend span { display: inline-block; margin-right: 12px; font-size: 12px; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
"""


def _num(x: float) -> str:
    return decimal(f"{x:.1f}".rstrip("0").rstrip("."))


def _pct(x: float) -> str:
    return number(100 * x, ".1f") + "%"


def ticks(high: float, most: int = 6) -> list[float]:
    """Round-numbered ticks from 0 that cover ``high``: a step of 1, 2, 2.5 or 5 times a power
    of ten, at most ``most`` intervals (the last tick is the chart's end).

    >>> ticks(37)
    [0, 10, 20, 30, 40]
    >>> ticks(1.0)
    [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> ticks(0)
    [0, 1]
    """
    if high <= 0:
        return [0, 1]
    power = 10 ** math.floor(math.log10(high / most))
    step = next(power * k for k in (1, 2, 2.5, 5, 10) if high / (power * k) <= most)
    count = math.ceil(high / step - 1e-9)
    return [0] + [round(step * k, 10) for k in range(1, count + 1)]


def bar_chart(rows: Sequence[tuple[str, Sequence[float | None]]], *, series: Sequence[str],
              maximum: float | None = None, intervals: Sequence[Sequence[Sequence[float] | None]]
              | None = None, percent: bool = False, mark: float | None = None,
              title: str = "") -> str:
    """Horizontal grouped bars as an SVG element: one group per row, one bar per series
    (``None``: no bar), optionally with an interval per bar (a whisker) and a dashed line at
    ``mark``. ``percent`` reads values as proportions (0 to 1)."""
    label_w, width, bar_h, gap = 190, 660, 14, 10
    plot = width - label_w - 100
    top = 4
    values = [v for _, vs in rows for v in vs if v is not None]
    his = [iv[1] for ivs in (intervals or []) for iv in ivs if iv is not None]
    scale = ticks(maximum if maximum is not None else max([*values, *his, 0.0]))
    high = scale[-1]
    group = bar_h * len(series) + gap
    height = top + group * len(rows) + 22

    def x(v: float) -> float:
        return label_w + plot * max(0.0, min(v, high)) / high

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for tick in scale:  # grid and scale, at round numbers
        gx = x(tick)
        parts.append(f'<line class="grid" x1="{gx:.1f}" y1="{top}" x2="{gx:.1f}" '
                     f'y2="{height - 18}"/>')
        text = number(100 * tick, "g") + "%" if percent else number(tick, "g")
        parts.append(f'<text x="{gx:.1f}" y="{height - 5}" text-anchor="middle">{text}</text>')
    for i, (label, vs) in enumerate(rows):
        y0 = top + i * group
        parts.append(f'<text x="{label_w - 6}" y="{y0 + group / 2:.1f}" text-anchor="end" '
                     f'dominant-baseline="middle">{escape(label)}</text>')
        for j, v in enumerate(vs):
            if v is None:
                continue
            y = y0 + j * bar_h
            colour = COLOURS[j % len(COLOURS)]
            parts.append(f'<rect x="{label_w}" y="{y}" width="{x(v) - label_w:.1f}" '
                         f'height="{bar_h - 2}" fill="{colour}" fill-opacity="0.85">'
                         f'<title>{escape(series[j])}: {escape(_pct(v) if percent else _num(v))}'
                         f'</title></rect>')
            iv = intervals[i][j] if intervals is not None else None
            if iv is not None:
                cy = y + (bar_h - 2) / 2
                parts.append(f'<line class="ci" x1="{x(iv[0]):.1f}" y1="{cy:.1f}" '
                             f'x2="{x(iv[1]):.1f}" y2="{cy:.1f}"/>')
                for end in iv:
                    parts.append(f'<line class="ci" x1="{x(end):.1f}" y1="{cy - 4:.1f}" '
                                 f'x2="{x(end):.1f}" y2="{cy + 4:.1f}"/>')
            text = _pct(v) if percent else _num(v)
            parts.append(f'<text x="{x(v) + 4 + (0 if iv is None else x(iv[1]) - x(v)):.1f}" '
                         f'y="{y + bar_h / 2:.1f}" dominant-baseline="middle">{text}</text>')
    if mark is not None:
        mx = x(mark)
        parts.append(f'<line class="half" x1="{mx:.1f}" y1="{top}" x2="{mx:.1f}" '
                     f'y2="{height - 18}"/>')
    parts.append(f'<line class="axis" x1="{label_w}" y1="{top}" x2="{label_w}" '
                 f'y2="{height - 18}"/></svg>')
    return "".join(parts)


def interval_chart(rows: Sequence[tuple[str, float, Sequence[float], bool]], *,
                   title: str = "") -> str:
    """Differences with their intervals around 0 (a forest plot) as SVG: one row per
    ``(label, difference, [low, high], significant)``; significant rows in red."""
    label_w, width, row_h = 260, 640, 18
    plot = width - label_w - 20
    height = row_h * len(rows) + 26
    span = ticks(max([abs(v) for _, d, iv, _ in rows for v in (d, *iv)] + [0.0]), 4)[-1]

    def x(v: float) -> float:
        return label_w + plot * (v + span) / (2 * span)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    zero = x(0)
    parts.append(f'<line class="half" x1="{zero:.1f}" y1="0" x2="{zero:.1f}" '
                 f'y2="{height - 20}"/>')
    for v in (-span, span):
        parts.append(f'<text x="{x(v):.1f}" y="{height - 5}" text-anchor="middle">'
                     f'{number(v, "+g")}</text>')
    parts.append(f'<text x="{zero:.1f}" y="{height - 5}" text-anchor="middle">0</text>')
    for i, (label, d, iv, sig) in enumerate(rows):
        cy = i * row_h + row_h / 2
        colour = COLOURS[1] if sig else "#555"
        parts.append(f'<text x="{label_w - 6}" y="{cy:.1f}" text-anchor="end" '
                     f'dominant-baseline="middle">{escape(label)}</text>')
        parts.append(f'<line stroke="{colour}" stroke-width="2" x1="{x(iv[0]):.1f}" '
                     f'y1="{cy:.1f}" x2="{x(iv[1]):.1f}" y2="{cy:.1f}"/>')
        between = _("{low} to {high}").format(low=number(iv[0], "+.4g"),
                                              high=number(iv[1], "+.4g"))
        parts.append(f'<circle cx="{x(d):.1f}" cy="{cy:.1f}" r="4" fill="{colour}">'
                     f'<title>{escape(label)}: {number(d, "+.4g")} ({escape(between)})</title>'
                     '</circle>')
    parts.append("</svg>")
    return "".join(parts)


def _legend(series: Sequence[str]) -> str:
    return '<div class="legend">' + "".join(
        f'<span><i style="background:{COLOURS[j % len(COLOURS)]}"></i>{escape(s)}</span>'
        for j, s in enumerate(series)) + "</div>"


def _html_lang() -> str:
    """The page's language tag (``en``, ``pt-BR``)."""
    return current()


def _page(title: str, subtitle: str, sections: Sequence[str]) -> str:
    return ("<!DOCTYPE html>\n"
            f"<html lang=\"{escape(_html_lang())}\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            f"<header><h1>{escape(title)}</h1><p>{escape(subtitle)}</p></header>\n<main>\n"
            + "\n".join(sections) + "\n</main>\n</body>\n</html>\n")


def _section(title: str, body: str, *, wide: bool = False, note: str = "") -> str:
    cls = ' class="wide"' if wide else ""
    extra = f'<p class="note">{escape(note)}</p>' if note else ""
    return f"<section{cls}><h2>{escape(title)}</h2>{body}{extra}</section>"


def _table(head: Sequence[str], rows: Sequence[Sequence[object]],
           marked: Sequence[bool] | None = None) -> str:
    out = ["<table><thead><tr>", *(f"<th>{escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        cls = ' class="significant"' if marked is not None and marked[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{escape(_cell(c))}</td>" for c in row)
                   + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _cell(c: object) -> str:
    """A table's cell as text: a float with the language's decimal sign."""
    return "" if c is None else number(c) if isinstance(c, float) else str(c)


def _team_names(stats: dict[str, Any]) -> list[str]:
    return [_("team {team} ({bots}, seats {seats})").format(
        team=t["team"], bots=t["bots"], seats=" ".join(map(str, t["seats"])))
        for t in stats["teams"]]


def _special_rows(stats: dict[str, Any]) -> list[tuple[str, list[float | None]]]:
    one = stats["special_hands"]["one_team"]
    both = stats["special_hands"]["both_teams"]
    rows: list[tuple[str, list[float | None]]] = []
    if one["enabled"]:
        rows.append((_("{name}: hands").format(name=one["name"]), [one["hands"]]))
        rows.append((_("won by the team at score"), [one["won_by_team_at_score"]]))
        rows.append((_("won by the other team"), [one["won_by_other_team"]]))
        if one["decided_play"] or one["decided_fold"]:
            rows.append((_("decided to play"), [one["decided_play"]]))
            rows.append((_("decided to fold"), [one["decided_fold"]]))
    if both["enabled"]:
        rows.append((_("{name}: hands").format(name=both["name"]), [both["hands"]]))
        rows += [(_("won by team {team}").format(team=t), [w]) for t, w in enumerate(both["won"])]
        rows.append((_("won by nobody"), [both["nobody"]]))
    return rows


#: The side bets' figures by their key in the statistics, as the page names them.
_FIGURES = {
    "called": mark("called"),
    "called_per_hand": mark("called per hand"),
    "accepted": mark("accepted"),
    "accept_rate": mark("accept rate"),
    "refused": mark("refused"),
    "won_by_mao_team": mark("won by mão's team"),
    "mao_team_rate": mark("mão's team rate"),
    "points": mark("points"),
    "average_points": mark("average points"),
    "average_accepted_points": mark("average accepted points"),
    "sung": mark("sung"),
    "contested": mark("contested"),
    "contest_rate": mark("contest rate"),
    "won_by_mao_team_any": mark("won by mão's team any"),
    "mao_team_rate_any": mark("mão's team rate any"),
}


def _figure(key: str) -> str:
    """A side bet's figure as the page names it (in the reader's language)."""
    known = _FIGURES.get(key)
    return _(known) if known else key.replace("_", " ").replace("mao", "mão's")


def _side_bet_sections(bets: list[dict[str, Any]]) -> list[str]:
    """The side bets' charts (G22-G41; none in a variant without side bets): how often each
    was called, accepted and refused; its rates; the points it paid."""
    if not bets:
        return []
    names = [b["bet"] for b in bets]
    how_often = [_("called"), _("accepted"), _("refused")]
    rated = [_("called per hand"), _("accept rate"), _("won by the mão's team")]
    paid = [_("per call"), _("per accepted call")]
    counts = bar_chart([(b["bet"], [b["called"], b["accepted"], b["refused"]]) for b in bets],
                       series=how_often, title=_("side bets called, accepted and refused"))
    rates = bar_chart([(b["bet"], [b["called_per_hand"], b["accept_rate"], b["mao_team_rate"]])
                       for b in bets], series=rated, maximum=1.0, percent=True,
                      title=_("side bets: rates"))
    points = bar_chart([(b["bet"], [b["average_points"], b["average_accepted_points"]])
                        for b in bets], series=paid, title=_("side bets: points paid per call"))
    head = ["", *names]
    keys = [k for k in bets[0] if k != "bet"] + [k for b in bets[1:] for k in b
                                                  if k != "bet" and k not in bets[0]]
    table = _table(head, [[_figure(k), *(b.get(k, "") for b in bets)] for k in keys])
    return [
        _section(_("Side bets: how often"), _legend(how_often) + counts,
                 note=_("A flor sung by one team only is not accepted: nobody answers it "
                        "(G38).")),
        _section(_("Side bets: rates"), _legend(rated) + rates,
                 note=_("Won by the mão's team: of the accepted calls.")),
        _section(_("Side bets: points"), _legend(paid) + points,
                 note=_("The points the bet paid, averaged over its calls and over its "
                        "accepted calls.")),
        _section(_("Side bets: every figure"), table),
    ]


def simulate_page(stats: dict[str, Any]) -> str:
    """The statistics of :func:`engine.simulate.run_simulation` as a page with charts."""
    teams = stats["teams"]
    names = _team_names(stats)
    win = bar_chart([(_("match win rate"), [t["match_win_rate"] for t in teams])],
                    series=names, maximum=1.0, percent=True, mark=1 / len(teams),
                    intervals=[[t["match_win_ci95"] for t in teams]],
                    title=_("match win rate per team with its 95% Wilson interval"))
    won = bar_chart([(label, [t[key] for t in teams]) for key, label in (
        ("games_won", _("games won")), ("hands_won", _("hands won")), ("points", _("points")))],
        series=names, title=_("games, hands and points won per team"))
    ladder = stats["ladder"]
    asked = [_("reached"), _("accepted"), _("folded")]
    rated = [_("reached per hand"), _("accept rate")]
    steps = bar_chart([(f"{s['name']} ({s['value']})", [s["reached"], s["accepted"],
                                                        s["folded"]]) for s in ladder],
                      series=asked, title=_("ladder steps reached, accepted and folded"))
    rates = bar_chart([(f"{s['name']} ({s['value']})", [s["reached_per_hand"], s["accept_rate"]])
                       for s in ladder], series=rated, maximum=1.0, percent=True,
                      title=_("ladder: per hand and accept rate"))
    special = _special_rows(stats)
    sections = [
        _section(_("Who wins"), _legend(names) + win, note=_(
            "Bars: the share of matches won; whiskers: the 95% Wilson interval; dashed: an "
            "even share.")),
        _section(_("Games, hands and points"), _legend(names) + won),
        _section(_("The ladder: how often each step was asked"), _legend(asked) + steps),
        _section(_("The ladder: rates"), _legend(rated) + rates),
        _section(_("Special hands"), bar_chart(special, series=[_("hands")],
                                               title=_("special hands and who won them"))
                 if special else "<p>" + escape(_("This variant has no special hands.")) + "</p>"),
        *_side_bet_sections(stats.get("side_bets") or []),
        _section(_("The run"), _table(["", ""], _facts(stats))),
    ]
    sub = ngettext("{matches} match, seed {seed}, bots by seat: {bots}",
                   "{matches} matches, seed {seed}, bots by seat: {bots}",
                   stats["matches"]).format(
        matches=stats["matches"], seed=stats["seed"], bots=", ".join(stats["bots"]))
    sub += f" · variant_sha256 {stats['variant_sha256'][:12]}…"
    return _page(f"truco simulate: {stats['variant']}", sub, sections)


def _facts(stats: dict[str, Any]) -> list[list[object]]:
    """The run's counts, a row each."""
    hpg = stats["hands_per_game"]
    facts: list[list[object]] = [
        [_("matches"), stats["matches"]], [_("games"), stats["games"]],
        [_("hands"), stats["hands"]],
        [_("hands per game"), _("{mean} (min {min}, max {max})").format(
            mean=number(hpg["mean"]), min=hpg["min"], max=hpg["max"])],
        [_("points per hand"), stats["points_per_hand"]],
        [_("hands ended by a fold"), f"{stats['folds']['hands']} "
                                     f"({_pct(stats['folds']['rate'])})"],
        [_("all-tied hands"), f"{stats['all_tied_hands']['hands']} "
                              f"({_pct(stats['all_tied_hands']['rate'])})"],
        [_("games lost by a forbidden raise"), stats["forfeited_games"]],
        [_("raises out of turn"), stats["out_of_turn_raises"]["raises"]]]
    if "concedes" in stats:
        facts.append([_("hands conceded"), stats["concedes"]["hands"]])
    return facts


def compare_page(result: dict[str, Any], a: str, b: str) -> str:
    """:func:`engine.compare.compare_simulations`'s result as a page: A and B side by side
    (win rates with intervals, ladder, special hands) and every tested difference with its
    interval, the significant ones marked."""
    sa, sb = result["a"], result["b"]
    series = [a, b]
    said = dict(metric_keys(sa, sb, _))
    teams = range(min(len(sa["teams"]), len(sb["teams"])))
    win = bar_chart([(_("team {team} match win rate").format(team=t),
                      [sa["teams"][t]["match_win_rate"], sb["teams"][t]["match_win_rate"]])
                     for t in teams], series=series, maximum=1.0, percent=True, mark=0.5,
                    intervals=[[sa["teams"][t]["match_win_ci95"], sb["teams"][t]["match_win_ci95"]]
                               for t in teams],
                    title=_("match win rates of A and B with their 95% Wilson intervals"))
    names: dict[int, str] = {}
    by_value: dict[int, list[float | None]] = {}
    accept: dict[int, list[float | None]] = {}
    for k, stats in enumerate((sa, sb)):
        for s in stats["ladder"]:
            by_value.setdefault(s["value"], [None, None])[k] = s["reached_per_hand"]
            accept.setdefault(s["value"], [None, None])[k] = s["accept_rate"]
            names.setdefault(s["value"], s["name"])
    ladder = bar_chart([(_("{step} ({value}) per hand").format(step=names[v], value=v),
                         by_value[v]) for v in sorted(by_value)],
                       series=series, maximum=1.0, percent=True,
                       title=_("ladder steps reached per hand, A and B"))
    accepted = bar_chart([(_("{step} ({value}) accepted").format(step=names[v], value=v),
                           accept[v]) for v in sorted(accept)],
                         series=series, maximum=1.0, percent=True,
                         title=_("ladder steps' accept rate, A and B"))
    special = []
    for key in ("one_team", "both_teams"):
        x, y = sa["special_hands"][key], sb["special_hands"][key]
        if x["enabled"] or y["enabled"]:
            special.append((_("{name} rate").format(name=x["name"] or y["name"]),
                            [x["rate"], y["rate"]]))
    rows = [r for r in result["differences"] if r["a"] or r["b"]]
    tested = [r for r in rows if r["interval"] is not None and r["difference"] is not None
              and r["metric"].endswith(("rate", "per_hand"))
              and not r["metric"].endswith("points_per_hand")]  # rates: one scale, 0 to 1
    forest = interval_chart([(said.get(r["metric"], r["label"]), r["difference"], r["interval"],
                              bool(r["significant"])) for r in tested],
                            title=_("B minus A with its interval")) if tested else \
        "<p>" + escape(_("No rate could be tested (a test needs 2 matches or more).")) + "</p>"
    table = _table([_("statistic"), a, b, _("difference"), _("interval"), "p", _("significant")],
                   [[said.get(r["metric"], r["label"]), r["a"], r["b"], r["difference"],
                     "" if r["interval"] is None else _("{low} to {high}").format(
                         low=number(r["interval"][0], "+g"), high=number(r["interval"][1], "+g")),
                     "" if r["p_adjusted"] is None else number(r["p_adjusted"], ".4g"),
                     "*" if r["significant"] else ""] for r in rows],
                   [bool(r["significant"]) for r in rows])
    sub = ngettext("{matches} match each, seed {seed}, bots by seat: {bots}",
                   "{matches} matches each, seed {seed}, bots by seat: {bots}",
                   sa["matches"]).format(
        matches=sa["matches"], seed=sa["seed"], bots=", ".join(sa["bots"]))
    return _page(_("truco compare: {a} vs {b}").format(a=a, b=b), sub,
                 _compare_sections(result, series, (win, ladder, accepted, special, forest,
                                                    table)))


def _compare_sections(result: dict[str, Any], series: list[str],
                      drawn: tuple[str, str, str, list[Any], str, str]) -> list[str]:
    """The comparison page's sections, from its charts and table."""
    win, ladder, accepted, special, forest, table = drawn
    c = result["counts"]
    conf = number(100 * result["confidence"], ".10g") + "%"
    how = (_("Red: significant after Holm's correction at alpha {alpha}.")
           if result["correction"] == "holm"
           else _("Red: significant after no correction at alpha {alpha}.")).format(
        alpha=number(result["alpha"], "g"))
    return [
        _section(_("Who wins"), _legend(series) + win, note=_(
            "Whiskers: 95% Wilson intervals; dashed: an even share.")),
        _section(_("The ladder: steps reached per hand"), _legend(series) + ladder),
        _section(_("The ladder: accept rate"), _legend(series) + accepted),
        _section(_("Special hands"), _legend(series) + bar_chart(
            special, series=series, maximum=1.0, percent=True, title=_("special hands' rate"))
            if special else "<p>" + escape(_("Neither variant has special hands.")) + "</p>"),
        _section(_("Differences of the rates (B minus A, {confidence} intervals)").format(
            confidence=conf), forest, wide=True, note=how),
        _section(_("Every statistic: {significant} of {n} differ significantly").format(
            significant=c["significant"], n=c["statistics"]), table, wide=True),
    ]
