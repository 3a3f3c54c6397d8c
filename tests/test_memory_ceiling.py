"""Memory stays under a documented ceiling whatever a log holds (issue 26, docs/hostile-input.md):
each command runs in its own process under ``RLIMIT_AS`` (what ``ulimit -v`` sets) at
:data:`CEILING`, and must answer with its usual report, never a ``MemoryError`` traceback.
The inputs are built in ``tmp_path`` and are small enough to stay quick; what they would cost
without the bounds is in each test's docstring."""

from __future__ import annotations

import gzip
import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.verify_cmd import MAX_REPORT_LINE_BYTES
from engine.logread import MAX_LINES
from engine.replay import MAX_PROBLEMS, verify_bytes
from tests.test_hostile_logs import H, _too_large

#: The address space a command may use (bytes): docs/hostile-input.md, "Limits".
CEILING = 256 * 2**20
#: Seconds a command may take before it is called hung.
TIMEOUT = 120


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CEILING, CEILING))


def _truco(*args: str, cwd: Path, stdin: bytes | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-c", "from engine.cli import main; main()", *args], cwd=cwd,
        input=stdin, capture_output=True, timeout=TIMEOUT, preexec_fn=_limited,
        stdin=subprocess.DEVNULL if stdin is None else None)
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert "Traceback" not in output and "MemoryError" not in output, output[-2000:]
    return done.returncode, output


def test_GH26_a_megabyte_of_blank_lines_keeps_the_first_problems_and_a_count(
        tmp_path: Path) -> None:
    """1 MB of blank lines took 794 MB: a problem kept for each line."""
    (tmp_path / "a.jsonl").write_bytes(b"\n" * 1_000_000)
    code, out = _truco("verify", "a.jsonl", cwd=tmp_path)
    lines = out.splitlines()
    assert code == 1
    assert len(lines) == MAX_PROBLEMS + 2, lines[-3:]
    assert lines[MAX_PROBLEMS - 1] == (f"a.jsonl:{MAX_PROBLEMS}: blank line: a log has no "
                                       "blank lines")
    assert lines[-2:] == [f"a.jsonl: {1_000_000 - MAX_PROBLEMS:,} more problems, not listed "
                          f"(the first {MAX_PROBLEMS} of a log are)", "1 log: 0 valid, 1 invalid"]
    code, out = _truco("verify", "a.jsonl", "--json", cwd=tmp_path)
    (log,) = json.loads(out)["logs"]
    assert (len(log["problems"]), log["more_problems"]) == (MAX_PROBLEMS, 1_000_000 - MAX_PROBLEMS)


@pytest.mark.parametrize("first", [False, True])
def test_GH26_a_gzip_of_millions_of_blank_lines_stops_at_the_line_limit(
        tmp_path: Path, first: bool) -> None:
    """An 8 KiB .jsonl.gz of 8 Mi blank lines died with a MemoryError after 51 s, --first
    too; here 2 Mi of them (the reading stops at MAX_LINES whatever follows)."""
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(b"\n" * (2 * MAX_LINES), 9))
    code, out = _truco("verify", "a.jsonl.gz", *(["--first"] if first else []), cwd=tmp_path)
    assert code == 1
    limit = (f"a.jsonl.gz:{MAX_LINES + 1}: the log has more than {MAX_LINES:,} lines, the "
             "limit of this reader")
    assert (limit in out.splitlines()) != first  # --first: the first problem only
    assert out.splitlines()[-1] == "1 log: 0 valid, 1 invalid"


@pytest.mark.parametrize("command", ["verify", "verify-stdin", "verify-gzip", "replay",
                                     "replay --checkpoints", "replay --html", "position"])
def test_GH26_a_log_at_the_size_limit_stays_under_the_ceiling(tmp_path: Path,
                                                              command: str) -> None:
    data = _too_large()
    (tmp_path / "a.jsonl").write_bytes(data)
    args = {"verify": ["verify", "a.jsonl"], "verify-stdin": ["verify", "-"],
            "verify-gzip": ["verify", "a.jsonl.gz"], "replay": ["replay", "a.jsonl"],
            "replay --checkpoints": ["replay", "a.jsonl", "--checkpoints"],
            "replay --html": ["replay", "a.jsonl", "--html", "a.html"],
            "position": ["position", "a.jsonl"]}[command]
    if command == "verify-gzip":
        (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(data, 1))
    code, out = _truco(*args, cwd=tmp_path, stdin=data if command == "verify-stdin" else None)
    assert code == 1
    assert ":2: illegal move [not_now]" in out, out[-500:]


def test_GH26_skip_verified_reads_a_huge_report_no_further_than_a_line(tmp_path: Path) -> None:
    """--skip-verified /dev/zero reached 1.9 GB in 2 s and died with a traceback (it is now
    refused as a device, tests/test_fifos.py); a regular file of 2 GiB of zeros (sparse) is
    refused at its first line."""
    (tmp_path / "a.jsonl").write_bytes(H.encode())
    with open(tmp_path / "zeros.jsonl", "wb") as f:
        f.truncate(2 * 2**30)
    code, out = _truco("verify", "a.jsonl", "--skip-verified", "zeros.jsonl", cwd=tmp_path)
    assert code == 2
    assert (f"zeros.jsonl: line 1 is longer than {MAX_REPORT_LINE_BYTES >> 20} MiB: not a "
            "report of truco verify --jsonl") in out


def test_GH26_skip_verified_keeps_only_the_logs_asked_for(tmp_path: Path) -> None:
    """A report of 300,000 logs, of which one is asked for: read a line at a time."""
    (tmp_path / "a.jsonl").write_bytes(H.encode())
    entry = verify_bytes(H.encode(), "a.jsonl").as_dict()
    with open(tmp_path / "report.jsonl", "w", encoding="utf-8") as f:
        for k in range(300_000):
            f.write(json.dumps({**entry, "file": f"other-{k}.jsonl"}) + "\n")
        f.write(json.dumps(entry) + "\n")
    code, out = _truco("verify", "a.jsonl", "--skip-verified", "report.jsonl", cwd=tmp_path)
    assert code == 0, out[-500:]
    assert out.splitlines()[-1] == ("1 log: 1 valid (1 of them incomplete), 0 invalid; 1 of "
                                    "them verified before, in report.jsonl")


def _all_tied(hands: int) -> str:
    """A valid Paulista log of ``hands`` hands whose every round ties (recorded deals: each seat
    holds the 4, 5 and 6 of its suit, the Ks turned), none scoring (P8): 12 decisions a hand."""
    lines = [json.dumps({"truco_log": 1, "variant": "paulista", "dealer": 0})]
    for h in range(hands):
        dealer = h % 4
        lines.append(json.dumps({"event": "deal", "dealer": dealer, "vira": "Kc", "hands": [
            [f"{rank}{suit}" for rank in "456"] for suit in "cdhs"]}))
        for rank in "456":
            for k in range(1, 5):
                seat = (dealer + k) % 4
                lines.append(json.dumps({"event": "play", "seat": seat,
                                         "card": f"{rank}{'cdhs'[seat]}"}))
    return "\n".join(lines) + "\n"


def test_analyze_of_a_long_log_stays_under_the_ceiling(tmp_path: Path) -> None:
    """truco analyze kept every decision (some 16 KB) before valuing any: a 650 KB log of
    12,000 decisions peaked at 246 MB, and this 1 MB one of 18,000 died under the ceiling
    with a MemoryError; valued as it is read, they take some 35 MB (issue 39)."""
    (tmp_path / "a.jsonl").write_text(_all_tied(1500), encoding="utf-8")
    code, out = _truco("analyze", "a.jsonl", "-p", "1", "-o", "a.txt", cwd=tmp_path)
    assert code == 0, out[-2000:]
    head = (tmp_path / "a.txt").read_text(encoding="utf-8").splitlines()[0]
    assert head.startswith("Analysis of a.jsonl (paulista, recorded deals): 18000 decisions")
