"""A whole log analysed: every decision valued (:mod:`engine.analysis.evaluate`), judged
(:mod:`engine.analysis.judge`), summed up per seat, as plain JSON data (the ``--json`` output,
and what ``truco replay --html --analysis`` reads).

The decisions are jobs for an :class:`engine.cluster.Executor` (``--jobs``, ``--dask``), one
each, their results taken back in the log's order: each is seeded by the log line of its move
(:func:`decision_seed`), so where it runs changes nothing of the output.

>>> report = analyse(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...                  b'{"event": "play", "seat": 1, "card": "2h"}\\n', "a.jsonl", playouts=4)
>>> [(d["line"], d["played"], d["rank"]) for d in report["decisions"]]
[(2, 'play 1 2h', 2)]
>>> report["seats"][1]["decisions"], report["complete"]
(1, False)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine.analysis.evaluate import DEFAULT_PLAYOUTS, fair_values, hindsight_values
from engine.analysis.judge import MARKS, SIGNIFICANCE, judge, settled
from engine.analysis.walk import Decision, decisions
from engine.bots.base import derive_seed
from engine.cluster import Executor, SerialExecutor, VariantRef, cached_rules, ordered
from engine.shuffle import MASK64

#: The version of the analysis JSON (``"analysis": 1``).
FORMAT = 1


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


def analyse(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
            seats: frozenset[int] | None = None, playouts: int = DEFAULT_PLAYOUTS,
            seed: int = 0, hindsight: bool = False, executor: Executor | None = None,
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The analysis of a log: ``decisions`` (each as :func:`value_decision` gives it, in the
    log's order) and ``seats`` (per seat: how many decisions, the marks, ``accuracy``: the
    percentage of its decisions without a mark, ``mean_loss``); ``progress(done, total)`` is
    told as each decision is valued (a progress bar). Raises
    :class:`~engine.logread.LogProblem` for an invalid log, ``ValueError`` for a seat the
    variant does not have."""
    found = decisions(data, file, base=base, seats=seats)
    rules = found.rules
    assert rules is not None  # a log without a match raised its problem
    bad = sorted(s for s in seats or () if not 0 <= s < rules.players)
    if bad:
        raise ValueError(f"seat {bad[0]} is not a seat of {found.header_data['variant']} "
                         f"(seats 0..{rules.players - 1})")
    ref = VariantRef.of(rules)
    log_seed = found.header_data.get("seed")
    jobs = (Job(ref, d, decision_seed(seed, found.header_data, d.line), playouts, hindsight)
            for d in found.decisions)
    total = len(found.decisions)
    done = 0

    def tell(_job: Job, _result: dict[str, Any]) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    results = list(ordered(value_decision, jobs, executor or SerialExecutor(), tell))
    given = found.header_data.get("players") or []
    names = [str(given[s]) if s < len(given) and given[s] not in (None, "") else f"seat {s}"
             for s in range(rules.players)]
    return {
        "analysis": FORMAT, "file": file, "variant": found.header_data["variant"],
        "log_seed": log_seed, "seed": seed, "playouts": playouts, "hindsight": hindsight,
        "complete": not found.incomplete, "teams": rules.teams,
        "team_of": list(rules.team_of), "names": list(names),
        "marks": {name: least for name, least in MARKS}, "significance": SIGNIFICANCE,
        "seats": [_seat_summary(results, s, names[s]) for s in range(rules.players)
                  if seats is None or s in seats],
        "decisions": results}


def _seat_summary(results: list[dict[str, Any]], seat: int, name: str) -> dict[str, Any]:
    mine = [r for r in results if r["seat"] == seat and r["loss"] is not None]
    counts = {mark: sum(1 for r in mine if r["mark"] == mark) for mark, _ in MARKS}
    clean = sum(1 for r in mine if r["mark"] is None)
    return {"seat": seat, "name": name, "decisions": len(mine), **counts,
            "accuracy": round(100.0 * clean / len(mine), 1) if mine else None,
            "mean_loss": round(sum(r["loss"] for r in mine) / len(mine), 4) if mine else None,
            "best_played": sum(1 for r in mine if r["rank"] == 1)}


def worst(report: dict[str, Any], seat: int, count: int = 3) -> Iterator[dict[str, Any]]:
    """The seat's ``count`` marked decisions of the greatest loss, the worst first (the log's
    order on a tie)."""
    marked = [r for r in report["decisions"] if r["seat"] == seat and r["mark"] is not None]
    marked.sort(key=lambda r: (-r["loss"], r["line"]))
    yield from marked[:count]
