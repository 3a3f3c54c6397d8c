"""Scale-out figures (issue 15): ``python -m benchmarks.cluster [--logs N] [--matches N]``.

Verifies N logs (``truco simulate --logs`` writes them first: Paulista, heuristic against
random) and simulates N matches through the command line, each with ``--jobs 1``, ``--jobs 2``
and ``--dask local --jobs 2`` (a LocalCluster of 2 worker processes, one thread each, started
and closed by the command), in fresh processes, timed from start to exit: start-up (and the
cluster's) included. Prints a markdown table of logs/s and matches/s, the overhead of Dask
against ``--jobs 2``, and what starting a LocalCluster costs alone (the command on one log);
checks that the three outputs are byte-identical. Writes ``benchmarks/results/cluster.json``.

One run of each (a run of the default sizes takes some minutes): on a shared machine the
figures move by 20% and more from one minute to the next; compare within one run only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MODES = {"--jobs 1": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"],
         "--dask local (2 workers)": ["--dask", "local", "--jobs", "2"]}


def truco(*args: str) -> tuple[float, bytes, float]:
    """Run ``truco ARGS`` in a fresh process: seconds from start to exit, its output, and the
    CPU seconds it and its children (the pool's or the cluster's processes) used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          check=False)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"truco {' '.join(args)} failed ({done.returncode}): "
                           f"{done.stderr.decode()[-800:]}")
    return seconds, done.stdout, cpu


def measure(kind: str, base: list[str], units: int) -> dict[str, Any]:
    """Each mode once: seconds, units per second, the output's digest (all must agree)."""
    rows: dict[str, Any] = {}
    digests = set()
    for name, flags in MODES.items():
        seconds, out, cpu = truco(*base, *flags)
        digests.add(hashlib.sha256(out).hexdigest())
        rows[name] = {"seconds": round(seconds, 2), "per_s": round(units / seconds, 1),
                      "cpu_seconds": round(cpu, 2)}
        print(f"  {kind} {name}: {seconds:.2f} s, {cpu:.2f} CPU s", file=sys.stderr)
    if len(digests) != 1:
        raise RuntimeError(f"{kind}: the outputs differ between modes")
    dask, two = rows["--dask local (2 workers)"], rows["--jobs 2"]
    return {"units": units, "modes": rows,
            "dask_overhead_vs_jobs_2": round(dask["seconds"] / two["seconds"] - 1, 3),
            # CPU seconds move less than wall time when others share the machine
            "dask_cpu_overhead_vs_jobs_2": round(dask["cpu_seconds"] / two["cpu_seconds"] - 1,
                                                 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logs", type=int, default=20_000, help="logs to verify (default 20,000)")
    ap.add_argument("--matches", type=int, default=20_000,
                    help="matches to simulate (default 20,000)")
    ap.add_argument("--json", type=Path, default=Path("benchmarks/results/cluster.json"))
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="truco-cluster-bench-"))
    try:
        logs = work / "logs"
        print(f"writing {args.logs} logs into {logs}", file=sys.stderr)
        truco("simulate", "-v", "paulista", "-n", str(args.logs), "-s", "7", "--jobs", "2",
              "--logs", str(logs))
        one_log = sorted(logs.iterdir())[0]
        startup = {name: round(truco("verify", str(one_log), *flags)[0], 2)
                   for name, flags in MODES.items()}
        result = {
            "machine": f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()} "
                       f"{platform.release()}, Python {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "one_log_seconds": startup,
            "verify": measure("verify", ["verify", str(logs)], args.logs),
            "simulate": measure("simulate", ["simulate", "-v", "paulista", "-n",
                                             str(args.matches), "-s", "1", "--json"],
                                args.matches),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    return 0


def table(result: dict[str, Any]) -> str:
    """The README's table."""
    v, s = result["verify"], result["simulate"]
    lines = [f"| | verify {v['units']:,} logs | logs/s | CPU s | simulate {s['units']:,} "
             "matches | matches/s | CPU s | one log (start-up) |",
             "|---|---|---|---|---|---|---|---|"]
    for name in MODES:
        a, b = v["modes"][name], s["modes"][name]
        lines.append(f"| `{name}` | {a['seconds']:.1f} s | {a['per_s']:,.0f} | "
                     f"{a['cpu_seconds']:.1f} | {b['seconds']:.1f} s | {b['per_s']:,.0f} | "
                     f"{b['cpu_seconds']:.1f} | {result['one_log_seconds'][name]:.2f} s |")
    lines.append(f"| Dask against `--jobs 2` | {100 * v['dask_overhead_vs_jobs_2']:+.1f}% | | "
                 f"{100 * v['dask_cpu_overhead_vs_jobs_2']:+.1f}% | "
                 f"{100 * s['dask_overhead_vs_jobs_2']:+.1f}% | | "
                 f"{100 * s['dask_cpu_overhead_vs_jobs_2']:+.1f}% | |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
