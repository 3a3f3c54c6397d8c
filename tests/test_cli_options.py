"""The options several commands share mean the same in each: ``--bots``, ``--matches`` (and its
old name ``--games``), ``--force``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from engine.cli import main


def _run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_bots_two_names_are_teams_in_simulate_compare_and_play(tmp_path: Path) -> None:
    code, out, _ = _run("simulate", "-v", "paulista", "-n", "2", "--bots", "heuristic,random",
                        "--json")
    assert code == 0 and json.loads(out)["bots"] == ["heuristic", "random", "heuristic",
                                                     "random"]
    code, _, _ = _run("compare", "paulista", "mineiro", "-n", "1", "--bots", "heuristic,random")
    assert code in (0, 1)  # ran: 1 means the statistics differ
    log = tmp_path / "g.jsonl"
    code, out, _ = _run("play", "-v", "paulista", "--seed", "3", "--bots", "random,heuristic",
                        "--log", str(log), input="")
    assert code == 0, out
    meta = json.loads(log.read_text(encoding="utf-8").splitlines()[0])["meta"]
    assert meta["bots"] == ["human", "heuristic", "random", "heuristic"]


def test_bots_per_seat_and_wrong_counts_everywhere() -> None:
    for command in (["simulate", "-v", "paulista", "-n", "1"],
                    ["compare", "paulista", "mineiro", "-n", "1"],
                    ["play", "-v", "paulista", "--seed", "1"]):
        code, _, err = _run(*command, "--bots", "random,random,random", input="")
        assert code == 2 and "4 seats: give 1 bot, 2 (one per team) or 4" in err, command
        code, _, err = _run(*command, "--bots", "genius", input="")
        assert code == 2 and "unknown bot 'genius'" in err, command


def test_matches_and_its_old_name_games() -> None:
    code, new, _ = _run("simulate", "-v", "mineiro", "--matches", "3", "--json")
    assert code == 0 and json.loads(new)["matches"] == 3
    code, old, err = _run("simulate", "-v", "mineiro", "--games", "3", "--json")
    assert code == 0 and old == new
    assert "--games is now called --matches" in err
    code, _, err = _run("simulate", "-v", "mineiro", "--games", "3", "--matches", "3")
    assert code == 2 and "not both" in err
    code, out, _ = _run("simulate", "--help")
    assert "--matches" in out and "--games" not in out
