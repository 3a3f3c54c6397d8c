"""A championship of bot teams through ``truco serve``: ``python -m benchmarks.champ_load``.

Starts ``truco serve`` in its own process (a fresh ``--data`` folder, the client limits of
:mod:`benchmarks.serve_load`), creates a championship (``--format``, ``--rounds``, Paulista by
default) of ``--teams`` bot teams (``--bot``, a level: the server's bots play every seat, so
128 teams play 64 tables at once), registers them, closes the registration and starts each
round, polling the standings JSON every ``--poll`` seconds until every pairing of the round is
decided. Meanwhile one client asks for the standings page ``GET /c/ID`` and another for the
JSON ``GET /api/championships/ID``, each every ``--interval`` seconds, and times each answer.

It reports each round's wall time (from starting it to its last pairing decided) and moves a
second (the players' moves in the round's logs, the ``deal`` events left out, over that
time), the latency of each request (median, p95, p99, max, over all its requests), then runs
``truco championship verify`` on the archive, which must pass (exit 1 otherwise). ``--json
FILE`` writes the report as JSON too. Not part of the test suite; figures are this machine's.

Example: ``python -m benchmarks.champ_load --teams 128 --rounds 5 --json champ.json``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.serve_load import _free_port, _post
from engine.fileio import atomic_write_text
from engine.logschema import MOVES

#: The requests timed while the rounds are played.
TIMED = {"page": "/c/{cid}", "json": "/api/championships/{cid}"}


def _get(base: str, path: str) -> bytes:
    with urllib.request.urlopen(base + path, timeout=600) as r:
        data: bytes = r.read()
        return data


class _Sampler(threading.Thread):
    """Asks for ``path`` every ``interval`` seconds until stopped, timing each answer."""

    def __init__(self, base: str, path: str, interval: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.base, self.path, self.interval, self.stop = base, path, interval, stop
        self.seconds: list[float] = []
        self.errors = 0

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.perf_counter()
            try:
                _get(self.base, self.path)
                self.seconds.append(time.perf_counter() - start)
            except OSError:
                self.errors += 1
            self.stop.wait(self.interval)


def latency(seconds: list[float]) -> dict[str, float | int]:
    """Median, p95, p99 and max (ms) of ``seconds``, and their number."""
    lat = sorted(seconds) or [0.0]

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2)

    return {"requests": len(seconds), "median_ms": round(1000 * statistics.median(lat), 2),
            "p95_ms": pct(0.95), "p99_ms": pct(0.99), "max_ms": round(1000 * lat[-1], 2)}


def count_moves(log: Path) -> int:
    """The players' moves of a log (its move events, the deals left out)."""
    moves = set(MOVES) - {"deal"}
    with log.open(encoding="utf-8") as f:
        return sum(json.loads(line).get("event") in moves for line in f if line.strip())


def _play_rounds(base: str, cid: str, organiser: str, poll: float) -> list[dict[str, Any]]:
    """Start each round and wait for its pairings to be decided; each round's wall time."""
    rounds: list[dict[str, Any]] = []
    while True:
        start = time.perf_counter()
        try:
            number = _post(base, f"/api/championships/{cid}/round", {"key": organiser})["round"]
        except urllib.error.HTTPError as exc:
            if exc.code == 409 and json.loads(_get(base, f"/api/championships/{cid}")
                                              )["state"] == "over":
                return rounds
            raise
        while True:
            view = json.loads(_get(base, f"/api/championships/{cid}"))
            if len(view["round_data"]) >= number and not view.get("updating") and all(
                    p.get("decided") for p in view["round_data"][number - 1]["pairings"]):
                break  # (an "updating" view is the one from before a change being made)
            time.sleep(poll)  # a poll's pace: the server tells no event for a round
        rounds.append({"round": number, "seconds": time.perf_counter() - start,
                       "pairings": len(view["round_data"][number - 1]["pairings"])})


def run(data: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Play the championship through a server on ``data``; the report."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--port", str(port),
                             "--data", str(data), "--seat-timeout", "0", "--rate", "100000",
                             "--client-tables", "100000", "--client-creations", "100000",
                             "--client-connections", "800"], stderr=subprocess.DEVNULL)
    stop = threading.Event()
    try:
        for _ in range(300):
            try:
                _get(base, "/")
                break
            except OSError:
                stop.wait(0.1)
        body = {"variant": args.variant, "format": args.format, "title": "champ_load"}
        body.update({"rounds": args.rounds} if args.format == "swiss" else {})
        made = _post(base, "/api/championships", body)
        cid = made["championship"]
        for t in range(args.teams):
            _post(base, f"/api/championships/{cid}/teams", {
                "key": made["registration_key"], "name": f"Team {t + 1}", "bot": args.bot})
        _post(base, f"/api/championships/{cid}/close", {"key": made["organiser_key"]})
        samplers = {name: _Sampler(base, path.format(cid=cid), args.interval, stop)
                    for name, path in TIMED.items()}
        for sampler in samplers.values():
            sampler.start()
        rounds = _play_rounds(base, cid, made["organiser_key"], args.poll)
        stop.set()
        for sampler in samplers.values():
            sampler.join(600)
    finally:
        stop.set()
        proc.terminate()
        proc.wait(60)
    archive = data / "championships" / cid / "archive"
    for r in rounds:
        r["moves"] = sum(count_moves(p) for p in
                         (archive / "logs").glob(f"r{r['round']:02d}-*.jsonl"))
        r["moves_per_s"] = r["moves"] / r["seconds"]
    checked = subprocess.run([sys.executable, "-m", "engine", "championship", "verify",
                              str(archive)], capture_output=True, text=True, check=False)
    seconds = sum(r["seconds"] for r in rounds)
    moves = sum(r["moves"] for r in rounds)
    return {"teams": args.teams, "format": args.format, "variant": args.variant,
            "bot": args.bot, "cores": os.cpu_count(), "rounds": rounds,
            "moves": moves, "seconds": seconds, "moves_per_s": moves / max(seconds, 1e-9),
            "latency": {name: {**latency(s.seconds), "errors": s.errors}
                        for name, s in samplers.items()},
            "archive": str(archive), "verified": checked.returncode == 0,
            "verify_output": (checked.stdout + checked.stderr).strip()}


def table(report: dict[str, Any]) -> str:
    """The report as Markdown tables."""
    lines = [f"A {report['format']} of {report['teams']} {report['bot']} bot teams "
             f"({report['variant']}, {report['cores']} cores) through truco serve",
             "", "| round | pairings | seconds | moves | moves/s |", "|---|---|---|---|---|"]
    lines += [f"| {r['round']} | {r['pairings']} | {r['seconds']:.2f} | {r['moves']} | "
              f"{r['moves_per_s']:.0f} |" for r in report["rounds"]]
    lines += [f"| all | | {report['seconds']:.2f} | {report['moves']} | "
              f"{report['moves_per_s']:.0f} |", "",
              "| request | requests | median ms | p95 ms | p99 ms | max ms | errors |",
              "|---|---|---|---|---|---|---|"]
    for name, path in TIMED.items():
        lat = report["latency"][name]
        lines.append(f"| GET {path.format(cid='ID')} | {lat['requests']} | "
                     f"{lat['median_ms']:.1f} | {lat['p95_ms']:.1f} | {lat['p99_ms']:.1f} | "
                     f"{lat['max_ms']:.1f} | {lat['errors']} |")
    said = "verifies" if report["verified"] else "DOES NOT VERIFY"
    lines += ["", f"truco championship verify: the archive {said}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=5, help="a Swiss's rounds")
    parser.add_argument("--format", default="swiss",
                        choices=["swiss", "knockout", "round-robin"])
    parser.add_argument("--variant", default="paulista")
    parser.add_argument("--bot", default="easy", choices=["easy", "medium", "hard"])
    parser.add_argument("--interval", type=float, default=0.05,
                        help="seconds between two timed requests of one client")
    parser.add_argument("--poll", type=float, default=0.2,
                        help="seconds between two looks at a round's pairings")
    parser.add_argument("--data", type=Path, help="the server's folder (kept), else a "
                        "temporary one")
    parser.add_argument("--json", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    if args.data is not None:
        args.data.mkdir(parents=True, exist_ok=True)
        report = run(args.data, args)
    else:
        with tempfile.TemporaryDirectory() as data:
            report = run(Path(data), args)
    print(table(report), flush=True)
    if not report["verified"]:
        print(report["verify_output"], file=sys.stderr)
    if args.json is not None:
        atomic_write_text(args.json, json.dumps(report, indent=1) + "\n")
    return 0 if report["verified"] else 1


if __name__ == "__main__":
    sys.exit(main())
