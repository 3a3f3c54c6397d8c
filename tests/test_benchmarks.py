"""The benchmark suite still runs against the engine (a smoke test: no timing is asserted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks import run


def test_each_benchmark_measures_something(tmp_path: Path) -> None:
    share = run.bench_trigger_share("gauderio", 3)  # its flor: cards and raises by the machine
    assert share["triggers"] > 0 and share["moves"] > 0
    assert 0 < share["trigger_share"] < 1
    quick = run.bench_trigger_share("paulista", 3)  # quick moves and deals: few triggers
    assert quick["moves"] > 0 and 0 <= quick["trigger_share"] < share["trigger_share"]
    speed = run.bench_matches("mineiro", 2, 1, with_log=True)
    assert speed["hands_per_s"] > speed["matches_per_s"] > 0
    assert run.bench_load("mineiro-12", 1) > 0
    memory = run.bench_memory("paulista", 10)
    assert memory["per_match_bytes_of_many"] > 0
    verify = run.bench_verify("paulista", 3, 1, tmp_path / "logs")
    assert {"in_process_logs_per_s", "cli_logs_per_s"} <= set(verify)
    assert all(value > 0 for value in verify.values())


def test_the_listing_benchmark_lists_the_same_logs_both_ways(capsys: Any,
                                                             tmp_path: Path) -> None:
    from benchmarks import listing

    assert listing.main(["--logs", "30", "--per-folder", "7", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "Listing 30 logs in folders of 7" in out
    for way in ("two Path.rglob (before)", "one os.scandir walk (truco verify)"):
        assert out.count(f"| {way} | ") == 1  # a row for each listing
    listing.archive(tmp_path, 30, 7)
    walked = listing.by_walk(str(tmp_path))
    assert walked == listing.by_rglob(str(tmp_path))  # the same names in the same order
    assert len(walked) == 30 and sum(p.endswith(".jsonl.gz") for p in walked) == 3


def test_the_protocol_benchmark_runs(capsys: Any) -> None:
    from benchmarks import protocol
    from engine.protocol.external import end_all

    try:
        assert protocol.main(["--matches", "2"]) == 0
    finally:
        end_all()
    out = capsys.readouterr().out
    assert "| 4 random over the protocol (truco bot serve random) | " in out
    assert "the protocol's cost per decision" in out


def test_the_serve_load_benchmark_measures_a_table_s_memory() -> None:
    from benchmarks import serve_load

    assert serve_load.memory_per_table("paulista", 3) > 0


def test_the_hard_policy_benchmark_plays_both_policies(capsys: Any) -> None:
    """benchmarks/hard_policy.py on a tiny game count: the time per decision measured, then
    a tournament played both ways round; the same figures again for the same budgets."""
    import json

    from benchmarks import hard_policy

    assert hard_policy.main(["--games", "1", "--budget", "4", "--timing-games", "1"]) == 0
    out = capsys.readouterr().out
    assert "time per decision" in out and ":heuristic" in out and "rating difference" in out
    runs = []
    for _ in range(2):
        assert hard_policy.main(["--games", "2", "--budget", "4", "--budget-old", "3",
                                 "--json"]) == 0
        figures = json.loads(capsys.readouterr().out)
        del figures["wall_s"]
        runs.append(figures)
    assert runs[0] == runs[1] and runs[0]["timing"] == []
    assert runs[0]["matches"] == 4 and 0 <= runs[0]["sound_won"] <= 4
    assert runs[0]["rating_diff_ci95"][0] < runs[0]["rating_diff"] < runs[0]["rating_diff_ci95"][1]


def test_the_lean_engine_plays_the_engine_s_paulista_games_move_by_move(capsys: Any) -> None:
    """benchmarks.lean is issue 45's yardstick only while it plays the same games: the legal
    moves at every step, in the engine's order, the hands and the final score."""
    from benchmarks import lean

    assert lean.check(60) == 0
    assert "60 matches: the same games, move by move, and the same logs" in capsys.readouterr().out
    assert lean.play_lean(5) == lean.play_engine(5) > 5
    assert lean.log_lean(5) == lean.log_lean_plain(5) == lean.log_engine(5) == lean.play_lean(5)
    logs = lean.engine_logs(5)
    assert lean.verify_lean_logs(logs) == lean.verify_engine_logs(logs) == lean.play_lean(5)
    modes = "play,log,log-plain,verify"
    assert lean.main(["--rounds", "1", "--matches", "2", "--modes", modes]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["play", "log", "log-plain",
                                                                 "verify"]
    assert all("engine / lean:" in line for line in out.splitlines()[1:])


def test_the_lean_verifier_refuses_what_is_wrong() -> None:
    """The lean engine's verifier does the verifier's work: a log whose move is illegal, whose
    checkpoint is wrong or which ends early is refused, saying on which line."""
    from benchmarks import lean

    sha = lean.variant_sha256()
    data = lean.engine_logs(1, 7)[0]
    lines = data.decode().splitlines(keepends=True)
    assert lean.verify_lean(data, sha) > 0
    assert lean.verify_lean("".join(ln for ln in lines if '"round"' not in ln).encode(), sha) > 0
    hand = next(i for i, ln in enumerate(lines) if '"event": "hand"' in ln)
    wrong = [*lines[:hand], lines[hand].replace('"points": ', '"points": 1'), *lines[hand + 1:]]
    move = next(i for i, ln in enumerate(lines) if '"play"' in ln)
    other = [*lines[:move], lines[move].replace('"seat": ', '"seat": 1'), *lines[move + 1:]]
    for bad, where in ((wrong, hand + 1), (other, move + 1), (lines[:hand], len(lines[:hand]))):
        with pytest.raises(lean.LogError, match=f"^line {where}:"):
            lean.verify_lean("".join(bad).encode(), sha)


def test_the_lean_check_tells_the_first_difference(capsys: Any,
                                                   monkeypatch: Any) -> None:
    from benchmarks import lean

    monkeypatch.setattr(lean, "LADDER", {1: 3, 3: 6, 6: 9})  # a lean engine without doze
    assert lean.check(200) == 1
    assert "step" in capsys.readouterr().err


def test_the_opcode_count_names_the_functions_a_hand_runs(capsys: Any) -> None:
    from benchmarks import opcodes

    counts, hands = opcodes.opcodes("paulista", 3)
    assert hands >= 3 and all(n > 0 for n in counts.values())
    assert opcodes.main(["--matches", "3", "--top", "2"]) == 0
    head, *rows = capsys.readouterr().out.splitlines()
    assert head.startswith("paulista: ") and "opcodes a hand" in head and len(rows) <= 2
