"""`--config FILE` (issue 28): a TOML file's `[bots]` table names bots, for long command lines,
wherever `--bots` is taken: truco simulate, tournament, play and compare --matches."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from engine.cli import main
from engine.cli.options import MAX_CONFIG_BYTES, read_bots_config
from engine.protocol.external import end_all

#: A bot program whose command line holds a comma (the separator of --bots).
GOOD = f"cmd:{sys.executable} {REPO / 'tests' / 'bots' / 'hostile.py'} good a,b"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("TRUCO_BOT_STDERR", str(tmp_path / "stderr"))
    path = tmp_path / "bots.toml"
    path.write_text(f'[bots]\nmine = "{GOOD}"\nquick = "search:8"\n', encoding="utf-8")
    try:
        yield path
    finally:
        end_all()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input="a\n" * 40)
    return result.exit_code, result.stdout, result.stderr


def test_the_bots_table_names_bots(config: Path) -> None:
    assert read_bots_config(config) == {"mine": GOOD, "quick": "search:8"}


def test_simulate_and_compare_play_the_named_bots(config: Path) -> None:
    code, out, err = run("simulate", "-v", "paulista", "-n", "2", "--bots", "mine,quick",
                         "--config", str(config), "--json")
    assert code == 0, err
    assert json.loads(out)["bots"] == [GOOD, "search:8", GOOD, "search:8"]  # as they played
    code, out, err = run("compare", "paulista", "mineiro", "--matches", "2", "--config",
                         str(config), "--bots", "mine,random", "--json")
    assert code in (0, 1), err
    assert json.loads(out)["simulation"]["a"]["bots"][0] == GOOD


def test_a_tournament_plays_the_named_bots(config: Path) -> None:
    code, out, err = run("tournament", "-v", "paulista", "--games", "1", "--config",
                         str(config), "--bots", "mine,quick,random", "--json")
    assert code == 0, err
    assert [p["a"] for p in json.loads(out)["pairings"]] == [GOOD, GOOD, "search:8"]
    code, _out, err = run("tournament", "-v", "paulista", "--config", str(config), "--bots",
                          "quick,search:8")
    assert code == 2 and "each once" in err  # a name and what it stands for: the same bot


def test_play_takes_the_named_bots(config: Path, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, _out, err = run("play", "-v", "paulista", "--seed", "3", "--bots", "mine",
                          "--config", str(config), "--log", str(log))
    assert code == 0, err
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["meta"]["bots"] == ["human", GOOD, GOOD, GOOD]


def test_an_unknown_name_points_at_the_config(config: Path) -> None:
    code, _out, err = run("simulate", "-v", "paulista", "--bots", "theirs")
    assert code == 2 and "a name of the [bots] table of a --config FILE" in err
    code, _out, err = run("simulate", "-v", "paulista", "--config", str(config), "--bots",
                          "theirs")
    assert code == 2 and "a name of --config's [bots]: mine, quick" in err


@pytest.mark.parametrize(("text", "why"), [
    ("[bots\n", "is not TOML"),
    ('[bot]\nmine = "random"\n', "unknown key 'bot'; a config file has a [bots] table"),
    ('bots = "random"\n', "bots must be a table"),
    ('[bots]\n"a,b" = "random"\n', "a name is letters, digits"),
    ('[bots]\nrandom = "heuristic"\n', "'random' is a built-in bot"),
    ("[bots]\nmine = 3\n", "give the bot as a string"),
    ('[bots]\nmine = "cmd:"\n', "cmd: needs a command"),
    ('[bots]\nmine = "search:0"\n', "bad budget"),
    ('[bots]\nmine = "heuristic"\ntheirs = "mine"\n', "unknown bot 'mine'"),
])
def test_a_bad_config_is_a_usage_error(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "bots.toml"
    path.write_text(text, encoding="utf-8")
    for command in (["simulate", "-v", "paulista", "-n", "1"],
                    ["tournament", "-v", "paulista", "--bots", "a,b"]):
        code, _out, err = run(*command, "--config", str(path))
        assert code == 2 and "Invalid value for --config" in err and why in err, err
    with pytest.raises(ValueError, match="cannot read"):
        read_bots_config(tmp_path / "missing.toml")


def test_the_docs_example_config_names_its_bots(tmp_path: Path) -> None:
    page = (REPO / "docs" / "bots.md").read_text(encoding="utf-8")
    example = page.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "bots.toml"
    path.write_text(example, encoding="utf-8")
    bots = read_bots_config(path)
    assert bots["mine"] == "cmd:./mybot --level 3 --book openings,late"
    assert set(bots) == {"mine", "node", "strong"}


# -- a command that cannot be split (issue 39, defect 15) --------------------------------------
UNSPLIT = [("cmd:./mybot 'oops", "a quote is not closed"),
           ("cmd:./mybot \\", "ends with a backslash that escapes nothing"),
           ("cmd:''", "names no program")]


@pytest.mark.parametrize("bot,why", UNSPLIT)
@pytest.mark.parametrize("command", [
    ["simulate", "-v", "paulista", "-n", "1"], ["tournament", "-v", "paulista", "-n", "1"],
    ["compare", "paulista", "mineiro", "-n", "1"], ["play", "-v", "paulista"]])
def test_a_bot_command_that_cannot_be_split_is_a_usage_error(
        command: list[str], bot: str, why: str) -> None:
    code, out, err = run(*command, "--bots", f"{bot},random")
    assert code == 2, out + err
    assert f": cmd: the command {bot[4:]!r} " in err
    assert "Invalid value for --bots" in err and why in err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("bot,why", UNSPLIT)
def test_a_bot_command_that_cannot_be_split_is_refused_in_a_config_file(
        tmp_path: Path, bot: str, why: str) -> None:
    path = tmp_path / "bots.toml"
    path.write_text(f"[bots]\nmine = {json.dumps(bot)}\n", encoding="utf-8")
    code, _out, err = run("simulate", "-v", "paulista", "--config", str(path), "--bots", "mine")
    assert code == 2 and f"[bots] mine: cmd: the command {bot[4:]!r}" in err and why in err


@pytest.mark.parametrize("bot,why", UNSPLIT)
def test_truco_serve_refuses_a_bot_command_that_cannot_be_split_at_start(
        monkeypatch: pytest.MonkeyPatch, bot: str, why: str) -> None:
    served: list[object] = []
    monkeypatch.setattr("engine.cli.serve_cmd.serve", lambda *a, **k: served.append(a))
    code, _out, err = run("serve", "--bot", f"mine={bot[4:]}")
    assert (code, served) == (2, []) and "--bot: mine: cmd: the command" in err and why in err


def test_a_bot_command_that_cannot_be_split_is_a_bot_error_in_python() -> None:
    from engine.protocol.external import BotError, ExternalBot
    from engine.variant import load_variant

    with pytest.raises(BotError, match="a quote is not closed"):
        ExternalBot(load_variant("paulista"), 1, "./mybot 'oops")


@pytest.mark.parametrize(("content", "says"), [
    (b"# " + b"x" * MAX_CONFIG_BYTES + b"\n", f"is larger than {MAX_CONFIG_BYTES:,} bytes"),
    (b'[bots]\nmine = "\xff"\n', "is not UTF-8 text (byte 15)"),
    (b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", "values nested too deep"),
])
def test_a_config_file_too_large_not_text_or_too_deep_is_a_usage_error(
        tmp_path: Path, content: bytes, says: str) -> None:
    """Each was read whole (a 200 MB file cost 1.25 GB) or gave a traceback (issue 39)."""
    path = tmp_path / "bots.toml"
    path.write_bytes(content)
    code, _out, err = run("simulate", "-v", "paulista", "-n", "1", "--config", str(path))
    assert code == 2, err
    assert f"Invalid value for --config: {path}" in err and says in err, err
    assert "Traceback" not in err
