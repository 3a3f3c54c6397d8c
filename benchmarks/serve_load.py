"""Load on ``truco serve`` over loopback: ``python -m benchmarks.serve_load``.

Starts ``truco serve`` in its own process (a fresh ``--data`` folder), creates tables whose
four seats are all "people", and connects one websocket client a seat; each client plays a
seeded random legal move whenever its state message offers it one, and a table whose match
ends is followed by a new one, so that each level of simultaneous connections
(``--connections``, default 10 100 400) keeps that many clients playing for ``--seconds``.
It reports the server's moves a second (every move the clients sent and the server applied),
the latency of a move (from sending it to the mover's next state message: p50, p90, p99) and
the server's memory a table (its resident set before and after the level, over the tables it
made, finished ones still in memory for ``--linger``: a later level may reuse what an earlier
one freed, so the first level's figure is the fairest). The server is started with ``--rate
100000`` (the clients are programs: the throttle meant for people is lifted); "refused"
counts the moves the server refused (two partners answering one raise at once: one answer
counts). Not part of the test suite; figures are this machine's.

Example: ``python -m benchmarks.serve_load --connections 10 100 400 --seconds 20``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import urllib.request
from typing import Any

from websockets.asyncio.client import connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


class _Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0


async def _seat(port: int, link: str, seed: int, stop: float, stats: _Stats) -> None:
    table, token = link.split("/t/")[1].split("#k=")
    rng = random.Random(seed)
    async with connect(f"ws://127.0.0.1:{port}/t/{table}/ws", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        sent_moves = -1
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.perf_counter()))
            except TimeoutError:
                return
            msg = json.loads(text)
            if msg["type"] == "error":
                stats.errors += 1
                sent_at = None
                continue
            if msg["type"] != "state":
                continue
            now = time.perf_counter()
            if sent_at is not None and msg["moves"] > sent_moves:
                stats.latencies.append(now - sent_at)
                stats.moves += 1
                sent_at = None
            if msg["over"] or now >= stop:
                return
            if msg["legal"] and sent_at is None:
                move = rng.choice(msg["legal"])["move"]
                sent_at, sent_moves = time.perf_counter(), msg["moves"]
                await ws.send(json.dumps({"type": "move", "move": move}))


async def _table(base: str, port: int, variant: str, seats: int, first_seed: int,
                 stop: float, stats: _Stats) -> int:
    """Keep one table's ``seats`` connections busy until ``stop``: a table of that many clients
    (the rest of its seats easy bots), and a new one whenever its match ends; the tables made."""
    made = 0
    while time.perf_counter() < stop:
        seed = first_seed + 7919 * made
        table = await asyncio.to_thread(_post, base, "/api/tables", {
            "variant": variant, "seed": seed,
            "seats": ["human" if s < seats else "easy" for s in range(4)]})
        links = [s["link"] for s in table["seats"]]
        await asyncio.gather(*(_seat(port, link, seed + k, stop, stats)
                               for k, link in enumerate(links)))
        made += 1
    return made


async def _level(base: str, port: int, pid: int, connections: int, seconds: float,
                 variant: str) -> dict[str, Any]:
    before = _rss_kib(pid)
    stats = _Stats()
    start = time.perf_counter()
    stop = start + seconds
    # ``connections`` clients at once, four a table (the last table's other seats: bots)
    sizes = [min(4, connections - 4 * t) for t in range(math.ceil(connections / 4))]
    made = await asyncio.gather(*(_table(base, port, variant, n, 1000 + t, stop, stats)
                                  for t, n in enumerate(sizes)))
    elapsed = time.perf_counter() - start
    after = _rss_kib(pid)  # the tables made and played: their matches, logs, connections
    tables = sum(made)
    lat = sorted(stats.latencies) or [0.0]

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))]

    return {"connections": connections, "tables": tables, "moves": stats.moves,
            "moves_per_s": stats.moves / elapsed, "p50_ms": pct(0.50), "p90_ms": pct(0.90),
            "p99_ms": pct(0.99), "mean_ms": 1000 * statistics.fmean(lat),
            "kib_per_table": (after - before) / max(1, tables), "seconds": elapsed,
            "errors": stats.errors}


def memory_per_table(variant: str, tables: int = 100) -> float:
    """The memory a table holds (KiB, by tracemalloc, in this process): its match, seats,
    bots and log so far, of ``tables`` tables made at once, over their number."""
    from engine.serve.table import Table

    Table.new(variant, ["human"] * 4, seed=0)  # the variant's rules and machine, once
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    kept = [Table.new(variant, ["human"] * 4, seed=t) for t in range(tables)]
    used = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert len(kept) == tables
    return used / tables / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, nargs="+", default=[10, 100, 400])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--variant", default="paulista")
    args = parser.parse_args(argv)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, "-m", "engine", "serve", "--port", str(port),
                                 "--data", data, "--seat-timeout", "0", "--rate", "100000",
                                 "--client-tables", "100000", "--client-creations", "100000",
                                 "--client-connections", "800", "--fixed-seeds"],
                                stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            print(f"truco serve load over loopback ({args.variant}, {os.cpu_count()} cores; "
                  f"{args.seconds:g} s a level)")
            print(f"memory a table (tracemalloc, {args.variant}, a new match): "
                  f"{memory_per_table(args.variant):.1f} KiB; KiB/table: the server's resident "
                  "set, before the level's tables and after their play, over their number")
            print("| connections | tables played | moves | moves/s | p50 ms | p90 ms | p99 ms "
                  "| KiB/table | refused |")
            print("|---|---|---|---|---|---|---|---|---|")
            for n in args.connections:
                r = asyncio.run(_level(base, port, proc.pid, n, args.seconds, args.variant))
                print(f"| {r['connections']} | {r['tables']} | {r['moves']} | "
                      f"{r['moves_per_s']:.0f} | "
                      f"{r['p50_ms']:.1f} | {r['p90_ms']:.1f} | {r['p99_ms']:.1f} | "
                      f"{r['kib_per_table']:.0f} | {r['errors']} |", flush=True)
        finally:
            proc.terminate()
            proc.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
