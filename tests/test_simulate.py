"""``truco simulate``: statistics that add up, the same results for any --jobs, and logs that
replay through the engine to the same checkpoints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import doctests

import engine.simulate
from engine import Action, Match
from engine.cli import main
from engine.replay import verify_file
from engine.simulate import log_name, match_seed, run_simulation, seat_bots, wilson


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_jobs_do_not_change_the_results() -> None:
    args = ["--variant", "mineiro", "--matches", "9", "--seed", "3"]
    one = _run(*args, "--jobs", "1")
    assert one == _run(*args, "--jobs", "2")
    assert "matches won" in one and "truco (3)" in one and "mão de dez" in one
    data = json.loads(_run(*args, "--jobs", "2", "--json"))
    assert data == json.loads(_run(*args, "--json"))


def test_the_statistics_add_up() -> None:
    s = run_simulation("paulista", games=20, seed=4, bots=["heuristic", "random"])
    assert s["matches"] == 20 and s["bots"] == ["heuristic", "random"] * 2
    teams = s["teams"]
    assert sum(t["matches_won"] for t in teams) == 20
    assert sum(t["games_won"] for t in teams) == s["games"] == 20  # P9: one game per match
    assert teams[0]["bots"] == "heuristic" and teams[1]["seats"] == [1, 3]
    assert sum(t["hands_won"] for t in teams) + s["all_tied_hands"]["hands"] <= s["hands"]
    points = sum(t["points"] for t in teams)
    assert s["points_per_hand"] == pytest.approx(points / s["hands"], abs=1e-4)
    for step in s["ladder"]:
        assert step["accepted"] + step["folded"] <= step["reached"]
    assert s["folds"]["hands"] == sum(step["folded"] for step in s["ladder"])
    assert s["hands_per_game"]["min"] <= s["hands_per_game"]["mean"] <= s["hands_per_game"]["max"]
    lo, hi = teams[0]["match_win_ci95"]
    assert lo <= teams[0]["match_win_rate"] <= hi
    json.dumps(s)  # plain data


def test_special_hands_are_counted_and_attributed() -> None:
    s = run_simulation("mineiro", games=10, seed=2, bots=["heuristic"])
    one = s["special_hands"]["one_team"]
    assert one["name"] == "mão de dez" and one["hands"] > 0
    assert one["won_by_team_at_score"] + one["won_by_other_team"] + one["nobody"] == one["hands"]
    assert one["decided_play"] + one["decided_fold"] == one["hands"]  # M5: always a decision
    assert s["games"] >= 2 * s["matches"]  # M8: best of three


def test_every_match_is_seeded_from_the_run_seed_and_its_index(tmp_path: Path) -> None:
    run_simulation("paulista", games=3, seed=8, bots=["random"], logs=tmp_path)
    for i in range(3):
        header = json.loads((tmp_path / log_name(i)).read_text().splitlines()[0])
        assert header["seed"] == match_seed(8, i) and header["dealer"] == i % 4


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "one-on-one"])
def test_logs_replay_to_the_same_checkpoints(tmp_path: Path, variant: str) -> None:
    run_simulation(variant, games=4, seed=6, bots=["heuristic", "random"], jobs=2,
                   logs=tmp_path)
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert [p.name for p in logs] == [log_name(i) for i in range(4)]
    for path in logs:
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        header, events = lines[0], lines[1:]
        m = Match.new(header["variant"], seed=header["seed"], dealer=header["dealer"])
        expected: list[dict[str, object]] = []
        found: list[dict[str, object]] = []
        for ev in events:
            if ev["event"] in ("round", "hand", "game", "match"):
                found.append(ev)
            else:
                expected.extend(m.apply(Action.from_event(ev)))
        assert found == expected and m.is_over
        result = verify_file(path)
        assert result.valid and result.incomplete is None


def test_logs_of_a_variant_file_name_it_from_their_folder(tmp_path: Path) -> None:
    house = tmp_path / "rules" / "house.yaml"
    house.parent.mkdir()
    house.write_text("name: house\nextends: paulista\nmatch:\n  games_to_win: 2\n",
                     encoding="utf-8")
    logs = tmp_path / "out" / "logs"
    s = run_simulation(str(house), games=2, seed=1, bots=["random"], logs=logs)
    assert s["games"] >= 4
    header = json.loads((logs / log_name(0)).read_text().splitlines()[0])
    assert header["variant"] == "../../rules/house.yaml"
    assert all(verify_file(p).valid for p in logs.glob("*.jsonl"))


def test_bots_by_seat_team_or_all() -> None:
    assert seat_bots(["random"], 2) == ["random", "random"]
    assert seat_bots(["a", "b", "c", "d"], 4) == ["a", "b", "c", "d"]
    with pytest.raises(ValueError, match="give 1 bot, 2"):
        seat_bots(["a", "b", "c"], 4)


def test_usage_errors_exit_2_and_a_bad_variant_exits_1() -> None:
    runner = CliRunner()
    bad_bot = runner.invoke(main, ["simulate", "-v", "paulista", "-n", "1", "-b", "genius"])
    assert bad_bot.exit_code == 2 and "unknown bot 'genius'" in bad_bot.output
    count = runner.invoke(main, ["simulate", "-v", "paulista", "-n", "1", "-b", "random," * 2
                                 + "random"])
    assert count.exit_code == 2 and "4 seats: give 1 bot, 2" in count.output
    variant = runner.invoke(main, ["simulate", "-v", "nope", "-n", "1"])
    assert variant.exit_code == 1 and "unknown variant 'nope'" in variant.output
    assert "Traceback" not in variant.output


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_docstring_examples_run() -> None:
    result = doctests(engine.simulate)
    assert result.attempted >= 1 and result.failed == 0
