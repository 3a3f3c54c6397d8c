"""``truco analyze`` values each decision as the log is read (issue 39): it kept every
decision's observation and position (some 16 KB each) before valuing any, so a 1.3 MB log
peaked at 460 MB and a 5.2 MB one died with a MemoryError. Now the decisions alive at once are
a few executor windows' worth whatever the log's length, the results wait on disk, and the
output is byte for byte the whole report's."""

from __future__ import annotations

import json
import weakref
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import engine.analysis.run
import engine.analysis.walk
from engine.analysis import analyse
from engine.analysis.report import text_report
from engine.cli import main
from engine.variant import load_variant
from tests.conftest import REPO

LOG = REPO / "replays" / "paulista-seed1.jsonl"


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_decisions_alive_at_once_do_not_grow_with_the_log(
        monkeypatch: pytest.MonkeyPatch) -> None:
    alive = [0]
    most = [0]
    valued = [0]

    class Counted(engine.analysis.walk.Decision):  # type: ignore[misc]
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            alive[0] += 1
            weakref.finalize(self, lambda: alive.__setitem__(0, alive[0] - 1))

    real = engine.analysis.run.value_decision

    def value(job: Any) -> dict[str, Any]:
        valued[0] += 1
        most[0] = max(most[0], alive[0])
        return real(job)

    monkeypatch.setattr(engine.analysis.walk, "Decision", Counted)
    monkeypatch.setattr(engine.analysis.run, "value_decision", value)
    out = json.loads(run("analyze", str(LOG), "-p", "1", "--json"))
    assert valued[0] == len(out["decisions"]) == 65
    assert most[0] <= 3, most[0]  # was 65: every decision before the first was valued


@pytest.mark.parametrize("args", [["--json", "-p", "2", "--hindsight"], ["-p", "2"],
                                  ["--json", "-p", "1", "--seat", "2"]])
def test_the_output_is_the_whole_reports_byte_for_byte(tmp_path: Path, args: list[str]) -> None:
    seats = frozenset({2}) if "--seat" in args else None
    report = analyse(LOG.read_bytes(), str(LOG), playouts=int(args[args.index("-p") + 1]),
                     hindsight="--hindsight" in args, seats=seats)
    whole = (json.dumps(report, ensure_ascii=False, indent=1) + "\n" if "--json" in args
             else text_report(report, load_variant(report["variant"])))
    assert run("analyze", str(LOG), *args) == whole
    out = tmp_path / "a.out"
    run("analyze", str(LOG), *args, "-o", str(out))
    assert out.read_text(encoding="utf-8") == whole


def test_a_log_without_decisions_is_the_same_too() -> None:
    text = LOG.read_bytes().splitlines()[0] + b"\n"  # the header only, from standard input
    report = analyse(text, "<stdin>", playouts=1)
    assert report["decisions"] == []
    result = CliRunner().invoke(main, ["analyze", "-", "--json", "-p", "1"], input=text)
    assert result.stdout == json.dumps(report, ensure_ascii=False, indent=1) + "\n"
