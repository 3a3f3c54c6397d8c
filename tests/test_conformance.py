"""The conformance logs of tests/conformance/: the engine's own logs of the spec's example
matches. Each one verifies and is what the engine writes for its moves; when the spec is beside
the checkout (``../shared/spec``, or ``$TRUCO_SPEC``), each is byte-identical to the spec's
example of the same name, and the spec has no example we do not carry."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

from engine.replay import annotate, verify_file
from tests.conftest import CONFORMANCE, REPO

#: The spec's examples, by name: seeds 101 and 202 of each shipped variant, seed 303 moves only.
NAMES = sorted([f"{v}-seed101.jsonl" for v in ("paulista", "mineiro", "mineiro-12")]
               + [f"{v}-seed202-deals.jsonl" for v in ("paulista", "mineiro", "mineiro-12")]
               + ["paulista-seed303-moves-only.jsonl"])
LOGS = sorted(CONFORMANCE.glob("*.jsonl"))


def load_maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_conformance",
                                                  CONFORMANCE / "make_conformance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = load_maker()


def spec_examples() -> Path | None:
    """The spec's examples folder if it is there: ``$TRUCO_SPEC/examples`` (which must then
    exist), else ``shared/spec/examples`` beside the repository, else None."""
    named = os.environ.get("TRUCO_SPEC")
    if named:
        assert (Path(named) / "examples").is_dir(), f"TRUCO_SPEC={named} has no examples/"
        return Path(named) / "examples"
    beside = REPO.parent / "shared" / "spec" / "examples"
    return beside if beside.is_dir() else None


def spec_differences(ours: Path, examples: Path) -> list[str]:
    """How ``ours`` (a folder of logs) differs from the spec's ``examples`` folder: examples we
    do not carry, logs the spec lacks, and files whose bytes differ."""
    mine = {p.name for p in ours.glob("*.jsonl")}
    theirs = {p.name for p in examples.glob("*.jsonl")}
    found = [f"{name}: in the spec, not carried" for name in sorted(theirs - mine)]
    found += [f"{name}: carried, not in the spec" for name in sorted(mine - theirs)]
    found += [f"{name}: differs from the spec's example" for name in sorted(mine & theirs)
              if (ours / name).read_bytes() != (examples / name).read_bytes()]
    return found


def test_the_spec_examples_are_all_carried_and_identical() -> None:
    assert [p.name for p in LOGS] == NAMES
    examples = spec_examples()
    if examples is not None:  # beside the checkout (CI, developers): the conformance claim
        assert spec_differences(CONFORMANCE, examples) == []


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_each_log_verifies_and_is_the_engines_log_of_its_moves(path: Path) -> None:
    result = verify_file(path)
    assert [str(p) for p in result.problems] == [] and result.incomplete is None
    assert result.winner is not None
    data = path.read_bytes()
    assert MAKER.engine_log(data, path.name).encode("utf-8") == data
    examples = spec_examples()
    if examples is not None and (examples / path.name).is_file():
        assert (examples / path.name).read_bytes() == data


def test_the_moves_only_log_filled_in_is_the_engines_full_log() -> None:
    path = CONFORMANCE / "paulista-seed303-moves-only.jsonl"
    moves = path.read_text(encoding="utf-8")
    assert '"event": "round"' not in moves
    filled, replaced = annotate(path.read_bytes(), path.name)  # truco replay --checkpoints
    assert replaced == []
    full = MAKER.engine_log(filled.encode("utf-8"), path.name)
    assert full == filled and full.count("\n") > moves.count("\n") + 20


def test_engine_log_rewrites_every_line_from_the_moves_alone() -> None:
    path = CONFORMANCE / "paulista-seed202-deals.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = '{"dealer": 3, "seed": 202, "variant": "paulista", "truco_log": 1}\n'
    assert lines[0] == '{"truco_log": 1, "variant": "paulista", "seed": 202, "dealer": 3}\n'
    assert lines[1].startswith('{"event": "deal"') and lines[-1].startswith('{"event": "match"')
    # one deal event and one checkpoint: the log has deal events and checkpoints
    source = [header, lines[1]] + [x for x in lines[1:] if '"seat"' in x] + [lines[-1]]
    assert len(source) < len(lines) - 30
    out = MAKER.engine_log("".join(source).encode("utf-8"), path.name)
    assert out == "".join(lines)


def test_spec_differences_names_missing_extra_and_changed_logs(tmp_path: Path) -> None:
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    for name in ("a.jsonl", "b.jsonl", "c.jsonl"):
        (ours / name).write_bytes(b"{}\n")
        (theirs / name).write_bytes(b"{}\n")
    (theirs / "README.md").write_text("not a log\n")
    assert spec_differences(ours, theirs) == []
    (theirs / "b.jsonl").write_bytes(b"{} \n")
    (theirs / "d.jsonl").write_bytes(b"{}\n")
    (ours / "c.jsonl").unlink()
    (ours / "e.jsonl").write_bytes(b"{}\n")
    assert spec_differences(ours, theirs) == [
        "c.jsonl: in the spec, not carried", "d.jsonl: in the spec, not carried",
        "e.jsonl: carried, not in the spec", "b.jsonl: differs from the spec's example"]


def test_spec_examples_honours_TRUCO_SPEC(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "examples").mkdir()
    monkeypatch.setenv("TRUCO_SPEC", str(tmp_path))
    assert spec_examples() == tmp_path / "examples"
    monkeypatch.setenv("TRUCO_SPEC", str(tmp_path / "nowhere"))
    with pytest.raises(AssertionError, match="has no examples/"):
        spec_examples()
