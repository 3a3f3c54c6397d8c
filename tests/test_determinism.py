"""Determinism under pressure (issue 7, item 5): the same seeds give byte-identical logs and
output in separate processes whatever ``PYTHONHASHSEED`` is, and ``truco simulate`` gives the
same statistics and the same log folder with ``--jobs 1`` and ``--jobs 2``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import main
from tests.conftest import REPO

HOUSE = str(REPO / "variants" / "house" / "one-on-one.yaml")
#: Hash seeds for the two processes: the same inputs must not notice the difference.
HASH_SEEDS = ("0", "2718281828")


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def truco_process(args: list[str], hash_seed: str, cwd: Path) -> bytes:
    """``truco ARGS`` in a new Python process with ``PYTHONHASHSEED=hash_seed``: its stdout."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO),
                                                       os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", "from engine.cli import main; main()", *args],
                          cwd=cwd, env=env, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    said = done.stderr.decode().splitlines()  # only where a file was written, nothing else
    assert all(line.startswith("truco: wrote ") for line in said), said
    return done.stdout


@pytest.mark.parametrize("args", [
    ["simulate", "-v", "paulista", "-n", "6", "-s", "42", "--bots", "heuristic,random",
     "--logs", "logs", "--json"],
    ["simulate", "-v", HOUSE, "-n", "4", "-s", "7", "--logs", "logs"],
    ["record", "-v", "mineiro", "-s", str(2**64 - 1), "--unseeded"],
], ids=["simulate", "simulate-house-file", "record-unseeded"])
def test_same_seed_same_bytes_across_processes_and_hash_seeds(
    tmp_path: Path, args: list[str]
) -> None:
    outputs = []
    for hash_seed in HASH_SEEDS:
        cwd = tmp_path / f"hash-{hash_seed}"
        cwd.mkdir()
        outputs.append((truco_process(args, hash_seed, cwd), folder_bytes(cwd)))
    (out_a, files_a), (out_b, files_b) = outputs
    assert out_a and out_a == out_b
    assert files_a == files_b
    if "--logs" in args:
        assert len(files_a) == int(args[args.index("-n") + 1])


def test_the_same_seed_gives_the_same_log_in_this_process_too(tmp_path: Path) -> None:
    args = ["record", "-v", "mineiro", "-s", str(2**64 - 1), "--unseeded"]
    here = CliRunner().invoke(main, args)
    assert here.exit_code == 0
    assert here.stdout.encode() == truco_process(args, "random", tmp_path)


@pytest.mark.parametrize("variant", ["mineiro-12", HOUSE], ids=["mineiro-12", "house-file"])
def test_simulate_jobs_1_and_2_give_the_same_output_and_the_same_logs(
    tmp_path: Path, variant: str
) -> None:
    outputs = {}
    for jobs in (1, 2):
        logs = tmp_path / f"jobs-{jobs}"
        result = CliRunner().invoke(main, ["simulate", "-v", variant, "-n", "20", "-s", "9",
                                           "--jobs", str(jobs), "--logs", str(logs), "--json"])
        assert result.exit_code == 0, result.output
        outputs[jobs] = (result.stdout, folder_bytes(logs))
    assert outputs[1][0] == outputs[2][0]
    assert outputs[1][1] == outputs[2][1]
    assert len(outputs[1][1]) == 20
    # Each log replays to a finished match, and verify --jobs reports them the same way too.
    reports = []
    for jobs in (1, 2):
        result = CliRunner().invoke(main, ["verify", str(tmp_path / "jobs-1"), "--jobs",
                                           str(jobs)])
        assert result.exit_code == 0, result.output
        reports.append(result.stdout)
    assert reports[0] == reports[1] == "20 logs: 20 valid, 0 invalid\n"
