"""A whole log analysed: every decision valued (:mod:`engine.analysis.evaluate`), judged
(:mod:`engine.analysis.judge`), summed up per seat, as plain JSON data (the ``--json`` output,
and what ``truco replay --html --analysis`` reads).

The decisions are jobs for an :class:`engine.cluster.Executor` (``--jobs``, ``--dask``), one
each, their results taken back in the log's order: each is seeded by the log line of its move
(:func:`decision_seed`), so where it runs changes nothing of the output.

>>> report = analyse(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...                  b'{"event": "play", "seat": 1, "card": "2h"}\\n', "a.jsonl", playouts=4)
>>> [(d["line"], d["played"], d["rank"]) for d in report["decisions"]]
[(2, 'play 1 2h', 1)]
>>> report["seats"][1]["decisions"], report["complete"]
(1, False)
"""

from __future__ import annotations

import hashlib
import json
from array import array
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import IO, Any

from engine.analysis.evaluate import DEFAULT_PLAYOUTS, fair_values, hindsight_values
from engine.analysis.judge import MARKS, SIGNIFICANCE, judge, settled
from engine.analysis.walk import Decision, Decisions, count, stream
from engine.bots.base import derive_seed
from engine.cluster import Executor, SerialExecutor, VariantRef, cached_rules, ordered
from engine.logread import LogProblem
from engine.shuffle import MASK64

#: The version of the analysis JSON (``"analysis": 2``; 2 added ``log_sha256``).
FORMAT = 2


@dataclass(frozen=True)
class Job:
    """One decision to value, as it travels to a worker."""

    variant: VariantRef
    decision: Decision
    seed: int
    playouts: int
    hindsight: bool


def decision_seed(seed: int, header: Mapping[str, Any], line: int) -> int:
    """The seed of the decision at ``line`` of a log whose header is ``header``, for the run's
    ``seed``: the same decision is valued the same whichever seats are analysed and wherever
    it runs, and two logs draw alike only where their headers are the same (a digest of the
    header, :func:`header_digest`: logs without a seed, a position's say, no longer share
    their guesses).

    >>> h = {"truco_log": 1, "variant": "paulista", "seed": 7}
    >>> decision_seed(0, h, 12) == decision_seed(0, dict(h), 12) != decision_seed(1, h, 12)
    True
    >>> decision_seed(0, h, 12) != decision_seed(0, dict(h, seed=8), 12)
    True
    """
    return derive_seed(derive_seed(seed & MASK64, header_digest(header)), line)


def header_digest(header: Mapping[str, Any]) -> int:
    """A 64-bit digest of a log's header (its JSON with sorted keys, SHA-256): the log's own
    identity, whatever the order of its keys."""
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def value_decision(job: Job) -> dict[str, Any]:
    """The analysis of one decision (plain data, see :func:`analyse`)."""
    rules = cached_rules(job.variant)
    d = job.decision
    obs = d.observation
    table = fair_values(rules, obs, d.moves, seed=job.seed, playouts=job.playouts,
                        settled=lambda t: settled(t, d.played))
    fair = judge(table, d.played, len(d.moves))
    out: dict[str, Any] = {
        "line": d.line, "hand": obs["hand_number"], "seat": d.seat, "team": obs["team"],
        "phase": obs["phase"], "round": obs["round"], "score": list(obs["score"]),
        "games": list(obs["games"]), "value": obs["value"], "cards": obs["hand"],
        "vira": obs["vira"],
        "played": str(d.moves[d.played]), "legal": [str(m) for m in d.moves]}
    out.update(_named(fair, d))
    if job.hindsight:
        seen = hindsight_values(rules, d.position, d.seat, d.moves, seed=job.seed,
                                playouts=job.playouts)
        out["hindsight"] = _named(judge(seen, d.played, len(d.moves)), d)
    return out


def _named(summary: dict[str, Any], d: Decision) -> dict[str, Any]:
    """``summary`` with its moves named (``move``) and its best move's name (``best_move``)."""
    for move, entry in zip(d.moves, summary["moves"], strict=True):
        entry["move"] = str(move)
    best = summary["best"]
    summary["best_move"] = None if best is None else str(d.moves[best])
    return summary


class Summary:
    """The per-seat sums of an analysis, taken one result at a time in the log's order (so
    nothing of a decision is kept but its loss and, for the seat's worst, the result)."""

    def __init__(self, players: int, count: int = 3) -> None:
        self.players = players
        self.count = count
        self.decisions = 0
        self._losses: list[array[float]] = [array("d") for _ in range(players)]
        self._marks = [dict.fromkeys((m for m, _ in MARKS), 0) for _ in range(players)]
        self._clean = [0] * players
        self._best = [0] * players
        #: Per seat, its marked decisions of the greatest loss: (-loss, line, result).
        self._worst: list[list[tuple[float, int, dict[str, Any]]]] = [[] for _ in range(players)]

    def add(self, r: dict[str, Any]) -> None:
        """One more decision's result (the next in the log's order)."""
        self.decisions += 1
        seat = r["seat"]
        if r["loss"] is None:
            return
        self._losses[seat].append(r["loss"])
        if r["mark"] is None:
            self._clean[seat] += 1
        else:
            self._marks[seat][r["mark"]] += 1
            kept = self._worst[seat]
            kept.append((-r["loss"], r["line"], r))
            kept.sort(key=lambda k: k[:2])
            del kept[self.count:]
        self._best[seat] += r["rank"] == 1

    def seat(self, seat: int, name: str) -> dict[str, Any]:
        """The seat's summary, as the report's ``seats`` give it."""
        losses = self._losses[seat]
        n = len(losses)
        clean = self._clean[seat]
        return {"seat": seat, "name": name, "decisions": n, **self._marks[seat],
                "accuracy": round(100.0 * clean / n, 1) if n else None,
                "mean_loss": round(sum(losses) / n, 4) if n else None,
                "best_played": self._best[seat]}

    def worst(self, seat: int) -> list[dict[str, Any]]:
        """The seat's marked decisions of the greatest loss, the worst first (the log's
        order on a tie), as :func:`worst` gives them."""
        return [r for _, _, r in self._worst[seat]]


def analyse(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
            seats: frozenset[int] | None = None, playouts: int = DEFAULT_PLAYOUTS,
            seed: int = 0, hindsight: bool = False, executor: Executor | None = None,
            progress: Callable[[int, int | None], None] | None = None) -> dict[str, Any]:
    """The analysis of a log: ``decisions`` (each as :func:`value_decision` gives it, in the
    log's order) and ``seats`` (per seat: how many decisions, the marks, ``accuracy``: the
    percentage of its decisions without a mark, ``mean_loss``); ``progress(done, total)`` is
    told as each decision is valued (a progress bar). Raises
    :class:`~engine.logread.LogProblem` for an invalid log, ``ValueError`` for a seat the
    variant does not have. The whole report in memory: :func:`analyse_each` keeps no
    decision."""
    results: list[dict[str, Any]] = []
    report, _ = analyse_each(data, file, results.append, base=base, seats=seats,
                             playouts=playouts, seed=seed, hindsight=hindsight,
                             executor=executor, progress=progress)
    report["decisions"] = results
    return report


def analyse_each(data: IO[bytes] | bytes, file: str, keep: Callable[[dict[str, Any]], None], *,
                 base: Path | None = None, seats: frozenset[int] | None = None,
                 playouts: int = DEFAULT_PLAYOUTS, seed: int = 0, hindsight: bool = False,
                 executor: Executor | None = None,
                 progress: Callable[[int, int | None], None] | None = None,
                 ) -> tuple[dict[str, Any], Summary]:
    """:func:`analyse` as the log is read: each decision is valued as soon as its line is
    read (a few executor windows of them in flight at most) and its result handed to
    ``keep``, in the log's order. Returns the report without its ``decisions`` (its last
    key) and the per-seat :class:`Summary`. ``progress(done, total)``: ``total`` from a
    first pass that counts the decisions (where ``data`` is bytes or a file that can be read
    again), else ``None``. The memory does not grow with the log's decisions."""
    total = None if progress is None else _count(data, file, base, seats)
    found = Decisions(seats)
    items = stream(data, file, found, base=base)
    first = next(items, None)  # the header is read: the rules are known
    rules = found.rules
    assert rules is not None  # a log without a match raised its problem
    bad = sorted(s for s in seats or () if not 0 <= s < rules.players)
    if bad:
        raise ValueError(f"seat {bad[0]} is not a seat of {found.header_data['variant']} "
                         f"(seats 0..{rules.players - 1})")
    ref = VariantRef.of(rules)
    log_seed = found.header_data.get("seed")
    jobs = (Job(ref, d, decision_seed(seed, found.header_data, d.line), playouts, hindsight)
            for d in chain(() if first is None else (first,), items))
    done = 0

    def tell(_job: Job, _result: dict[str, Any]) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    summary = Summary(rules.players)
    for result in ordered(value_decision, jobs, executor or SerialExecutor(), tell):
        summary.add(result)
        keep(result)
    given = found.header_data.get("players") or []
    names = [str(given[s]) if s < len(given) and given[s] not in (None, "") else f"seat {s}"
             for s in range(rules.players)]
    return {
        "analysis": FORMAT, "file": file, "variant": found.header_data["variant"],
        "log_seed": log_seed, "log_sha256": found.digest.hexdigest(), "seed": seed,
        "playouts": playouts, "hindsight": hindsight,
        "complete": not found.incomplete, "teams": rules.teams,
        "team_of": list(rules.team_of), "names": list(names),
        "marks": {name: least for name, least in MARKS}, "significance": SIGNIFICANCE,
        "seats": [summary.seat(s, names[s]) for s in range(rules.players)
                  if seats is None or s in seats]}, summary


def _count(data: IO[bytes] | bytes, file: str, base: Path | None,
           seats: frozenset[int] | None) -> int | None:
    """The number of decisions of a log read twice; ``None`` for a stream that cannot be."""
    if isinstance(data, bytes):
        try:
            return count(data, file, base=base, seats=seats)
        except LogProblem:
            return None  # the reading that values them says it, where it is met
    if not data.seekable():
        return None
    at = data.tell()
    try:
        return count(data, file, base=base, seats=seats)
    except LogProblem:
        return None
    finally:
        data.seek(at)


def worst(report: dict[str, Any], seat: int, count: int = 3) -> Iterator[dict[str, Any]]:
    """The seat's ``count`` marked decisions of the greatest loss, the worst first (the log's
    order on a tie)."""
    marked = [r for r in report["decisions"] if r["seat"] == seat and r["mark"] is not None]
    marked.sort(key=lambda r: (-r["loss"], r["line"]))
    yield from marked[:count]
