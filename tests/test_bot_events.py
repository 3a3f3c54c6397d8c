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
    lines = [json.loads(x) for x in out.getvalue().splitlines()[1:]]
    # The log's public course, and where each of seat 0's moves stands in it.
    expected: list[tuple[Any, ...]] = []
    before_move: list[int] = []
    for line in lines:
        if line.get("seat") == 0 and line["event"] not in ("round", "hand", "game", "match"):
            before_move.append(len(expected))
        view = _public(line)
        if view is not None:
            expected.append(view)
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


def test_the_last_hand_of_a_match_is_told_as_a_hand_event() -> None:
    m = Match.new("paulista", seed=1)
    before = _play_until(m, 0, lambda: m.is_over)
    kinds = [e["event"] for e in seat_events(before, m.observation(0))]
    assert kinds[-3:] == ["hand", "game", "phase"]
