"""``truco play --level easy|medium|hard``: the bots a player understands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.bots.search import DEFAULT_BUDGET
from engine.cli import main
from engine.cli.play_cmd import LEVELS
from engine.replay import verify_file


@pytest.mark.parametrize(("level", "bot"), [("easy", "random"), ("medium", "heuristic"),
                                            ("hard", f"search:{DEFAULT_BUDGET}")])
def test_level_chooses_the_bots(tmp_path: Path, level: str, bot: str) -> None:
    assert LEVELS[level] == bot
    log = tmp_path / "game.jsonl"
    stop = "a\n" * (4 if level == "hard" else 60)  # a few moves: the bots play between them
    result = CliRunner().invoke(main, ["play", "--variant", "paulista", "--level", level,
                                       "--seed", "3", "--log", str(log)], input=stop)
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["meta"]["bots"] == ["human", bot, bot, bot]
    assert verify_file(log).valid


def test_level_resumes_with_its_bots(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    args = ["play", "--variant", "paulista", "--level", "hard", "--seed", "5", "--log", str(log)]
    assert CliRunner().invoke(main, args, input="a\n").exit_code == 0
    again = CliRunner().invoke(main, ["play", "--resume", str(log)], input="a\n")
    assert again.exit_code == 0 and "resumed" in again.output, again.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["meta"]["bots"][1] == f"search:{DEFAULT_BUDGET}"


def test_level_and_bots_together_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["play", "--variant", "paulista", "--level", "easy",
                                       "--bots", "random"], input="")
    assert result.exit_code == 2 and "--level chooses the bots" in result.output
    bad = CliRunner().invoke(main, ["play", "--variant", "paulista", "--level", "expert"])
    assert bad.exit_code == 2
