"""The command line's arguments and streams, as a user meets them (issue 25): a closed pipe,
bad and missing files, unknown variant names, files written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from engine.cli import main


@pytest.mark.parametrize("args", [["variants", "list"], ["replay", "replays/mineiro-seed1.jsonl"]])
def test_a_closed_pipe_ends_a_command_quietly_with_exit_0(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line (as after `| head -1`)
    try:
        done = subprocess.run([sys.executable, "-m", "engine.cli", *args], stdout=write,
                              stderr=subprocess.PIPE, cwd=REPO, timeout=120)
    finally:
        os.close(write)
    assert done.stderr == b""
    assert done.returncode == 0


def test_a_bad_position_file_names_its_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "position": 1,\n  "state" "play"\n}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "--variant", "paulista", "--position", str(bad),
                                       "--seed", "1"], input="")
    assert result.exit_code == 1
    assert f"truco: {bad}:3:11: bad position: invalid JSON: Expecting ':' delimiter\n" \
        in result.output


def test_missing_position_and_resume_files_are_the_same_usage_error(tmp_path: Path) -> None:
    for option in ("--position", "--resume"):
        missing = tmp_path / "missing.json"
        args = ["play", option, str(missing)]
        if option == "--position":
            args += ["--variant", "paulista"]
        result = CliRunner().invoke(main, args, input="")
        assert result.exit_code == 2, (option, result.output)
        assert f"Invalid value for {option}: cannot read {missing}: No such file" in result.output
        assert "seed" not in result.output  # refused before a seed is drawn


def test_verify_says_a_variant_file_is_not_a_log() -> None:
    result = CliRunner().invoke(main, ["verify", "variants/paulista.yaml"])
    assert result.exit_code == 2
    assert ("variants/paulista.yaml is a variant file, not a log: truco variants validate "
            "variants/paulista.yaml checks it") in result.output
    assert "invalid JSON" not in result.output


def test_an_unknown_variant_name_suggests_the_closest_ones() -> None:
    result = CliRunner().invoke(main, ["play", "--variant", "paulistaa"], input="")
    assert result.exit_code == 1
    assert "did you mean paulista or paulista-38-cards?" in result.output
    assert "gauderio" not in result.output  # not all 50 names
    far = CliRunner().invoke(main, ["simulate", "--variant", "xyz", "-n", "1"])
    assert "truco variants list names them all" in far.output and "mineiro" not in far.output


def test_commands_that_write_a_file_say_where_on_stderr(tmp_path: Path) -> None:
    log, text, page, folder = (tmp_path / n for n in ("r.jsonl", "t.txt", "p.html", "logs"))
    runs = [
        (["record", "-v", "paulista", "-s", "1", "--out", str(log)], f"the log to {log}"),
        (["replay", str(log), "--out", str(text)], f"the transcript to {text}"),
        (["replay", str(log), "--html", str(page)], f"the page to {page}"),
        (["simulate", "-v", "paulista", "-n", "2", "-s", "1", "--logs", str(folder)],
         f"2 logs to {folder}"),
    ]
    for args, said in runs:
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert result.stderr == f"truco: wrote {said}\n", args
        assert "truco: wrote" not in result.stdout
    played = CliRunner().invoke(main, ["play", "-v", "paulista", "-s", "1", "--log",
                                       str(tmp_path / "g.jsonl")], input="")
    assert f"truco: the game's log is written to {tmp_path / 'g.jsonl'} as it goes" \
        in played.stderr
