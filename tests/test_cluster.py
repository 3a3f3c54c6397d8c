"""`--dask` (issue 15): `truco verify` and `truco simulate` on a Dask cluster give the output
of `--jobs 1`, byte for byte; a worker killed mid-run costs a retry, not a result; a bad
scheduler address or a missing Dask is a usage error (exit 2); no process is left behind.

The cluster is a `LocalCluster` of 2 worker processes, one thread each, started once for the
module (the commands reach it by its address, as they would a remote scheduler) and closed at
its end; one test lets `--dask local` start and close its own.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import doctests
from hypothesis import given
from hypothesis import strategies as st

import engine.cli.verify_cmd
import engine.cluster
import engine.logread
import engine.simulate
from engine.cli import main

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
HAS_DASK = importlib.util.find_spec("distributed") is not None
WHY = ("dask.distributed is not installed: pip install -e '.[cluster]' (the [test] extra "
       "brings it)")
if not HAS_DASK and os.environ.get("CI"):  # on CI these tests run, or the run fails
    raise RuntimeError(f"CI: {WHY}")
needs_dask = pytest.mark.skipif(not HAS_DASK, reason=WHY)


def _children() -> list[Any]:
    """This process's children alive (multiprocessing's resource tracker and fork server,
    started with the first spawned or forkserver process, live as long as this process and end
    with it: not counted; the processes they start are)."""
    import psutil

    alive = []
    for p in psutil.Process().children(recursive=True):
        try:
            if p.status() == psutil.STATUS_ZOMBIE or _helper(p.cmdline()):
                continue
        except psutil.NoSuchProcess:
            continue
        alive.append(p)
    return alive


def _helper(cmdline: list[str]) -> bool:
    text = " ".join(cmdline)
    return "multiprocessing.resource_tracker" in text or "multiprocessing.forkserver" in text


def _no_children_left(before: set[int]) -> list[Any]:
    """The child processes started since ``before`` still running after a few seconds."""
    deadline = time.monotonic() + 10
    while True:
        left = [p for p in _children() if p.pid not in before]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a LocalCluster of 2 worker processes, closed (workers and all) at the
    end of the module."""
    if not HAS_DASK:
        pytest.skip(WHY)
    import logging

    from dask.distributed import LocalCluster

    before = {p.pid for p in _children()}
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                           dashboard_address=None, silence_logs=logging.ERROR,
                           scheduler_kwargs={"dashboard_address": ":0"})
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()
    assert not _no_children_left(before), "the cluster left processes behind"


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    """A few dozen logs: valid, invalid, incomplete and gzipped, in a folder."""
    folder = tmp_path / "logs"
    folder.mkdir()
    sources = sorted(REPLAYS.glob("*.jsonl")) + sorted((REPLAYS / "invalid").glob("*.jsonl"))
    for log in sources:
        shutil.copy(log, folder / log.name)
        (folder / f"{log.stem}-packed.jsonl.gz").write_bytes(gzip.compress(log.read_bytes()))
    return folder


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_the_executors_give_results_in_input_order() -> None:
    """The one code path: chunks out, results back in input order, whatever order they finish
    in (a pool's chunks finish out of order; the caller is told of each as it does). First in
    the module: the pool forks before the module's cluster (and its threads) exist."""
    seen: list[int] = []
    with engine.cluster.local_executor(2, 10) as executor:
        out = list(engine.cluster.ordered(_slow_square, range(10), executor,
                                          lambda job, _r: seen.append(job)))
    assert out == [x * x for x in range(10)]
    assert sorted(seen) == list(range(10))
    assert list(engine.cluster.ordered(_slow_square, [], engine.cluster.SerialExecutor())) == []


class _HeadLast:
    """An executor whose first chunk in flight always finishes last (the worst order)."""

    workers = 1
    window = 2
    chunk_scale = 1

    def __init__(self) -> None:
        self.pending: dict[int, Any] = {}
        self.most = 0

    def submit(self, index: int, fn: Callable[[Any], Any], job: Any) -> None:
        self.pending[index] = fn(job)
        self.most = max(self.most, len(self.pending))

    def next_done(self) -> tuple[int, Any]:
        index = max(self.pending)
        return index, self.pending.pop(index)


def test_every_job_comes_back_whatever_the_order_they_finish_in() -> None:
    executor = _HeadLast()
    done: list[int] = []
    out = list(engine.cluster.ordered(abs, range(-50, 0), executor,
                                      lambda job, _r: done.append(job)))
    assert out == list(range(50, 0, -1)) and len(done) == 50
    assert executor.most <= executor.window


def _slow_square(x: int) -> int:
    time.sleep(0.01 * (x % 3))
    return x * x


@needs_dask
def test_verify_on_a_cluster_prints_what_jobs_1_prints(scheduler: str, logs: Path) -> None:
    for extra in ([], ["--json"], ["--jsonl"], ["--first"]):
        one = run("verify", str(logs), "--jobs", "1", *extra)
        assert one[0] == 1  # the invalid logs are in there
        assert run("verify", str(logs), "--dask", scheduler, *extra) == one
    text = one[1]
    assert "packed.jsonl.gz:3: illegal move" in run("verify", str(logs))[1]
    assert "incomplete" in text and "valid" in text.splitlines()[-1]


@needs_dask
def test_simulate_on_a_cluster_gives_the_statistics_of_jobs_1(scheduler: str,
                                                              tmp_path: Path) -> None:
    args = ["simulate", "--variant", "mineiro", "--matches", "20", "--seed", "5"]
    for extra in ([], ["--json"]):
        one = run(*args, "--jobs", "1", *extra)
        assert one[0] == 0
        assert run(*args, "--dask", scheduler, *extra) == one
    run(*args, "--logs", str(tmp_path / "a"))
    run(*args, "--dask", scheduler, "--logs", str(tmp_path / "b"))
    a = sorted((tmp_path / "a").iterdir())
    b = sorted((tmp_path / "b").iterdir())
    assert [p.name for p in a] == [p.name for p in b] and len(a) == 20
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))


def test_tournament_on_a_cluster_gives_the_table_of_jobs_1(scheduler: str) -> None:
    """truco tournament --dask, as simulate: the same round robin, table and ratings."""
    args = ["tournament", "--variant", "paulista", "--bots", "random,heuristic",
            "--games", "6", "--seed", "3"]
    for extra in ([], ["--json"]):
        one = run(*args, "--jobs", "1", *extra)
        assert one[0] == 0, one[1]
        assert run(*args, "--dask", scheduler, *extra) == one


@needs_dask
def test_analyze_on_a_cluster_gives_the_json_of_jobs_1(scheduler: str) -> None:
    """truco analyze --dask (issue 30): the positions valued on the workers, the same JSON."""
    args = ["analyze", str(REPLAYS / "mineiro-special.jsonl"), "--json", "-p", "3",
            "--hindsight"]
    one = run(*args, "--jobs", "1")
    assert one[0] == 0, one[1]
    assert run(*args, "--dask", scheduler) == one


def _killing(chunk_fn: Callable[[Any], Any], marker: str) -> Callable[[Any], Any]:
    """``chunk_fn``, but the first call anywhere kills its own worker process (SIGKILL, as a
    machine lost would) after leaving ``marker``; the calls after that run as usual."""

    def run_or_die(job: Any) -> Any:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return chunk_fn(job)
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("not reached")

    return run_or_die


@needs_dask
def test_a_worker_killed_mid_run_costs_a_retry_not_a_result(
        scheduler: str, logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    verify_one = run("verify", str(logs), "--json")
    sim_args = ["simulate", "--variant", "paulista", "--matches", "30", "--seed", "2", "--json"]
    simulate_one = run(*sim_args)
    # The chunk functions, as the commands look them up, become killers (pickled by value:
    # the workers run the engine's own function inside).
    marker = tmp_path / "killed-verify"
    monkeypatch.setattr(engine.cli.verify_cmd, "verify_chunk",
                        _killing(engine.cli.verify_cmd.verify_chunk, str(marker)))
    assert run("verify", str(logs), "--json", "--dask", scheduler) == verify_one
    assert marker.exists()  # a worker was killed
    marker = tmp_path / "killed-simulate"
    monkeypatch.setattr(engine.simulate, "_run_chunk",
                        _killing(engine.simulate._run_chunk, str(marker)))
    assert run(*sim_args, "--dask", scheduler) == simulate_one
    assert marker.exists()


@needs_dask
def test_dask_local_starts_and_closes_its_own_cluster(
        logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = {p.pid for p in _children()}
    one = run("verify", str(logs), "--jsonl")
    marker = tmp_path / "killed"  # its workers come from a fork server: one lost comes back
    monkeypatch.setattr(engine.cli.verify_cmd, "verify_chunk",
                        _killing(engine.cli.verify_cmd.verify_chunk, str(marker)))
    assert run("verify", str(logs), "--jsonl", "--dask", "local", "--jobs", "2") == one
    assert marker.exists()
    assert not _no_children_left(before)


@needs_dask
def test_a_bad_scheduler_address_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import distributed

    monkeypatch.setattr(engine.cluster, "CONNECT_TIMEOUT", 1.0)
    attempts: list[Any] = []  # the Dask connections tried
    real_connect = distributed.comm.connect

    async def connect(*args: Any, **kwargs: Any) -> Any:
        attempts.append(kwargs.get("timeout"))
        return await real_connect(*args, **kwargs)

    monkeypatch.setattr(distributed.comm, "connect", connect)
    code, out = run("verify", str(REPLAYS), "--dask", "tcp://127.0.0.1:1")
    assert code == 2, out
    # a port that refuses is told at once, as refused: no Dask connection is waited for
    assert attempts == []
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 1 s" in out
    assert "Connect call failed" in out
    assert "Traceback" not in out
    code, out = run("simulate", "-v", "paulista", "-n", "3", "--dask", "no port")
    assert code == 2 and "--dask no port: not a scheduler address" in out
    code, out = run("verify", str(REPLAYS), "--dask", "tcp://127.0.0.1:1", "--jobs", "2")
    assert code == 2 and "--jobs" in out


@needs_dask
def test_a_scheduler_without_workers_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    from dask.distributed import LocalCluster

    monkeypatch.setattr(engine.cluster, "CONNECT_TIMEOUT", 1.0)
    with LocalCluster(n_workers=0, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR,
                      scheduler_kwargs={"dashboard_address": ":0"}) as empty:
        code, out = run("simulate", "-v", "paulista", "-n", "3", "--dask",
                        empty.scheduler_address)
    assert code == 2, out
    assert "has no workers" in out and "dask worker tcp://" in out


def test_without_dask_the_flag_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails: not installed
    for args in (["verify", str(REPLAYS)], ["simulate", "-v", "paulista", "-n", "2"]):
        code, out = run(*args, "--dask", "local")
        assert code == 2, out
        assert "pip install 'truco-engine[cluster]'" in out and "Traceback" not in out


@needs_dask
def test_a_chunk_and_its_result_cross_the_wire_in_one_piece(scheduler: str) -> None:
    from distributed import Client
    from distributed.protocol import dumps, loads, to_serialize

    verify_chunk = engine.cli.verify_cmd.verify_chunk
    logs = sorted(REPLAYS.glob("*.jsonl")) * 4
    items = [(str(p), str(p), None, None) for p in logs]
    outcomes = verify_chunk(items)
    # Dask sends a list result element by element: a pickle (and a header) for each log.
    assert len(dumps({"data": to_serialize(outcomes)})) > len(outcomes)
    one = dumps({"data": to_serialize(engine.cluster.run_whole(verify_chunk,
                                                             engine.cluster.Whole(items)))})
    assert len(one) <= 3 and loads(one)["data"].value == outcomes

    class Recorded:  # the client, noting what each chunk's task runs
        def __init__(self, client: Any) -> None:
            self.client, self.runs = client, set()

        def nthreads(self) -> Any:
            return self.client.nthreads()

        def submit(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.runs.add(fn)
            assert all(isinstance(a, engine.cluster.Whole) for a in args[1:])  # the chunk
            return self.client.submit(fn, *args, **kwargs)

    with Client(scheduler) as client:
        recorded = Recorded(client)
        executor = engine.cluster.DaskExecutor(recorded)
        chunks = [items[i:i + 5] for i in range(0, len(items), 5)]
        got = list(engine.cluster.ordered(verify_chunk, chunks, executor))
    assert got == [verify_chunk(c) for c in chunks]
    assert recorded.runs == {engine.cluster.run_whole}


def test_workers_load_a_variant_once_by_its_fingerprint() -> None:
    from engine.variant import find_variant

    ref = engine.cluster.VariantRef.of(find_variant("paulista"))
    first = engine.cluster.cached_rules(ref)
    again = engine.cluster.cached_rules(engine.cluster.VariantRef(ref.fingerprint, b""))
    assert again is first and first.fingerprint == ref.fingerprint
    assert json.dumps(first.data) == json.dumps(find_variant("paulista").data)


def test_the_cluster_module_examples_run() -> None:
    import doctest

    result = doctests(engine.cluster)
    assert result.attempted >= 4 and result.failed == 0
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(engine.logread.decompressed, "decompressed",
                            globs=vars(engine.logread)):
        runner.run(test)
    assert runner.failures == 0 and runner.tries >= 1


_TWICE = """
import dask
from engine.cluster import dask_executor

def profiling():
    return dask.config.get("distributed.worker.profile.enabled")

if __name__ == "__main__":
    for _ in range(2):  # the first one imports Dask: its settings must outlive the cluster
        with dask_executor("local", 1) as executor:
            assert set(executor.client.run(profiling).values()) == {False}
            executor.submit(0, abs, -3)
            assert executor.next_done() == (0, 3)
    assert profiling() is True, "--dask local's settings outlived its cluster"
    assert dask.config.get("distributed.comm.timeouts.connect")
    print("ok")
"""


@needs_dask
def test_dask_local_sets_its_settings_for_its_own_cluster_only(tmp_path: Path) -> None:
    """In a fresh process (Dask not yet imported), two local clusters one after the other: the
    workers run with engine.cluster.LOCAL_CONFIG (their profiler off), and Dask's own settings
    are whole again after each (a second cluster once failed: the first had removed them)."""
    import subprocess

    script = tmp_path / "twice.py"
    script.write_text(_TWICE)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr[-2000:]


@needs_dask
def test_every_local_setting_is_one_dask_knows() -> None:
    """A key Dask does not know would be set and read by nothing: each one names a default."""
    import dask
    import distributed  # noqa: F401 - its defaults

    for key in engine.cluster.LOCAL_CONFIG:
        assert dask.config.get(key, default=None) is not None, key


def test_the_settings_docs_advise_for_a_cluster_are_those_of_dask_local() -> None:
    import textwrap

    import yaml

    text = (REPLAYS.parent / "docs" / "cluster.md").read_text("utf-8")
    block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    flat: dict[str, Any] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{path}.{key}" if path else key)
        else:
            flat[path] = node

    walk(yaml.safe_load(textwrap.dedent(block)), "")
    assert flat == engine.cluster.LOCAL_CONFIG


@needs_dask
def test_verify_starts_the_workers_fork_server_before_it_lists_the_logs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork server's imports (about a second) run while the command lists its logs."""
    import engine.cli.scale

    order: list[str] = []
    listing = engine.cli.verify_cmd.log_paths

    def none_verified(*_args: Any) -> Iterator[Any]:
        order.append("verify")
        yield from ()

    monkeypatch.setattr(engine.cli.scale, "start_fork_server",
                        lambda: order.append("fork server") or False)
    monkeypatch.setattr(engine.cli.verify_cmd, "log_paths",
                        lambda paths: order.append("list") or listing(paths))
    monkeypatch.setattr(engine.cli.verify_cmd, "_outcomes", none_verified)
    assert run("verify", str(REPLAYS), "--dask", "local")[0] == 0
    assert order == ["fork server", "list", "verify"]
    order.clear()
    run("verify", str(REPLAYS), "--dask", "tcp://127.0.0.1:1")
    assert order == ["list", "verify"]  # no local cluster, no fork server


@given(units=st.integers(0, 5000), workers=st.integers(1, 64), most=st.integers(1, 600),
       per_worker=st.integers(1, 8), scale=st.integers(1, 16))
def test_spans_cover_the_work_once_in_order_and_shrink_only_at_the_end(
        units: int, workers: int, most: int, per_worker: int, scale: int) -> None:
    ranges = list(engine.cluster.spans(units, workers, most, per_worker, scale))
    assert [a for a, _ in ranges] == ([0] + [b for _, b in ranges][:-1] if units else [])
    assert (ranges[-1][1] if ranges else 0) == units
    sizes = [b - a for a, b in ranges]
    first = engine.cluster.chunk_size(units, workers, most * scale, per_worker)
    assert all(0 < s <= first for s in sizes)
    assert sizes[:-1] == sorted(sizes[:-1], reverse=True)  # never larger again
    if scale == 1:  # this machine's processes: as before, chunks of one size
        assert set(sizes[:-1]) <= {first}
    least = min(first, engine.cluster.chunk_size(units, workers, most, per_worker))
    assert all(s >= least for s in sizes[:-1])


def test_a_cluster_run_ends_on_chunks_of_this_machines_size() -> None:
    sizes = [b - a for a, b in engine.cluster.spans(20_000, 2, 64, scale=8)]
    assert sizes[0] == 512 and max(sizes[-8:]) == 64 and sum(sizes) == 20_000


# -- a cluster that never answers, or loses every worker (issue 26) -------------------------------
def _truco(*args: str, timeout: float = 180) -> Any:
    """``truco ARGS`` in a new process (a hang fails the test at ``timeout``: a guard, not a
    timing assertion)."""
    import subprocess

    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True,
                          text=True, timeout=timeout, check=False, cwd=REPLAYS.parent)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections and never says a word."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


@needs_dask
@pytest.mark.parametrize("command", ["verify", "simulate", "tournament"])
def test_a_port_that_never_speaks_dask_is_a_usage_error_within_the_timeout(
        silent_port: int, command: str) -> None:
    """Issue 26: against a port that accepts connections and never speaks Dask, verify --dask
    waited past 330 s (Dask's Client bounds the connection, not its handshake). Every
    command now gives up after --dask-timeout, exit 2."""
    address = f"tcp://127.0.0.1:{silent_port}"
    args = {"verify": ["verify", str(REPLAYS / "paulista-seed1.jsonl")],
            "simulate": ["simulate", "-v", "paulista", "-n", "3"],
            "tournament": ["tournament", "-v", "paulista", "-b", "random,heuristic", "-n", "1"]}
    done = _truco(*args[command], "--dask", address, "--dask-timeout", "1")
    assert done.returncode == 2, done.stderr
    assert (f"cannot reach the Dask scheduler at {address} within 1 s: it took the connection "
            "but gave no Dask handshake") in done.stderr
    assert "Traceback" not in done.stderr


_BLOCKING = """
import os, sys, time

import engine.cli.verify_cmd as verify_cmd
from engine.cli import main

real, first, marker = verify_cmd.verify_chunk, sys.argv[1], sys.argv[2]


def verify_or_block(chunk):
    # The chunk of the first log is verified; any other waits until its worker is killed.
    if chunk[0][0] == first:
        return real(chunk)
    open(marker, "a").close()
    time.sleep(3600)


verify_cmd.verify_chunk = verify_or_block
main(sys.argv[3:], prog_name="truco")
"""


@needs_dask
def test_a_cluster_that_loses_every_worker_ends_the_run_and_keeps_the_report(
        logs: Path, tmp_path: Path) -> None:
    """Issue 26: when every worker of a cluster died mid-run (kill -9), verify --dask waited
    for ever, silently. After --dask-timeout seconds with no worker it stops: exit 1, a
    message, and the --jsonl report holds the logs verified so far, which --skip-verified
    reads."""
    import logging
    import subprocess

    from dask.distributed import Client, LocalCluster

    script = tmp_path / "blocking.py"
    script.write_text(_BLOCKING)
    marker = tmp_path / "blocked"
    files = engine.cli.verify_cmd.log_paths((str(logs),))
    report = tmp_path / "report.jsonl"
    before = {p.pid for p in _children()}
    with LocalCluster(n_workers=0, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR,
                      scheduler_kwargs={"dashboard_address": ":0"}) as cluster:
        address = cluster.scheduler_address
        workers = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                     address, "--no-nanny", "--nthreads", "1",
                                     "--no-dashboard"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                   for _ in range(2)]
        try:
            with Client(address) as client:
                client.wait_for_workers(2, timeout=120)
            with report.open("w") as out:
                command = subprocess.Popen(
                    [sys.executable, str(script), files[0], str(marker), "verify", str(logs),
                     "--jsonl", "--dask", address, "--dask-timeout", "2"],
                    stdout=out, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
                deadline = time.monotonic() + 120  # a guard against a hang
                while not (marker.exists() and report.read_text()) and command.poll() is None:
                    assert time.monotonic() < deadline, "the first chunk never came back"
                    time.sleep(0.1)
                for worker in workers:
                    worker.kill()  # SIGKILL: no goodbye to the scheduler
                _, err = command.communicate(timeout=120)
        finally:
            for worker in workers:
                worker.kill()
                worker.wait()
    assert command.returncode == 1, err
    assert (f"truco: the Dask cluster at {address} has had no worker for 2 s (all of them "
            "died or left): the run stops here") in err
    assert "--skip-verified" in err and "Traceback" not in err
    kept = engine.cli.verify_cmd.verified_in(str(report))
    assert 1 <= len(kept) < len(files)
    assert list(kept) == files[:len(kept)]  # the first logs, in order, each whole
    assert not _no_children_left(before)


@needs_dask
def test_trusted_variants_only_travels_with_the_chunks_to_the_workers(
        scheduler: str, tmp_path: Path) -> None:
    """--trusted-variants-only is set where a chunk is verified: on a Dask worker as in this
    process (the worker keeps the variants it loaded, and checks them again under it)."""
    trusted, outside, logs = tmp_path / "trusted", tmp_path / "outside", tmp_path / "logs"
    for folder in (trusted, outside, logs):
        folder.mkdir()
    for folder in (trusted, outside):
        (folder / "house.yaml").write_text("extends: paulista\n", encoding="utf-8")
        for seed in (1, 2):
            assert run("record", "-v", str(folder / "house.yaml"), "-s", str(seed), "--out",
                       str(logs / f"{folder.name}-{seed}.jsonl"))[0] == 0
    args = ["verify", str(logs), "--jsonl", "--trusted-variants-only", "--trust", str(trusted)]
    here = run(*args)
    assert here[0] == 1 and here[1].count("is not a trusted variant") == 2, here
    assert run("verify", str(logs), "--jsonl", "--dask", scheduler)[0] == 0  # loaded there
    assert run(*args, "--dask", scheduler) == here
