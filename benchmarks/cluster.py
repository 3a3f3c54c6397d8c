"""Scale-out figures (issue 15): ``python -m benchmarks.cluster [--logs N] [--matches N]
[--rounds R] [--cpu-only | --no-cpu]``.

**Wall clock, through the command line.** Verifies N logs (``truco simulate --logs`` writes
them first: Paulista, heuristic against random) and simulates N matches, each with
``--jobs 1``, ``--jobs 2``, ``--dask local --jobs 2`` (a LocalCluster of 2 worker processes,
one thread each, started and closed by the command) and ``--dask ADDRESS`` (a running cluster
of 2 worker processes, one thread each, started by this script with ``dask scheduler`` and
``dask worker``, as docs/cluster.md starts one on several hosts), in fresh processes, timed from
start to exit. Each mode also verifies one log, which is its start-up alone. Every mode runs
``--rounds`` times (3 by default), the modes in alternation, and the medians are reported (the
best run in brackets). The overhead of each Dask mode against ``--jobs 2`` is the median, over
the rounds, of its run against the ``--jobs 2`` run of the same round (the best runs' ratio in
brackets), with the start-up included, and without it (each run less its one-log run). The
outputs of all modes are checked byte-identical.

**CPU, in this process.** ``truco verify``'s chunks of the same N logs run on a pool of 2
processes, on a LocalCluster with Dask's default settings and on one with ``--dask local``'s
(:data:`engine.cluster.LOCAL_CONFIG`); each chunk measures its own CPU time
(``time.thread_time``). Reported: the CPU the workers spent beyond their chunks, and the CPU
of this process (client, scheduler, nannies; for the pool, the results' unpickling), each as a
share of the chunks' CPU. These shares move little when the machine slows down, where its
wall-clock times move by 20% and more from one minute to the next: on a machine whose cores
the workers fill, a mode's total CPU share is what it costs.

The engine's modules are compiled first, and the processes timed may keep what they compile
(:func:`environment`), as in a user's installation.

Writes ``benchmarks/results/cluster.json`` and prints markdown tables. The default sizes take
some fifteen minutes. CPU seconds are not reported for the command-line runs: a LocalCluster's
workers are children of a fork server, outside what this process can count of its children.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import multiprocessing
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.fileio import atomic_write_text

LOCAL = "--dask local (2 workers)"
RUNNING = "--dask ADDRESS (running cluster, 2 workers)"
MODES = {"--jobs 1": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"],
         LOCAL: ["--dask", "local", "--jobs", "2"], RUNNING: ["--dask", "{address}"]}


def truco(*args: str) -> tuple[float, bytes]:
    """Run ``truco ARGS`` in a fresh process: seconds from start to exit, and its output."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          check=False, env=environment())
    seconds = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise RuntimeError(f"truco {' '.join(args)} failed ({done.returncode}): "
                           f"{done.stderr.decode()[-800:]}")
    return seconds, done.stdout


def environment() -> dict[str, str]:
    """The environment of the processes timed: this one's, where Python may keep the modules
    it compiles (``PYTHONDONTWRITEBYTECODE``, set on some build machines, would have each
    process compile the engine again: 0.24-0.45 s to import what ``truco verify`` needs
    against 0.16-0.17 s, on the project's machine; a user's Python keeps them)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_engine() -> None:
    """Compile the engine's modules as an installation does (their bytecode beside them, in
    ``__pycache__``): the first timed run does not pay for it."""
    import compileall

    import engine

    compileall.compile_dir(Path(engine.__file__).parent, quiet=1)


@contextlib.contextmanager
def running_cluster(work: Path, workers: int = 2) -> Iterator[str]:
    """A scheduler and ``workers`` worker processes (one thread each) started with Dask's own
    commands, as on a set of hosts, with the settings docs/cluster.md advises (those of
    ``--dask local``, :data:`engine.cluster.LOCAL_CONFIG`, here as ``DASK_*`` environment
    variables); stopped at the end. Yields the scheduler's address once every worker has
    joined."""
    from dask.distributed import Client

    from engine.cluster import LOCAL_CONFIG

    env = environment()
    for key, value in LOCAL_CONFIG.items():
        env["DASK_" + "__".join(key.replace("-", "_").split(".")).upper()] = str(value)

    bin_dir = Path(sys.executable).parent
    dask_cmd = str(bin_dir / "dask") if (bin_dir / "dask").exists() else "dask"
    file = work / "scheduler.json"
    procs = [subprocess.Popen([dask_cmd, "scheduler", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(file)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        procs.append(subprocess.Popen(
            [dask_cmd, "worker", address, "--nworkers", str(workers), "--nthreads", "1",
             "--no-dashboard"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=60)
            got = client.run(_settings, list(LOCAL_CONFIG))
            if any(v != [str(x) for x in LOCAL_CONFIG.values()] for v in got.values()):
                raise RuntimeError(f"the workers did not take the settings: {got}")
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _settings(keys: list[str]) -> list[str]:
    """A worker's values of ``keys`` in Dask's configuration."""
    import dask

    return [str(dask.config.get(key)) for key in keys]


def measure(kind: str, base: list[str], one: list[str], units: int, rounds: int,
            address: str) -> dict[str, Any]:
    """Each mode ``rounds`` times, the modes in alternation (A B C D A B C D ...), each run
    followed by the mode's one-log start-up: the medians and best runs, units per second with
    and without the start-up, the outputs' digest (all must agree)."""
    seconds: dict[str, list[float]] = {name: [] for name in MODES}
    startup: dict[str, list[float]] = {name: [] for name in MODES}
    digests = set()
    for _ in range(rounds):
        for name, template in MODES.items():
            flags = [f.format(address=address) for f in template]
            took, out = truco(*base, *flags)
            digests.add(hashlib.sha256(out).hexdigest())
            seconds[name].append(round(took, 2))
            startup[name].append(round(truco(*one, *flags)[0], 2))
            print(f"  {kind} {name}: {took:.2f} s (one log {startup[name][-1]:.2f} s)",
                  file=sys.stderr)
    if len(digests) != 1:
        raise RuntimeError(f"{kind}: the outputs differ between modes")
    rows: dict[str, dict[str, Any]] = {}
    for name, got in seconds.items():
        median, start = statistics.median(got), statistics.median(startup[name])
        rows[name] = {"runs": got, "seconds": median, "best": min(got),
                      "startup_runs": startup[name], "startup": start,
                      "per_s": round(units / median, 1),
                      "per_s_after_startup": round(units / (median - start), 1)}
    # Overheads are taken round by round (a Dask mode against the --jobs 2 run just before
    # it, a minute apart at most) and their median reported: the machine's slow stretches
    # then fall on both sides of a ratio, not on one mode's median.
    two, two_start = seconds["--jobs 2"], startup["--jobs 2"]
    for name in (LOCAL, RUNNING):
        row, got, start = rows[name], seconds[name], startup[name]
        row["overhead_vs_jobs_2"] = round(statistics.median(
            d / j - 1 for d, j in zip(got, two, strict=True)), 3)
        row["overhead_vs_jobs_2_best"] = round(min(got) / min(two) - 1, 3)
        row["overhead_vs_jobs_2_after_startup"] = round(statistics.median(
            (d - ds) / (j - js) - 1
            for d, ds, j, js in zip(got, start, two, two_start, strict=True)), 3)
    return {"units": units, "modes": rows}


# -- CPU shares, in this process ----------------------------------------------------------------
class Timed:
    """``fn(job)`` with the CPU time of the thread that ran it."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def __call__(self, job: Any) -> tuple[float, Any]:
        t0 = time.thread_time()
        result = self.fn(job)
        return time.thread_time() - t0, result


class TimedExecutor:
    """An executor whose chunks report their own CPU time, summed in :attr:`chunks_cpu`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.workers, self.window = inner.workers, inner.window
        self.chunk_scale = inner.chunk_scale
        self.chunks_cpu = 0.0

    def submit(self, index: int, fn: Callable[[Any], Any], job: Any) -> None:
        self.inner.submit(index, Timed(fn), job)

    def next_done(self) -> tuple[int, Any]:
        index, (cpu, result) = self.inner.next_done()
        self.chunks_cpu += cpu
        return index, result


def _verify_all(executor: Any, files: list[str]) -> float:
    """Verify ``files`` in chunks on ``executor`` as ``truco verify`` does: the seconds taken."""
    from engine.cli.verify_cmd import verify_on

    t0 = time.perf_counter()
    done = sum(1 for _ in verify_on(executor, files))
    if done != len(files):
        raise RuntimeError(f"verified {done} logs of {len(files)}")
    return time.perf_counter() - t0


def _pool_cpu(files: list[str]) -> dict[str, float]:
    from engine.pool import ProcessExecutor

    before, main0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        executor = TimedExecutor(ProcessExecutor(pool, 2))
        took = _verify_all(executor, files)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the pool's workers, joined
    workers = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return _shares(took, executor.chunks_cpu, workers, time.process_time() - main0)


def _dask_cpu(files: list[str], settings: dict[str, Any]) -> dict[str, float]:
    from engine import cluster

    kept = cluster.LOCAL_CONFIG
    cluster.LOCAL_CONFIG = settings
    try:
        with cluster.dask_executor("local", 2) as dask:
            cpu = dask.client.run(time.process_time)
            main0 = time.process_time()
            executor = TimedExecutor(dask)
            took = _verify_all(executor, files)
            main = time.process_time() - main0
            workers = sum(t - cpu[w] for w, t in dask.client.run(time.process_time).items())
    finally:
        cluster.LOCAL_CONFIG = kept
    return _shares(took, executor.chunks_cpu, workers, main)


def _shares(took: float, chunks: float, workers: float, main: float) -> dict[str, float]:
    return {"seconds": round(took, 2), "chunks_cpu": round(chunks, 2),
            "workers_beyond_chunks": round(workers / chunks - 1, 4),
            "this_process": round(main / chunks, 4),
            "total": round((workers + main) / chunks, 4)}


def cpu_shares(files: list[str], rounds: int) -> dict[str, Any]:
    """The CPU shares of a pool, of a LocalCluster with Dask's default settings and of one
    with ``--dask local``'s, ``rounds`` times each in alternation: the medians."""
    from engine.cluster import LOCAL_CONFIG

    runs: dict[str, Callable[[], dict[str, float]]] = {
        "--jobs 2 (a pool)": lambda: _pool_cpu(files),
        "LocalCluster, Dask's default settings": lambda: _dask_cpu(files, {}),
        "LocalCluster, --dask local's settings": lambda: _dask_cpu(files, dict(LOCAL_CONFIG)),
    }
    got: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            got[name].append(run())
            print(f"  cpu {name}: {got[name][-1]}", file=sys.stderr)
    rows = {name: {key: statistics.median(r[key] for r in results) for key in results[0]}
            | {"runs": results} for name, results in got.items()}
    pool = rows["--jobs 2 (a pool)"]["total"]
    for row in rows.values():
        row["cpu_overhead_vs_pool"] = round(row["total"] / pool - 1, 4)
    return {"logs": len(files), "modes": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logs", type=int, default=20_000, help="logs to verify (default 20,000)")
    ap.add_argument("--matches", type=int, default=20_000,
                    help="matches to simulate (default 20,000; 0: none)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="runs of each mode, in alternation (default 3): the median is reported")
    parts = ap.add_mutually_exclusive_group()
    parts.add_argument("--cpu-only", action="store_true",
                       help="only the CPU shares (a few minutes), not the command-line runs")
    parts.add_argument("--no-cpu", action="store_true", help="only the command-line runs")
    ap.add_argument("--json", type=Path, default=Path("benchmarks/results/cluster.json"))
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="truco-cluster-bench-"))
    result: dict[str, Any] = {
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()} "
                   f"{platform.release()}, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    compile_engine()
    try:
        logs = work / "logs"
        print(f"writing {args.logs} logs into {logs}", file=sys.stderr)
        truco("simulate", "-v", "paulista", "-n", str(args.logs), "-s", "7", "--jobs", "2",
              "--logs", str(logs))
        from engine.cli.verify_cmd import log_paths

        if not args.no_cpu:
            result["cpu"] = cpu_shares(log_paths((str(logs),)), args.rounds)
        if not args.cpu_only:
            one = ["verify", str(sorted(logs.iterdir())[0])]
            with running_cluster(work) as address:
                result["verify"] = measure("verify", ["verify", str(logs)], one, args.logs,
                                           args.rounds, address)
                if args.matches:
                    result["simulate"] = measure(
                        "simulate", ["simulate", "-v", "paulista", "-n", str(args.matches),
                                     "-s", "1", "--json"], one, args.matches, args.rounds,
                        address)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.json, json.dumps(result, indent=2) + "\n")
    if "verify" in result:
        print(tables(result) + "\n")
    if "cpu" in result:
        print(cpu_table(result))
    return 0


def tables(result: dict[str, Any]) -> str:
    """The tables of docs/performance.md: medians, best runs in brackets."""
    lines: list[str] = []
    runs = [(f"verify {result['verify']['units']:,} logs", "logs/s", result["verify"])]
    if "simulate" in result:
        s = result["simulate"]
        runs.append((f"simulate {s['units']:,} matches", "matches/s", s))
    lines += ["| | " + " | ".join(f"{what} | {unit}" for what, unit, _ in runs)
              + " | one log (start-up) |",
              "|---|" + "---|---|" * len(runs) + "---|"]
    for name in MODES:
        cells = [f"{r['modes'][name]['seconds']:.1f} s ({r['modes'][name]['best']:.1f}) | "
                 f"{r['modes'][name]['per_s']:,.0f}" for _, _, r in runs]
        lines.append(f"| `{name}` | " + " | ".join(cells)
                     + f" | {result['verify']['modes'][name]['startup']:.2f} s |")
    for name in (LOCAL, RUNNING):
        short = name.split(" (")[0]
        with_start = [f"{100 * r['modes'][name]['overhead_vs_jobs_2']:+.1f}% "
                      f"({100 * r['modes'][name]['overhead_vs_jobs_2_best']:+.1f}%) |"
                      for _, _, r in runs] + [""]
        without = [f"{100 * r['modes'][name]['overhead_vs_jobs_2_after_startup']:+.1f}% |"
                   for _, _, r in runs] + [""]
        lines.append(f"| `{short}` against `--jobs 2` | " + " | ".join(with_start) + " |")
        lines.append("| the same, start-up excluded | " + " | ".join(without) + " |")
    return "\n".join(lines)


def cpu_table(result: dict[str, Any]) -> str:
    """The CPU shares' table: medians."""
    c = result["cpu"]
    lines = [f"| verifying {c['logs']:,} logs, in-process | workers' CPU beyond their chunks "
             "| this process's CPU | total | against the pool | seconds |",
             "|---|---|---|---|---|---|"]
    for name, row in c["modes"].items():
        lines.append(f"| {name} | {100 * row['workers_beyond_chunks']:+.1f}% | "
                     f"{100 * row['this_process']:.1f}% | {row['total']:.3f} | "
                     f"{100 * row['cpu_overhead_vs_pool']:+.1f}% | {row['seconds']:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
