"""The benchmark suite still runs against the engine (a smoke test: no timing is asserted)."""

from __future__ import annotations

from pathlib import Path

from benchmarks import run


def test_each_benchmark_measures_something(tmp_path: Path) -> None:
    share = run.bench_trigger_share("paulista", 3)
    assert share["triggers"] > 0 and share["moves"] > 0
    assert 0 < share["trigger_share"] < 1
    speed = run.bench_matches("mineiro", 2, 1, with_log=True)
    assert speed["hands_per_s"] > speed["matches_per_s"] > 0
    assert run.bench_load("mineiro-12", 1) > 0
    memory = run.bench_memory("paulista", 10)
    assert memory["per_match_bytes_of_many"] > 0
    verify = run.bench_verify("paulista", 3, 1, tmp_path / "logs")
    assert {"in_process_logs_per_s", "cli_logs_per_s"} <= set(verify)
    assert all(value > 0 for value in verify.values())
