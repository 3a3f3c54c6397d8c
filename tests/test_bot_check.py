"""``truco bot check`` (docs/bot-protocol.md): the example bots pass it, a bad bot fails it."""

from __future__ import annotations

import shutil
import sys

import pytest
from click.testing import CliRunner
from conftest import REPO

from engine.cli import main
from engine.protocol.external import end_all

PY = sys.executable
HOSTILE = REPO / "tests" / "bots" / "hostile.py"


def hostile(mode: str) -> str:
    return f"{PY} {HOSTILE} {mode}"


@pytest.fixture(autouse=True)
def _end_bots() -> object:
    yield None
    end_all()


@pytest.mark.parametrize("command", [
    f"{PY} {REPO / 'examples' / 'bots' / 'first.py'}",
    f"node {REPO / 'examples' / 'bots' / 'first.js'}",
    f"{PY} -m engine bot serve heuristic",
])
def test_the_examples_pass_truco_bot_check(command: str) -> None:
    if command.startswith("node") and shutil.which("node") is None:
        pytest.fail("node is not installed (.ci/run installs nodejs)")
    result = CliRunner().invoke(main, ["bot", "check", command, "--decisions", "120"])
    assert result.exit_code == 0, result.output
    assert result.output.count("\nok ") + result.output.startswith("ok ") == 7
    assert result.output.rstrip().endswith("passed")


def test_the_examples_stay_short() -> None:
    for name in ("first.py", "first.js"):
        assert len((REPO / "examples" / "bots" / name).read_text().splitlines()) <= 60


def test_truco_bot_check_shows_the_bots_id_and_its_options() -> None:
    result = CliRunner().invoke(main, ["bot", "check", hostile("options"), "--decisions", "20"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "ok      handshake: id 'options' by 'tests', options: level (spin, default 3, 1 to 5), "
        "protocol 1, ready")


@pytest.mark.parametrize("mode", ["illegal", "badhello", "badoptions"])
def test_truco_bot_check_fails_a_bad_bot(mode: str) -> None:
    result = CliRunner().invoke(main, ["bot", "check", hostile(mode), "--decisions", "20",
                                       "--move-ms", "2000"])
    assert result.exit_code == 1
    assert "FAILED" in result.output
    if mode == "badoptions":
        assert result.output.startswith("FAILED  handshake: its id message does not follow the "
                                        "protocol at options/0/type: 'slider' is not one of")


def test_truco_bot_serve_refuses_a_command() -> None:
    result = CliRunner().invoke(main, ["bot", "serve", "cmd:./x"])
    assert result.exit_code == 2
    assert "serve a built-in bot, not a command" in result.output


def test_truco_bot_check_says_what_a_bot_did_with_a_message_of_an_unknown_type() -> None:
    """The doc's contract: a bot ignores a message of an unknown type (as an unknown field).
    A bot that exits on one fails that check alone, with what happened, not a vague line."""
    result = CliRunner().invoke(main, ["bot", "check", hostile("strict"), "--decisions", "20"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[4] == "ok      abandoned match: the next match goes on, on the same process"
    assert lines[5].startswith(
        'FAILED  unknown message: after a message of an unknown type ({"type": "x-unknown", '
        '"note": "a later version\'s message"}), which a bot must ignore, the next match failed ')
    assert ": crash: the bot" in lines[5] and "did not end well" not in result.output
    assert [line.split(":")[0] for line in lines if line.startswith("FAILED")] == [
        "FAILED  unknown message"]


def test_truco_bot_check_refuses_a_command_that_cannot_be_split() -> None:
    result = CliRunner().invoke(main, ["bot", "check", f"{PY} 'oops"])
    assert result.exit_code == 2
    assert "a quote is not closed" in result.output and "Traceback" not in result.output
