"""A championship's deadline (``deadline: {after_minutes: N}``): a game still unfinished at
its deadline is decided by its log as it was cut: the team ahead (more games won, then more
points; the hand in play counts for nobody) wins it; level, nobody wins it (a Swiss or a
round robin; a knockout's game plays on until a team is ahead). The archive keeps the cut log
and ``verify`` decides it again."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.championship import Championship, ChampionshipError, Definition, write_archive
from engine.championship.archive import verify_archive
from engine.championship.offline import play_table
from engine.cli import main
from engine.replay import Collector, replay


def _cut(log: bytes, ahead: bool) -> bytes:
    """``log`` cut before a deal: the last such cut with a team ahead (``ahead``), or the
    first deal's (0 x 0)."""
    lines = log.split(b"\n")
    deals = [i for i, line in enumerate(lines) if b'"event":"deal"' in line.replace(b" ", b"")]
    for i in (reversed(deals[1:]) if ahead else deals[:1]):
        cut = b"\n".join(lines[:i + 1]) + b"\n"
        visitor = Collector()
        m = replay(cut, "cut.jsonl", visitor).match
        assert m is not None and not visitor.problems
        if (m.score[0] != m.score[1] or m.games[0] != m.games[1]) == ahead:
            return cut
    raise AssertionError("no such cut")


def _swiss() -> Championship:
    c = Championship.create("paulista", fmt="swiss", rounds=1, seed=5,
                            deadline={"after_minutes": 60})
    for i in range(1, 5):
        c.register({"name": f"Team {i}", "players": [], "bot": "random"})
    c.close()
    c.pair_next_round()
    return c


@pytest.fixture()
def cut_archive(tmp_path: Path) -> Path:
    c = _swiss()
    first, second = c.tables()
    c.record_log(first.table, _cut(play_table(c, first), ahead=True), cut=True)
    c.record_log(second.table, _cut(play_table(c, second), ahead=False), cut=True)
    assert c.is_over
    return write_archive(c, tmp_path / "copa")


def _games(archive: Path) -> list[dict[str, Any]]:
    data = json.loads((archive / "rounds/round-01.json").read_text("utf-8"))
    return [g for p in data["pairings"] for g in p["games"]]


def test_the_team_ahead_wins_at_the_deadline_and_level_is_a_draw(cut_archive: Path) -> None:
    ahead, level = _games(cut_archive)
    assert ahead["result"] == level["result"] == "deadline"
    assert ahead["winner"] is not None and level["winner"] is None
    score = dict(zip([0, 1], zip(ahead["games"], ahead["score"], strict=True), strict=True))
    pairing = json.loads((cut_archive / "rounds/round-01.json").read_text("utf-8"))[
        "pairings"][0]
    assert pairing["teams"][max(score, key=lambda k: score[k])] == ahead["winner"]
    assert level["score"] == [0, 0]
    rows = json.loads((cut_archive / "standings.json").read_text("utf-8"))
    rows = rows["standings"] if isinstance(rows, dict) else rows
    assert sorted(r["points"] for r in rows) == [0, 0.5, 0.5, 1]  # a win, a draw
    assert "deadline" in (cut_archive / "championship.json").read_text("utf-8")
    assert verify_archive(cut_archive) == []
    result = CliRunner().invoke(main, ["championship", "verify", str(cut_archive)])
    assert result.exit_code == 0, result.output


def _tamper(archive: Path, **changed: Any) -> None:
    name = "rounds/round-01.json"
    data = json.loads((archive / name).read_text("utf-8"))
    data["pairings"][0]["games"][0].update(changed)
    raw = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
    (archive / name).write_bytes(raw)
    manifest = json.loads((archive / "manifest.json").read_text("utf-8"))
    manifest["sha256"][name] = hashlib.sha256(raw).hexdigest()
    (archive / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")


@pytest.mark.parametrize(("changed", "said"), [
    ("winner", r"round-01\.json: differs from what the logs and the definition give"),
    ("result", r"r01-m001-g1\.jsonl:\d+: incomplete: the log ends before the match is over"),
])
def test_a_tampered_deadline_game_is_caught(cut_archive: Path, changed: str,
                                            said: str) -> None:
    game = _games(cut_archive)[0]
    pairing = json.loads((cut_archive / "rounds/round-01.json").read_text("utf-8"))[
        "pairings"][0]
    other = next(t for t in pairing["teams"] if t != game["winner"])
    _tamper(cut_archive, **({"winner": other} if changed == "winner" else {"result": "log"}))
    result = CliRunner().invoke(main, ["championship", "verify", str(cut_archive)])
    assert result.exit_code == 1
    assert re.search(said, result.output), result.output


def _knockout(**rule: Any) -> Championship:
    """A knockout of two bot teams, its round paired."""
    c = Championship.create("paulista", fmt="knockout", seed=5, **rule)
    for name in ("A", "B"):
        c.register({"name": name, "players": [], "bot": "random"})
    c.close()
    c.pair_next_round()
    return c


def test_a_knockout_game_level_at_the_deadline_plays_on() -> None:
    c = _knockout(deadline={"after_minutes": 60})
    spec = c.tables()[0]
    with pytest.raises(ChampionshipError, match="level at the deadline: a knockout's game "
                                                "plays on") as level:
        c.record_log(spec.table, _cut(play_table(c, spec), ahead=False), cut=True)
    assert level.value.code == "level_at_deadline"  # what the server's cut tells by
    assert c.rounds[0][0].games == []
    result = c.record_log(spec.table, _cut(play_table(c, spec), ahead=True), cut=True)
    assert result.kind == "deadline" and c.is_over


def test_a_cut_without_a_deadline_is_refused() -> None:
    c = _knockout()
    spec = c.tables()[0]
    with pytest.raises(ChampionshipError, match="cut at a deadline, but the championship "
                                                "has no deadline"):
        c.record_log(spec.table, _cut(play_table(c, spec), ahead=True), cut=True)


@pytest.mark.parametrize(("deadline", "said"), [
    ({"after_minutes": 0}, "deadline.after_minutes: expected 1 to 100000 minutes, found 0"),
    ({"after_minutes": "60"}, "deadline.after_minutes: expected a whole number"),
    ({"after": 60}, "deadline: expected {after_minutes: N}"),
    (60, "deadline: expected {after_minutes: N}"),
])
def test_a_bad_deadline_is_refused(deadline: Any, said: str) -> None:
    with pytest.raises(ChampionshipError, match=re.escape(said)):
        Championship.create("paulista", fmt="knockout", deadline=deadline)
    c = Championship.create("paulista", fmt="knockout")
    with pytest.raises(ChampionshipError, match=re.escape(said)):
        Definition.from_dict({**c.current_definition().to_dict(), "deadline": deadline})


def test_a_table_closed_before_its_end_takes_no_move() -> None:
    """A move that waited on the table's lock while the server closed it (an outcome, a
    deadline) is refused, and no bot moves after: the log stays as it was cut."""
    from engine.serve.table import Refusal, Table

    table = Table.new("paulista", ["human", "random", "human", "random"], seed=3)
    seat = table.awaited()[0]
    move = json.loads(table.message(seat))["legal"][0]["move"]
    table.retired = True
    log = table.out.getvalue()
    with pytest.raises(Refusal, match="the table has closed"):
        table.submit(seat, move)
    assert table.run_bots() == 0 and table.out.getvalue() == log
