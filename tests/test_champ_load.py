"""The championship load benchmark (issue 46) runs tiny through a real server: its archive
verifies and its report has every field (a smoke test: no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks import champ_load
from engine.championship import verify_archive


def test_a_tiny_championship_load_run_reports_and_verifies(capsys: Any, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    assert champ_load.main(["--teams", "4", "--rounds", "1", "--data", str(tmp_path / "data"),
                            "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["verified"] is True and "2 logs verified" in report["verify_output"]
    assert verify_archive(Path(report["archive"])) == []
    assert report["teams"] == 4 and [r["round"] for r in report["rounds"]] == [1]
    (played,) = report["rounds"]
    assert played["pairings"] == 2 and played["moves"] > 0 and played["seconds"] > 0
    assert report["moves"] == played["moves"] and report["moves_per_s"] > 0
    for name in ("page", "json"):
        lat = report["latency"][name]
        assert {"requests", "median_ms", "p95_ms", "p99_ms", "max_ms", "errors"} <= set(lat)
        assert lat["requests"] >= 1 and lat["errors"] == 0
        assert lat["median_ms"] <= lat["p95_ms"] <= lat["p99_ms"] <= lat["max_ms"]
    shown = capsys.readouterr().out
    assert "| GET /c/ID | " in shown and "the archive verifies" in shown


def test_count_moves_counts_the_players_moves_not_the_deals(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    log.write_text('{"truco_log": 2}\n{"event": "deal", "dealer": 0}\n'
                   '{"event": "play", "seat": 1, "card": "5h"}\n'
                   '{"event": "raise", "seat": 2, "value": 3}\n'
                   '{"event": "hand", "winner": 0}\n', encoding="utf-8")
    assert champ_load.count_moves(log) == 2
