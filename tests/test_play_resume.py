"""``truco play --resume`` (issue 25): only a log that truco play wrote is resumed and written
into, and the options its log decides are refused beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import REPO

from engine.cli import main


def _play(*args: str, input: str = "a\n" * 3000) -> Result:
    return CliRunner().invoke(main, ["play", *args], input=input)


def _started(tmp_path: Path) -> Path:
    log = tmp_path / "game.jsonl"
    result = _play("--variant", "paulista", "--seed", "7", "--log", str(log), input="a\na\n")
    assert result.exit_code == 0, result.output
    return log


def test_resume_refuses_a_log_truco_play_did_not_write(tmp_path: Path) -> None:
    fixture = REPO / "replays" / "invalid" / "incomplete.jsonl"
    log = tmp_path / "incomplete.jsonl"
    shutil.copy(fixture, log)
    before = log.read_bytes()
    result = _play("--resume", str(log), input="quit\n")
    assert result.exit_code == 1, result.output
    assert f"{log}:1: only a log that truco play wrote can be resumed" in result.output
    assert "after 33 moves" not in result.output
    assert log.read_bytes() == before


def test_resume_refuses_a_log_whose_players_play_did_not_name(tmp_path: Path) -> None:
    log = _started(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["players"] = ["Ana", "Bia", "Caio", "Duda"]
    lines[0] = json.dumps(header, ensure_ascii=False) + "\n"
    log.write_text("".join(lines), encoding="utf-8")
    before = log.read_bytes()
    result = _play("--resume", str(log))
    assert result.exit_code == 1 and "players are not the names" in result.output
    assert log.read_bytes() == before


@pytest.mark.parametrize("option", [["--variant", "mineiro"], ["--variant", "paulista"],
                                    ["--bots", "random"], ["--level", "hard"],
                                    ["--seat", "1"], ["--seed", "8"]])
def test_resume_refuses_options_its_log_decides(tmp_path: Path, option: list[str]) -> None:
    log = _started(tmp_path)
    before = log.read_bytes()
    result = _play("--resume", str(log), *option)
    assert result.exit_code == 2, result.output
    assert f"leave out {option[0]}" in result.output
    assert log.read_bytes() == before


def test_resume_goes_on_with_its_own_log(tmp_path: Path) -> None:
    log = _started(tmp_path)
    result = _play("--resume", str(log))
    assert result.exit_code == 0 and "resumed" in result.output and "match won by" in result.output
