"""The same bots on the same seeded matches under two variants: the statistics side by side
(:func:`compare_simulations`), each difference tested (:mod:`engine.compare.stats`), and told as
text (:func:`format_simulations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.compare.stats import CORRECTIONS, Moments, assess
from engine.simulate import Progress, run_simulation

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
