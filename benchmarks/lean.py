"""A lean hand-written engine of Truco Paulista, the yardstick of issue 45: ``python -m
benchmarks.lean [--matches N] [--rounds R] [--check N]``.

Issue 45 asks the rules-as-data engine to be as fast as code written for one variant. This is
that code: the shipped ``paulista`` variant (C1-C11, P1-P9 as docs/rules.md reads them) in
one small class, written as a competent programmer would for speed without tricks: cards as
ints, a strength table per vira, moves as tuples, no machine, no variant files. It plays
**the same games** as ``Match.new("paulista", seed=i)`` under the same random driver (the
seeded deal of docs/log-format.md, its own SplitMix64; the legal moves listed in the engine's
order; a move chosen by ``SplitMix64(1_000_003 + i).bounded(len(legal))``), which
``--check`` proves move by move.

What it prints, the two in alternation in one process (``time.process_time``, a batch of
``--matches`` matches each, ``--rounds`` pairs): hands per CPU second of each and the ratio
engine/lean, median and best, as issue 45 states its targets (random playouts at least 1.0x
the lean engine, pure). Instruction counts: ``python -m benchmarks.icount`` counts the engine;
``valgrind --tool=callgrind python -m benchmarks.lean --only lean`` counts this.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from engine import Match
from engine.shuffle import SplitMix64

#: A move: (kind, seat) for an answer, ("raise", seat, value), ("play", seat, card, covered).
Move = tuple[Any, ...]

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15

RANKS = "A234567QJK"  # the deck's ranks in the canonical order (log-format: A 2 .. 7 J Q K)
CANON_RANKS = "A234567JQK"
SUITS = "cdhs"  # canonical suit order
ORDER = "4567QJKA23"  # P3: weakest first
MANILHA_SUITS = "dshc"  # P2: ouros < espadas < copas < paus
COVERED = -1
LADDER = {1: 3, 3: 6, 6: 9, 9: 12}  # C8: the next step from each value
TARGET = 12

#: Cards 0..39 in the canonical order (suit, then rank): their rank's and suit's letters.
NAMES = [r + s for s in SUITS for r in CANON_RANKS]
RANK_OF = [ORDER.index(n[0]) for n in NAMES]
SUIT_OF = [MANILHA_SUITS.index(n[1]) for n in NAMES]
#: By the vira's rank: each card's strength (normal cards 0-9, manilhas 10-13 by suit).
STRENGTHS = [[10 + SUIT_OF[c] if RANK_OF[c] == (v + 1) % 10 else RANK_OF[c] for c in range(40)]
             for v in range(10)]


class Rng:
    """SplitMix64 (docs/log-format.md), one draw at a time."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def bounded(self, n: int) -> int:
        limit = MASK + 1 - ((MASK + 1) % n)
        while True:
            self.state = s = (self.state + GAMMA) & MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            if z < limit:
                return z % n


def plain_deal(rng: Rng, dealer: int) -> tuple[list[list[int]], int]:
    """The seeded deal: Fisher-Yates from the canonical order, the mão's three cards first."""
    cards = list(range(40))
    for i in range(39, 0, -1):
        j = rng.bounded(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    hands: list[list[int]] = [[], [], [], []]
    for k in range(4):
        hands[(dealer + 1 + k) % 4] = cards[3 * k:3 * k + 3]
    return hands, cards[12]


class Lean:
    """One match of Truco Paulista, four seats, seats 0 and 2 a team (C1)."""

    __slots__ = ("rng", "dealer", "score", "over", "hands", "strength", "value",
                 "last_raiser", "pending", "answering", "special", "turn", "leader",
                 "round_cards", "results", "hand_number")

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)
        self.dealer = 0
        self.score = [0, 0]
        self.over = False
        self.hand_number = 0
        self.new_hand()

    def new_hand(self) -> None:
        self.hands, vira = plain_deal(self.rng, self.dealer)
        self.hand_number += 1
        self.strength = STRENGTHS[RANK_OF[vira]]
        a, b = self.score
        self.special = a >= 11 or b >= 11  # P5 mão de 11, P6 mão de ferro: worth 3, no raise
        self.value = 3 if self.special else 1
        self.last_raiser = -1  # the team that raised last (C10), none yet
        self.pending = 0  # the value a raise waits to be answered at (0: none)
        self.turn = self.leader = (self.dealer + 1) % 4
        self.round_cards: list[tuple[int, int, bool]] = []
        self.results: list[int] = []  # each round's winning team, -1 tied

    def legal(self) -> list[Move]:
        out: list[Move] = []
        if self.pending:
            raiser_team = self.last_raiser
            nxt = LADDER.get(self.pending)
            for s in (1, 3) if raiser_team == 0 else (0, 2):
                out.append(("accept", s))
                out.append(("fold", s))
                if nxt is not None:
                    out.append(("raise", s, nxt))
            return out
        t = self.turn
        cards = self.hands[t]
        for c in cards:
            out.append(("play", t, c, False))
        if len(self.results) >= 1:  # P7: covered from round 2
            for c in cards:
                out.append(("play", t, c, True))
        if not self.special and t % 2 != self.last_raiser:
            nxt = LADDER.get(self.value)
            if nxt is not None:
                out.append(("raise", t, nxt))
        return out

    def apply(self, move: Move) -> None:
        kind = move[0]
        if kind == "play":
            self.play(move[1], move[2], move[3])
        elif kind == "raise":
            seat = move[1]
            if self.pending:  # a raise back accepts the raise it answers (C9)
                self.value = self.pending
            self.pending = move[2]
            self.last_raiser = seat % 2
        elif kind == "accept":
            self.value = self.pending
            self.pending = 0
        else:  # fold: the raisers win the hand at its value before the raise
            self.pending = 0
            self.end_hand(self.last_raiser, self.value)

    def play(self, seat: int, card: int, covered: bool) -> None:
        self.hands[seat].remove(card)
        cards = self.round_cards
        cards.append((seat, card, covered))
        if len(cards) < 4:
            self.turn = (seat + 1) % 4
            return
        strength = self.strength
        best, tops = -2, []
        for s, c, cov in cards:  # C5: the strongest card; P7: a covered card is nothing
            v = COVERED if cov else strength[c]
            if v > best:
                best, tops = v, [s]
            elif v == best:
                tops.append(s)
        team = tops[0] % 2
        if best != COVERED and all(s % 2 == team for s in tops):
            winner, leader = team, tops[0]
        else:  # C6 pinned: a tie, its leader leads again
            winner, leader = -1, self.leader
        results = self.results
        results.append(winner)
        decided, hand_winner = _hand_result(results)
        if decided:
            self.end_hand(hand_winner, self.value)
            return
        self.round_cards = []
        self.leader = self.turn = leader

    def end_hand(self, team: int, points: int) -> None:
        if team >= 0:
            self.score[team] += points
            if self.score[team] >= TARGET:  # C11, P9: one game of 12
                self.over = True
                return
        self.dealer = (self.dealer + 1) % 4
        self.new_hand()


def _hand_result(results: list[int]) -> tuple[bool, int]:
    """C7, P8: whether the hand is decided by its rounds, and for whom (-1: nobody)."""
    w0 = results.count(0)
    w1 = results.count(1)
    left = 3 - len(results)
    if w0 != w1:
        lead, lag = (0, 1) if w0 > w1 else (1, 0)
        wl, wg = max(w0, w1), min(w0, w1)
        if wg + left < wl:
            return True, lead
        if wg + left > wl or (wg and results.index(lag) < results.index(lead)):
            return False, -1
        return True, lead
    if left:
        return False, -1
    if not w0:
        return True, -1  # P8: all tied, nobody scores
    return True, 0 if results.index(0) < results.index(1) else 1


def name(move: Move) -> str:
    """A move as the engine writes it (``str(Action)``): the check compares these."""
    kind, seat = move[0], move[1]
    if kind == "play":
        return f"play {seat} {NAMES[move[2]]}" + (" covered" if move[3] else "")
    if kind == "raise":
        return f"raise {seat} {move[2]}"
    return f"{kind} {seat}"


# -- the drivers ------------------------------------------------------------------------------
def play_lean(matches: int, start: int = 0) -> int:
    """``matches`` random matches of the lean engine from seed ``start``: their hands. It and
    :func:`play_engine` are the same loop written out twice, each over its engine's own
    calls, so that no adapter is timed with either."""
    hands = 0
    for i in range(start, start + matches):
        m = Lean(i)
        rng = SplitMix64(1_000_003 + i)
        while not m.over:
            legal = m.legal()
            m.apply(legal[rng.bounded(len(legal))])
        hands += m.hand_number
    return hands


def play_engine(matches: int, start: int = 0) -> int:
    hands = 0
    for i in range(start, start + matches):
        m = Match.new("paulista", seed=i)
        rng = SplitMix64(1_000_003 + i)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[rng.bounded(len(legal))])
        hands += m.hand_number
    return hands


def check(matches: int) -> int:
    """Play ``matches`` seeded random matches on both engines, comparing the legal moves at
    every step, the move chosen, the hands and the final score; the first difference is told."""
    for i in range(matches):
        m, lean = Match.new("paulista", seed=i), Lean(i)
        rng = SplitMix64(1_000_003 + i)
        step = 0
        while not m.is_over:
            ours = [str(a) for a in m.legal_actions()]
            theirs = [name(a) for a in lean.legal()]
            if ours != theirs:
                print(f"match {i} step {step}: engine {ours}, lean {theirs}", file=sys.stderr)
                return 1
            k = rng.bounded(len(ours))
            m.apply(m.legal_actions()[k])
            lean.apply(lean.legal()[k])
            step += 1
        if not lean.over or list(m.score) != lean.score or m.hand_number != lean.hand_number:
            print(f"match {i}: engine {m.score} in {m.hand_number} hands, lean {lean.score} "
                  f"in {lean.hand_number}", file=sys.stderr)
            return 1
    print(f"{matches} matches: the same games, move by move")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=300, help="matches a batch")
    ap.add_argument("--rounds", type=int, default=9, help="pairs of batches")
    ap.add_argument("--check", type=int, default=0, help="compare N matches move by move")
    ap.add_argument("--only", choices=("lean", "engine"), help="play one side only (profiling)")
    args = ap.parse_args(argv)
    if args.check:
        return check(args.check)
    if args.only:
        hands = (play_lean if args.only == "lean" else play_engine)(args.matches)
        print(hands)
        return 0
    play_lean(20)
    play_engine(20)
    ratios: list[float] = []
    rates: dict[str, list[float]] = {"engine": [], "lean": []}
    for r in range(args.rounds):
        got = {}
        for who, fn in (("engine", play_engine), ("lean", play_lean))[:: 1 if r % 2 else -1]:
            t0 = time.process_time()
            hands = fn(args.matches, 1000 * (r + 1))
            got[who] = hands / (time.process_time() - t0)
            rates[who].append(got[who])
        ratios.append(got["engine"] / got["lean"])
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"hands per CPU second, median of {args.rounds}: engine {med['engine']:,.0f}, "
          f"lean {med['lean']:,.0f}")
    print(f"engine / lean: {statistics.median(ratios):.2f}x median "
          f"[{max(rates['engine']) / max(rates['lean']):.2f}x best against best]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
