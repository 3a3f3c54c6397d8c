"""``truco compare A B``: recorded games of A replayed under B (same, invalid, changed, skipped),
simulations side by side, exit codes 0/1/2, and no traceback anywhere."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
import scipy.stats
from click.testing import CliRunner, Result
from conftest import REPO
from helpers import doctests

import engine.compare
import engine.simulate
from engine.cli import main
from engine.compare import (
    Moments,
    Sample,
    Significance,
    compare_logs,
    differences,
    first_difference,
    holm,
    match_values,
    mean_sample,
    ratio_sample,
    spec_of,
    two_proportions,
    welch,
)
from engine.compare.logs import _Computed
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
    assert re.search(rf"{name}:\d+: invalid under mineiro: illegal move "
                     rf"\[ladder_exhausted\]: raise \d 12", result.output)


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


def test_the_same_variant_under_the_same_seeds_differs_in_nothing_significantly() -> None:
    for correction in ("holm", "none"):
        result = _run("paulista", "paulista", "--matches", "30", "--seed", "5", "--json",
                      "--correction", correction)
        assert result.exit_code == 0
        sim = json.loads(result.output)["simulation"]
        tested = [r for r in sim["differences"] if r["significant"] is not None]
        assert len(tested) > 20 and sim["counts"]["tested"] == len(tested)
        for row in tested:
            assert row["significant"] is False and row["p_value"] == row["p_adjusted"] == 1.0
            assert row["interval"][0] <= 0 <= row["interval"][1]
        assert sim["counts"]["significant"] == 0 and sim["changed"] is False


def test_a_house_variant_against_its_parent_differs_significantly_and_exits_1() -> None:
    house = str(HOUSE / "no-covered-cards.yaml")
    result = _run("paulista", house, "--matches", "150", "--seed", "1", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["changed"] is True and set(data) == {"changed", "simulation"}
    sim = data["simulation"]
    assert sim["a"]["variant"] == "paulista" and sim["b"]["variant"] == "no-covered-cards"
    assert sim["a"]["seed"] == sim["b"]["seed"] == 1 and sim["a"]["bots"] == sim["b"]["bots"]
    assert (sim["alpha"], sim["confidence"], sim["correction"]) == (0.05, 0.95, "holm")
    rows = {r["metric"]: r for r in sim["differences"]}
    for row in rows.values():
        assert {"a", "b", "difference", "interval", "p_value", "p_adjusted",
                "significant"} <= set(row)
    hands = rows["hands"]
    assert hands["a"] == sim["a"]["hands"] and hands["b"] == sim["b"]["hands"]
    assert hands["difference"] == hands["b"] - hands["a"]
    # without covered cards the heuristic team wins less often against random (P7)
    win = rows["teams.0.match_win_rate"]
    assert win["test"] == "two proportions" and win["significant"] is True
    assert win["interval"][0] <= win["difference"] <= win["interval"][1] < 0
    assert win["p_value"] <= win["p_adjusted"] <= 0.05
    count = rows["teams.0.matches_won"]  # the same test, its interval over the 150 matches
    assert count["p_adjusted"] == win["p_adjusted"]
    assert count["interval"] == pytest.approx([150 * x for x in win["interval"]], abs=0.01)
    assert rows["points_per_hand"]["test"] == "welch, delta method"
    assert rows["teams.0.points"]["test"] == "welch"
    assert rows["games"]["significant"] is None  # one game a match in both: nothing to test
    c = sim["counts"]
    assert c["significant"] == sum(bool(r["significant"]) for r in sim["differences"]) > 0
    assert c["significant"] + c["within_noise"] + c["not_tested"] == c["statistics"]
    assert c["tested"] == c["significant"] + c["within_noise"] and c["tests"] <= c["tested"]
    text = _run("paulista", house, "--matches", "150", "--seed", "1")
    assert text.exit_code == 1
    assert text.output.startswith("paulista vs no-covered-cards: 150 matches each, seed 1")
    assert f"\n{c['significant']} of {c['statistics']} statistics differ significantly (*) " \
        f"at alpha 0.05, Holm's correction over {c['tests']} tests; " \
        f"{c['within_noise']} within noise, {c['not_tested']} not tested\n" in text.output
    line = next(x for x in text.output.splitlines() if x.startswith("team 0 match win rate"))
    assert line.endswith("*") and " to " in line
    assert "95% interval" in text.output and "p (Holm)" in text.output


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
    assert result.exit_code == 0  # the logs are the same; 2 matches show nothing significant
    changed_log = _run("mineiro-12", "mineiro", "--logs", str(REPLAYS / "mineiro-12-seed1.jsonl"),
                       "--matches", "2", "--seed", "4")
    assert "invalid under mineiro: illegal move" in changed_log.output
    assert changed_log.exit_code == 1  # the log changed, whatever the statistics say


def test_the_compare_page_shows_the_real_output_of_the_logs_comparison(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    readme = (REPO / "docs" / "compare.md").read_text(encoding="utf-8")
    for args in (["mineiro", "mineiro-12"], ["mineiro-12", "mineiro"]):
        command = f"$ truco compare {' '.join(args)} --logs replays/"
        comment, shown = readme.split(command, 1)[1].split("\n", 1)
        shown = shown.split("```", 1)[0].split("$ ", 1)[0]
        result = CliRunner().invoke(main, ["compare", *args, "--logs", "replays/"])
        assert result.output == shown
        assert result.exit_code == (1 if "exits 1" in comment else 0)  # as the page says


def test_docstring_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    import engine.compare.logs
    import engine.compare.stats

    attempted = 0
    for module in (engine.compare, engine.compare.logs, engine.compare.stats):
        result = doctests(module)
        assert result.failed == 0, module.__name__
        attempted += result.attempted
    assert attempted >= 3


# -- the tests behind the marks ------------------------------------------------------------------
_XS = [3, 5, 4, 6, 2, 7, 5, 4, 3, 6, 5, 8]
_YS = [4, 7, 6, 9, 5, 8, 6, 7, 9, 5, 8, 7, 10, 6, 7]


def _mean(values: list[int]) -> Sample:
    return mean_sample(len(values), sum(values), sum(v * v for v in values))


def test_welch_agrees_with_scipy_on_raw_data() -> None:
    for alpha in (0.05, 0.01):
        ours = welch(_mean(_XS), _mean(_YS), alpha)
        theirs = scipy.stats.ttest_ind(_YS, _XS, equal_var=False)
        ci = theirs.confidence_interval(1 - alpha)
        assert ours is not None
        assert ours.difference == pytest.approx(sum(_YS) / len(_YS) - sum(_XS) / len(_XS))
        assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)
        assert (ours.low, ours.high) == pytest.approx((ci.low, ci.high), rel=1e-9)
    assert _mean(_XS).variance == pytest.approx(statistics.variance(_XS))
    # constants: equal ones are nothing to test, different ones differ for sure
    assert welch(_mean([2, 2, 2]), _mean([2, 2, 2]), 0.05) is None
    assert welch(_mean([2, 2, 2]), _mean([3, 3, 3]), 0.05) == Significance(1, 1, 1, 0.0)


def test_two_proportions_agree_with_the_chi_squared_test_and_newcombe() -> None:
    for (xa, na, xb, nb) in ((48, 80, 56, 70), (1934, 2000, 1717, 2000), (3, 10, 9, 10)):
        ours = two_proportions(xa, na, xb, nb, 0.05)
        table = [[xa, na - xa], [xb, nb - xb]]
        assert ours is not None
        chi2 = scipy.stats.chi2_contingency(table, correction=False)
        assert ours.p_value == pytest.approx(chi2.pvalue, rel=1e-9)
    # Newcombe, Statistics in Medicine 17 (1998) 873-890, table II, method 10
    for (xa, na, xb, nb), (low, high) in (((48, 80, 56, 70), (0.0524, 0.3339)),
                                          ((3, 10, 9, 10), (0.1705, 0.8090)),
                                          ((0, 29, 5, 56), (-0.0381, 0.1926))):
        r = two_proportions(xa, na, xb, nb, 0.05)
        assert r is not None and (round(r.low, 4), round(r.high, 4)) == (low, high)
    assert two_proportions(0, 10, 0, 20, 0.05) is None
    assert two_proportions(10, 10, 20, 20, 0.05) is None


def test_a_ratio_is_welch_on_its_delta_method_linearization() -> None:
    def sample(x: list[int], y: list[int]) -> tuple[Sample, list[float]]:
        n, sx, sy = len(x), sum(x), sum(y)
        r = ratio_sample(n, sx, sy, sum(v * v for v in x), sum(v * v for v in y),
                         sum(u * v for u, v in zip(x, y, strict=True)))
        ratio, ybar = sx / sy, sy / n
        # the linearized per-match values, shifted to the ratio: (x - R y) / mean y + R
        return r, [(u - ratio * v) / ybar + ratio for u, v in zip(x, y, strict=True)]

    points_a, hands_a = [9, 14, 4, 20, 11, 7, 16, 12], [4, 6, 3, 8, 5, 3, 7, 5]
    points_b, hands_b = [6, 10, 3, 15, 12, 5, 9, 13, 8, 4], [5, 6, 2, 9, 7, 4, 6, 8, 5, 3]
    ra, la = sample(points_a, hands_a)
    rb, lb = sample(points_b, hands_b)
    assert ra.estimate == sum(points_a) / sum(hands_a)
    assert ra.variance == pytest.approx(statistics.variance(la))
    ours = welch(ra, rb, 0.05)
    theirs = scipy.stats.ttest_ind(lb, la, equal_var=False)
    assert ours is not None and ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)
    ci = theirs.confidence_interval(0.95)
    assert (ours.low, ours.high) == pytest.approx((ci.low, ci.high), rel=1e-9)
    # one trial a match: the ratio is the mean, and its test Welch's on the values themselves
    ones = ratio_sample(len(_XS), sum(_XS), len(_XS), sum(v * v for v in _XS), len(_XS),
                        sum(_XS))
    assert ones.estimate == pytest.approx(_mean(_XS).estimate)
    assert ones.variance == pytest.approx(_mean(_XS).variance)


def test_holm_adjusts_step_down_and_keeps_the_order() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []
    p = [0.001, 0.2, 0.011, 0.03, 0.0125]
    adjusted = holm(p)
    assert all(q >= x for q, x in zip(adjusted, p, strict=True))
    assert sorted(range(5), key=lambda i: p[i]) == sorted(range(5), key=lambda i: adjusted[i])


def test_moments_add_up_the_matches_and_do_not_depend_on_jobs() -> None:
    moments = {1: Moments(), 2: Moments()}
    tallies: list[dict[str, object]] = []
    for jobs, m in moments.items():
        def add(tally: dict[str, object], m: Moments = m, keep: bool = jobs == 1) -> None:
            m.add(tally)
            if keep:
                tallies.append(tally)
        engine.simulate.run_simulation("mineiro", games=20, seed=3, bots=["heuristic", "random"],
                                       jobs=jobs, on_tally=add)
    one, two = moments[1], moments[2]
    assert (one.n, one.sums, one.squares, one.products) == (two.n, two.sums, two.squares,
                                                            two.products)
    values = [match_values(t) for t in tallies]
    assert one.n == 20 and one.sums["hands"] == sum(v["hands"] for v in values)
    assert one.squares["points.0"] == sum(v["points.0"] ** 2 for v in values)
    assert one.products["steps.3.accepted", "steps.3.reached"] == sum(
        v["steps.3.accepted"] * v["steps.3.reached"] for v in values)
    assert one.sums["game_hands"] == one.sums["hands"]  # every hand belongs to a game


def test_json_is_the_same_for_any_jobs() -> None:
    args = ("mineiro", "mineiro-12", "--matches", "16", "--seed", "2", "--json")
    assert _run(*args, "--jobs", "1").output == _run(*args, "--jobs", "2").output


def test_alpha_outside_0_1_is_a_usage_error() -> None:
    for alpha in ("0", "1", "-0.1", "1.5", "nan", "five"):
        result = _run("paulista", "paulista", "--matches", "2", "--alpha", alpha)
        assert result.exit_code == 2 and "--alpha" in result.output, alpha
    bad = _run("paulista", "paulista", "--matches", "2", "--correction", "bonferroni")
    assert bad.exit_code == 2 and "--correction" in bad.output
    ok = _run("paulista", "paulista", "--matches", "3", "--alpha", "0.01", "--json")
    sim = json.loads(ok.output)["simulation"]
    assert ok.exit_code == 0 and (sim["alpha"], sim["confidence"]) == (0.01, 0.99)
    with pytest.raises(ValueError, match="alpha"):
        engine.compare.compare_simulations("paulista", "paulista", games=2, seed=1,
                                           bots=["random"], alpha=1.0)


def test_a_smaller_alpha_widens_the_intervals_and_none_leaves_p_unadjusted() -> None:
    house = str(HOUSE / "no-covered-cards.yaml")
    runs = {}
    for alpha, correction in (("0.05", "none"), ("0.01", "none"), ("0.05", "holm")):
        result = _run("paulista", house, "--matches", "40", "--seed", "2", "--json",
                      "--alpha", alpha, "--correction", correction)
        runs[alpha, correction] = {r["metric"]: r for r in
                                   json.loads(result.output)["simulation"]["differences"]}
    loose, strict, holm_ = runs["0.05", "none"], runs["0.01", "none"], runs["0.05", "holm"]
    for key, row in loose.items():
        if row["interval"] is None:
            assert row["significant"] is None and strict[key]["interval"] is None
            continue
        assert row["p_adjusted"] == row["p_value"] == holm_[key]["p_value"]
        assert holm_[key]["p_adjusted"] >= row["p_value"]
        assert row["significant"] == (row["p_value"] <= 0.05)
        lo, hi = strict[key]["interval"]
        assert lo <= row["interval"][0] and row["interval"][1] <= hi


def test_statistics_without_a_test_have_no_mark() -> None:
    one = _run("mineiro", "mineiro-12", "--matches", "1", "--json")
    rows = json.loads(one.output)["simulation"]["differences"]
    assert all(r["significant"] is None and r["interval"] is None for r in rows)
    text = _run("mineiro", "mineiro-12", "--matches", "1").output
    assert "*" not in text and one.exit_code == 0
    assert "statistics differ; none can be tested (a test needs 2 matches or more)" in text
    assert spec_of("ladder.12.reached") == (("mean", "steps.12.reached"), True)
    assert spec_of("teams.0.bots") is None and spec_of("variant") is None
    many = _run("mineiro", "mineiro-12", "--matches", "12", "--seed", "4", "--json")
    by_key = {r["metric"]: r for r in json.loads(many.output)["simulation"]["differences"]}
    assert by_key["ladder.12.reached"]["a"] is None  # no step 12 in mineiro: not tested
    assert by_key["ladder.12.reached"]["significant"] is None
    assert by_key["ladder.3.reached"]["significant"] is not None


def test_scipy_is_imported_only_when_a_test_runs() -> None:
    code = ("import sys, engine.cli, engine.compare; assert 'scipy' not in sys.modules; "
            "engine.compare.welch(engine.compare.Sample(2, 1.0, 1.0), "
            "engine.compare.Sample(2, 2.0, 1.0), 0.05); assert 'scipy.stats' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_M3_raises_out_of_turn_are_compared(tmp_path: Path) -> None:
    own_turn = tmp_path / "own-turn.yaml"
    own_turn.write_text("extends: mineiro\nbetting:\n  raise_timing: own_turn\n", encoding="utf-8")
    result = _run("mineiro", str(own_turn), "--matches", "30", "--seed", "2", "--json")
    rows = {row["metric"]: row
            for row in json.loads(result.output)["simulation"]["differences"]}
    raises = rows["out_of_turn_raises.raises"]
    assert raises["a"] > 0 and raises["b"] == 0 and raises["significant"]
    assert result.exit_code == 1


def test_a_variant_of_three_teams_is_compared_team_by_team() -> None:
    """Three players each for himself (teams from data): every team's rows are compared, the
    third's included, and its win rate is tested like the others."""
    result = engine.compare.compare_simulations("three-players", "three-players", games=6,
                                                seed=1, bots=["random"])
    labels = [row["label"] for row in result["differences"]]
    assert [lb for lb in labels if lb.startswith("team ") and lb.endswith("matches won")] == [
        "team 0 matches won", "team 1 matches won", "team 2 matches won"]
    won = [row for row in result["differences"] if row["label"] == "team 2 matches won"][0]
    assert won["a"] == won["b"] == result["a"]["teams"][2]["matches_won"]


def test_side_bets_and_concedes_are_compared_and_tested() -> None:
    """A rule change to the envido (GH7b: the falta is what the trailing team lacks) shows in
    the envido rows, each with its test; a variant with concede has its concede rows."""
    result = engine.compare.compare_simulations("gauderio", "gauderio-falta-trailer", games=40,
                                                seed=1, bots=["heuristic", "random"])
    rows = {row["metric"]: row for row in result["differences"]}
    for key in ("called", "accepted", "accept_rate", "won_by_mao_team", "mao_team_rate",
                "points", "average_points", "average_accepted_points"):
        row = rows[f"side_bets.envido.{key}"]
        assert row["a"] == result["a"]["side_bets"][0][key], key
        assert row["b"] == result["b"]["side_bets"][0][key], key
        assert row["test"] in ("welch", "welch, delta method"), key
    assert rows["concedes.hands"]["a"] == result["a"]["concedes"]["hands"]
    assert rows["concedes.rate"]["test"] == "welch, delta method"
    assert "side_bets.envido.called" not in {
        r["metric"] for r in engine.compare.differences(
            result["a"] | {"side_bets": []}, result["a"] | {"side_bets": []})}


def test_gzipped_logs_are_compared_and_damaged_ones_skipped(tmp_path: Path) -> None:
    data = (REPLAYS / "mineiro-seed1.jsonl").read_bytes()
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(data, mtime=0))
    (tmp_path / "b.jsonl.gz").write_bytes(gzip.compress(data, mtime=0)[:-40])  # truncated
    report = compare_logs("mineiro", "mineiro-12", [tmp_path])
    got = {Path(x.file).name: (x.status, x.reason) for x in report.logs}
    assert got["a.jsonl.gz"] == ("same", None)
    status, reason = got["b.jsonl.gz"]
    assert status == "skipped" and str(reason).startswith("damaged gzip data")
    result = _run("mineiro", "mineiro-12", "--logs", str(tmp_path / "a.jsonl.gz"))
    assert result.exit_code == 0 and "1 log of mineiro: 1 same outcome" in result.output
