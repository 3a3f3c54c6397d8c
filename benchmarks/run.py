"""The benchmark suite: ``python -m benchmarks.run [--quick] [--verify-only] [--json FILE]``.

Every figure is the median of several runs after a warm-up, on this machine, one process,
every seat choosing uniformly among ``legal_actions()`` with a seeded SplitMix64.
Prints a table and writes JSON (default ``benchmarks/results/latest.json``).
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine.game
import engine.machine
import engine.variant
from engine import Match
from engine.fileio import atomic_write_text
from engine.logformat import Recorder
from engine.shuffle import SplitMix64

VARIANTS = ("paulista", "mineiro", "mineiro-12")


def play_random(match: Match, rng: SplitMix64, recorder: Recorder | None = None) -> int:
    """Play a match to its end with uniformly random legal moves; return how many moves."""
    apply = recorder.apply if recorder is not None else match.apply
    moves = 0
    while not match.is_over:
        legal = match.legal_actions()
        apply(legal[rng.bounded(len(legal))])
        moves += 1
    return moves


def _median_rate(fn: Callable[[], int], runs: int) -> tuple[float, float, float]:
    """Run ``fn`` (which returns a count of units) ``runs`` times after one warm-up; return
    the median units per second, the median seconds, and the best units per second (this
    machine is a shared VM: the best run is the least disturbed one)."""
    fn()
    rates, secs = [], []
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        units = fn()
        dt = time.perf_counter() - t0
        rates.append(units / dt)
        secs.append(dt)
    return statistics.median(rates), statistics.median(secs), max(rates)


def bench_matches(variant: str, matches: int, runs: int, with_log: bool) -> dict[str, float]:
    counts = {"hands": 0}

    def once() -> int:
        hands = 0
        for i in range(matches):
            m = Match.new(variant, seed=i)
            rec = Recorder(m, io.StringIO(), variant=variant) if with_log else None
            play_random(m, SplitMix64(1_000_003 + i), rec)
            hands += m.hand_number
        counts["hands"] = hands
        return matches

    rate, secs, best = _median_rate(once, runs)
    hands_per_match = counts["hands"] / matches
    return {"matches_per_s": rate, "hands_per_s": counts["hands"] / secs,
            "best_hands_per_s": best * hands_per_match}


def clear_caches() -> None:
    engine.variant._CACHE.clear()
    for fn in vars(engine.variant).values():  # every functools cache of the loader
        if callable(getattr(fn, "cache_clear", None)):
            fn.cache_clear()
    engine.machine.build_machine.cache_clear()
    engine.game.move_table.cache_clear()  # it holds the machine


def bench_load(variant: str, runs: int) -> float:
    """Cold load in ms: YAML, extends, schema (re-read and compiled), semantic pass, machine."""
    times = []
    for _ in range(runs + 1):
        clear_caches()
        t0 = time.perf_counter()
        rules = engine.variant.load_variant(variant)
        engine.machine.build_machine(rules)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times[1:])


def _allocated_since(before: tracemalloc.Snapshot) -> int:
    return sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))


def bench_memory(variant: str, count: int) -> dict[str, float]:
    rules = engine.variant.find_variant(variant)
    engine.machine.build_machine(rules)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    one = Match.new(rules, seed=1)
    one_bytes = _allocated_since(before)
    many = [Match.new(rules, seed=i) for i in range(count)]
    many_bytes = _allocated_since(before)
    tracemalloc.stop()
    del one, many
    return {"one_match_bytes": one_bytes, "per_match_bytes_of_many": many_bytes / count}


def bench_trigger_share(variant: str, matches: int) -> dict[str, float]:
    """Time spent inside the ``transitions`` machine's triggers versus the whole move loop:
    ``LeanEvent.trigger_move`` (which ``Event.trigger`` delegates to), the first firing of a
    plan, and the chance steps, ``Match.chance`` (the deals: its plan runner is called
    directly where it is made, as ``Match.apply`` calls a move's); outermost calls only (a
    hand's last move deals the next hand inside it). A move whose plan is made runs it without
    a trigger (``Match.apply``), and a quick move or deal (``engine.moves.quick``) without the
    machine: where the variant's moves and seeded deals are quick (Paulista, Mineiro) this is
    near nothing; where a kind rewrites the others' transitions (Gaudério's flor: its cards
    and raises) it is those moves' share."""
    from engine.machine import LeanEvent

    spent = {"trigger": 0.0, "count": 0, "depth": 0}

    def timed(original: Any) -> Any:
        def call(*args: Any) -> Any:
            outer = spent["depth"] == 0
            spent["depth"] += 1
            t0 = time.perf_counter()
            try:
                return original(*args)
            finally:
                spent["depth"] -= 1
                if outer:
                    spent["trigger"] += time.perf_counter() - t0
                    spent["count"] += 1
        return call

    patched: list[tuple[Any, str, Any]] = []
    for owner, name in ((LeanEvent, "trigger_move"), (Match, "chance")):
        original = getattr(owner, name)
        try:
            setattr(owner, name, timed(original))
        except (TypeError, AttributeError):  # a compiled class: its calls are not counted
            continue
        patched.append((owner, name, original))
    moves = 0
    try:
        t0 = time.perf_counter()
        for i in range(matches):
            moves += play_random(Match.new(variant, seed=i), SplitMix64(7 + i))
        total = time.perf_counter() - t0
    finally:
        for owner, name, original in patched:
            setattr(owner, name, original)
    return {"moves": moves, "triggers": spent["count"], "us_per_move_total": total / moves * 1e6,
            "us_per_move_in_triggers": spent["trigger"] / moves * 1e6,
            "us_per_trigger": spent["trigger"] / max(1, spent["count"]) * 1e6,
            "trigger_share": spent["trigger"] / total}


def bench_verify(variant: str, count: int, runs: int, folder: Path) -> dict[str, float]:
    """Logs verified per second: in-process and through the CLI (needs engine.replay)."""
    try:
        from engine import replay
    except ImportError:
        return {}
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        m = Match.new(variant, seed=i)
        out = io.StringIO()
        play_random(m, SplitMix64(99 + i), Recorder(m, out, variant=variant))
        (folder / f"m{i:05d}.jsonl").write_text(out.getvalue(), encoding="utf-8")
    paths = sorted(folder.glob("*.jsonl"))
    verify = getattr(replay, "verify_path", None) or getattr(replay, "verify_file", None)
    result: dict[str, float] = {}
    if verify is not None:
        def once() -> int:
            for p in paths:
                verify(p)
            return len(paths)
        median, _, best = _median_rate(once, runs)
        result["in_process_logs_per_s"] = median
        result["in_process_best_logs_per_s"] = best

    def cli() -> int:
        done = subprocess.run([sys.executable, "-m", "engine", "verify", str(folder)],
                              check=False, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"truco verify failed: {done.stdout[-500:]}{done.stderr[-500:]}")
        return len(paths)
    median, _, best = _median_rate(cli, max(1, runs // 2))
    result["cli_logs_per_s"] = median
    result["cli_best_logs_per_s"] = best
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer matches and runs (a smoke test)")
    ap.add_argument("--verify-only", action="store_true",
                    help="only the verification figures (logs verified per second)")
    ap.add_argument("--json", type=Path, default=Path("benchmarks/results/latest.json"))
    args = ap.parse_args(argv)
    matches, runs = (30, 3) if args.quick else (300, 5)
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "processor": platform.processor() or platform.machine(),
                    "cpus": __import__("os").cpu_count()},
        "settings": {"matches": matches, "runs": runs},
        "variants": {},
    }
    rows = []
    for v in () if args.verify_only else VARIANTS:
        r: dict[str, Any] = {}
        r["random"] = bench_matches(v, matches, runs, with_log=False)
        r["random_with_log"] = bench_matches(v, matches, runs, with_log=True)
        r["load_ms_cold"] = bench_load(v, runs * 2)
        r["memory"] = bench_memory(v, 1000 if args.quick else 10_000)
        r["transitions"] = bench_trigger_share(v, matches // 3 or 1)
        results["variants"][v] = r
        rows.append((v, r))
    verify = bench_verify("paulista", 100 if args.quick else 1000, runs,
                          Path("benchmarks/results/logs-paulista"))
    results["verify"] = verify

    print("median of the runs (best run in brackets)")
    if rows:
        print(f"{'variant':12} {'hands/s':>15} {'matches/s':>10} {'+log hands/s':>13} "
              f"{'load ms':>8} {'B/match':>8} {'us/move':>8} {'trig %':>7}")
    for v, r in rows:
        hands = f"{r['random']['hands_per_s']:.0f} ({r['random']['best_hands_per_s']:.0f})"
        print(f"{v:12} {hands:>15} {r['random']['matches_per_s']:10.1f} "
              f"{r['random_with_log']['hands_per_s']:13.0f} {r['load_ms_cold']:8.1f} "
              f"{r['memory']['per_match_bytes_of_many']:8.0f} "
              f"{r['transitions']['us_per_move_total']:8.1f} "
              f"{100 * r['transitions']['trigger_share']:7.1f}")
    for k, val in verify.items():
        print(f"verify paulista: {k} = {val:.0f}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.json, json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
