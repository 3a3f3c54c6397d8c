"""Checkpoints are optional one by one (docs/log-format.md), also where a move causes several of
a kind (a ``quero``'s ``side_declare`` lines, a hand's ``side_show`` lines), and ``truco replay
--checkpoints`` writes back each one as it stands (issue 26)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.logformat import record_random
from engine.logread import CHECKPOINTS
from engine.replay import annotate, verify_bytes
from engine.variant import shipped_variants

SEEDS = (1, 5, 9)


@cache
def _log(variant: str, seed: int) -> bytes:
    return record_random(variant, seed).encode()


def _checkpoint_lines(data: bytes) -> list[int]:
    """The 0-based indexes of the checkpoint lines of a log."""
    return [k for k, line in enumerate(data.splitlines())
            if json.loads(line).get("event") in CHECKPOINTS]


def _without(data: bytes, drop: set[int]) -> bytes:
    return b"".join(line for k, line in enumerate(data.splitlines(keepends=True))
                    if k not in drop)


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


def test_GH26_one_side_declare_of_three_may_be_left_out() -> None:
    data = _log("gauderio", 5)
    lines = data.splitlines(keepends=True)
    assert [json.loads(x)["event"] for x in lines[3:6]] == ["side_declare"] * 3
    for k in (3, 4, 5):  # sed '4d', '5d', '6d'
        shorter = _without(data, {k})
        result = verify_bytes(shorter, "a.jsonl")
        assert result.valid, result.problems
        assert annotate(shorter, "a.jsonl")[0].encode() == data


def test_GH26_side_declare_lines_out_of_order_are_an_error() -> None:
    lines = _log("gauderio", 5).splitlines(keepends=True)
    lines[3], lines[4] = lines[4], lines[3]
    problems = verify_bytes(b"".join(lines), "a.jsonl").problems
    assert [(p.line, p.kind) for p in problems] == [(5, "checkpoint")]
    assert "side_declare checkpoint repeated or out of order" in problems[0].message


#: Logs with side bets and flor (several checkpoints of a kind after one move), and others.
SIDE_BET_LOGS = [("gauderio", s) for s in SEEDS] + [
    ("gauderio-envido-at-end", 1), ("gauderio-flor-argentina", 5), ("paulista", 1),
    ("gauderio-trios", 1)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SIDE_BET_LOGS), st.data())
def test_GH26_any_set_of_checkpoints_may_be_left_out(log: tuple[str, int],
                                                      data: st.DataObject) -> None:
    whole = _log(*log)
    drop = data.draw(st.sets(st.sampled_from(_checkpoint_lines(whole))))
    shorter = _without(whole, drop)
    result = verify_bytes(shorter, "a.jsonl")
    assert result.valid, result.problems
    assert annotate(shorter, "a.jsonl")[0].encode() == whole


def test_GH26_side_show_lines_swapped_as_written_verify() -> None:
    """side_show lines of one move come in any order (docs/log-format.md), also when each is
    exactly the engine's (the search for an equal checkpoint further on does not make the
    second one 'out of order'); and either may be left out."""
    from tests.test_envido_logs import DATA, _shows_edited

    for edit in (lambda s: s[::-1], lambda s: s[:1], lambda s: s[1:]):
        data = _shows_edited(edit)
        result = verify_bytes(data, "a.jsonl", base=DATA)
        assert result.valid, result.problems
