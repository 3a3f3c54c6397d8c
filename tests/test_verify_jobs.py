"""`truco verify --jobs J`: the same report for any J (issue 6: scale out)."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from engine.cli import main

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def test_verify_output_is_the_same_for_any_jobs(tmp_path: Path) -> None:
    for log in sorted(REPLAYS.glob("*.jsonl")) + sorted((REPLAYS / "invalid").glob("*.jsonl")):
        shutil.copy(log, tmp_path / log.name)
    runner = CliRunner()
    outputs = []
    for jobs in ("1", "2"):
        for extra in ([], ["--json"], ["--first"]):
            result = runner.invoke(main, ["verify", str(tmp_path), "--jobs", jobs, *extra])
            assert result.exit_code == 1, result.output  # the invalid logs are in there
            outputs.append((tuple(extra), result.output))
    assert outputs[:3] == outputs[3:]
    plain = outputs[0][1]
    assert "invalid" in plain.splitlines()[-1]
    assert len(plain.splitlines()) > len(list(tmp_path.glob("*.jsonl"))) // 2


def test_verify_jobs_must_be_positive(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", str(REPLAYS), "--jobs", "0"])
    assert result.exit_code == 2
    assert "--jobs" in result.output
