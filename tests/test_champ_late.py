"""A championship's time rule (``late_start``): the games of tables made once the time has
come are played at the late variant (the championship's, ``match.start_score`` the rule's),
each game's ``late`` archived and checked against its log. The clock is a fake one."""

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
from engine.championship.offline import play_round
from engine.cli import main


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.t = 1_000.0

    def __call__(self) -> float:
        return self.t


def _late_swiss(clock: Clock) -> Championship:
    c = Championship.create("paulista", fmt="swiss", rounds=2, seed=3, now=clock,
                            late_start={"after_minutes": 90, "start_score": 11})
    for i in range(1, 5):
        c.register({"name": f"Team {i}", "players": [], "bot": "random"})
    c.close()
    return c


@pytest.fixture()
def late_archive(tmp_path: Path) -> Path:
    clock = Clock()
    c = _late_swiss(clock)
    play_round(c)
    clock.t += 89 * 60  # round 1 over before the time: round 2's tables are late
    c.pair_next_round()
    clock.t += 60
    play_round(c)
    assert c.is_over
    return write_archive(c, tmp_path / "copa")


def _games(archive: Path, number: int) -> list[dict[str, Any]]:
    data = json.loads((archive / f"rounds/round-{number:02d}.json").read_text("utf-8"))
    return [g for p in data["pairings"] for g in p.get("games", [])]


def test_the_tables_made_after_the_time_play_from_the_start_score(late_archive: Path) -> None:
    early, late = _games(late_archive, 1), _games(late_archive, 2)
    assert [g["late"] for g in early] == [False, False]  # the first round: at 0 x 0
    assert any(min(g["score"]) < 11 for g in early)
    assert [g["late"] for g in late] == [True, True]
    assert [g["made"] for g in early + late] == [1_000.0] * 2 + [1_000.0 + 90 * 60] * 2
    assert all(min(g["score"]) >= 11 for g in late)  # both teams started at 11
    text = (late_archive / "variant-late.yaml").read_text("utf-8")
    assert "start_score: 11" in text
    header = json.loads((late_archive / "logs/r02-m001-g1.jsonl").read_text("utf-8")
                        .split("\n", 1)[0])
    assert header["variant"] == "../variant-late.yaml"
    assert verify_archive(late_archive) == []
    result = CliRunner().invoke(main, ["championship", "verify", str(late_archive)])
    assert result.exit_code == 0, result.output


def _flip(archive: Path, number: int, late: Any, key: str = "late") -> None:
    """Round ``number``'s first game given ``key`` (``late``) ``late``, the manifest made to
    agree."""

    def flip(game: dict[str, Any]) -> None:
        game[key] = late

    _rewrite(archive, number, flip, first=True)


def _rewrite(archive: Path, number: int, change: Any, first: bool = False) -> None:
    """``change`` made to each game of round ``number`` (``first``: to its first game only),
    the manifest made to agree."""
    name = f"rounds/round-{number:02d}.json"
    data = json.loads((archive / name).read_text("utf-8"))
    games = [g for p in data["pairings"] for g in p.get("games", [])]
    for game in games[:1] if first else games:
        change(game)
    raw = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
    (archive / name).write_bytes(raw)
    manifest = json.loads((archive / "manifest.json").read_text("utf-8"))
    manifest["sha256"][name] = hashlib.sha256(raw).hexdigest()
    (archive / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")


@pytest.mark.parametrize(("number", "late", "said"), [
    (2, False, "r02-m001-g1.jsonl:1: variant_sha256 '[0-9a-f]+' is not the championship's"),
    (1, True, "r01-m001-g1.jsonl:1: variant_sha256 '[0-9a-f]+' is not the late variant"),
    (1, None, "round-01.json: pairing 1: r01-m001-g1: late: expected true or false"),
])
def test_a_game_recorded_at_the_wrong_variant_is_caught(late_archive: Path, number: int,
                                                        late: Any, said: str) -> None:
    _flip(late_archive, number, late)
    result = CliRunner().invoke(main, ["championship", "verify", str(late_archive)])
    assert result.exit_code == 1
    assert any(re.search(said, line) for line in result.output.splitlines()), \
        result.output


@pytest.mark.parametrize(("number", "made", "said"), [
    (2, 1_000.0 + 30 * 60, "round-02.json: pairing 1: r02-m001-g1: late: true, but the table "
                           "was made 30 minutes after round 1 started "
                           r"\(late_start.after_minutes: 90\)"),
    (1, 1_000.0 + 95 * 60, "round-01.json: pairing 1: r01-m001-g1: late: false, but the "
                           "table was made 95 minutes after round 1 started"),
    (1, "soon", "round-01.json: pairing 1: r01-m001-g1: made: expected when the table was "
                "made"),
])
def test_a_game_whose_late_is_not_its_time_s_is_caught(late_archive: Path, number: int,
                                                       made: Any, said: str) -> None:
    """Issue 46: each game's ``late`` is checked against when its table was made and when
    round 1 started (a log of the right variant, its ``late`` flag agreeing with it)."""
    _flip(late_archive, number, made, key="made")
    result = CliRunner().invoke(main, ["championship", "verify", str(late_archive)])
    assert result.exit_code == 1
    assert any(re.search(said, line) for line in result.output.splitlines()), \
        result.output


def test_an_archive_from_before_the_times_were_recorded_still_verifies(
        late_archive: Path) -> None:
    def older(game: dict[str, Any]) -> None:
        del game["made"]

    for number in (1, 2):
        _rewrite(late_archive, number, older)
    assert "made" not in (late_archive / "rounds/round-02.json").read_text("utf-8")
    assert verify_archive(late_archive) == []


def test_a_plain_game_after_a_late_one_is_caught(tmp_path: Path) -> None:
    clock = Clock()
    c = _late_swiss(clock)
    c.pair_next_round()
    clock.t += 90 * 60  # the first round's tables are made late
    play_round(c)
    c.pair_next_round()
    for spec in c.tables():
        c.given_late(spec.table, False)  # as if the clock had gone back
    play_round(c)
    problems = verify_archive(write_archive(c, tmp_path / "copa"))
    assert any("round-02.json: pairing 1: r02-m001-g1: late: false, but a table made before "
               "it was late" in p for p in problems), problems


def test_a_tampered_late_variant_is_caught(late_archive: Path) -> None:
    path = late_archive / "variant-late.yaml"
    path.write_text(path.read_text("utf-8").replace("start_score: 11", "start_score: 10"),
                    "utf-8")
    problems = verify_archive(late_archive)
    assert any("variant-late.yaml: its SHA-256" in p for p in problems), problems


@pytest.mark.parametrize(("late_start", "said"), [
    ({"after_minutes": -1, "start_score": 11}, "late_start.after_minutes: expected 0 to"),
    ({"after_minutes": 90, "start_score": 12}, "below the game's target (12), found 12"),
    ({"after_minutes": 90, "start_score": 0}, "late_start.start_score: expected a score of 1"),
    ({"after_minutes": 90, "start_score": 11, "when": 1}, "unknown key 'when'"),
    ({"after_minutes": "90", "start_score": 11}, "late_start.after_minutes: expected a whole"),
    ([90, 11], "late_start: expected {after_minutes: N, start_score: S}"),
])
def test_a_bad_late_start_is_refused(late_start: Any, said: str) -> None:
    with pytest.raises(ChampionshipError, match=re.escape(said)):
        Championship.create("paulista", fmt="knockout", late_start=late_start)


def test_without_a_time_rule_nothing_changes() -> None:
    c = Championship.create("paulista", fmt="knockout")
    assert "late_start" not in c.current_definition().to_dict()
    bad = {**c.current_definition().to_dict(), "late_start": {"after_minutes": 1}}
    with pytest.raises(ChampionshipError, match="late_start: missing start_score"):
        Definition.from_dict(bad)


def test_the_late_variant_leaves_the_championship_s_rules_as_they_were() -> None:
    """The late variant is made from the championship's rules, whose data the process caches
    and shares: it once wrote ``match.start_score`` into them, and every Paulista played in
    the same process after a late championship started at 11 (the suite's playthroughs)."""
    from engine.championship.core import late_variant
    from engine.championship.model import LateStart
    from engine.variant import find_variant

    rules = find_variant("paulista")
    before = json.dumps(rules.data, sort_keys=True)
    text, late = late_variant(rules, LateStart(after_minutes=90, start_score=11))
    assert "start_score: 11" in text and late.match.start(1, late.teams) != [0, 0]
    assert json.dumps(rules.data, sort_keys=True) == before
    assert json.dumps(find_variant("paulista").data, sort_keys=True) == before
