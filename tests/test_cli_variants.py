"""``truco variants list|show|check|validate|schema``: output and exit codes
(0 ok, 1 an invalid variant, 2 usage)."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner, Result
from conftest import WriteFile

from engine.cli import main
from engine.resources import schema_path, shipped_variants
from engine.variant import load_variant

SHIPPED = shipped_variants()


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_list_names_every_shipped_variant_with_its_title() -> None:
    result = run("variants", "list")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == list(SHIPPED)
    assert any("Truco Paulista" in line and "[paulista.yaml]" in line for line in lines)
    assert any("[house/one-on-one.yaml]" in line for line in lines)


@pytest.mark.parametrize("name", ["paulista", "mineiro-12", "one-on-one"])
def test_show_prints_the_resolved_variant_as_a_standalone_yaml_file(
    name: str, write: WriteFile
) -> None:
    result = run("variants", "show", name)
    assert result.exit_code == 0, result.output
    rules = load_variant(name)
    first, _, body = result.output.partition("\n")
    assert first == f"# variant_sha256: {rules.fingerprint}"
    data = yaml.safe_load(body)
    assert "extends" not in data
    assert data["name"] == name and data["players"] == rules.players
    # Saved as a file, it is a variant that extends nothing and means the same rules.
    again = load_variant(write(f"{name}.yaml", result.output))
    assert again == rules and again.fingerprint == rules.fingerprint


def test_show_accepts_a_path(write: WriteFile) -> None:
    path = write("mine.yaml", "extends: mineiro\nmatch: {games_to_win: 1}\n")
    result = run("variants", "show", str(path))
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.output)["match"] == {"games_to_win": 1}


def test_show_unknown_variant_exits_1_without_traceback() -> None:
    result = run("variants", "show", "nope")
    assert result.exit_code == 1
    assert "truco: unknown variant 'nope'" in result.output
    assert "Traceback" not in result.output


def test_check_accepts_every_shipped_file() -> None:
    files = [str(p) for p in SHIPPED.values()]
    result = run("variants", "check", *files)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"{f}: ok" for f in files]


def test_validate_is_check() -> None:
    result = run("variants", "validate", "paulista", "mineiro")
    assert (result.exit_code, result.output) == (0, "paulista: ok\nmineiro: ok\n")


BROKEN = {
    "duplicate key": ("extends: paulista\ngame:\n  target: 12\n  target: 15\n", "4:3: game.target"),
    "unknown key": ("extends: paulista\nbeting: {}\n", "2:1: beting"),
    "wrong type": ("extends: paulista\nplayers: four\n", "2:10: players"),
    "decreasing ladder": ("extends: paulista\nbetting:\n  ladder: [{value: 6, name: seis}, "
                          "{value: 3, name: truco}]\n", "3:44: betting.ladder[1].value"),
    "unknown parent": ("extends: paulistinha\n", "1:10: extends"),
    "extends cycle": ("extends: broken.yaml\n", "1:10: extends"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_check_broken_copy_exits_1_with_location_and_key_path(case: str, write: WriteFile) -> None:
    text, where = BROKEN[case]
    path = write("broken.yaml", text)
    result = run("variants", "check", str(path))
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"{path}:{where}: ")
    assert "Traceback" not in result.output


def test_check_reports_each_file_and_fails_if_any_is_invalid(write: WriteFile) -> None:
    bad = write("bad.yaml", "extends: paulista\nplayers: 5\ngame: {target: x}\n")
    result = run("variants", "check", "paulista", str(bad))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "paulista: ok"
    assert lines[1].startswith(
        f"{bad}:2:10: players: expected one of 2, 3, 4, 6, 8, 10, 12, found 5")
    assert lines[2].startswith(f"{bad}:3:16: game.target: expected an integer")


def test_check_missing_file_exits_1_naming_it(tmp_path: object) -> None:
    result = run("variants", "check", "no/such/file.yaml")
    assert result.exit_code == 1
    assert result.output.startswith("no/such/file.yaml: no variant file at")


@pytest.mark.parametrize("args", [["variants", "check"], ["variants", "validate"],
                                  ["variants", "show"], ["variants", "list", "--bogus"],
                                  ["variants", "nosuchcommand"]])
def test_usage_errors_exit_2(args: list[str]) -> None:
    assert run(*args).exit_code == 2


def test_schema_prints_the_shipped_schema() -> None:
    result = run("variants", "schema")
    assert result.exit_code == 0
    assert json.loads(result.output) == json.loads(schema_path("variant").read_text("utf-8"))


@pytest.mark.parametrize("args", [[], ["variants"], ["variants", "list"], ["variants", "show"],
                                  ["variants", "diagram"],
                                  ["variants", "check"], ["variants", "validate"],
                                  ["variants", "schema"]])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_every_command_has_help(args: list[str], flag: str) -> None:
    result = run(*args, flag)
    assert result.exit_code == 0
    assert "Usage:" in result.output


@pytest.mark.parametrize("name", ["paulista", "mineiro"])
def test_diagram_names_every_state_and_trigger_of_the_machine(name: str) -> None:
    from engine.machine import build_machine

    result = run("variants", "diagram", name)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "stateDiagram-v2" in text and f"title: {load_variant(name).title} ({name})" in text
    machine = build_machine(load_variant(name))
    for state in machine.states:
        assert f'state "{state}" as {state}' in text
    edges = [line.strip() for line in text.splitlines() if "-->" in line]
    for trigger in machine.events:
        assert any(f": {trigger} [" in e or f"| {trigger} [" in e for e in edges), trigger
    assert "[*] --> deal" in text
    assert ("decide" in machine.states) == (name == "mineiro")


def test_diagram_of_a_variant_file(write: WriteFile) -> None:
    path = write("no-raises.yaml", "extends: paulista\nbetting:\n  ladder: []\n")
    result = run("variants", "diagram", str(path))
    assert result.exit_code == 0, result.output
    assert "answer" not in result.output and "raise [legal_raise" in result.output


def test_diagram_unknown_variant_exits_1_and_usage_exits_2() -> None:
    result = run("variants", "diagram", "nope")
    assert result.exit_code == 1 and "truco: unknown variant 'nope'" in result.output
    assert "Traceback" not in result.output
    assert run("variants", "diagram").exit_code == 2
    assert run("variants", "diagram", "paulista", "--format", "png").exit_code == 2


def test_diagram_svg_says_what_it_needs_when_graphviz_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "graphviz" else real(name, *a))
    result = run("variants", "diagram", "paulista", "--format", "svg")
    assert result.exit_code == 1
    assert "needs the graphviz Python package and Graphviz's dot program" in result.output
    assert "Traceback" not in result.output


def test_the_machine_page_shows_paulistas_diagram_as_the_command_draws_it() -> None:
    from conftest import REPO

    readme = (REPO / "docs" / "machine.md").read_text(encoding="utf-8")
    block = readme.split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert block == run("variants", "diagram", "paulista").output


def test_truco_help_lists_every_command_with_its_whole_first_paragraph() -> None:
    from engine.cli import COMMANDS

    listed = run("--help").output.split("Commands:", 1)[1]
    names = [line.split()[0] for line in listed.splitlines() if line.startswith("  ")
             and not line.startswith("   ")]
    assert names == sorted(COMMANDS)
    assert "and points won per team, the ladder steps" in " ".join(listed.split())  # not cut


_ONE_COMMAND = """
import sys
from engine.cli import main
try:
    main(["verify", sys.argv[1]])
except SystemExit:
    pass
print(" ".join(sorted(m for m in sys.modules if m.startswith(("engine.cli.", "numpy")))))
"""


def test_a_command_imports_its_own_module_not_every_command() -> None:
    """The ``truco`` group loads a command's module when it is run: ``truco verify`` never
    imports the terminal game, the tournaments or NumPy."""
    import subprocess
    import sys
    from pathlib import Path

    log = Path(__file__).resolve().parent.parent / "replays" / "paulista-seed1.jsonl"
    done = subprocess.run([sys.executable, "-c", _ONE_COMMAND, str(log)], capture_output=True,
                          text=True, check=True)
    loaded = done.stdout.split("\n")[-2].split()
    assert "engine.cli.verify_cmd" in loaded
    for other in ("engine.cli.play_cmd", "engine.cli.tournament_cmd", "engine.cli.compare_cmd",
                  "numpy"):
        assert other not in loaded, loaded
