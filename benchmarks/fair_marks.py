"""Do ``truco analyze``'s fair marks recommend moves that lose against an opponent who answers by
his own cards? (issue 44: "at most 1 in 20"). ``python -m benchmarks.fair_marks [--positions N]
[--seed S] [--matches M]``.

**Positions.** Seeded one-on-one matches (``one-on-one``: Paulista, one against one), the seats
played by the heuristic bot in even matches and by the sound player
(:class:`engine.bots.sound.SoundBot`) in odd ones (match ``i`` seeded ``S * 100003 + i``, its
seats ``derive_seed(match seed, seat)``); every decision of rounds 2 and 3 of every hand, the
first ``N`` of them (round 1 is left out: a three-card hand of each side makes the exact value
below about a thousand times dearer).

**Analysis.** Each decision is analysed as ``truco analyze`` analyses it at its default
settings: :func:`engine.analysis.value_decision` (200 playouts, adaptive), seeded as a log's
decision would be (:func:`engine.analysis.run.decision_seed` of ``--seed``, a header naming the
variant, the match's seed and its players, and the move's place in the match).

**The exact value against an opponent who answers by his own cards**, of a move ``a`` of seat
``S`` (:class:`FairExact`), for ``S``'s team: the chance to win the match (the win table,
:class:`engine.bots.winchance.WinChance`, at the hand's end; 1 or 0 if the match ends), the mean
over **every** deal of the cards ``S`` has not seen (the opponent's hand: each set of cards
among those ``S`` has not seen equally likely, enumerated) of the hand played out after ``a``
by this policy, for both seats:

- **cards** by a stated rule, face up: :func:`engine.bots.playout.greedy` (the lowest card that
  wins the round, else the lowest; the strongest when leading), which reads only the seat's own
  cards and the table;
- **raises and answers** exactly by what the deciding seat knows: at his turn a seat chooses
  between its card (as above) and each raise it may make, and answering a raise between
  accepting, folding and raising back, by the greatest *expected* chance to win the match for
  its team, the expectation over every hand the other seat may hold (uniform over the cards
  the deciding seat has not seen, the other's face-up cards known: beliefs are not updated by
  the other's raises or answers, no bluff is read), the rest of the hand by this same policy;
  ties go to the move offered first (the card before a raise, accept before fold).

So the opponent accepts a raise when, averaged over the seat's possible cards, accepting is
worth more to him than folding, knowing how both will play on. This value depends only on the
seat's information (its cards and the table), as a fair value should. It is computed exactly:
the cards are grouped by strength (suits matter in Paulista only through the manilhas, which
have strengths of their own), a hand is a multiset of strengths weighted by the number of
card sets it stands for, and every (hand, hand, moves so far) met is valued once.

A covered card of the decision (P7) is valued too: the other seat does not see it, so to him
it is any card he has not seen (his beliefs count it among them), while the seat knows it.
Left out, and counted: the decisions of a hand where a card was played covered before them
(their values would need the covering seat's choice in every hand the other thinks possible).

**Report** (stdout, markdown; deterministic for a seed): the decisions analysed, the fair marks,
the marks whose recommended move is worse than the played one by the exact value (by more than
1e-9), the rate with its 95% Wilson interval, and the same per kind of recommended and of
played move, per round, per mark, per bot, and by the recommended move's kind, the round and
whether the seat's team won round 1; and how many marks recommend a move that is not an exact
best. With ``--progress``, each decision's result on stderr as it comes (a run cut short is
the run of ``--positions`` the decisions done: they come in order).

**The same positions after a change.** Half the matches are played by the sound player, the
playouts' policy: a change to it deals other positions. ``--save-positions FILE`` writes the
decisions made (a pickle) and ``--load-positions FILE`` measures those instead (their first
``--positions``), so a change is measured before and after on the same decisions.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import pickle
import sys
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from engine import Match
from engine.actions import Action
from engine.analysis import DEFAULT_PLAYOUTS, Decision, decision_at, value_decision
from engine.analysis.run import Job, decision_seed
from engine.bots.base import Bot, choose_for, derive_seed, movers
from engine.bots.heuristic import HeuristicBot
from engine.bots.playout import greedy, hand_over
from engine.bots.sound import SoundBot
from engine.bots.winchance import win_chance
from engine.cards import card_name
from engine.cluster import VariantRef
from engine.moves.names import ACCEPT_KIND, FOLD_KIND, PLAY_KIND, RAISE_KIND
from engine.position import build
from engine.rules import Rules
from engine.state import PLAY

VARIANT = "one-on-one"
#: An abstract move: a card by its strength ``("p", seat, strength)``, or any other move.
Move = tuple[str, int, int] | Action
#: The most matches :class:`FairExact` keeps (about 1.2 KB each).
KEPT = 400_000
#: A hand as the sorted strengths of its cards.
Hand = tuple[int, ...]


class Unsupported(Exception):
    """A position this measure does not value (a card covered before it: the module
    docstring)."""


class FairExact:
    """Exact values of a decision's moves against an opponent who answers by his own cards
    (the module docstring), in a two-seat variant. ``position`` is the match just before the
    decision (:meth:`engine.game.Match.position`), ``seat`` the seat deciding."""

    def __init__(self, rules: Rules, position: dict[str, Any], seat: int) -> None:
        if rules.players != 2 or rules.teams != 2:
            raise ValueError("FairExact values two-seat variants only")
        self.rules = rules
        self.seat = seat
        self.position = dict(position, rng=None)
        base = build(rules, self.position, trusted=True)
        self._strength = {card_name(c): base.hand.strength[c] for c in rules.deck}
        played = [p for r in position["rounds"] for p in r["cards"]]
        played += position["round"]["cards"]
        if any(p["covered"] for p in played):
            raise Unsupported("a card was played covered before the decision")
        public = {p["card"] for p in played} | {x["card"] for x in position["shown"]}
        public.add(position["vira"])
        #: strength -> the cards of that strength nobody has seen face up (hands included)
        self._hidden: dict[int, list[str]] = {}
        for c in rules.deck:
            name = card_name(c)
            if name not in public:
                self._hidden.setdefault(self._strength[name], []).append(name)
        self._played = {s: [p["card"] for p in played if p["seat"] == s] for s in (0, 1)}
        self._size = {s: len(position["hands"][s]) for s in (0, 1)}
        self._win = win_chance(rules)
        self._worlds: dict[tuple[Hand, Hand], Match] = {}
        self._values: dict[tuple[Hand, Hand, tuple[Move, ...]], float] = {}
        self._matches: dict[tuple[Hand, Hand, object], Match] = {}
        self._choices: dict[tuple[int, Hand, tuple[Move, ...]], Move] = {}

    def hand_of(self, cards: Sequence[str]) -> Hand:
        """A hand of cards as its sorted strengths."""
        return tuple(sorted(self._strength[c] for c in cards))

    def abstract(self, m: Match, move: Action) -> Move:
        """``move`` as this search names it: a face-up card by its strength, a covered card
        as ``("c", seat, -1)`` (its strength is its seat's secret: the first of its hand)."""
        if move.kind == PLAY_KIND and move.card is not None:
            if move.covered:
                return ("c", move.seat, -1)
            return ("p", move.seat, m.hand.strength[move.card])
        return move

    def values(self, moves: Sequence[Action],
               wanted: Collection[int] | None = None) -> list[float | None]:
        """Each of ``moves``' exact value for the seat's team (the module docstring); with
        ``wanted``, ``None`` for a covered card whose index is not in it (they cost most)."""
        m = build(self.rules, self.position, trusted=True)
        held = self.position["hands"][self.seat]
        team = self.rules.team_of[self.seat]
        out: list[float | None] = []
        for i, a in enumerate(moves):
            own = self.hand_of(held)
            if a.covered and a.card is not None:
                if wanted is not None and i not in wanted:
                    out.append(None)
                    continue
                rest = list(held)
                rest.remove(card_name(a.card))
                own = (self._strength[card_name(a.card)], *self.hand_of(rest))
            out.append(self._expected(self.seat, own, (self.abstract(m, a),), team))
        return out

    # -- the policy ---------------------------------------------------------------------------
    def _expected(self, seat: int, own: Hand, hist: tuple[Move, ...], team: int) -> float:
        """The mean over the other seat's hands ``seat`` thinks possible of the value of
        ``hist`` for ``team``."""
        total = weight = 0.0
        for other, w in self._beliefs(seat, own, hist):
            pair = (own, other) if seat == 0 else (other, own)
            v = self._value(pair[0], pair[1], hist)
            total += w * (v if team == 0 else 1.0 - v)
            weight += w
        return total / weight

    def _beliefs(self, seat: int, own: Hand, hist: tuple[Move, ...]) -> Iterator[tuple[Hand,
                                                                                       float]]:
        """The other seat's hands (as at the decision) that ``seat`` holding ``own`` thinks
        possible after ``hist``, each with the number of card sets it stands for; a hand whose
        card was played covered has that card first (the other seat does not know it: every
        card it has not seen)."""
        other = 1 - seat
        shown = [h[2] for h in hist if isinstance(h, tuple) and h[1] == other and h[0] == "p"]
        covered = sum(1 for h in hist if isinstance(h, tuple) and h[1] == other and h[0] == "c")
        pool = {s: len(cards) - own.count(s) for s, cards in self._hidden.items()}
        for s in shown:
            pool[s] -= 1
        for rest in combinations_with_replacement(sorted(pool),
                                                  self._size[other] - len(shown) - covered):
            w = 1
            for s in set(rest):
                w *= math.comb(pool[s], rest.count(s))
            if not w:
                continue
            hand = tuple(sorted((*rest, *shown)))
            if not covered:
                yield hand, float(w)
                continue
            for s in sorted(pool):  # one covered card at most: the decision's own move
                left = pool[s] - rest.count(s)
                if left > 0:
                    yield (s, *hand), float(w * left)

    def _value(self, h0: Hand, h1: Hand, hist: tuple[Move, ...]) -> float:
        """Team 0's chance to win the match: seat 0 holding ``h0`` and seat 1 ``h1`` at the
        decision, ``hist`` played since, the rest by the policy."""
        state = state_of(hist)
        at = (h0, h1, state)
        # after a fold the hand's end does not depend on the cards
        key = ((), (), state) if len(state) == 5 and state[4] else at
        got = self._values.get(key)
        if got is not None:
            return got
        m = self._replay(h0, h1, hist, at)
        if hand_over(m):
            v = (float(m.winner == 0) if m.winner is not None
                 else self._win.match(m.score, m.games)[0])
        else:
            seat, options = self._options(m)
            move = self._choose(seat, h0 if seat == 0 else h1, hist, options)
            v = self._value(h0, h1, (*hist, move))
        self._values[key] = v
        return v

    def _options(self, m: Match) -> tuple[int, list[Move]]:
        """The seat to move and what it chooses among: at its turn its card (greedy) and its
        raises; else its legal moves."""
        if m.state == PLAY:
            seat = m.turn
            legal = m.legal_actions(seat)
            card = self.abstract(m, greedy(m, legal))
            return seat, [card, *(a for a in legal if a.kind == RAISE_KIND)]
        seat = movers(m)[0]
        return seat, [self.abstract(m, a) for a in m.legal_actions(seat)]

    def _choose(self, seat: int, own: Hand, hist: tuple[Move, ...],
                options: Sequence[Move]) -> Move:
        key = (seat, own, state_of(hist))
        got = self._choices.get(key)
        if got is None:
            team = self.rules.team_of[seat]
            if len(options) == 1:
                got = options[0]
            else:
                scored = [(self._expected(seat, own, (*hist, o), team), -i)
                          for i, o in enumerate(options)]
                got = options[-max(scored)[1]]
            self._choices[key] = got
        return got

    # -- the worlds ---------------------------------------------------------------------------
    def _world(self, h0: Hand, h1: Hand) -> Match:
        """The match at the decision with seat 0 holding ``h0`` and seat 1 ``h1`` (cards of
        each strength taken in the deck's order, seat 0's first)."""
        found = self._worlds.get((h0, h1))
        if found is None:
            taken = dict.fromkeys(self._hidden, 0)
            hands: list[list[str]] = [[], []]
            for s, held in enumerate((h0, h1)):
                for st in held:
                    hands[s].append(self._hidden[st][taken[st]])
                    taken[st] += 1
            dealt = [self._played[s] + hands[s] for s in (0, 1)]
            found = build(self.rules, dict(self.position, hands=hands, dealt=dealt),
                          trusted=True)
            self._worlds[(h0, h1)] = found
        return found

    def _replay(self, h0: Hand, h1: Hand, hist: tuple[Move, ...],
                key: tuple[Hand, Hand, object]) -> Match:
        """The match after ``hist`` (``key``: its key); not to be changed (kept for the
        positions after it: :data:`KEPT` at most)."""
        m = self._matches.get(key)
        if m is None:
            if not hist:
                return self._world(h0, h1)
            before = hist[:-1]
            m = self._replay(h0, h1, before, (h0, h1, state_of(before))).clone()
            last = hist[-1]
            self._apply(m, last, (h0, h1)[last[1]][0] if isinstance(last, tuple) else -1)
            if len(self._matches) >= KEPT:
                self._matches.clear()
            self._matches[key] = m
        return m

    @staticmethod
    def _apply(m: Match, move: Move, first: int = -1) -> None:
        """Make ``move`` on ``m`` (a covered card: one of strength ``first``)."""
        if isinstance(move, tuple):
            kind, seat, st = move
            if kind == "c":
                st = first
            card = next(c for c in m.hand.hands[seat] if m.hand.strength[c] == st)
            m.apply(Action.play(seat, card, kind == "c"))
        else:
            m.apply(move)


def state_of(hist: tuple[Move, ...]) -> tuple[object, ...]:
    """What of the moves since the decision the rest of the hand depends on: the cards in
    their order, the hand's value, the raise awaiting an answer, the seat that raised last
    and a fold (the order of raises and answers that led there does not matter: the beliefs
    are not updated by them)."""
    cards: list[tuple[int, int]] = []
    value = 0
    pending: tuple[int, int] | None = None
    last = -1
    folded = False
    for move in hist:
        if isinstance(move, tuple):
            cards.append((move[1], move[2]))
        elif move.kind == RAISE_KIND:
            if pending is not None:
                value = pending[1]  # a raise back accepts the raise it answers
            pending = (move.seat, move.value or 0)
            last = move.seat
        elif move.kind == ACCEPT_KIND and pending is not None:
            value, pending = pending[1], None
        else:
            folded = folded or move.kind == FOLD_KIND
            pending = None if folded else pending
            if not folded:
                return (tuple(cards), hist)  # another kind of move: the whole history
    return (tuple(cards), value, pending, last, folded)


# -- the measurement ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Found:
    """One decision of a generated match, with what it needs to be analysed."""

    decision: Decision
    header: dict[str, Any]
    bot: str


def positions(rules: Rules, seed: int, count: int,
              rounds: Sequence[int] = (2, 3)) -> Iterator[Found]:
    """The first ``count`` decisions of ``rounds`` (numbered from 1) of the seeded matches
    (the module docstring)."""
    made = 0
    i = 0
    while made < count:
        match_seed = seed * 100003 + i
        kind = "heuristic" if i % 2 == 0 else "sound"
        i += 1
        m = Match.new(VARIANT, seed=match_seed)
        maker = HeuristicBot if kind == "heuristic" else SoundBot
        bots: list[Bot] = [maker(rules, derive_seed(match_seed, s)) for s in range(m.players)]
        header = {"truco_log": 1, "variant": VARIANT, "seed": match_seed,
                  "players": [f"{kind} {s}" for s in range(m.players)]}
        line = 1
        while not m.is_over and made < count:
            line += 1
            if m.awaiting_deal:
                m.deal_next()
                continue
            seat = movers(m)[0] if m.state != PLAY else m.turn
            move = choose_for(bots[seat], m, seat)
            if m.state not in ("cut", "deal") and m.round.number + 1 in rounds:
                found = decision_at(m, move, line)
                if found is not None:
                    made += 1
                    yield Found(found, header, kind)
            m.apply(move)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``k / n``.

    >>> [round(x, 4) for x in wilson(0, 20)]
    [0.0, 0.1611]
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


@dataclass
class Tally:
    """Marks and bad marks, in all and by group."""

    marks: int = 0
    bad: int = 0
    not_best: int = 0

    def add(self, bad: bool, not_best: bool) -> None:
        self.marks += 1
        self.bad += bad
        self.not_best += not_best

    def row(self, name: str) -> str:
        lo, hi = wilson(self.bad, self.marks)
        rate = self.bad / self.marks if self.marks else 0.0
        return (f"| {name} | {self.marks} | {self.bad} | {rate:.3f} | {lo:.3f}-{hi:.3f} | "
                f"{self.not_best} |")


def first(d: Decision) -> str:
    """Whether the seat's team won, lost or tied round 1."""
    won = d.observation["rounds"][0]
    return ("round 1 tied" if won is None else
            "round 1 won" if won == d.observation["team"] else "round 1 lost")


def kind_of(move: Action) -> str:
    """The kind of a move, as the report groups them."""
    if move.kind == PLAY_KIND:
        return "covered card" if move.covered else "card"
    return move.kind


def judge_one(found: Found, seed: int) -> dict[str, Any]:
    """One decision analysed as ``truco analyze`` does, and, marked, its moves' exact values
    (``exact``: ``None`` where a card covered before it leaves it out; a covered card not
    recommended nor played is not valued)."""
    rules = Match.new(VARIANT).rules
    d = found.decision
    job = Job(VariantRef.of(rules), d, decision_seed(seed, found.header, d.line),
              DEFAULT_PLAYOUTS, False)
    result = value_decision(job)
    out = {"mark": result["mark"], "best": result["best"], "loss": result["loss"],
           "exact": None}
    if result["mark"] is not None:
        with contextlib.suppress(Unsupported):
            out["exact"] = FairExact(rules, d.position, d.seat).values(
                d.moves, {result["best"], d.played})
    return out


def _judged(job: tuple[Found, int]) -> tuple[Found, dict[str, Any]]:
    return job[0], judge_one(*job)


@dataclass
class Results:
    """The tallies of a run, a decision's result at a time (in the positions' order)."""

    tallies: dict[str, Tally] = field(default_factory=lambda: {"all": Tally()})
    decisions: int = 0
    skipped: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, found: Found, r: dict[str, Any]) -> None:
        """One decision's result (:func:`judge_one`)."""
        self.decisions += 1
        if r["mark"] is None:
            return
        d, best, exact = found.decision, r["best"], r["exact"]
        if exact is None or exact[best] is None or exact[d.played] is None:
            self.skipped += 1
            return
        mine, theirs = exact[best], exact[d.played]
        bad = mine < theirs - 1e-9
        not_best = mine < max(v for v in exact if v is not None) - 1e-9
        rnd = d.observation["round"]
        for key in ("all", f"recommended: {kind_of(d.moves[best])}",
                    f"played: {kind_of(d.moves[d.played])}", f"round {rnd}",
                    f"mark: {r['mark']}", f"bot: {found.bot}",
                    f"recommended {kind_of(d.moves[best])}, round {rnd}, {first(d)}"):
            self.tallies.setdefault(key, Tally()).add(bad, not_best)
        if bad and len(self.examples) < 12:
            obs = d.observation
            self.examples.append(
                f"- {found.header['seed']}:{d.line} round {rnd}, score {obs['score']}, worth "
                f"{obs['value']}, cards {obs['hand']}: played `{d.moves[d.played]}` "
                f"({theirs:.4f}), {r['mark']} for `{d.moves[best]}` ({mine:.4f}); fair loss "
                f"{r['loss']}")


def measure(count: int, seed: int, jobs: int = 1, *, rounds: Sequence[int] = (2, 3),
            out: Any = sys.stdout, progress: bool = False,
            found: Sequence[Found] | None = None, source: str = "") -> dict[str, Tally]:
    """Analyse ``count`` decisions of ``rounds`` (the first of ``found`` if given, else
    :func:`positions`) and value their fair marks exactly (on ``jobs`` processes: the same
    output); print the report to ``out`` and return the tallies (``all`` and by group)."""
    rules = Match.new(VARIANT).rules
    chosen = (found[:count] if found is not None
              else positions(rules, seed, count, rounds))
    work = ((f, seed) for f in chosen)
    if jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        results: Iterator[tuple[Found, dict[str, Any]]] = pool.imap(_judged, work)
    else:
        pool, results = None, map(_judged, work)
    got = Results()
    for found, r in results:
        got.add(found, r)
        if progress:
            print(f"{got.decisions} {found.header['seed']}:{found.decision.line} {r['mark']} "
                  f"best={r['best']} played={found.decision.played} exact={r['exact']}",
                  file=sys.stderr, flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    report(out, (count, seed, tuple(rounds)), got, source)
    return got.tallies


def report(out: Any, run: tuple[int, int, tuple[int, ...]], got: Results,
           source: str = "") -> None:
    """The markdown report (the module docstring); ``run``: the positions, the seed and the
    rounds; ``source``: the file the positions were loaded from, if they were."""
    count, seed, rounds = run
    tallies, decisions, skipped, examples = (got.tallies, got.decisions, got.skipped,
                                             got.examples)
    which = ("round " if len(rounds) == 1 else "rounds ") + " and ".join(map(str, rounds))
    option = "" if rounds == (2, 3) else " --rounds " + ",".join(map(str, rounds))
    option += f" --load-positions {source}" if source else ""
    t = tallies["all"]
    lo, hi = wilson(t.bad, t.marks)
    rate = t.bad / t.marks if t.marks else 0.0
    print(f"# Fair marks against an opponent who answers by his own cards ({VARIANT})\n", file=out)
    print(f"`python -m benchmarks.fair_marks --positions {count} --seed {seed}{option}`: "
          f"{decisions} decisions of {which} analysed ({DEFAULT_PLAYOUTS} playouts), "
          f"{t.marks + skipped} fair marks, {skipped} left out (a card covered before them), "
          f"{t.marks} valued exactly.\n", file=out)
    print(f"**Marks recommending a move worse than the one played: {t.bad} of {t.marks} = "
          f"{rate:.3f} (95% interval {lo:.3f}-{hi:.3f}).**\n", file=out)
    print("| group | marks | worse than played | rate | 95% interval | not an exact best |",
          file=out)
    print("|---|---|---|---|---|---|", file=out)
    for name in sorted(tallies, key=lambda k: (k != "all", k)):
        print(tallies[name].row(name), file=out)
    if examples:
        print("\nMarks whose recommended move is worse (match seed:line, exact values):\n",
              file=out)
        print("\n".join(examples), file=out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--positions", type=int, default=400,
                    help="decisions of rounds 2 and 3 to analyse (default 400)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="processes (the same output)")
    ap.add_argument("--progress", action="store_true",
                    help="each decision's result on stderr as it comes")
    ap.add_argument("--rounds", default="2,3", help="the rounds whose decisions are taken")
    ap.add_argument("--save-positions", metavar="FILE",
                    help="write the decisions made (a pickle) to FILE, then measure")
    ap.add_argument("--load-positions", metavar="FILE",
                    help="measure the decisions of FILE (--save-positions) instead of making "
                         "them: the same positions after a change of the bots that play them")
    args = ap.parse_args(argv)
    try:
        rounds = tuple(int(r) for r in args.rounds.split(","))
    except ValueError:
        ap.error(f"--rounds: expected round numbers like 2,3, found {args.rounds!r}")
    found: list[Found] | None = None
    if args.load_positions:
        with open(args.load_positions, "rb") as f:
            found = pickle.load(f)  # noqa: S301 - the benchmark's own file
    elif args.save_positions:
        rules = Match.new(VARIANT).rules
        found = list(positions(rules, args.seed, args.positions, rounds))
    if args.save_positions and found is not None:
        with open(args.save_positions, "wb") as f:
            pickle.dump(found, f)
    measure(args.positions, args.seed, args.jobs, rounds=rounds, progress=args.progress,
            found=found, source=args.load_positions or "", out=sys.stdout)
    return 0


if __name__ == "__main__":
    # through the module's own name, so that a saved file names its classes there
    from benchmarks.fair_marks import main as _main

    sys.exit(_main())
