"""``truco compare A B``: recorded games of A replayed under B (same, invalid, changed, skipped),
simulations side by side, exit codes 0/1/2, and no traceback anywhere."""

from __future__ import annotations

import doctest
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import REPO

import engine.compare
import engine.simulate
from engine.cli import main
from engine.compare import _Computed, compare_logs, differences, first_difference
from engine.replay import strip_checkpoints

REPLAYS = REPO / "replays"
HOUSE = REPO / "variants" / "house"


def _run(*args: str) -> Result:
    result = CliRunner().invoke(main, ["compare", *args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_mineiro_logs_stay_valid_with_the_same_outcome_under_mineiro_12() -> None:
    report = compare_logs("mineiro", "mineiro-12", [REPLAYS])
    c = report.counts()
    assert (c["same"], c["invalid"], c["changed"]) == (3, 0, 0)
    assert sorted(Path(x.file).name for x in report.logs if x.status == "same") == [
        "mineiro-deals2.jsonl", "mineiro-seed1.jsonl", "mineiro-special.jsonl"]
    # the broken mineiro logs of replays/invalid are reported, and are no change
    assert c["invalid_under_a"] == 2 and not report.changed
    assert c["skipped"] == c["logs"] - 5 > 0
    skipped = {Path(x.file).name: x.reason for x in report.logs if x.status == "skipped"}
    assert skipped["paulista-seed1.jsonl"] == "written under variant 'paulista'"
    assert skipped["mineiro-12-seed1.jsonl"] == "written under variant 'mineiro-12'"
    assert "unknown variant 'paulistano'" in str(skipped["unknown-variant.jsonl"])
    assert str(skipped["bad-header.jsonl"]).startswith("no header: bad header")
    result = _run("mineiro", "mineiro-12", "--logs", str(REPLAYS))
    assert result.exit_code == 0
    assert "3 logs of mineiro: 3 same outcome, 0 invalid under mineiro-12" in result.output


def test_mineiro_12_logs_fail_under_mineiro_where_they_raise_to_12() -> None:
    report = compare_logs("mineiro-12", "mineiro", [REPLAYS])
    invalid = [x for x in report.logs if x.status == "invalid"]
    assert len(invalid) == 3 and report.changed
    for log in invalid:
        assert log.problem is not None and log.problem.kind == "illegal"
        assert log.problem.line is not None
        line = _lines(Path(log.file))[log.problem.line - 1]
        assert line["event"] == "raise" and line["value"] == 12  # the first raise to 12
        assert all(not (e.get("event") == "raise" and e.get("value") == 12)
                   for e in _lines(Path(log.file))[: log.problem.line - 1])
        assert "the ladder stops at 9" in log.problem.message
        assert log.difference is None  # nothing differed before it
    result = _run("mineiro-12", "mineiro", "--logs", str(REPLAYS))
    assert result.exit_code == 1
    name = Path(invalid[0].file).name
    assert re.search(rf"{name}:\d+: invalid under mineiro: illegal move: raise \d 12",
                     result.output)


@pytest.mark.parametrize("moves_only", [False, True])
def test_a_changed_outcome_names_the_first_differing_checkpoint(tmp_path: Path,
                                                                moves_only: bool) -> None:
    log = tmp_path / "game.jsonl"
    text = (REPLAYS / "mineiro-seed1.jsonl").read_text(encoding="utf-8")
    log.write_text(strip_checkpoints(text) if moves_only else text, encoding="utf-8")
    best_of_5 = str(HOUSE / "mineiro-best-of-5.yaml")
    [result] = compare_logs("mineiro", best_of_5, [tmp_path]).logs
    assert result.status == "changed" and result.difference is not None
    d = result.difference
    events = _lines(log)
    assert d.expected is not None and d.expected["event"] == "match" and d.found is None
    assert result.complete == (True, False)  # best of 5: the match goes on
    assert events[d.move_line - 1]["event"] in ("play", "fold", "accept", "decide")
    if moves_only:
        assert d.line == d.move_line == len(events)  # the match ends with the last move
    else:
        assert events[d.line - 1] == d.expected  # the log's own match checkpoint
    out = _run("mineiro", best_of_5, "--logs", str(tmp_path)).output
    assert f"game.jsonl:{d.line}: outcome changed: mineiro gives " in out
    assert "mineiro-best-of-5 gives no match checkpoint" in out


def test_invalid_after_a_changed_outcome_says_both() -> None:
    variant = str(HOUSE / "mineiro-mao-de-dez-wins-game.yaml")
    report = compare_logs("mineiro", variant, [REPLAYS / "mineiro-deals2.jsonl"])
    [log] = report.logs
    assert log.status == "invalid" and log.problem is not None and log.difference is not None
    assert log.problem.kind == "after_end"
    assert log.difference.found is not None and log.difference.found["event"] == "game"
    assert log.difference.expected is None
    assert log.problem.line is not None and log.difference.line < log.problem.line


def test_logs_of_a_by_path_or_fingerprint_are_compared_others_skipped(tmp_path: Path) -> None:
    shutil.copy(REPO / "variants" / "mineiro.yaml", tmp_path / "mine.yaml")
    lines = (REPLAYS / "mineiro-seed1.jsonl").read_text(encoding="utf-8").splitlines(True)
    header = json.loads(lines[0])
    header["variant"] = "mine.yaml"
    (tmp_path / "sub").mkdir()
    (tmp_path / "by-path.jsonl").write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    header["variant"] = "../mine.yaml"
    (tmp_path / "sub" / "by-path.jsonl").write_text(json.dumps(header) + "\n"
                                                    + "".join(lines[1:]))
    shutil.copy(REPLAYS / "paulista-seed1.jsonl", tmp_path / "other.jsonl")
    (tmp_path / "notes.txt").write_text("not a log")
    for a in ("mineiro", str(tmp_path / "mine.yaml")):
        report = compare_logs(a, "mineiro-12", [tmp_path])
        assert [(Path(x.file).name, x.status) for x in report.logs] == [
            ("by-path.jsonl", "same"), ("other.jsonl", "skipped"), ("by-path.jsonl", "same")]


def test_a_variant_compared_with_itself_changes_nothing() -> None:
    result = _run("paulista", "paulista", "--logs", str(REPLAYS), "--matches", "3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["changed"] is False and data["simulation"]["changed"] is False
    assert data["logs"]["summary"]["same"] == 4  # replays/invalid/incomplete.jsonl too
    assert data["logs"]["summary"]["invalid"] == data["logs"]["summary"]["changed"] == 0
    assert all(r["difference"] in (0, None) for r in data["simulation"]["differences"])
    text = _run("paulista", "paulista", "--matches", "2").output
    assert "no difference in" in text


def test_a_house_variant_against_its_parent_differs_and_exits_1() -> None:
    house = str(HOUSE / "no-covered-cards.yaml")
    result = _run("paulista", house, "--matches", "12", "--seed", "1", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["changed"] is True and set(data) == {"changed", "simulation"}
    sim = data["simulation"]
    assert sim["a"]["variant"] == "paulista" and sim["b"]["variant"] == "no-covered-cards"
    assert sim["a"]["seed"] == sim["b"]["seed"] == 1 and sim["a"]["bots"] == sim["b"]["bots"]
    rows = {r["metric"]: r for r in sim["differences"]}
    hands = rows["hands"]
    assert hands["a"] == sim["a"]["hands"] and hands["b"] == sim["b"]["hands"]
    assert hands["difference"] == hands["b"] - hands["a"]
    assert any(r["difference"] for r in sim["differences"])
    text = _run("paulista", house, "--matches", "12", "--seed", "1")
    assert text.exit_code == 1
    assert text.output.startswith("paulista vs no-covered-cards: 12 matches each, seed 1")
    assert re.search(r"\n\d+ of \d+ statistics differ\n$", text.output)


def test_differences_cover_both_ladders_and_relative_change() -> None:
    a = engine.simulate.run_simulation("mineiro", games=2, seed=4, bots=["random"])
    b = engine.simulate.run_simulation("mineiro-12", games=2, seed=4, bots=["random"])
    rows = {r["metric"]: r for r in differences(a, b)}
    assert rows["ladder.12.reached"]["a"] is None and rows["ladder.12.reached"]["b"] is not None
    assert rows["ladder.12.reached"]["difference"] is None
    assert rows["ladder.3.reached"]["label"] == "truco (3) reached"
    for r in rows.values():
        if r["difference"] and r["a"]:
            assert r["relative"] == round(r["difference"] / r["a"], 4)


def test_first_difference_finds_missing_and_extra_checkpoints() -> None:
    hand = {"event": "hand", "winner": 0, "points": 1, "score": [1, 0]}
    game = {"event": "game", "winner": 0, "score": [12, 0], "games": [1, 0]}
    a = [_Computed(5, hand, 6), _Computed(9, hand)]
    assert first_difference(a, [_Computed(5, hand), _Computed(9, hand)]) is None
    extra = first_difference(a, [_Computed(5, hand), _Computed(5, game), _Computed(9, hand)])
    assert extra is not None and (extra.line, extra.expected, extra.found) == (5, None, game)
    missing = first_difference(a, [_Computed(9, hand)])
    assert missing is not None and (missing.line, missing.found) == (6, None)
    other = {**hand, "points": 3}
    changed = first_difference(a, [_Computed(5, other, 6)])
    assert changed is not None and (changed.line, changed.expected, changed.found) == (
        6, hand, other)
    assert first_difference(a, [_Computed(5, hand)], until=9) is None


def test_fewer_seats_make_the_header_invalid_under_b() -> None:
    report = compare_logs("paulista", str(HOUSE / "one-on-one.yaml"),
                          [REPLAYS / "paulista-seed1.jsonl"])
    [log] = report.logs
    assert log.status == "invalid" and log.problem is not None and log.problem.line == 1
    assert "the variant seats 2" in log.problem.message


def test_an_invalid_variant_file_exits_1_with_its_location(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: paulista\nbetting:\n  ladder: 7\n", encoding="utf-8")
    for args in (["paulista", str(bad), "--logs", str(REPLAYS)],
                 [str(bad), "paulista", "--matches", "1"]):
        result = _run(*args)
        assert result.exit_code == 1
        assert re.search(r"truco: .*bad\.yaml:3:\d+: ", result.output), result.output
    assert _run("paulista", "nope", "--matches", "1").exit_code == 1


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    neither = _run("paulista", "mineiro")
    assert neither.exit_code == 2 and "give --logs DIR, --matches N, or both" in neither.output
    assert _run("paulista", "mineiro", "--logs", str(tmp_path / "missing")).exit_code == 2
    unknown = _run("paulista", "mineiro", "--matches", "1", "--bots", "genius")
    assert unknown.exit_code == 2 and "unknown bot 'genius'" in unknown.output
    seats = _run("paulista", str(HOUSE / "one-on-one.yaml"), "--matches", "1", "--bots",
                 "random,random,random,random")
    assert seats.exit_code == 2 and "2 seats: give 1 bot or 2 (one per seat), not 4" in seats.output
    assert _run("paulista").exit_code == 2


def test_both_modes_in_one_run() -> None:
    result = _run("mineiro", "mineiro-12", "--logs", str(REPLAYS / "mineiro-seed1.jsonl"),
                  "--matches", "2")
    assert "logs of mineiro replayed under mineiro-12:" in result.output
    assert "mineiro vs mineiro-12: 2 matches each" in result.output
    assert result.exit_code == 1  # the logs are the same, the simulated games are not


def test_the_readme_shows_the_real_output_of_the_logs_comparison(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for args in (["mineiro", "mineiro-12"], ["mineiro-12", "mineiro"]):
        command = f"$ truco compare {' '.join(args)} --logs replays/\n"
        shown = readme.split(command, 1)[1].split("```", 1)[0].split("$ ", 1)[0]
        result = CliRunner().invoke(main, ["compare", *args, "--logs", "replays/"])
        assert result.output == shown


def test_docstring_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = doctest.testmod(engine.compare)
    assert result.attempted >= 3 and result.failed == 0
