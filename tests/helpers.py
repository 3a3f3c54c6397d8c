"""Building matches from explicit deals, and playing moves written as text, for the rule tests.

Moves are written as ``str(Action)`` prints them, so a test reads like a log::

    m = match("paulista", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", vira="Qs"))
    act(m, "play 1 3d", "raise 2 3", "accept 3")

Everything goes through the public API (``Match.new(..., seed=None)``, ``Match.deal``,
``legal_actions``, ``apply``, ``observation``); scores are reached by playing real hands
(:func:`win_hand`, :func:`score_to`), never by setting them.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine import Action, Deal, IllegalMoveError, Match, Rules
from engine.cards import card_name
from engine.game import Checkpoint, resolve_rules
from engine.moves import last_hand_hidden
from engine.shuffle import SplitMix64

Variant = Rules | str | os.PathLike[str]

#: The phases a few random matches of the shipped variants do not reach (a kind's phase that
#: waits on a rare card), each with how to reach it: a variant, a seed and the moves from its
#: start. The explicit exemptions of the tests that meet every phase and every kind by playing
#: (test_move_kinds, test_action_notation).
REACHED_BY_HAND: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "take": ("cut-refusable-four", 3, ("cut 3 bottom",)),  # its cut takes the 4 of ouros
}


def reached_by_hand() -> dict[str, Match]:
    """A match resting in each phase of :data:`REACHED_BY_HAND`, by phase."""
    out: dict[str, Match] = {}
    for phase, (variant, seed, moves) in REACHED_BY_HAND.items():
        m = Match.new(variant, seed=seed)
        act(m, *moves)
        assert m.state == phase, (phase, m.state)
        out[phase] = m
    return out


def doctests(module: str | ModuleType) -> doctest.TestResults:
    """``doctest.testmod`` of a module; of a compiled one (``build_native.py``: its functions
    keep no docstrings doctest can find) the same examples, read from the docstrings of its
    source, each docstring run in a fresh copy of the module's namespace as testmod runs it."""
    mod = importlib.import_module(module) if isinstance(module, str) else module
    path = Path(mod.__file__ or "")
    if path.suffix == ".py":
        return doctest.testmod(mod)
    source = Path(__file__).resolve().parent.parent.joinpath(*mod.__name__.split("."))
    source = source / "__init__.py" if source.is_dir() else source.with_suffix(".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node, clean=True)
            if text and ">>>" in text:
                name = getattr(node, "name", mod.__name__)
                runner.run(parser.get_doctest(text, dict(vars(mod)), name, str(source),
                                              getattr(node, "lineno", 0)))
    return runner.summarize(verbose=False)


def deal(dealer: int, hands: str, vira: str | None = None) -> Deal:
    """``deal(0, "4c 7h As | 3d 2d Kd | ...", vira="Qs")``: hands by seat, separated by ``|``."""
    return Deal.of(dealer, [h.split() for h in hands.split("|")], vira)


def played_out(variant: Variant, seed: int, moves: int) -> Match:
    """A seeded match after up to ``moves`` uniformly random legal moves (a SplitMix64 seeded
    with ``seed``), fewer if it ends first."""
    m = Match.new(variant, seed=seed)
    rng = SplitMix64(seed)
    for _ in range(moves):
        if m.is_over:
            break
        legal = m.legal_actions()
        m.apply(legal[rng.bounded(len(legal))])
    return m


def match(variant: Variant, *deals: Deal, dealer: int = 0) -> Match:
    """A match with no seed (every hand waits for a deal); the given deals are dealt in order."""
    m = Match.new(variant, seed=None, dealer=dealer)
    for d in deals:
        m.deal(d)
    return m


def filled_deal(variant: Variant, first: Sequence[str], vira: str | None = None,
                dealer: int = 0) -> Deal:
    """A deal where seat ``s`` holds ``first[s]``, filled up with cards of other ranks (in
    deck order) that are not the vira: for tests that look at one round only."""
    rules = resolve_rules(variant)
    used = {*first, vira}
    ranks = {c[0] for c in first}
    spare = iter(n for n in map(card_name, rules.deck) if n not in used and n[0] not in ranks)
    hands = [[card, *(next(spare) for _ in range(rules.cards_per_player - 1))] for card in first]
    return Deal.of(dealer, hands, vira)


def parse_action(text: str) -> Action:
    """The move that ``str(Action)`` writes as ``text`` (:meth:`Action.parse`)."""
    return Action.parse(text)


def act(m: Match, *moves: str) -> list[Checkpoint]:
    """Apply moves written as text; return every checkpoint they caused, in order."""
    events: list[Checkpoint] = []
    for text in moves:
        events.extend(m.apply(parse_action(text)))
    return events


def legal(m: Match, seat: int | None = None) -> list[str]:
    """The legal moves as text."""
    return [str(a) for a in m.legal_actions(seat)]


def assert_illegal(m: Match, move: str | Action, *why: str) -> IllegalMoveError:
    """``move`` raises :class:`IllegalMoveError` listing the legal moves, says each of ``why``,
    and leaves the match unchanged (every seat's observation is the same before and after,
    and the same as a clone's taken before)."""
    action = parse_action(move) if isinstance(move, str) else move
    twin = m.clone()
    before = [m.observation(s) for s in range(m.players)]
    state = (m.state, m.score[:], m.games[:], m.turn, m.value, m.pending, m.hand_number)
    was_legal = legal(m)
    with pytest.raises(IllegalMoveError) as info:
        m.apply(action)
    err = info.value
    assert [str(a) for a in err.legal] == was_legal
    assert "legal:" in str(err)
    for text in why:
        assert text in str(err), f"{text!r} not in {str(err)!r}"
    assert [m.observation(s) for s in range(m.players)] == before
    assert [twin.observation(s) for s in range(m.players)] == before
    assert (m.state, m.score, m.games, m.turn, m.value, m.pending, m.hand_number) == state
    return err


def of(events: Sequence[Checkpoint], kind: str) -> list[Checkpoint]:
    """The checkpoints of one kind (``round``, ``hand``, ``game``, ``match``)."""
    return [e for e in events if e["event"] == kind]


def rounds(events: Sequence[Checkpoint]) -> list[int | None]:
    """The winners of the ``round`` checkpoints."""
    return [e["winner"] for e in of(events, "round")]


# -- reaching a score by playing ------------------------------------------------------------
def stacked_deal(m: Match, team: int) -> Deal:
    """A deal for the awaited hand in which ``team`` holds the strongest cards: whatever is
    played, every round goes to ``team``."""
    r = m.rules
    vira = r.deck[4] if r.has_vira else None  # 5c: its manilhas are the 6s
    strength = r.strengths(vira)
    pool = sorted((c for c in r.deck if c != vira), key=lambda c: -strength[c])
    k = r.cards_per_player
    seats = [s for s in range(r.players) if s % 2 == team]
    others = [s for s in range(r.players) if s % 2 != team]
    hands: list[list[str]] = [[] for _ in range(r.players)]
    for i, s in enumerate(seats):
        hands[s] = [card_name(c) for c in pool[i * k:(i + 1) * k]]
    for i, s in enumerate(others):
        hands[s] = [card_name(c) for c in pool[len(pool) - (i + 1) * k:len(pool) - i * k]]
    return Deal.of(m.dealer, hands, vira)


def win_hand(m: Match, team: int, raises: int = 0) -> list[Checkpoint]:
    """Deal a stacked hand that ``team`` wins, after ``raises`` raises in a row (each raise
    back accepting the one before, the last one accepted), and play it out."""
    m.deal(stacked_deal(m, team))
    events: list[Checkpoint] = []
    if m.state == "decide":
        events += m.apply(Action.decide(m.special_team, True))  # type: ignore[arg-type]
    seat = m.turn
    for _ in range(raises):
        step = m.rules.next_step(m.pending[1] if m.pending else m.value)
        assert step is not None, "the ladder has no more steps"
        card = m.hands[seat][0] if m.rules.name_card else None
        events += m.apply(Action.raise_to(seat, step.value, card))
        seat = (seat + 1) % m.players
    if raises:
        events += m.apply(Action.accept(seat))
    while m.state in ("play",) and not of(events, "hand") and not of(events, "game"):
        events += m.apply(next(a for a in m.legal_actions(m.turn) if a.kind == "play"))
    return events


def _values(rules: Rules) -> list[int]:
    """What one normal hand can be worth: the start, or any step reached by accepted raises."""
    return [rules.initial_value, *(s.value for s in rules.ladder)]


def _path(rules: Rules, points: int, below: int) -> list[int]:
    """Hand values summing to ``points``, every partial sum before the last below ``below``."""
    values = _values(rules)
    if points == 0:
        return []
    last = min(v for v in values if v >= points - (below - 1) and v <= points)
    rest, path = points - last, []
    while rest:
        v = max(v for v in values if v <= rest)
        path.append(v)
        rest -= v
    return [*path, last]


def score_to(m: Match, target: Sequence[int]) -> None:
    """Play hands (stacked deals, raises accepted) until the game's score is ``target``.

    Every hand but the last is a normal one; where both targets reach the special hands'
    score, the lower team scores its last points in the other team's special hand."""
    r = m.rules
    one = r.one_team
    special_from = one.from_score if one.enabled else r.target
    lo = 0 if target[0] < target[1] else 1
    hi = 1 - lo
    lo_pre = target[lo]
    if target[lo] >= special_from:
        lo_pre = target[lo] - one.value
    for team, goal in ((lo, lo_pre), (hi, target[hi])):
        for value in _path(r, goal - m.score[team], special_from):
            steps = _values(r).index(value)
            win_hand(m, team, steps)
    if lo_pre != target[lo]:
        win_hand(m, lo)  # in the other team's special hand: worth its fixed value
    assert m.score == list(target), (m.score, target)


def observe_all(m: Match) -> list[dict[str, Any]]:
    """Every seat's observation."""
    return [m.observation(s) for s in range(m.players)]


def match_at(variant: Any, score: list[int], dealer: int = 3) -> Match:
    """A match of ``variant`` whose score is ``score`` (reached by playing hands, as
    :func:`score_to`) and whose next hand is dealt by ``dealer``."""
    probe = match(variant)
    score_to(probe, score)
    m = match(variant, dealer=(dealer - probe.hand_number) % probe.rules.players)
    score_to(m, score)
    assert m.dealer == dealer and m.score == score
    return m



def processes_running(marker: str) -> list[int]:
    """The processes (not zombies) whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def hidden_swapped(m: Match, seat: int, shift: int) -> Match:
    """A copy of ``m`` in which the cards ``seat`` may not see trade places (``shift``: by
    how many): the cards in the other seats' hands (all hands in a blind hand, P6; not a
    partner's that a decision shows, M5), those seats' hands as dealt, and the covered cards
    it did not see (P7), and the last hand's where the variant hides them
    (``seeing.last_hand: hidden``). What a bot, an observation or the env gives the seat must
    not change (tests/test_bot_view.py, tests/test_env_episodes.py)."""
    twin = m.clone()
    h, rnd = twin.hand, twin.round
    shown = {int(s) for s in (m.observation(seat)["partner_hands"] or {})}
    slots: list[tuple[str, int, int]] = []
    for s, hand in enumerate(h.hands):
        if m.blind or (s != seat and s not in shown):
            slots += [("hand", s, i) for i in range(len(hand))]
    for i, (_, s, _, cov) in enumerate(h.played):
        if cov and (m.blind or s != seat):
            slots.append(("played", s, i))
    hidden = [s for s in range(len(h.hands)) if m.blind or (s != seat and s not in shown)]
    if h.dealt and len(hidden) > 1:  # the hands as dealt, too: whole hands trade seats
        dealt = list(h.dealt)
        for s, t in zip(hidden, hidden[shift % len(hidden):] + hidden[:shift % len(hidden)],
                        strict=True):
            dealt[s] = h.dealt[t]
        h.dealt = tuple(dealt)
    cards = [h.hands[s][i] if where == "hand" else h.played[i][2] for where, s, i in slots]
    k = shift % len(cards) if cards else 0
    for (where, s, i), new in zip(slots, cards[k:] + cards[:k], strict=True):
        if where == "hand":
            h.hands[s][i] = new
        else:
            number, ps, old, cov = h.played[i]
            h.played[i] = (number, ps, new, cov)
            rnd.cards = [(cs, new if c == old and cc else c, cc) for cs, c, cc in rnd.cards]
    if m.last_hand is not None and last_hand_hidden(m.rules):  # seeing.last_hand: hidden
        number, played, shown, results, blind = m.last_hand
        faces = [c for _, _, c, _ in played]
        k = shift % len(faces) if faces else 0
        moved = dict(zip(faces, faces[k:] + faces[:k], strict=True))
        twin.last_hand = (number, [(r, s, moved[c], cov) for r, s, c, cov in played],
                          [(s, moved.get(c, c)) for s, c in shown], results, blind)
    return twin


def wait_gone(pid: int, guard: float = 300.0) -> bool:
    """Wait until the process ``pid`` has exited (a zombie counts as exited): an event (its
    ``pidfd`` becomes readable), ``guard`` seconds at most; whether it has."""
    import select

    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], guard)[0])
    finally:
        os.close(fd)


class Tell:
    """A named pipe that test bots write lines to (``HOSTILE_TELL``, tests/bots/hostile.py):
    a test waits on their lines (an event), never polls. It holds a writer of its own, so a
    read never sees the end of the pipe between two bots."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.writer = os.open(path, os.O_WRONLY)
        self.buffer = b""
        self.lines: list[str] = []

    def _read(self, timeout: float) -> None:
        import select

        if select.select([self.reader], [], [], timeout)[0]:
            try:
                self.buffer += os.read(self.reader, 65536)
            except BlockingIOError:
                return
            *done, self.buffer = self.buffer.split(b"\n")
            self.lines += [line.decode() for line in done]

    def wait(self, enough: Any, guard: float = 300.0) -> list[str]:
        """Every line read until ``enough(lines)`` holds (``guard`` seconds at most)."""
        import time

        deadline = time.monotonic() + guard
        while not enough(self.lines):
            left = deadline - time.monotonic()
            assert left > 0, f"the bots did not tell enough: {self.lines}"
            self._read(left)
        return self.lines

    def told(self) -> list[str]:
        """Every line written so far (what is in the pipe now, without waiting)."""
        self._read(0)
        return self.lines

    def pids(self) -> list[int]:
        """Every pid told so far (the bots' and their children's)."""
        return [int(p) for line in self.told() for p in line.split()]

    def close(self) -> None:
        os.close(self.reader)
        os.close(self.writer)


def assert_random_logs_verify(variant: str, folder: Path, seeds: int = 3) -> None:
    """Seeded random matches of ``variant`` (seeds ``0..seeds-1``), recorded in ``folder``,
    each verify as complete and valid."""
    from engine.logformat import record_random
    from engine.replay import verify_file

    for seed in range(seeds):
        log = folder / f"{variant}-{seed}.jsonl"
        log.write_text(record_random(variant, seed), encoding="utf-8")
        result = verify_file(log)
        assert result.valid and result.incomplete is None, (seed, result.problems)
