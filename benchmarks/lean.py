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

It writes the same log too (``Recorder``'s bytes: ``--check`` compares them) and verifies a
log as the engine's verifier does (every line read as JSON, every move legal, every
checkpoint given what the rules say, the match over at the end). ``--modes`` chooses what is
timed: ``play`` (random playouts), ``log`` (the same, each match's log written; the lean
engine makes each move's line once and each checkpoint's by an f-string), ``log-plain`` (the
lean engine's lines by ``json.dumps``, as a writer without tricks would) and ``verify`` (the
engine's logs of those matches, written beforehand, verified in-process by each).

What it prints, the two in alternation in one process (``time.process_time``, a batch of
``--matches`` matches each, ``--rounds`` pairs): hands per CPU second of each and the ratio
engine/lean, median and best, as issue 45 states its targets (random playouts at least 1.0x
the lean engine, pure; the log and verification at least 1.2x). Instruction counts:
``python -m benchmarks.icount`` counts the engine; ``valgrind --tool=callgrind python -m
benchmarks.lean --only lean`` counts this. An older engine is measured by running this file
with its checkout first on ``PYTHONPATH`` (the lean engine is the same code on both sides).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from engine import Match
from engine.logformat import Recorder
from engine.replay import verify_bytes
from engine.shuffle import SplitMix64

try:
    from engine import BUILD
except ImportError:  # an engine from before it said which build it is (25f4e5b)
    import engine.game

    BUILD = "compiled" if str(engine.game.__file__).endswith(".so") else "pure"

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
                 "round_cards", "results", "hand_number", "events")

    def __init__(self, seed: int, events: list[tuple[Any, ...]] | None = None) -> None:
        self.rng = Rng(seed)
        #: Where the checkpoints go, as tuples (:data:`CHECKPOINTS`), when a log is written or
        #: verified; ``None``: not kept (a playout).
        self.events = events
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
        if self.events is not None:
            self.events.append(("round", None if winner < 0 else winner))
        decided, hand_winner = _hand_result(results)
        if decided:
            self.end_hand(hand_winner, self.value)
            return
        self.round_cards = []
        self.leader = self.turn = leader

    def end_hand(self, team: int, points: int) -> None:
        events = self.events
        if team >= 0:
            self.score[team] += points
            if events is not None:
                events.append(("hand", team, points, *self.score))
            if self.score[team] >= TARGET:  # C11, P9: one game of 12
                self.over = True
                if events is not None:
                    events.append(("game", team, *self.score))
                    events.append(("match", team))
                return
        elif events is not None:
            events.append(("hand", None, 0, *self.score))
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


# -- its log, written and verified -----------------------------------------------------------
#: The checkpoint events, which follow the move that caused them (docs/log-format.md).
CHECKPOINTS = frozenset(("round", "hand", "game", "match"))
CARD_OF = {n: c for c, n in enumerate(NAMES)}
_MOVE_LINES: dict[Move, str] = {}


def move_line(move: Move) -> str:
    """A move's log line, with its newline, made once per move."""
    line = _MOVE_LINES.get(move)
    if line is None:
        kind, seat = move[0], move[1]
        if kind == "play":
            covered = ', "covered": true' if move[3] else ""
            line = f'{{"event": "play", "seat": {seat}, "card": "{NAMES[move[2]]}"{covered}}}\n'
        elif kind == "raise":
            line = f'{{"event": "raise", "seat": {seat}, "value": {move[2]}}}\n'
        else:
            line = f'{{"event": "{kind}", "seat": {seat}}}\n'
        _MOVE_LINES[move] = line
    return line


def _team(team: int | None) -> str:
    return "null" if team is None else str(team)


def checkpoint_line(event: tuple[Any, ...]) -> str:
    kind = event[0]
    if kind == "round":
        return f'{{"event": "round", "winner": {_team(event[1])}}}\n'
    if kind == "hand":
        _, team, points, a, b = event
        return (f'{{"event": "hand", "winner": {_team(team)}, "points": {points}, '
                f'"score": [{a}, {b}]}}\n')
    games = "[1, 0]" if event[1] == 0 else "[0, 1]"
    if kind == "game":
        return (f'{{"event": "game", "winner": {event[1]}, "score": [{event[2]}, {event[3]}], '
                f'"games": {games}}}\n')
    return f'{{"event": "match", "winner": {event[1]}, "games": {games}}}\n'


def checkpoint_dict(event: tuple[Any, ...]) -> dict[str, Any]:
    """A checkpoint as its line's JSON object, to compare with a log's."""
    kind = event[0]
    if kind == "round":
        return {"event": "round", "winner": event[1]}
    if kind == "hand":
        return {"event": "hand", "winner": event[1], "points": event[2],
                "score": [event[3], event[4]]}
    games = [1, 0] if event[1] == 0 else [0, 1]
    if kind == "game":
        return {"event": "game", "winner": event[1], "score": [event[2], event[3]],
                "games": games}
    return {"event": "match", "winner": event[1], "games": games}


def header_line(seed: int, sha256: str) -> str:
    return (f'{{"truco_log": 1, "variant": "paulista", "seed": {seed}, "dealer": 0, '
            f'"variant_sha256": "{sha256}"}}\n')


def move_event(move: Move) -> dict[str, Any]:
    """A move as its line's JSON object."""
    kind, seat = move[0], move[1]
    if kind == "play":
        event = {"event": "play", "seat": seat, "card": NAMES[move[2]]}
        if move[3]:
            event["covered"] = True
        return event
    if kind == "raise":
        return {"event": "raise", "seat": seat, "value": move[2]}
    return {"event": kind, "seat": seat}


def write_lean(seed: int, sha256: str, out: Any, *, plain: bool = False) -> int:
    """Play the random match ``seed`` as :func:`play_lean` does, writing its log to ``out``
    line by line (the engine's ``Recorder`` writes the same bytes: :func:`check`); its hands.
    Each line is made once per move and by an f-string per checkpoint (tuned), or, ``plain``,
    as a writer without tricks makes it: ``json.dumps`` of each event's object."""
    events: list[tuple[Any, ...]] = []
    m = Lean(seed, events)
    rng = SplitMix64(1_000_003 + seed)
    write = out.write
    if plain:
        write(json.dumps({"truco_log": 1, "variant": "paulista", "seed": seed, "dealer": 0,
                          "variant_sha256": sha256}) + "\n")
    else:
        write(header_line(seed, sha256))
    while not m.over:
        legal = m.legal()
        move = legal[rng.bounded(len(legal))]
        m.apply(move)
        if plain:
            write(json.dumps(move_event(move)) + "\n")
            for event in events:
                write(json.dumps(checkpoint_dict(event)) + "\n")
        else:
            write(move_line(move))
            for event in events:
                write(checkpoint_line(event))
        events.clear()
    return m.hand_number


class LogError(ValueError):
    """What is wrong with a log, and on which line."""


def verify_lean(data: bytes, sha256: str) -> int:
    """Verify a Paulista log of a seeded match: the header's variant and seed, every move legal
    when it was made, every checkpoint the log gives (they may be left out) what the rules
    say, the match over at its end. Its hands; :class:`LogError` on the first problem."""
    lines = data.decode("utf-8").splitlines()
    header = json.loads(lines[0])
    if (header.get("truco_log") != 1 or header.get("variant") != "paulista"
            or header.get("variant_sha256", sha256) != sha256 or header.get("dealer") != 0):
        raise LogError(f"line 1: not a seeded Paulista log of this variant: {lines[0]}")
    events: list[tuple[Any, ...]] = []
    m = Lean(header["seed"], events)
    owed = 0  # how many of events the log has not given yet
    for number, text in enumerate(lines[1:], 2):
        d = json.loads(text)
        d.pop("t", None)
        kind = d.get("event")
        if kind in CHECKPOINTS:  # the next of the move's checkpoints given (some may be left out)
            while owed < len(events) and checkpoint_dict(events[owed]) != d:
                owed += 1
            if owed == len(events):
                raise LogError(f"line {number}: {text} is not what the rules say")
            owed += 1
            continue
        if m.over:
            raise LogError(f"line {number}: a move after the match is over")
        try:
            seat = d["seat"]
            move: Move = (("play", seat, CARD_OF[d["card"]], d.get("covered", False))
                          if kind == "play" else ("raise", seat, d["value"])
                          if kind == "raise" else (kind, seat))
        except KeyError as e:
            raise LogError(f"line {number}: {text} lacks or misnames {e}") from None
        if move not in m.legal():
            raise LogError(f"line {number}: {text} is not a legal move")
        events.clear()
        owed = 0
        m.apply(move)
    if not m.over:
        raise LogError(f"line {len(lines)}: the log ends before the match does")
    return m.hand_number


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


def log_engine(matches: int, start: int = 0) -> int:
    """:func:`play_engine` with each match's log written by the engine's ``Recorder``."""
    hands = 0
    for i in range(start, start + matches):
        m = Match.new("paulista", seed=i)
        rng = SplitMix64(1_000_003 + i)
        apply = Recorder(m, io.StringIO(), variant="paulista").apply
        while not m.is_over:
            legal = m.legal_actions()
            apply(legal[rng.bounded(len(legal))])
        hands += m.hand_number
    return hands


def log_lean(matches: int, start: int = 0) -> int:
    sha = variant_sha256()
    return sum(write_lean(i, sha, io.StringIO()) for i in range(start, start + matches))


def log_lean_plain(matches: int, start: int = 0) -> int:
    sha = variant_sha256()
    return sum(write_lean(i, sha, io.StringIO(), plain=True)
               for i in range(start, start + matches))


def engine_logs(matches: int, start: int = 0) -> list[bytes]:
    """The logs of :func:`log_engine`'s matches, as bytes (what the verifiers are given)."""
    logs = []
    for i in range(start, start + matches):
        m = Match.new("paulista", seed=i)
        rng = SplitMix64(1_000_003 + i)
        out = io.StringIO()
        apply = Recorder(m, out, variant="paulista").apply
        while not m.is_over:
            legal = m.legal_actions()
            apply(legal[rng.bounded(len(legal))])
        logs.append(out.getvalue().encode("utf-8"))
    return logs


def verify_engine_logs(logs: list[bytes]) -> int:
    """The logs verified in-process by ``engine.replay.verify_bytes``: their hands."""
    hands = 0
    for data in logs:
        got = verify_bytes(data, "m.jsonl")
        if not got.valid:
            raise SystemExit(f"the engine finds a problem in its own log: {got.problems[0]}")
        hands += got.hands
    return hands


def verify_lean_logs(logs: list[bytes]) -> int:
    sha = variant_sha256()
    return sum(verify_lean(data, sha) for data in logs)


_SHA: list[str] = []


def variant_sha256() -> str:
    """The shipped variant's digest, as the engine's logs give it (read once)."""
    if not _SHA:
        out = io.StringIO()
        Recorder(Match.new("paulista", seed=0), out, variant="paulista")
        _SHA.append(json.loads(out.getvalue().splitlines()[0])["variant_sha256"])
    return _SHA[0]


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
    sha = variant_sha256()
    for i, data in enumerate(engine_logs(matches)):
        out, plain = io.StringIO(), io.StringIO()
        hands = write_lean(i, sha, out)
        if write_lean(i, sha, plain, plain=True) != hands or plain.getvalue() != out.getvalue():
            print(f"match {i}: the lean writers differ", file=sys.stderr)
            return 1
        if out.getvalue().encode("utf-8") != data:
            print(f"match {i}: the lean log differs from the engine's", file=sys.stderr)
            return 1
        if verify_lean(data, sha) != hands or verify_bytes(data, "m.jsonl").hands != hands:
            print(f"match {i}: the verifiers count other hands than {hands}", file=sys.stderr)
            return 1
    print(f"{matches} matches: the same games, move by move, and the same logs")
    return 0


#: What each mode times: the engine's side and the lean engine's, each given the batch's
#: matches (or, verifying, their logs).
MODES: dict[str, tuple[Callable[..., int], Callable[..., int]]] = {
    "play": (play_engine, play_lean),
    "log": (log_engine, log_lean),
    "log-plain": (log_engine, log_lean_plain),
    "verify": (verify_engine_logs, verify_lean_logs),
}


def measure(mode: str, matches: int, rounds: int) -> tuple[float, float, float, float]:
    """``rounds`` pairs of batches of ``mode``, the two sides in alternation: the median
    hands per CPU second of each, the median of the paired ratios engine/lean, and best
    against best."""
    engine_side, lean_side = MODES[mode]
    ratios: list[float] = []
    rates: dict[str, list[float]] = {"engine": [], "lean": []}
    for r in range(rounds):
        start = 1000 * (r + 1)
        batch: Any = engine_logs(matches, start) if mode == "verify" else None
        got = {}
        for who, fn in (("engine", engine_side), ("lean", lean_side))[:: 1 if r % 2 else -1]:
            t0 = time.process_time()
            hands = fn(batch) if batch is not None else fn(matches, start)
            got[who] = hands / (time.process_time() - t0)
            rates[who].append(got[who])
        ratios.append(got["engine"] / got["lean"])
    return (statistics.median(rates["engine"]), statistics.median(rates["lean"]),
            statistics.median(ratios), max(rates["engine"]) / max(rates["lean"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=300, help="matches a batch")
    ap.add_argument("--rounds", type=int, default=9, help="pairs of batches")
    ap.add_argument("--modes", default="play",
                    help="comma-separated, of play (random playouts), log (the same, each "
                         "match's log written; log-plain: the lean engine's lines by "
                         "json.dumps) and verify (those logs verified in-process)")
    ap.add_argument("--check", type=int, default=0, help="compare N matches move by move")
    ap.add_argument("--only", choices=("lean", "engine"), help="play one side only (profiling)")
    args = ap.parse_args(argv)
    modes = args.modes.split(",")
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        ap.error(f"unknown mode {unknown[0]!r}: expected one of {', '.join(MODES)}")
    if args.check:
        return check(args.check)
    if args.only:
        hands = (play_lean if args.only == "lean" else play_engine)(args.matches)
        print(hands)
        return 0
    for mode in modes:  # a warm-up: imports, the variant loaded, the memos filled
        engine_side, lean_side = MODES[mode]
        if mode == "verify":
            logs = engine_logs(20)
            engine_side(logs), lean_side(logs)
        else:
            engine_side(20), lean_side(20)
    print(f"{BUILD} build; hands per CPU second, median of {args.rounds} pairs of "
          f"{args.matches} matches")
    for mode in modes:
        engine, lean, ratio, best = measure(mode, args.matches, args.rounds)
        print(f"{mode:7} engine {engine:9,.0f}  lean {lean:9,.0f}  engine / lean: "
              f"{ratio:.2f}x median [{best:.2f}x best against best]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
