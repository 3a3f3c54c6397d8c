"""Bots playing many matches of one variant, and the statistics of what happened.

:func:`run_simulation` is the whole of ``truco simulate``: it plays ``games`` matches, each
seeded from the run seed and its index (so the results do not depend on how many processes
share the work), optionally writes one log per match, and returns the statistics as a plain,
JSON-ready dict (what ``truco compare`` puts side by side for two variants).

>>> stats = run_simulation("paulista", games=4, seed=1, bots=["heuristic", "random"])
>>> stats["matches"], sum(t["matches_won"] for t in stats["teams"])
(4, 4)

:func:`play_match` drives one match with one bot per seat, reporting every move.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.bots import (
    Bot,
    choose_for,
    derive_seed,
    make_bot,
    next_actor,
    notify,
    out_of_turn_raise,
)
from engine.cluster import (
    Executor,
    VariantRef,
    cached_rules,
    chunk_size,
    local_executor,
    ordered,
    spans,
)
from engine.fileio import atomic_write_text
from engine.game import NORMAL, Checkpoint, Match, resolve_rules
from engine.logformat import Recorder, header_variant
from engine.moves import names as kn
from engine.moves.raising import raises_any_time
from engine.rules import Rules
from engine.state import PLAY
from engine.variant import looks_like_path

#: Mixed into a match's seed to seed its bots (the deals use the match seed itself).
_BOT_SALT = 0xB075EED5B075EED5
Tally = dict[str, Any]
#: The faults of bots over the protocol: by bot name, the count of each kind (``timeout``...).
Faults = dict[str, dict[str, int]]
Progress = Callable[[int, int], None]


def match_seed(run_seed: int, index: int) -> int:
    """The seed of match ``index`` (0-based) of a run: the index-th SplitMix64 draw of the
    run seed.

    >>> match_seed(1, 0) != match_seed(1, 1)
    True
    """
    return derive_seed(run_seed, index)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the match seeded with ``seed`` (the deals use the
    match seed itself, the bots a salted stream of it)."""
    return derive_seed(seed ^ _BOT_SALT, seat)


def seat_bots(names: Sequence[str], players: int,
              team_of: Sequence[int] | None = None) -> list[str]:
    """Bot names by seat from one name (every seat), one per team (by team number; ``team_of``
    gives each seat's team, by default partners in alternate seats), one per seat, or two on
    a table of more teams: the first for team 0, the second for every other team (so
    ``truco simulate``'s default, ``heuristic,random``, fits any table).

    >>> seat_bots(["heuristic", "random"], 4)
    ['heuristic', 'random', 'heuristic', 'random']
    >>> seat_bots(["a", "b", "c"], 3, team_of=[0, 1, 2])
    ['a', 'b', 'c']
    >>> seat_bots(["heuristic", "random"], 3, team_of=[0, 1, 2])
    ['heuristic', 'random', 'random']
    """
    names = list(names)
    team_of = list(team_of) if team_of is not None else [s % 2 for s in range(players)]
    teams = len(set(team_of))
    if len(names) == 1:
        return names * players
    if len(names) == players:
        return names
    if len(names) == teams:
        return [names[team_of[s]] for s in range(players)]
    if len(names) == 2:
        return [names[min(team_of[s], 1)] for s in range(players)]
    ways = ["1 bot", *([] if teams == 2 else ["2 (team 0, the other teams)"]),
            *([] if teams == players else [f"{teams} (one per team)"])]
    raise ValueError(f"give {', '.join(ways)} or {players} (one per seat), not {len(names)}")


def play_match(match: Match, bots: Sequence[Bot], *, recorder: Recorder | None = None,
               on_move: Callable[[Action, list[Checkpoint]], None] | None = None) -> None:
    """Play ``match`` to its end, each seat's moves chosen by ``bots[seat]`` from what the seat
    may see (:func:`engine.bots.choose_for`); through ``recorder`` if given (which logs it).
    Where several partners may answer or decide, the one whose bot judges its own hand
    stronger does (:func:`engine.bots.next_actor` given the bots).
    Where the variant lets anyone raise while a card is awaited (M3), the other seats are
    offered a raise out of turn before each card (:func:`engine.bots.out_of_turn_raise`)."""
    any_time = raises_any_time(match)
    watching = any(hasattr(b, "observe") for b in bots)
    if watching:
        notify(match, bots)  # the match begins for a bot over the protocol
    while not match.is_over:
        action = out_of_turn_raise(match, bots) if any_time else None
        if action is None:
            seat = next_actor(match, bots=bots)  # partners: the stronger hand answers
            action = choose_for(bots[seat], match, seat)
        if on_move is not None:
            on_move(action, [])  # before the move: the tally reads the state it changes
        checkpoints = recorder.apply(action) if recorder is not None else match.apply(action)
        if watching:
            notify(match, bots)  # a bot over the protocol: what its seat saw (and the end)
        if on_move is not None:
            on_move(action, checkpoints)


def _bucket(m: Match) -> str:
    """The statistics' counters of a special hand: ``one_team`` for a hand with one team at
    its score (won by it, by the other), ``both_teams`` for the others (won by team 0, 1);
    every entry of the variant's list counts in one of them."""
    return "one_team" if m.special_team is not None else "both_teams"


def _names(rules: Rules, one: bool) -> tuple[str, bool]:
    """The names (joined) of the special hands that count as one-team hands (``one``) or as
    the others, and whether there is any."""
    if isinstance(rules.data["special_hands"], dict):  # the mapping form: its two as written
        view = rules.one_team if one else rules.both_teams
        return view.name, view.enabled
    names = [h.name for h in rules.special_hands
             if (h.teams == "exactly_one") == one or h.teams == "any"]
    return " / ".join(names), bool(names)


class _Tally:
    """Counts one match's events; plain ints and lists only, so tallies add up in any order."""

    def __init__(self, match: Match) -> None:
        self.match = match
        r = match.rules
        self.data: Tally = {
            "winner": None, "games_won": [0] * r.teams, "games": 0, "hands": 0,
            "hands_finished": 0, "hands_per_game": [], "points": [0] * r.teams,
            "hands_won": [0] * r.teams, "folds": 0,
            "all_tied": 0, "forfeits": 0, "out_of_turn_raises": 0, "concedes": 0,
            "steps": {str(s.value): [0, 0, 0] for s in r.ladder},  # reached, accepted, folded
            # hands, won by the team at score, by the other, by nobody; decided play, fold
            "one_team": [0, 0, 0, 0, 0, 0],
            "both_teams": [0] * (r.teams + 2),  # hands, won by each team, by nobody
        }
        if r.side_bets:  # G22-G32: per bet, settled, accepted, won by the mão's team, points
            # a flor also: contested, won by the mão's team (contested or not), G38-G40
            self.data["side_bets"] = {b.name: [0] * (7 if b.kind == kn.FLOR_KIND else 5)
                                      for b in r.side_bets}
        self._mao = match.mao
        self._game_hands = 0
        self._rounds: list[int | None] = []
        self._before: tuple[Any, ...] | None = None
        self._start_hand()

    def _start_hand(self) -> None:
        m = self.match
        if m.is_over or m.awaiting_deal:
            return
        self.data["hands"] += 1
        self._game_hands += 1
        self._rounds = []
        self._mao = m.mao
        self._special = m.special
        self._special_team = m.special_team
        if m.special != NORMAL:
            self.data[_bucket(m)][0] += 1

    def __call__(self, action: Action, checkpoints: list[Checkpoint]) -> None:
        d = self.data
        m = self.match
        if self._before is None:
            self._before = (m.hand.pending, m.hand_number, m.special)
            if action.kind == kn.RAISE_KIND and m.state == PLAY and action.seat != m.turn:
                self.data["out_of_turn_raises"] += 1  # M3: while another seat's card is awaited
            return
        pending, hand_number, special = self._before
        self._before = None
        steps = d["steps"]
        if action.kind == kn.RAISE_KIND and (  # not a raise penalised (P5, M5)
                special == NORMAL or m.rules.special_hands[special - 1].raises == "allowed"):
            steps[str(action.value)][0] += 1
            if pending is not None:  # a raise back accepts the pending raise
                steps[str(pending[1])][1] += 1
        elif action.kind == kn.ACCEPT_KIND and pending is not None:
            steps[str(pending[1])][1] += 1
        elif action.kind == kn.FOLD_KIND and pending is not None and checkpoints:
            # (a partner's fold that leaves the answer to the others ends nothing: not counted)
            steps[str(pending[1])][2] += 1
            d["folds"] += 1
        elif action.kind == kn.CONCEDE_KIND:
            d["concedes"] += 1
        elif action.kind == kn.DECIDE_KIND:
            d["one_team"][4 if action.play_on else 5] += 1
        hand_done = side_done = False
        for cp in checkpoints:
            if cp["event"] == "side_bet":  # settled (or credited at the end of the hand, GH6)
                side_done = True
                slot = d["side_bets"][cp["bet"]]
                slot[0] += 1
                slot[4] += cp["points"]
                d["points"][cp["winner"]] += cp["points"]
                if cp["accepted"]:
                    slot[1] += 1
                    slot[3] += cp["points"]
                    if cp["winner"] == m.rules.team_of[self._mao]:
                        slot[2] += 1
                if len(slot) > 5:  # a flor: contested unless its one song went unanswered
                    slot[5] += int(cp["accepted"] or len(cp["calls"]) > 1
                                   or cp["calls"][0] != _first_call(m.rules, cp["bet"]))
                    if cp["winner"] == m.rules.team_of[self._mao]:
                        slot[6] += 1
            elif cp["event"] == "round":
                self._rounds.append(cp["winner"])
            elif cp["event"] == "hand":
                hand_done = True
                self._end_hand(cp["winner"], cp["points"])
            elif cp["event"] == "game":
                if not hand_done and side_done:  # a side bet won it mid-hand (G46)
                    self._end_hand(None, 0, finished=False)
                elif not hand_done:  # a forbidden raise lost the game at once (P5, M5, M6)
                    d["forfeits"] += 1
                    self._end_hand(cp["winner"], 0, finished=False)
                d["games"] += 1
                d["games_won"][cp["winner"]] += 1
                d["hands_per_game"].append(self._game_hands)
                self._game_hands = 0
            elif cp["event"] == "match":
                d["winner"] = cp["winner"]
        if m.hand_number != hand_number:
            self._start_hand()

    def _end_hand(self, winner: int | None, points: int, finished: bool = True) -> None:
        d = self.data
        if finished:
            d["hands_finished"] += 1
        if winner is not None:
            d["points"][winner] += points
            d["hands_won"][winner] += 1
        if len(self._rounds) == self.match.rules.cards_per_player and not any(
                r is not None for r in self._rounds):
            d["all_tied"] += 1
        if self._special != NORMAL:
            if self._special_team is not None:
                slot = 3 if winner is None else (1 if winner == self._special_team else 2)
                d["one_team"][slot] += 1
            else:
                both = d["both_teams"]
                both[len(both) - 1 if winner is None else 1 + winner] += 1


def simulate_match(variant: str, rules: Rules, run_seed: int, index: int,
                   bots: Sequence[str], logs: str | None = None) -> Tally:
    """Play match ``index`` of a run and return its tally (and write its log under ``logs``,
    whose header names the variant ``variant``).

    The match's deals come from :func:`match_seed`; its first dealer is ``index % players``
    (so that no team always has the first mão); its bots are seeded from the match seed."""
    seed = match_seed(run_seed, index)
    match = Match(rules, seed=seed, dealer=index % rules.players)
    players = [make_bot(name, rules, bot_seed(seed, s)) for s, name in enumerate(bots)]
    tally = _Tally(match)
    if logs is None:
        play_match(match, players, on_move=tally)
    else:
        out = io.StringIO()
        recorder = Recorder(match, out, variant=variant, players=list(bots),
                            meta={"tool": "truco simulate", "run_seed": run_seed,
                                  "match": index + 1})
        play_match(match, players, recorder=recorder, on_move=tally)
        atomic_write_text(Path(logs) / log_name(index), out.getvalue())
    faults = bot_faults(players, bots)
    if faults:  # a bot over the protocol failed (each fault told on standard error)
        tally.data["bot_faults"] = faults
    return tally.data


def bot_faults(bots: Sequence[Bot], names: Sequence[str], into: Faults | None = None) -> Faults:
    """The faults the bots of a match committed (a bot over the protocol keeps them in its
    ``faults``), counted by kind under each seat's bot name, added to ``into``.

    >>> bot_faults([make_bot("random", resolve_rules("paulista"))], ["random"])
    {}
    """
    out: Faults = {} if into is None else into
    for bot, name in zip(bots, names, strict=True):
        for fault in getattr(bot, "faults", ()):
            kinds = out.setdefault(name, {})
            kinds[fault["kind"]] = kinds.get(fault["kind"], 0) + 1
    return out


def add_faults(total: Faults, more: Faults) -> Faults:
    """``more`` added to ``total`` (which is returned), kinds sorted by name.

    >>> add_faults({"cmd:a": {"timeout": 1}}, {"cmd:a": {"garbage": 2, "timeout": 1}})
    {'cmd:a': {'garbage': 2, 'timeout': 2}}
    """
    for name, kinds in more.items():
        mine = total.setdefault(name, {})
        for kind, n in kinds.items():
            mine[kind] = mine.get(kind, 0) + n
        total[name] = dict(sorted(mine.items()))
    return total


def log_name(index: int) -> str:
    """The file name of match ``index``'s log: ``match-000001.jsonl`` for index 0."""
    return f"match-{index + 1:06d}.jsonl"


def is_log_name(name: str) -> bool:
    """Whether ``name`` is one that :func:`log_name` gives (what ``--logs --force`` may
    replace).

    >>> is_log_name("match-000001.jsonl"), is_log_name("base.yaml")
    (True, False)
    """
    return _LOG_NAME.fullmatch(name) is not None


_LOG_NAME = re.compile(r"match-[0-9]{6,}\.jsonl")


def looks_like_name(variant: str) -> bool:
    """Whether ``variant`` names a shipped variant rather than a file (as :func:`resolve_rules`
    reads it)."""
    return not looks_like_path(variant)


#: Matches per chunk of a local pool at most (a Dask chunk: Executor.chunk_scale times more).
CHUNK = 50

#: One chunk of a run: the variant, the header's name for it, the run seed, the match indices
#: (start, stop), the bots by seat and the folder of the logs (absolute) or None.
Job = tuple[VariantRef, str, int, int, int, tuple[str, ...], str | None]


def _run_chunk(job: Job) -> list[Tally]:
    """Play one chunk of a run (in a worker: the rules are loaded once per process)."""
    ref, header, run_seed, start, stop, bots, logs = job
    rules = cached_rules(ref)
    return [simulate_match(header, rules, run_seed, i, bots, logs) for i in range(start, stop)]


def run_simulation(variant: str, *, games: int, seed: int, bots: Sequence[str], jobs: int = 1,
                   logs: str | os.PathLike[str] | None = None,
                   progress: Progress | None = None,
                   on_tally: Callable[[Tally], None] | None = None,
                   executor: Executor | None = None) -> dict[str, Any]:
    """Play ``games`` matches of ``variant`` (a shipped name or a file) and return their
    statistics (see :func:`statistics`). The result is the same for any ``jobs``.

    ``bots``: as :func:`seat_bots` reads them. ``logs``: a folder that receives
    ``match-000001.jsonl``... (created if missing). ``progress(done, total)`` is called as
    matches finish. ``on_tally(tally)`` is called with each match's tally in match order,
    whatever ``jobs`` (``truco compare`` accumulates its per-match moments from them).
    ``executor``: where the chunks of matches run (:mod:`engine.cluster`, a Dask cluster for
    one), instead of ``jobs`` processes on this machine; the result is the same. Where a bot
    over the protocol failed, ``bot_faults`` counts its faults (:func:`bot_faults`)."""
    rules = resolve_rules(variant)
    names = tuple(seat_bots(bots, rules.players, rules.team_of))
    for name in set(names):
        make_bot(name, rules)  # fail early on an unknown name
    logs_dir = None
    header = variant
    if logs is not None:
        Path(logs).mkdir(parents=True, exist_ok=True)
        logs_dir = os.path.abspath(logs)  # a worker's working folder may be another
        header = header_variant(variant, logs_dir)
    ref = VariantRef.of(rules)
    tallies: list[Tally] = []
    done = 0

    def finished(job: Job, _chunk: list[Tally]) -> None:
        nonlocal done
        done += job[4] - job[3]
        if progress is not None:
            progress(done, games)

    with contextlib.ExitStack() as stack:
        if executor is None:
            workers = jobs
            executor = stack.enter_context(local_executor(
                jobs, len(range(0, games, chunk_size(games, jobs, CHUNK, per_worker=8)))))
        else:
            workers = executor.workers
        work = [(ref, header, seed, a, b, names, logs_dir)
                for a, b in spans(games, workers, CHUNK, per_worker=8,
                                  scale=executor.chunk_scale)]
        for chunk in ordered(_run_chunk, work, executor, finished):  # in match order
            tallies.extend(chunk)
            if on_tally is not None:
                for tally in chunk:
                    on_tally(tally)
    stats = statistics(rules, tallies, seed=seed, bots=names)
    faults: Faults = {}
    for tally in tallies:
        add_faults(faults, tally.get("bot_faults", {}))
    if faults:
        stats["bot_faults"] = dict(sorted(faults.items()))
    return stats


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for ``z=1.96``).

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _ratio(a: int | float, b: int | float) -> float:
    return round(a / b, 4) if b else 0.0


def _first_call(rules: Rules, bet: str) -> str:
    """The first call of the side bet named ``bet`` (a flor's plain song)."""
    return next(b.calls[0] for b in rules.side_bets if b.name == bet)


def statistics(rules: Rules, tallies: Sequence[Tally], *, seed: int,
               bots: Sequence[str]) -> dict[str, Any]:
    """Add up match tallies (in order) into the run's statistics, a JSON-ready dict:
    ``teams`` (matches, games, hands and points won, win rate with its 95% Wilson interval),
    ``hands``, ``games``, ``hands_per_game``, ``points_per_hand``, ``ladder`` (per step: how
    often raised to, accepted, folded), ``folds``, ``special_hands``, ``all_tied_hands``,
    ``forfeited_games``, ``out_of_turn_raises`` (raises made while another seat's card was
    awaited, M3); ``concedes`` (hands a player gave up) in a variant with concede; and
    ``side_bets`` in a variant with side bets (G22-G32): per bet, how often it was called
    (and settled), accepted or refused, how often the mão's team won an accepted one, the
    points it paid and their average (the team points above include them); of a flor also
    how often it was sung, contested (another team's holder sang) and won by the mão's team,
    contested or not (G38-G40)."""
    n = len(tallies)

    def total(key: str) -> int:
        return sum(t[key] for t in tallies)

    hands = total("hands")
    games = total("games")
    per_game = [h for t in tallies for h in t["hands_per_game"]]
    points = _sums(tallies, "points", rules.teams)
    folds = total("folds")
    all_tied = total("all_tied")
    out: dict[str, Any] = {
        "variant": rules.name,
        "variant_sha256": rules.fingerprint,
        "seed": seed,
        "bots": list(bots),
        "matches": n,
        "teams": _teams(rules, tallies, bots, hands, points),
        "games": games,
        "hands": hands,
        "hands_per_game": {
            "mean": _ratio(sum(per_game), len(per_game)),
            "min": min(per_game, default=0), "max": max(per_game, default=0)},
        "points_per_hand": _ratio(sum(points), hands),
        "ladder": _ladder(rules, tallies, hands),
        "folds": {"hands": folds, "rate": _ratio(folds, hands)},
        "special_hands": _special_hands(rules, tallies, hands),
        "all_tied_hands": {"hands": all_tied, "rate": _ratio(all_tied, hands)},
        "forfeited_games": total("forfeits"),
        "out_of_turn_raises": {"raises": total("out_of_turn_raises"),
                               "per_hand": _ratio(total("out_of_turn_raises"), hands)},
    }
    if rules.concede:
        concedes = total("concedes")
        out["concedes"] = {"hands": concedes, "rate": _ratio(concedes, hands)}
    if rules.side_bets:
        out["side_bets"] = _side_bets(rules, tallies, hands)
    return out


def _sums(tallies: Sequence[Tally], key: str, size: int) -> list[int]:
    """The tallies' ``key`` lists added up, entry by entry (the first ``size``)."""
    return [sum(t[key][i] for t in tallies) for i in range(size)]


def _teams(rules: Rules, tallies: Sequence[Tally], bots: Sequence[str], hands: int,
           points: list[int]) -> list[dict[str, Any]]:
    """The statistics' ``teams``: per team, its seats and bots, matches won (with the win
    rate's 95% Wilson interval), games, hands and ``points`` won."""
    n = len(tallies)
    matches_won = [sum(1 for t in tallies if t["winner"] == team) for team in range(rules.teams)]
    games_won = _sums(tallies, "games_won", rules.teams)
    hands_won = _sums(tallies, "hands_won", rules.teams)
    teams = []
    for team in range(rules.teams):
        seats = [s for s, t in enumerate(rules.team_of) if t == team]
        label = "+".join(dict.fromkeys(bots[s] for s in seats))
        lo, hi = wilson(matches_won[team], n)
        teams.append({
            "team": team, "seats": seats, "bots": label,
            "matches_won": matches_won[team], "match_win_rate": _ratio(matches_won[team], n),
            "match_win_ci95": [round(lo, 4), round(hi, 4)],
            "games_won": games_won[team], "hands_won": hands_won[team],
            "points": points[team], "points_per_hand": _ratio(points[team], hands),
        })
    return teams


def _ladder(rules: Rules, tallies: Sequence[Tally], hands: int) -> list[dict[str, Any]]:
    """The statistics' ``ladder``: per step, how often raised to, accepted, folded."""
    ladder = []
    for step in rules.ladder:
        reached, accepted, folded = (sum(t["steps"][str(step.value)][i] for t in tallies)
                                     for i in range(3))
        ladder.append({
            "value": step.value, "name": step.name, "reached": reached,
            "reached_per_hand": _ratio(reached, hands), "accepted": accepted,
            "accept_rate": _ratio(accepted, reached), "folded": folded,
        })
    return ladder


def _special_hands(rules: Rules, tallies: Sequence[Tally], hands: int) -> dict[str, Any]:
    """The statistics' ``special_hands``: the one-team and the both-teams special hand."""
    one = _sums(tallies, "one_team", 6)
    both = _sums(tallies, "both_teams", rules.teams + 2)
    one_name, one_on = _names(rules, True)
    both_name, both_on = _names(rules, False)
    return {
        "one_team": {
            "name": one_name, "enabled": one_on,
            "hands": one[0], "rate": _ratio(one[0], hands),
            "won_by_team_at_score": one[1], "won_by_other_team": one[2], "nobody": one[3],
            "decided_play": one[4], "decided_fold": one[5]},
        "both_teams": {
            "name": both_name, "enabled": both_on,
            "hands": both[0], "rate": _ratio(both[0], hands),
            "won": both[1:-1], "nobody": both[-1]},
    }


def _side_bets(rules: Rules, tallies: Sequence[Tally], hands: int) -> list[dict[str, Any]]:
    """The statistics' ``side_bets``: per bet, how often called, accepted, refused, won by the
    mão's team, the points it paid; of a flor also sung, contested (G38-G40)."""
    bets = []
    for bet in rules.side_bets:
        settled, accepted, mao, acc_points, points = (
            sum(t["side_bets"][bet.name][i] for t in tallies) for i in range(5))
        bets.append({
            "bet": bet.name, "called": settled, "called_per_hand": _ratio(settled, hands),
            "accepted": accepted, "accept_rate": _ratio(accepted, settled),
            "refused": settled - accepted, "won_by_mao_team": mao,
            "mao_team_rate": _ratio(mao, accepted),
            "points": points, "average_points": _ratio(points, settled),
            "average_accepted_points": _ratio(acc_points, accepted)})
        if bet.kind == kn.FLOR_KIND:  # G38-G40: sung, contested, won by the mão's team
            contested, mao_all = (sum(t["side_bets"][bet.name][i] for t in tallies)
                                  for i in (5, 6))
            bets[-1].update({"sung": settled, "contested": contested,
                             "contest_rate": _ratio(contested, settled),
                             "won_by_mao_team_any": mao_all,
                             "mao_team_rate_any": _ratio(mao_all, settled)})
    return bets
