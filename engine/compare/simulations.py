"""The same bots on the same seeded matches under two variants: the statistics side by side
(:func:`compare_simulations`), each difference tested (:mod:`engine.compare.stats`), and told as
text (:func:`format_simulations`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.compare.stats import CORRECTIONS, Moments, assess
from engine.i18n import _, decimal, mark, ngettext, number
from engine.simulate import Progress, run_simulation
from engine.tui import columns

# -- simulations ---------------------------------------------------------------------------------
_TEAM = (
    ("matches_won", mark("matches won")),
    ("match_win_rate", mark("match win rate")),
    ("games_won", mark("games won")),
    ("hands_won", mark("hands won")),
    ("points", mark("points")),
    ("points_per_hand", mark("points per hand")),
)
_STEP = (
    ("reached", mark("reached")),
    ("reached_per_hand", mark("reached per hand")),
    ("accepted", mark("accepted")),
    ("accept_rate", mark("accept rate")),
    ("folded", mark("folded")),
)
_ONE = (
    ("hands", mark("hands")),
    ("rate", mark("rate")),
    ("won_by_team_at_score", mark("won by team at score")),
    ("won_by_other_team", mark("won by other team")),
    ("nobody", mark("won by nobody")),
    ("decided_play", mark("decided to play")),
    ("decided_fold", mark("decided to fold")),
)
_FLOR = (
    ("sung", mark("sung")),
    ("contested", mark("contested")),
    ("contest_rate", mark("contest rate")),
    ("won_by_mao_team_any", mark("won by the mão's team, contested or not")),
    ("mao_team_rate_any", mark("mão's team rate, contested or not")),
)
_SIDE = (
    ("called", mark("called")),
    ("called_per_hand", mark("called per hand")),
    ("accepted", mark("accepted")),
    ("accept_rate", mark("accept rate")),
    ("won_by_mao_team", mark("won by the mão's team")),
    ("mao_team_rate", mark("mão's team rate")),
    ("points", mark("points")),
    ("average_points", mark("average points")),
    ("average_accepted_points", mark("average points accepted")),
)

Metric = tuple[str, str, int | float | None]  # key, label, value


_RUN = (("games", mark("games")), ("hands", mark("hands")),
        ("hands_per_game.mean", mark("hands per game")),
        ("points_per_hand", mark("points per hand")),
        ("folds.hands", mark("hands ended by a fold")), ("folds.rate", mark("fold rate")),
        ("all_tied_hands.hands", mark("all-tied hands")),
        ("all_tied_hands.rate", mark("all-tied rate")),
        ("forfeited_games", mark("games lost by a forbidden raise")),
        ("out_of_turn_raises.raises", mark("raises out of turn")),
        ("out_of_turn_raises.per_hand", mark("raises out of turn per hand")))
_CONCEDES = (("concedes.hands", mark("hands conceded")), ("concedes.rate", mark("concede rate")))
_BOTH = (("hands", mark("hands")), ("rate", mark("rate")), ("won.0", mark("won by team 0")),
         ("won.1", mark("won by team 1")), ("nobody", mark("won by nobody")))


def _get(data: Any, key: str) -> Any:
    for part in key.split("."):
        if isinstance(data, list):
            data = data[int(part)] if int(part) < len(data) else None
        elif isinstance(data, dict):
            data = data.get(part)
        if data is None:
            return None
    return data


def metric_keys(a: dict[str, Any], b: dict[str, Any],
                 say: Callable[[str], str] = str) -> list[tuple[str, str]]:
    """Every number of two statistics dicts worth comparing, as ``(key, label)`` in reading
    order; ladder steps are the union of both ladders, by value. The labels are English (as
    ``--json`` writes them), or ``say``'s: :func:`engine.i18n._` for the text."""
    teams = max(len(a["teams"]), len(b["teams"]))  # every team of either variant
    keys = [(f"teams.{t}.{k}", f"{say(mark('team {team}')).format(team=t)} {say(label)}")
            for t in range(teams) for k, label in _TEAM]
    keys += [(k, say(label)) for k, label in _RUN]
    steps: dict[int, str] = {}
    for stats in (a, b):
        for s in stats["ladder"]:
            steps.setdefault(s["value"], s["name"])
    for value in sorted(steps):
        keys += [(f"ladder.{value}.{k}", f"{steps[value]} ({value}) {say(label)}")
                 for k, label in _STEP]
    if "concedes" in a or "concedes" in b:
        keys += [(k, say(label)) for k, label in _CONCEDES]
    bets = list(dict.fromkeys(s["bet"] for stats in (a, b) for s in stats.get("side_bets", [])))
    flores = {s["bet"] for stats in (a, b) for s in stats.get("side_bets", []) if "sung" in s}
    for bet in bets:
        rows = _SIDE + (_FLOR if bet in flores else ())
        keys += [(f"side_bets.{bet}.{k}", f"{bet} {say(label)}") for k, label in rows]
    for special, fields in (("one_team", _ONE), ("both_teams", _BOTH)):
        name = a["special_hands"][special]["name"] or b["special_hands"][special]["name"]
        keys += [(f"special_hands.{special}.{k}", f"{name} {say(label)}") for k, label in fields]
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
    for key, label in metric_keys(a, b):
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
    return "0" if text in ("+0", "-0") else decimal(text)


def _interval(row: dict[str, Any]) -> str:
    if row["interval"] is None:
        return ""
    places = 1 if isinstance(row["a"], int) else 4
    low, high = row["interval"]
    return _("{low} to {high}").format(low=number(low, f"+.{places}f"),
                                       high=number(high, f"+.{places}f"))


def _p(p: float | None) -> str:
    if p is None:
        return ""
    return decimal("<0.0001" if p < 0.0001 else f"{p:.4f}")


def format_simulations(result: dict[str, Any], a: str, b: str) -> str:
    """:func:`compare_simulations` as text, in the language asked for (:mod:`engine.i18n`):
    a table of every number that is not 0 in both runs, A and B side by side with the
    difference, its relative size, its interval and p-value and ``*`` where it is significant,
    then how many differ significantly."""
    sa, holm_ = result["a"], result["correction"] == "holm"
    said = dict(metric_keys(sa, result["b"], _))
    confidence = number(100 * result["confidence"], ".10g") + "%"
    rows: list[list[object]] = [["", a, b, _("difference"), _("relative"),
                                 _("{confidence} interval").format(confidence=confidence),
                                 _("p (Holm)") if holm_ else "p", ""]]
    for r in result["differences"]:
        if not r["a"] and not r["b"]:
            continue
        rel = "-" if r["relative"] is None else number(100 * r["relative"], "+.1f") + "%"
        rows.append([said.get(r["metric"], r["label"]), _number(r["a"]), _number(r["b"]),
                     _number(r["difference"], signed=True), rel if r["difference"] else "",
                     _interval(r), _p(r["p_adjusted"]), "*" if r["significant"] else ""])
    head = ngettext("{a} vs {b}: {matches} match each, seed {seed}, bots by seat: {bots}",
                    "{a} vs {b}: {matches} matches each, seed {seed}, bots by seat: {bots}",
                    sa["matches"]).format(
        a=a, b=b, matches=sa["matches"], seed=sa["seed"], bots=", ".join(sa["bots"]))
    return "\n".join([head, "", columns(rows), "", _tail(result)]) + "\n"


def _tail(result: dict[str, Any]) -> str:
    """How many statistics differ, and how they were tested."""
    c, holm_ = result["counts"], result["correction"] == "holm"
    if not c["differ"]:
        return _("no difference in {n} statistics").format(n=c["statistics"])
    if not c["tests"]:
        return _("{differ} of {n} statistics differ; none can be tested (a test needs 2 "
                 "matches or more)").format(differ=c["differ"], n=c["statistics"])
    how = (ngettext("Holm's correction over {n} test", "Holm's correction over {n} tests",
                    c["tests"]) if holm_
           else ngettext("no correction for {n} test", "no correction for {n} tests",
                         c["tests"])).format(n=c["tests"])
    tail = _("{significant} of {n} statistics differ significantly (*) at alpha {alpha}, "
             "{how}; {within} within noise").format(
        significant=c["significant"], n=c["statistics"], alpha=number(result["alpha"], "g"),
        how=how, within=c["within_noise"])
    if c["not_tested"]:
        tail += _(", {n} not tested").format(n=c["not_tested"])
    return tail
