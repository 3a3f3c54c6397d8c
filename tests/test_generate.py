"""The generated files (issue 41): ``python -m engine.generate`` writes the variant, log and
position schemas and the bot protocol's decision and judge schemas from the move kinds and the
base blocks; a test fails, naming the command, when one is out of step; and a stale file breaks
no command (the engine never reads them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from engine.generate import COMMAND, GENERATED, generated, main, stale
from engine.logcheck import log_schema
from engine.logschema import render
from engine.matchpos.schema import position_schema
from engine.moves import KINDS, PHASES, all_phases
from engine.observation import observation_schema
from engine.resources import data_dir
from engine.schemas import variant_schema

#: Where the engine keeps the generated files: `schemas/` in a checkout, the package's data
#: where it is installed (the compiled wheel's fast tests run against it).
SCHEMAS = data_dir("schemas")


def test_the_generated_files_are_in_step() -> None:
    assert [p.name for p in stale()] == [], f"a generated file is out of step: run {COMMAND}"
    assert {p.relative_to(SCHEMAS).as_posix() for p, _ in generated()} == set(GENERATED)


def test_the_engine_checks_against_what_it_generates() -> None:
    texts = {p.relative_to(SCHEMAS).as_posix(): json.loads(text) for p, text in generated()}
    assert texts["log.schema.json"] == log_schema() == json.loads(render())
    assert texts["variant.schema.json"] == variant_schema()
    assert texts["position.schema.json"] == position_schema()
    for message in ("decision", "judge"):
        schema = texts[f"bot-protocol/{message}.schema.json"]
        assert schema["properties"]["observation"] == observation_schema()


def test_every_kinds_block_and_phase_is_in_the_schemas() -> None:
    blocks = {k.block.name: k.block for k in KINDS.values() if k.block is not None}
    assert {"concede", "cut", "redeal"} <= set(blocks)
    props = variant_schema()["properties"]
    for name, block in blocks.items():
        assert props[name] == block.schema()
        assert all(props[name]["properties"][k]["default"] is not None for k in block.keys)
    assert position_schema()["properties"]["state"]["enum"] == [
        "deal", *PHASES, "match_over"]
    seen = observation_schema()["properties"]
    assert seen["phase"]["enum"] == list(all_phases())
    states = {k.state.key: k.state for k in KINDS.values() if k.state is not None}
    assert {"must_kill", "confirm", "take"} <= set(states) <= set(seen)
    assert seen["confirm"] == states["confirm"].schema  # what the seat sees, as a position has it
    assert seen["take"]["properties"]["cards"]["type"] == ["array", "null"]  # its view_schema
    assert "$ref" not in json.dumps(seen)  # a position's $defs inlined


def test_check_names_the_command_and_write_mends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for path, text in generated():
        copy = tmp_path / path.relative_to(SCHEMAS)
        copy.parent.mkdir(exist_ok=True)
        copy.write_text(text, encoding="utf-8")
    (tmp_path / "log.schema.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "position.schema.json").unlink()
    (tmp_path / "bot-protocol" / "judge.schema.json").unlink()
    monkeypatch.setattr("engine.generate.data_dir", lambda kind: tmp_path)
    assert main(["--check"]) == 1
    err = capsys.readouterr().err
    assert err.count(COMMAND) == 3 and "log.schema.json" in err and "position" in err
    assert "judge.schema.json" in err
    assert main([]) == 0
    assert stale() == [] and main(["--check"]) == 0
    assert main(["--bogus"]) == 2
    assert COMMAND in capsys.readouterr().err


#: Run with the shipped schemas replaced by stale ones (no cut event, no redeal block, no cut
#: phase): a cut log verifies, the redeal variant loads, a cut position round-trips.
_STALE_RUN = """
import sys
from pathlib import Path
import engine.resources as resources
stale, real = Path(sys.argv[1]), resources.data_dir
resources.data_dir = lambda kind: stale if kind == "schemas" else real(kind)
from engine import Match, load_variant
from engine.logformat import record_random
from engine.replay.verify import verify_bytes
log = record_random("cut", 3)
assert '"event": "cut"' in log, log[:400]
result = verify_bytes(log.encode(), "cut.jsonl")
assert not result.problems, result.problems
assert load_variant("redeal").block("redeal")["allowed"] is True
m = Match.new("cut", seed=3)
assert m.state == "cut" and Match.from_position("cut", m.position()).position() == m.position()
print("ok")
"""


def test_a_stale_generated_file_breaks_nothing(tmp_path: Path) -> None:
    for path, text in generated():
        data = json.loads(text)
        data.get("$defs", {}).pop("cut", None)
        data.get("properties", {}).pop("redeal", None)
        if "state" in data.get("properties", {}):
            data["properties"]["state"]["enum"].remove("cut")
        copy = tmp_path / path.relative_to(SCHEMAS)
        copy.parent.mkdir(exist_ok=True)
        copy.write_text(json.dumps(data), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", _STALE_RUN, str(tmp_path)], cwd=REPO,
                         capture_output=True, text=True, timeout=300)
    assert (run.returncode, run.stdout.strip(), run.stderr) == (0, "ok", "")
