"""Round-robin tournaments between bots, and a rating for each (Bradley-Terry, Elo scale).

Every pair of bots plays ``games`` deals, each twice with the teams swapped: deal *k* of a run
is the match seeded with :func:`engine.simulate.match_seed` ``(seed, k)``, its first dealer
seat *k* mod players, its bots seeded as ``truco simulate`` seeds them; in the first match bot
A holds team 0's seats, in the second team 1's. So every pairing meets the same cards, both
ways round, and the results are the same for any ``jobs``.

The ratings are a Bradley-Terry fit of all the matches: bot *i* beats bot *j* with chance
``1 / (1 + 10 ** ((r_j - r_i) / 400))`` (the Elo scale), the ratings centred on 1500. The fit
is the maximum of the likelihood (Newton's method) with every pairing counted as if it had
played one more match that each side won half of (so a bot that won everything still has a
finite rating); the 95% intervals are the ratings plus or minus 1.96 standard errors from the
inverse of the information matrix (on the ratings' sum held fixed).

>>> fit = bradley_terry(["a", "b"], {("a", "b"): (30, 10)})
>>> fit["a"][0] > 1500 > fit["b"][0], round(fit["a"][0] + fit["b"][0])
(True, 3000)
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from engine.bots import make_bot
from engine.cluster import Executor, local_executor, ordered, spans
from engine.game import Match, resolve_rules
from engine.rules import Rules
from engine.simulate import (
    Faults,
    add_faults,
    bot_faults,
    bot_seed,
    match_seed,
    play_match,
    wilson,
)

#: One match of a tournament: (pairing index, deal index, swapped).
Job = tuple[int, int, bool]
Progress = Callable[[int, int], None]


def pairings(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of bots, in the order given (``a,b,c``: a-b, a-c, b-c)."""
    return list(combinations(bots, 2))


def play_one(variant: Rules | str, seed: int, pair: tuple[str, str], k: int,
             swapped: bool, faults: Faults | None = None) -> int:
    """Play deal ``k`` of a pairing (``swapped``: bot A on team 1) and return the index in
    ``pair`` of the bot that won (0: A, 1: B); the faults of bots over the protocol are
    added to ``faults`` (:func:`engine.simulate.bot_faults`)."""
    rules = resolve_rules(variant)
    s = match_seed(seed, k)
    match = Match(rules, seed=s, dealer=k % rules.players)
    first, second = (pair[1], pair[0]) if swapped else pair
    names = [first if rules.team_of[seat] == 0 else second for seat in range(rules.players)]
    bots = [make_bot(name, rules, bot_seed(s, seat)) for seat, name in enumerate(names)]
    play_match(match, bots)
    if faults is not None:
        bot_faults(bots, names, faults)
    assert match.winner is not None
    return match.winner ^ int(swapped)


def _run(job: tuple[Rules, int, list[tuple[str, str]], list[Job]]) -> tuple[list[int], Faults]:
    variant, seed, pairs, jobs = job
    faults: Faults = {}
    return [play_one(variant, seed, pairs[p], k, sw, faults) for p, k, sw in jobs], faults


def _chunks(items: list[Job], jobs: int, scale: int = 1) -> Iterator[list[Job]]:
    """The games in chunks: some eight per worker, at most 20 (``scale`` times more where a
    task costs more, :attr:`engine.cluster.Executor.chunk_scale`, the last ones smaller)."""
    for start, stop in spans(len(items), jobs, 20, per_worker=8, scale=scale):
        yield items[start:stop]


def run_tournament(variant: Rules | str, bots: Sequence[str], *, games: int, seed: int,
                   jobs: int = 1, progress: Progress | None = None,
                   executor: Executor | None = None) -> dict[str, Any]:
    """Play the round robin and return its results as plain data (JSON-ready):
    ``pairings`` (each with ``a``, ``b``, ``matches``, ``a_won``, ``a_rate``, ``a_ci95``),
    ``bots`` (each with ``name``, ``matches``, ``won``, ``rate``, ``rating``,
    ``rating_ci95``), best rating first, and the run's ``variant``, ``games``, ``seed``;
    ``bot_faults`` where a bot over the protocol failed (:func:`engine.simulate.bot_faults`).

    Raises ``ValueError`` for a variant that does not have two teams, fewer than two bots or
    a bot named twice (``KeyError`` for an unknown bot). ``executor``: where the chunks of
    matches run (:mod:`engine.cluster`: a Dask cluster for ``truco tournament --dask``; by
    default this process, or ``jobs`` processes); the results are the same."""
    rules = resolve_rules(variant)
    if rules.teams != 2:
        raise ValueError(f"a tournament pits two teams against each other; {rules.name} has "
                         f"{rules.teams}")
    names = list(bots)
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError("give two bots or more, each once")
    for name in names:
        make_bot(name, rules)  # an unknown name fails here, before anything is played
    pairs = pairings(names)
    work = [(p, k, sw) for p in range(len(pairs)) for k in range(games) for sw in (False, True)]
    workers = jobs if executor is None else executor.workers
    scale = 1 if executor is None else executor.chunk_scale
    chunks = [(rules, seed, pairs, chunk) for chunk in _chunks(work, workers, scale)]
    winners: list[int] = []
    faults: Faults = {}
    total = len(work)

    def collect(part: tuple[list[int], Faults]) -> None:
        winners.extend(part[0])
        add_faults(faults, part[1])
        if progress is not None:
            progress(len(winners), total)

    with contextlib.ExitStack() as stack:
        if executor is None:
            executor = stack.enter_context(local_executor(jobs, len(chunks)))
        for part in ordered(_run, chunks, executor):  # in order: the same table for any jobs
            collect(part)
    wins: dict[tuple[str, str], tuple[int, int]] = {}
    for p, (a, b) in enumerate(pairs):
        results = winners[p * 2 * games:(p + 1) * 2 * games]
        a_won = results.count(0)
        wins[(a, b)] = (a_won, len(results) - a_won)
    fit = bradley_terry(names, wins)
    rows = []
    for (a, b), (wa, wb) in wins.items():
        n = wa + wb
        lo, hi = wilson(wa, n)
        rows.append({"a": a, "b": b, "matches": n, "a_won": wa,
                     "a_rate": round(wa / n, 4) if n else 0.0,
                     "a_ci95": [round(lo, 4), round(hi, 4)]})
    per_bot: list[dict[str, Any]] = []
    for name in names:
        played = sum(wa + wb for (a, b), (wa, wb) in wins.items() if name in (a, b))
        won = sum(wa if a == name else wb for (a, b), (wa, wb) in wins.items()
                  if name in (a, b))
        rating, lo, hi = fit[name]
        per_bot.append({"name": name, "matches": played, "won": won,
                        "rate": round(won / played, 4) if played else 0.0,
                        "rating": round(rating, 1), "rating_ci95": [round(lo, 1), round(hi, 1)]})
    per_bot.sort(key=lambda r: (-r["rating"], names.index(r["name"])))
    result = {"variant": rules.name, "games": games, "seed": seed, "pairings": rows,
              "bots": per_bot}
    if faults:  # a bot over the protocol failed (each fault told on standard error)
        result["bot_faults"] = dict(sorted(faults.items()))
    return result


def bradley_terry(names: Sequence[str], wins: dict[tuple[str, str], tuple[int, int]],
                  ) -> dict[str, tuple[float, float, float]]:
    """Each bot's rating (Elo scale, centred on 1500) and its 95% interval, ``(rating, low,
    high)``, from ``wins[(a, b)] = (a's wins, b's wins)``; the fit described in the module
    docstring (half a win each way added to every pairing)."""
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    w = np.zeros((n, n))  # w[i, j]: i's wins over j
    for (a, b), (wa, wb) in wins.items():
        i, j = index[a], index[b]
        w[i, j] += wa + 0.5
        w[j, i] += wb + 0.5
    games = w + w.T
    def information(theta: Any) -> tuple[Any, Any]:
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        grad = (w - games * p).sum(axis=1)
        link = games * p * p.T
        return grad, np.diag(link.sum(axis=1)) - link  # a graph Laplacian

    theta = np.zeros(n)
    for _ in range(100):
        grad, info = information(theta)
        step = np.linalg.pinv(info) @ grad
        theta = theta + step
        theta -= theta.mean()
        if np.abs(step).max() < 1e-10:
            break
    cov = np.linalg.pinv(information(theta)[1])
    scale = 400.0 / math.log(10.0)
    out = {}
    for name, i in index.items():
        se = math.sqrt(max(float(cov[i, i]), 0.0)) * scale
        r = 1500.0 + float(theta[i]) * scale
        out[name] = (r, r - 1.96 * se, r + 1.96 * se)
    return out
