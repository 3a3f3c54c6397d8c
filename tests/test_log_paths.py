"""A log verifies from any working folder (issue 10): every command that writes a log names a
variant file in its header by the path from the log's own folder (``engine.logformat.
header_variant``), or from the current folder when the log goes to standard output."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.logformat import header_variant

HOUSE = "name: rel\nextends: paulista\nmatch:\n  games_to_win: 2\n"


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result.exit_code, result.stdout


@pytest.fixture
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``house/rel.yaml``, the current folder being ``house``; ``elsewhere/`` beside it."""
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "rel.yaml").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(folder)
    return folder


def _variant(log: Path) -> str:
    return str(json.loads(log.read_text(encoding="utf-8").splitlines()[0])["variant"])


def _verifies_from_elsewhere(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(_elsewhere(log))
    code, out = run("verify", str(os.path.relpath(log)))
    assert code == 0, out
    assert out.splitlines()[-1] in ("1 log: 1 valid, 0 invalid",
                                    "1 log: 1 valid (1 of them incomplete), 0 invalid")


def _elsewhere(log: Path) -> Path:
    for parent in log.parents:
        if (parent / "elsewhere").is_dir():
            return parent / "elsewhere"
    raise AssertionError(log)


def test_record_out_names_the_variant_from_the_logs_folder(
    house: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (house / "sub").mkdir()
    code, out = run("record", "--variant", "rel.yaml", "-s", "3", "--out", "sub/g.jsonl")
    assert code == 0, out
    log = house / "sub" / "g.jsonl"
    assert _variant(log) == "../rel.yaml"
    _verifies_from_elsewhere(log, monkeypatch)


def test_record_to_standard_output_names_the_variant_from_the_current_folder(
    house: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, text = run("record", "--variant", "./rel.yaml", "-s", "3")
    assert code == 0
    assert json.loads(text.splitlines()[0])["variant"] == "rel.yaml"
    log = house / "g.jsonl"  # saved in the current folder, as `> g.jsonl` does
    log.write_text(text, encoding="utf-8")
    _verifies_from_elsewhere(log, monkeypatch)


def test_simulate_logs_name_the_variant_from_their_folder(
    house: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = run("simulate", "-v", "rel.yaml", "-n", "2", "--logs", "runs/logs")
    assert code == 0, out
    logs = sorted((house / "runs" / "logs").iterdir())
    assert [_variant(p) for p in logs] == ["../../rel.yaml"] * 2
    for log in logs:
        _verifies_from_elsewhere(log, monkeypatch)
        monkeypatch.chdir(house)


def test_play_log_names_the_variant_from_its_folder(
    house: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (house / "sub").mkdir()
    code, out = run("play", "-v", "rel.yaml", "-s", "5", "--log", "sub/g.jsonl", input="quit\n")
    assert code == 0, out
    log = house / "sub" / "g.jsonl"
    assert _variant(log) == "../rel.yaml"
    _verifies_from_elsewhere(log, monkeypatch)


def test_replay_checkpoints_names_the_variant_from_the_new_logs_folder(
    house: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (house / "sub").mkdir()
    assert run("record", "-v", "rel.yaml", "-s", "3", "-o", "sub/g.jsonl")[0] == 0
    other = house.parent / "other"
    other.mkdir()
    code, out = run("replay", "sub/g.jsonl", "--checkpoints", "-o", "../other/a.jsonl")
    assert code == 0, out
    assert _variant(other / "a.jsonl") == "../house/rel.yaml"
    _verifies_from_elsewhere(other / "a.jsonl", monkeypatch)
    # Beside the input the header is kept as it was written.
    monkeypatch.chdir(house)
    assert run("replay", "sub/g.jsonl", "--checkpoints", "-o", "sub/b.jsonl")[0] == 0
    assert (house / "sub" / "b.jsonl").read_bytes() == (house / "sub" / "g.jsonl").read_bytes()
    # To standard output: from the current folder.
    monkeypatch.chdir(house.parent / "elsewhere")
    code, text = run("replay", "../house/sub/g.jsonl", "--checkpoints")
    assert code == 0 and json.loads(text.splitlines()[0])["variant"] == "../house/rel.yaml"


def test_a_shipped_name_is_written_as_it_is(house: Path) -> None:
    (house / "sub").mkdir()
    assert run("record", "-v", "mineiro", "-s", "3", "-o", "sub/g.jsonl")[0] == 0
    assert _variant(house / "sub" / "g.jsonl") == "mineiro"
    assert header_variant("mineiro", "/anywhere") == "mineiro"


def test_header_variant_paths(tmp_path: Path) -> None:
    rules = tmp_path / "rules" / "v.yaml"
    assert header_variant(str(rules), tmp_path / "a" / "b") == "../../rules/v.yaml"
    assert header_variant(rules, tmp_path / "rules") == "v.yaml"
    # A link to a folder: the path goes the way the reader's ``..`` goes, through the real one.
    (tmp_path / "real" / "logs").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real" / "logs")
    ref = header_variant(str(rules), tmp_path / "link")
    assert ref == "../../rules/v.yaml"
    assert os.path.normpath(tmp_path / "real" / "logs" / ref) == str(rules)
