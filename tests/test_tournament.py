"""``truco tournament``: a round robin on the same deals both ways round, the same table for any
``--jobs``, ratings with intervals."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import doctests

import engine.tournament
from engine.cli import main
from engine.tournament import bradley_terry, pairings, play_one, run_tournament


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tournament", *args])
    return result.exit_code, result.output


def test_tournament_same_table_for_any_jobs() -> None:
    args = ["--variant", "paulista", "--bots", "random,heuristic,search:4", "--games", "3",
            "--seed", "5"]
    one = _run(*args, "--jobs", "1")
    two = _run(*args, "--jobs", "2")
    assert one[0] == two[0] == 0, one[1]
    assert one[1] == two[1]
    assert "random vs heuristic" in one[1] and "rating" in one[1]


def test_tournament_pairings_play_the_same_deals_both_ways() -> None:
    # the same deal with the teams swapped: the deals are the seed's, the bots' seats swap
    assert pairings(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    pair = ("heuristic", "heuristic")
    assert play_one("paulista", 3, pair, 0, False) != play_one("paulista", 3, pair, 0, True)


def test_tournament_json_adds_up() -> None:
    code, out = _run("--variant", "mineiro", "--bots", "random,heuristic", "--games", "4",
                     "--json")
    assert code == 0
    data = json.loads(out)
    (p,) = data["pairings"]
    assert p["matches"] == 8 and 0 <= p["a_won"] <= 8
    assert sum(b["won"] for b in data["bots"]) == 8
    best = data["bots"][0]
    assert best["rating_ci95"][0] < best["rating"] < best["rating_ci95"][1]


def test_tournament_ratings_follow_the_wins() -> None:
    fit = bradley_terry(["x", "y", "z"], {("x", "y"): (40, 10), ("x", "z"): (45, 5),
                                          ("y", "z"): (30, 20)})
    assert fit["x"][0] > fit["y"][0] > fit["z"][0]
    assert sum(r for r, _, _ in fit.values()) == pytest.approx(4500)
    sweep = bradley_terry(["x", "y"], {("x", "y"): (20, 0)})  # finite, with an interval
    assert sweep["x"][1] < sweep["x"][0] < sweep["x"][2] < 3000


def test_tournament_usage_errors() -> None:
    assert _run("--variant", "paulista", "--bots", "heuristic")[0] == 2
    assert _run("--variant", "paulista", "--bots", "heuristic,heuristic")[0] == 2
    code, out = _run("--variant", "paulista", "--bots", "heuristic,genius")
    assert code == 2 and "unknown bot 'genius'" in out
    code, out = _run("--variant", "three-players", "--bots", "heuristic,random")
    assert code == 2 and "two teams" in out
    with pytest.raises(ValueError):
        run_tournament("paulista", ["random"], games=1, seed=1)


def test_docstring_examples_run() -> None:
    result = doctests(engine.tournament)
    assert result.attempted >= 1 and result.failed == 0
