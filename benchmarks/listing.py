"""How long ``truco verify`` takes to list the logs of a folder, before it verifies any:
``python -m benchmarks.listing [--logs N] [--per-folder K] [--rounds R]``.

Makes N empty ``.jsonl`` files (a tenth of them ``.jsonl.gz``) in folders of K, like an
archive kept day by day, in a temporary folder, and times :func:`engine.cli.verify_cmd.log_paths`
on it against what it did before (two ``Path.rglob``, one per suffix, their paths sorted),
the two in alternation, ``--rounds`` times each (5 by default); prints the medians (the best in
brackets) and checks that both list the same names in the same order. The listing is done by
the command's own process before any worker starts, on one core, whatever ``--jobs`` or
``--dask`` say.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def by_rglob(folder: str) -> list[str]:
    """The listing before: two recursive globs, their paths sorted."""
    p = Path(folder)
    return [str(x) for x in sorted([*p.rglob("*.jsonl"), *p.rglob("*.jsonl.gz")])]


def by_walk(folder: str) -> list[str]:
    """The listing of ``truco verify``."""
    from engine.cli.verify_cmd import log_paths

    return log_paths((folder,))


def archive(root: Path, logs: int, per_folder: int) -> None:
    """``logs`` empty logs under ``root``, ``per_folder`` to a folder."""
    for i in range(logs):
        folder = root / f"day-{i // per_folder:05d}"
        if i % per_folder == 0:
            folder.mkdir()
        (folder / f"match-{i:07d}.jsonl{'.gz' if i % 10 == 9 else ''}").touch()


def main(argv: list[str] | None = None) -> int:
    """Time both listings; print a markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=int, default=100_000)
    ap.add_argument("--per-folder", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    ways: dict[str, Callable[[str], list[str]]] = {
        "two Path.rglob (before)": by_rglob, "one os.scandir walk (truco verify)": by_walk}
    with tempfile.TemporaryDirectory(prefix="truco-listing-") as tmp:
        archive(Path(tmp), args.logs, args.per_folder)
        seconds: dict[str, list[float]] = {name: [] for name in ways}
        listed: dict[str, list[str]] = {}
        for _ in range(args.rounds):
            for name, way in ways.items():
                t0 = time.perf_counter()
                listed[name] = way(tmp)
                seconds[name].append(time.perf_counter() - t0)
        first, *rest = listed.values()
        if any(other != first for other in rest) or len(first) != args.logs:
            raise SystemExit("the listings differ")
    print(f"Listing {args.logs:,} logs in folders of {args.per_folder:,} "
          f"({args.rounds} rounds, alternating; median, best in brackets):\n")
    print("| listing | seconds | logs per second |\n|---|---|---|")
    for name, times in seconds.items():
        median = statistics.median(times)
        print(f"| {name} | {median:.3f} ({min(times):.3f}) | {args.logs / median:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
