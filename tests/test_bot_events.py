"""The ``events`` a protocol bot receives (docs/bot-protocol.md, "Events"): every card played,
round won, hand and game ended, once each, in the log's order, and before the seat's next
decision, also where the next hand waits for a cut or for an explicit deal."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from engine import Deal, Match
from engine.bots import make_bot
from engine.logformat import Recorder
from engine.observation import Observation
from engine.protocol import seat_events
from engine.protocol.external import ExternalBot, end_all
from engine.shuffle import SplitMix64
from engine.simulate import play_match
from engine.variant import load_variant

RECORD = [sys.executable, str(REPO / "tests" / "bots" / "hostile.py"), "record"]
CUT = REPO / "variants" / "house" / "cut.yaml"


@pytest.fixture(autouse=True)
def _bots_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TRUCO_BOT_STDERR", str(tmp_path / "stderr"))
    try:
        yield
    finally:
        end_all()


def _public(event: dict[str, Any]) -> tuple[Any, ...] | None:
    """What of a log line or an event both the log and a seat's events tell."""
    kind = event["event"]
    if kind == "play":
        return ("play", event["seat"])
    if kind == "round":
        return ("round", event["winner"])
    if kind == "hand":
        return ("hand",)
    if kind == "game":
        return ("game", event["games"])
    return None


def _course(log: str, seat: int) -> tuple[list[tuple[Any, ...]], list[int]]:
    """A log's public course as a seat's events tell it, and where each of the seat's moves
    stands in it. Two things a log writes otherwise: the match's last hand ends with the
    match (its ``hand`` line is not an event), and a game a side bet ends in the middle of a
    hand leaves that hand (no ``hand`` line, but the seat sees a hand end)."""
    lines = [json.loads(x) for x in log.splitlines()[1:]]
    if [x["event"] for x in lines[-3:]] == ["hand", "game", "match"]:
        del lines[-3]
    course: list[tuple[Any, ...]] = []
    moves: list[int] = []
    for i, line in enumerate(lines):
        if line.get("seat") == seat and line["event"] not in ("round", "hand", "game", "match"):
            moves.append(len(course))
        if line["event"] == "game" and lines[i - 1]["event"] != "hand" \
                and lines[i + 1]["event"] != "match":
            course.append(("hand",))  # a hand the game's end left
        view = _public(line)
        if view is not None:
            course.append(view)
    return course, moves


@pytest.mark.parametrize("seed", [3, 8])
def test_a_cut_variants_events_come_once_in_order_before_each_decision(
        tmp_path: Path, seed: int) -> None:
    """The cutter (seat 0 cuts before its partner deals) is told the hand's last card, its
    last round and its end before it is asked to cut, and nothing of a hand twice."""
    rules = load_variant(CUT)
    seen = tmp_path / "seen.jsonl"
    m = Match(rules, seed=seed)
    out = io.StringIO()
    bots = [ExternalBot(rules, 1, [*RECORD, str(seen)]),
            *(make_bot("heuristic", rules, s) for s in (1, 2, 3))]
    play_match(m, bots, recorder=Recorder(m, out, variant=str(CUT), players=["b"] * 4))
    end_all()
    assert m.is_over
    expected, before_move = _course(out.getvalue(), 0)
    got: list[tuple[Any, ...]] = []
    at_decision: list[int] = []
    for msg in map(json.loads, seen.read_text(encoding="utf-8").splitlines()):
        if msg["type"] == "events":
            got += [v for v in map(_public, msg["events"]) if v is not None]
        elif msg["type"] == "decision":
            at_decision.append(len(got))
    assert any(x.startswith('{"event": "cut", "seat": 0') for x in out.getvalue().splitlines())
    assert got == expected
    assert at_decision == before_move


def _play_until(m: Match, seat: int, done: Callable[[], bool]) -> Observation:
    """Play the first legal moves until ``done()``; the seat's observation before the last."""
    while True:
        before = m.observation(seat)
        m.apply(m.legal_actions()[0])
        if done():
            return before


def test_a_match_waiting_for_its_deal_tells_the_hands_end_at_once_and_once() -> None:
    deal = Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
                       ["Jd", "Qd", "Ks"]])
    m = Match.from_deals("mineiro", [deal])
    first = m.observation(2)
    before = _play_until(m, 2, lambda: m.awaiting_deal)
    kinds = [e["event"] for e in seat_events(before, m.observation(2))]
    assert kinds == ["play", "round", "hand", "phase"]
    waiting = m.observation(2)
    m.deal(Deal.of(1, [["4d", "7d", "Ad"], ["3c", "2c", "Kc"], ["5d", "6d", "Qd"],
                       ["Js", "Qs", "Kh"]]))
    assert [e["event"] for e in seat_events(waiting, m.observation(2))] == ["phase"]
    plays = [e for e in seat_events(first, before) if e["event"] == "play"]
    assert len(plays) + 1 == len(m.observation(2)["last_hand"]["played"])


def test_the_side_bet_that_ends_the_match_is_told_then_the_game() -> None:
    """Gaudério, seed 0: a falta envido accepted ends the match in the middle of a hand."""
    m = Match.new("gauderio", seed=0)
    choose = SplitMix64(0)
    while True:
        before = m.observation(0)
        legal = m.legal_actions()
        m.apply(legal[choose.bounded(len(legal))])
        if m.is_over:
            break
    kinds = [e["event"] for e in seat_events(before, m.observation(0))]
    assert kinds == ["shown", "shown", "side_bet", "game", "phase"]


def test_a_side_bet_ending_a_game_mid_hand_is_told_by_the_hand_and_the_game() -> None:
    """The documented limit (docs/bot-protocol.md, "Events"): in a match that goes on, the
    falta envido that ends a game in the middle of a hand (Gaudério best of 3, seed 0, hand 5)
    is told by ``hand`` and ``game``, the bet's points in the score, and no ``side_bet``: the
    events come from the observations, and ``last_hand`` keeps no side bets."""
    m = Match.new(str(REPO / "variants" / "house" / "gauderio-best-of-3.yaml"), seed=0)
    choose = SplitMix64(0)
    while True:
        before = m.observation(0)
        games = list(m.games)
        legal = m.legal_actions()
        m.apply(legal[choose.bounded(len(legal))])
        if m.games != games:
            break
    after = m.observation(0)
    assert not m.is_over and before["hand_number"] == 5
    assert after["last_hand"]["rounds"] == []  # the game ended before a round was played
    events = seat_events(before, after)
    assert [e["event"] for e in events] == ["shown", "shown", "hand", "game", "phase"]
    assert events[2]["games"] == after["games"] == [1, 0]


VARIANTS = ["paulista", "mineiro", "mineiro-12", "gauderio",
            *sorted(str(p) for p in (REPO / "variants" / "house").glob("*.yaml"))]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).stem)
def test_every_variants_events_follow_its_log_once_each(variant: str) -> None:
    """Every seat's events, after every move of seeded random matches, are the log's course
    (cards played, rounds, hands, games), each once and in order."""
    for seed in range(3):
        m = Match.new(variant, seed=seed)
        out = io.StringIO()
        recorder = Recorder(m, out, variant=variant, players=["b"] * m.players)
        choose = SplitMix64(seed)
        seen = [m.observation(s) for s in range(m.players)]
        got: list[list[tuple[Any, ...]]] = [[] for _ in seen]
        while not m.is_over:
            legal = m.legal_actions()
            recorder.apply(legal[choose.bounded(len(legal))])
            for s in range(m.players):
                now = m.observation(s)
                got[s] += [v for v in map(_public, seat_events(seen[s], now)) if v is not None]
                seen[s] = now
        for s in range(m.players):
            assert got[s] == _course(out.getvalue(), s)[0], (seed, s)
