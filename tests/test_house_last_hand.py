"""The last hand's cards hidden from observations (``seeing.last_hand: hidden``, issue 42): the
house variant ``last-hand-hidden``. The record of the hand that ended last
(:func:`engine.observation.last_hand_view`, what the observation, the bot protocol and
``truco serve`` show) names no card; nothing a seat gets (its observation, the protocol's
events, the environment's vector) changes with those cards (docs/rules.md, "Seeing a partner's
cards")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import assert_random_logs_verify, hidden_swapped

from engine import Match
from engine.env import raw_env
from engine.observation import to_json
from engine.protocol import seat_events
from engine.shuffle import SplitMix64

V = "last-hand-hidden"
#: Each card of the last hand's record replaced by another: its suit moved on.
_OTHER_SUIT = str.maketrans("cdhs", "dhsc")


def _after_hand_1(variant: str, seed: int = 1) -> Match:
    """A seeded match just after its first hand, every card of it played (the first legal
    move each time: a card before a raise)."""
    m = Match.new(variant, seed=seed)
    while m.hand_number == 1:
        m.apply(m.legal_actions()[0])
    return m


def _last_hand_changed(m: Match) -> Match:
    """The match with its last hand's cards (played and shown) replaced by others."""
    p = m.position()
    last = p["last_hand"]
    p["last_hand"] = {
        **last, "played": [{**c, "card": c["card"].translate(_OTHER_SUIT)} for c in last["played"]],
        "shown": [{**s, "card": s["card"].translate(_OTHER_SUIT)} for s in last["shown"]]}
    return Match.from_position(m.rules, p)


def _gets(m: Match, seat: int, before: dict[str, Any] | None) -> tuple[Any, ...]:
    """All the seat gets now: its observation as the protocol sends it, the protocol's events
    since ``before`` (its observation before the hand ended) and the environment's vector."""
    e = raw_env(m.rules)
    e.reset(seed=0)
    e.match = m
    obs = to_json(m.observation(seat))
    return obs, seat_events(before, obs), e.observe(f"seat_{seat}")["observation"].tobytes()


def test_last_hand_hidden_names_no_card_of_the_hand_that_ended() -> None:
    hidden, shown = _after_hand_1(V), _after_hand_1("paulista")
    for seat in range(4):
        last, public = hidden.observation(seat)["last_hand"], shown.observation(seat)["last_hand"]
        assert last is not None and public is not None
        assert len(last["played"]) == 12 and all(p["card"] is None for p in last["played"])
        assert all(p["card"] is not None for p in public["played"] if not p["covered"])
        # who played in which round, face up or covered, and the results stay known
        assert [{**p, "card": None} for p in public["played"]] == last["played"]
        assert (last["hand_number"], last["rounds"], last["shown"]) == (
            public["hand_number"], public["rounds"], [])


@pytest.mark.parametrize(("variant", "same"), [(V, True), ("paulista", False)])
def test_last_hand_hidden_nothing_a_seat_gets_changes_with_the_last_hand_s_cards(
        variant: str, same: bool) -> None:
    """With the last hand's cards changed, every seat gets the same observation, protocol
    events and environment vector through the next hand under the rule; its parent names
    them."""
    m = Match.new(variant, seed=1)
    while m.hand_number == 1:
        before = [to_json(m.observation(s)) for s in range(4)]
        m.apply(m.legal_actions()[0])
    twin = _last_hand_changed(m)
    differed = 0
    rng = SplitMix64(3)
    while m.hand_number == 2 and not m.is_over:
        for seat in range(4):
            ours, theirs = _gets(m, seat, before[seat]), _gets(twin, seat, before[seat])
            assert ours[2] == theirs[2]  # the environment shows no last hand either way
            if same:
                assert ours == theirs, (seat, m.hand.played)
            differed += ours != theirs
        move = m.legal_actions()[rng.bounded(len(m.legal_actions()))]
        m.apply(move)
        twin.apply(move)
    assert bool(differed) is not same


def test_last_hand_hidden_hidden_swapped_trades_the_last_hand_s_cards() -> None:
    """The hidden-information helper the bot and environment tests use moves these cards too
    (so tests/test_env_episodes.py's ``last-hand-hidden`` case has something to move)."""
    m = _after_hand_1(V)
    twin = hidden_swapped(m, 0, 1)
    assert m.last_hand is not None and twin.last_hand is not None
    assert [c for _, _, c, _ in twin.last_hand[1]] != [c for _, _, c, _ in m.last_hand[1]]
    assert twin.observation(0) == m.observation(0)
    assert hidden_swapped(_after_hand_1("paulista"), 0, 1).last_hand == \
        _after_hand_1("paulista").last_hand


def test_last_hand_hidden_is_logged_and_verified(tmp_path: Path) -> None:
    assert_random_logs_verify(V, tmp_path)
