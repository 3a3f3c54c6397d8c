"""A FIFO (a named pipe) given where a file is read is refused at once, never waited on
(issue 26): every command opens what it reads through engine.reading, which refuses anything
but a regular file with a clear message and exit 1. Each command runs in its own process with
a timeout, so a command that hangs fails its test instead of hanging the suite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.reading import NotARegularFile, open_regular, read_regular
from tests.conftest import CONFORMANCE

#: Seconds a command may take before it is called hung (it answers in about one).
TIMEOUT = 60
GOOD = CONFORMANCE / "paulista-seed101.jsonl"
FIFO_SAYS = "not a regular file: a named pipe (FIFO)"


def _truco(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from engine.cli import main; main()", *args], cwd=cwd,
        input=None if stdin is None else stdin.decode(), capture_output=True, text=True,
        timeout=TIMEOUT, stdin=subprocess.DEVNULL if stdin is None else None)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "p.jsonl")
    os.mkfifo(tmp_path / "p.json")
    (tmp_path / "logs").mkdir()
    shutil.copy(GOOD, tmp_path / "logs" / "good.jsonl")
    os.mkfifo(tmp_path / "logs" / "q.jsonl")
    return tmp_path


#: Each command given a FIFO, and the start of the line that names it.
COMMANDS = {
    "verify": (["verify", "p.jsonl"], "p.jsonl:1: cannot read the log: "),
    "verify-folder": (["verify", "logs"], "logs/q.jsonl:1: cannot read the log: "),
    "replay": (["replay", "p.jsonl"], "truco: p.jsonl: "),
    "replay-checkpoints": (["replay", "p.jsonl", "--checkpoints"], "truco: p.jsonl: "),
    "replay-html": (["replay", "p.jsonl", "--html", "out.html"], "truco: p.jsonl: "),
    "position": (["position", "p.jsonl"], "truco: p.jsonl: "),
    "play-resume": (["play", "--resume", "p.jsonl", "--bots", "random"],
                    "truco: p.jsonl: "),
    "play-position": (["play", "-v", "paulista", "--position", "p.json", "--bots", "random"],
                      "truco: p.json: "),
    "skip-verified": (["verify", "logs/good.jsonl", "--skip-verified", "p.jsonl"],
                      "truco: p.jsonl: "),
    "replay-analysis": (["replay", "logs/good.jsonl", "--html", "out.html", "--analysis",
                         "p.json"], "truco: cannot read p.json: "),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_GH26_a_fifo_is_refused_never_waited_on(name: str, folder: Path) -> None:
    args, where = COMMANDS[name]
    done = _truco(*args, cwd=folder)
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert done.returncode == 1, output
    line = next((x for x in output.splitlines() if FIFO_SAYS in x), None)
    assert line is not None, output
    assert where in line, output
    assert not (folder / "out.html").exists()


def test_GH26_compare_skips_a_fifo_as_a_log_it_cannot_read(folder: Path) -> None:
    """truco compare skips a log it cannot read (its policy for any such log), at once."""
    done = _truco("compare", "paulista", "mineiro", "--logs", "p.jsonl", "--json", cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    (log,) = json.loads(done.stdout)["logs"]["logs"]
    assert (log["status"], log["reason"]) == ("skipped", f"cannot read the log: {FIFO_SAYS}")


def test_GH26_standard_input_is_still_read(folder: Path) -> None:
    done = _truco("verify", "-", cwd=folder, stdin=GOOD.read_bytes())
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "1 log: 1 valid, 0 invalid"


def test_GH26_open_regular_refuses_what_is_not_a_regular_file(folder: Path) -> None:
    with pytest.raises(NotARegularFile) as info:
        open_regular(folder / "p.jsonl")
    assert info.value.strerror == FIFO_SAYS
    assert info.value.filename == str(folder / "p.jsonl")
    with pytest.raises(NotARegularFile, match="a character device"):
        read_regular("/dev/zero", 10)
    with pytest.raises(IsADirectoryError):
        open_regular(folder / "logs")
    (folder / "link.jsonl").symlink_to(folder / "logs" / "good.jsonl")
    assert read_regular(folder / "link.jsonl", 10) == GOOD.read_bytes()[:11]
    (folder / "fifo-link.jsonl").symlink_to(folder / "p.jsonl")
    with pytest.raises(NotARegularFile):
        open_regular(folder / "fifo-link.jsonl")


#: Every command that takes --config FILE (issue 39): a usage error, as any bad config file.
CONFIG_COMMANDS = {
    "simulate": ["simulate", "-v", "paulista", "-n", "1"],
    "tournament": ["tournament", "--variant", "paulista", "--bots", "random,heuristic",
                   "--games", "1"],
    "play": ["play", "--variant", "paulista", "--bots", "random"],
    "compare": ["compare", "paulista", "mineiro", "--matches", "1"],
}


@pytest.mark.parametrize("source", ["fifo", "/dev/zero"])
@pytest.mark.parametrize("name", sorted(CONFIG_COMMANDS))
def test_a_config_file_that_is_a_fifo_or_a_device_is_refused_at_once(
        name: str, source: str, folder: Path) -> None:
    """--config read a FIFO by waiting for a writer, and /dev/zero until the memory ran out."""
    path = "p.json" if source == "fifo" else source
    done = _truco(*CONFIG_COMMANDS[name], "--config", path, cwd=folder)
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert done.returncode == 2, output
    says = FIFO_SAYS if source == "fifo" else "not a regular file: a character device"
    assert f"--config: cannot read {path}: {says}" in output, output
