"""``truco position LOG [--at LINE]``, and positions taken from the logs in ``replays/``: each
resumes from its position and goes on as the log says (moves legal, checkpoints equal)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine import Action, Deal, Match
from engine.cli import main
from engine.cli.position_cmd import CHECKPOINTS, position_at
from tests.conftest import CONFORMANCE, REPO

LOGS = sorted([*(REPO / "replays").glob("*.jsonl"), *CONFORMANCE.glob("*.jsonl")])


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _events(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def _resume(path: Path, at: int) -> None:
    """The position after line ``at`` resumes: the rest of the log replays on the match built
    from it (its moves legal, its checkpoints those the engine gives), and ends at the log's
    last position."""
    data = path.read_bytes()
    events = _events(path)
    variant = str(events[0]["variant"])
    base = path.parent
    m = Match.from_position(_rules(variant, base), position_at(data, str(path), base, at))
    pending: list[dict[str, object]] = []
    for ev in events[at:]:
        if ev["event"] in CHECKPOINTS:
            assert pending and pending.pop(0) == ev, (path.name, at, ev)
            continue
        # (a moves-only log leaves the checkpoints out)
        if ev["event"] == "deal":
            if m.awaiting_deal:
                m.deal(Deal.of(ev["dealer"], ev["hands"], ev.get("vira")))  # type: ignore[arg-type]
            continue  # a seeded match dealt it already (the log repeats it)
        pending = m.apply(Action.from_event(ev))
    assert m.position() == position_at(data, str(path), base, None)


def _rules(variant: str, base: Path) -> object:
    from engine.replay import resolve_variant

    return resolve_variant(variant, base)


def _stops(path: Path) -> list[int]:
    """The lines after which the log has a position: not before a checkpoint."""
    lines = path.read_bytes().splitlines()
    return [k for k in range(1, len(lines) + 1)
            if k == len(lines) or json.loads(lines[k]).get("event") not in CHECKPOINTS]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_positions_taken_from_logs_resume_and_go_on_as_the_log(path: Path) -> None:
    stops = _stops(path)
    for at in stops[::max(1, len(stops) // 12)] + [stops[-1]]:
        _resume(path, at)


def test_truco_position_prints_one_json_line_of_the_logs_last_position() -> None:
    path = REPO / "replays" / "paulista-seed1.jsonl"
    code, out, _ = run("position", str(path))
    assert code == 0 and out.count("\n") == 1
    p = json.loads(out)
    assert p["state"] == "match_over"
    assert Match.from_position("paulista", p).position() == p
    code, out, _ = run("position", str(path), "--at", "1")
    assert code == 0
    assert json.loads(out) == Match.new("paulista", seed=1).position()


def test_truco_position_refuses_a_line_between_a_move_and_its_checkpoints() -> None:
    path = REPO / "replays" / "mineiro-12-deals2.jsonl"
    lines = path.read_bytes().splitlines()
    at = next(k for k in range(1, len(lines))
              if json.loads(lines[k]).get("event") in CHECKPOINTS)
    code, _, err = run("position", str(path), "--at", str(at))
    assert code == 2 and "checkpoint" in err
    code, _, err = run("position", str(path), "--at", str(at + 1))
    assert code == 0


def test_truco_position_refuses_a_line_outside_the_log() -> None:
    path = REPO / "replays" / "paulista-seed1.jsonl"
    for at in ("0", "100000"):
        code, _, err = run("position", str(path), "--at", at)
        assert code == 2 and "--at" in err


def test_truco_position_of_an_invalid_log_says_where_exit_1() -> None:
    path = REPO / "replays" / "invalid" / "illegal-move.jsonl"
    code, out, err = run("position", str(path))
    assert (code, out) == (1, "")
    assert "illegal move [" in err and ":" in err


def test_the_position_after_a_whole_team_refusal_ended_the_match_reads_back(
        tmp_path: Path) -> None:
    """Issue 26: both-refuse, seed 4 ends at the team's second fold; the refusals belonged to
    the raise, which is over: the position printed keeps none and is read back."""
    log = tmp_path / "r.jsonl"
    assert run("record", "--variant", "both-refuse", "--seed", "4", "--out", str(log))[0] == 0
    code, out, _ = run("position", str(log))
    assert code == 0
    p = json.loads(out)
    assert p["state"] == "match_over" and p["pending"] is None and p["refused"] == []
    assert Match.from_position("both-refuse", p).position() == p
    pos = tmp_path / "p.json"
    pos.write_text(out, encoding="utf-8")
    header = tmp_path / "h.jsonl"
    header.write_text(json.dumps({"truco_log": 2, "variant": "both-refuse", "position": p})
                      + "\n", encoding="utf-8")
    assert run("verify", str(header))[0] == 0
