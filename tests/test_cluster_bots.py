"""Bots over the protocol on `--dask` (issue 28): each chunk starts its bot processes on its
worker, from the command's folder and with its time limits, sends their faults back, and ends
them when it ends, on the running cluster of tests/test_cluster.py (its `scheduler`)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import processes_running, wait_gone
from test_cluster import needs_dask, scheduler

from engine.cli import main
from engine.protocol.external import end_all

__all__ = ["scheduler"]  # the fixture, the cluster of 2 workers


def _bots_running(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` that do not exit: each is waited
    on (its pidfd, an event), for a guard far above what ending it needs."""
    return [pid for pid in processes_running(marker) if not wait_gone(pid, 300)]


@needs_dask
def test_cmd_bots_on_a_cluster_play_as_on_jobs_and_leave_no_process(
        scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot program on --dask (issue 28): each worker starts it from the command's folder
    (a relative path works), with the command's time limits; the faults come back to the
    command's standard error; and its processes end with each chunk (the workers stay)."""
    repo = Path(__file__).resolve().parent.parent
    (tmp_path / "bots").mkdir()
    shutil.copy(repo / "examples" / "bots" / "first.py", tmp_path / "bots" / "first.py")
    shutil.copy(repo / "tests" / "bots" / "hostile.py", tmp_path / "bots" / "hostile.py")
    monkeypatch.chdir(tmp_path)  # not the workers' folder
    monkeypatch.setenv("TRUCO_BOT_STDERR", str(tmp_path / "stderr"))
    monkeypatch.setenv("TRUCO_BOT_MOVE_MS", "300")  # the workers' default is 10000
    py = sys.executable
    simulate = ["simulate", "-v", "mineiro", "-n", "6", "--seed", "2", "--json", "--bots",
                f"cmd:{py} bots/first.py,random"]
    tournament = ["tournament", "-v", "paulista", "--games", "1", "--json", "--bots",
                  f"cmd:{py} bots/hostile.py hang,random"]
    runner = CliRunner()
    on_dask = [runner.invoke(main, [*args, "--dask", scheduler])
               for args in (simulate, tournament)]
    assert _bots_running(f"{py} bots/") == []  # ended on the workers, which are still up
    try:
        here = [runner.invoke(main, args) for args in (simulate, tournament)]
    finally:
        end_all()  # this process's own, idle in its pool
    for one, dask in zip(here, on_dask, strict=True):
        assert one.exit_code == dask.exit_code == 0, dask.output
        assert dask.stdout == one.stdout
    faults = [line for line in on_dask[1].stderr.splitlines() if "timeout" in line]
    assert len(faults) == 4, on_dask[1].stderr  # two seats in each of the two matches
    assert all("no answer within 300 ms" in line for line in faults)
