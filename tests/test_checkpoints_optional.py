"""Checkpoints are optional one by one (docs/log-format.md), also where a move causes several of
a kind (a ``quero``'s ``side_declare`` lines, a hand's ``side_show`` lines), and ``truco replay
--checkpoints`` writes back each one as it stands (issue 26)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.logformat import record_random
from engine.replay import annotate, verify_bytes
from engine.variant import shipped_variants

SEEDS = (1, 5, 9)


@cache
def _log(variant: str, seed: int) -> bytes:
    return record_random(variant, seed).encode()


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_GH26_replay_checkpoints_writes_a_log_that_verifies(variant: str) -> None:
    for seed in SEEDS:
        data = _log(variant, seed)
        text, replaced = annotate(data, "a.jsonl")
        assert replaced == []
        assert text.encode() == data, (variant, seed)  # every checkpoint kept as it stands
        assert verify_bytes(text.encode(), "a.jsonl").valid


def test_GH26_replay_checkpoints_of_gauderio_seed_5_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["record", "--variant", "gauderio", "--seed", "5",
                                "--out", "g5.jsonl"]).exit_code == 0
    result = runner.invoke(main, ["replay", "g5.jsonl", "--checkpoints", "-o", "a.jsonl"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "g5.jsonl").read_bytes()
    result = runner.invoke(main, ["verify", "a.jsonl"])
    assert result.exit_code == 0, result.output
