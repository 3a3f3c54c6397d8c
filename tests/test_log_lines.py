"""The log writer's shortcuts give the lines and headers the plain definitions give: a move's
and a checkpoint's line from their memos (:func:`engine.logformat.move_line`,
:func:`engine.logformat.checkpoint_line`), and whether a match starts fresh
(:func:`engine.logformat.starts_fresh`, which compares slots before positions)."""

from __future__ import annotations

import json

import pytest
from helpers import played_out
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Action, Match
from engine.logformat import (
    KEPT_LINES,
    checkpoint_line,
    dumps_event,
    move_line,
    starts_fresh,
)
from engine.shuffle import SplitMix64

VARIANTS = ("paulista", "mineiro", "gauderio")


@pytest.mark.parametrize("variant", VARIANTS)
def test_checkpoint_lines_are_their_events_encoded(variant: str) -> None:
    seen: set[str] = set()
    for seed in range(30):
        m = Match.new(variant, seed=seed)
        rng = SplitMix64(seed)
        while not m.is_over:
            legal = m.legal_actions()
            for cp in m.apply(legal[rng.bounded(len(legal))]):
                assert checkpoint_line(cp) == dumps_event(cp) + "\n"
                assert checkpoint_line(cp) == checkpoint_line(json.loads(dumps_event(cp)))
                seen.add(cp["event"])
    assert {"round", "hand", "game", "match"} <= seen


_plain = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _plain, max_size=5))
def test_checkpoint_line_of_any_plain_data_is_its_encoding(event: dict[str, object]) -> None:
    assert checkpoint_line(event) == dumps_event(event) + "\n"


def test_checkpoint_memo_tells_true_from_one_and_order_matters() -> None:
    one = {"event": "x", "v": 1}
    true = {"event": "x", "v": True}
    assert checkpoint_line(one) == '{"event": "x", "v": 1}\n'
    assert checkpoint_line(true) == '{"event": "x", "v": true}\n'
    assert checkpoint_line({"v": 1, "event": "x"}) == '{"v": 1, "event": "x"}\n'


def test_move_lines_of_equal_moves_and_past_the_memo_size() -> None:
    first = Action.play(1, "5h")
    assert move_line(first) == dumps_event(first.to_event()) + "\n"
    again = Action.play(1, "5h")  # equal, another object
    assert again is not first and move_line(again) == move_line(first)
    for k in range(KEPT_LINES + 10):  # the memo starts again: every line still right
        a = Action.raise_to(k % 4, 3 + 3 * (k % 3))
        assert move_line(a) == dumps_event(a.to_event()) + "\n"
    assert move_line(first) == '{"event": "play", "seat": 1, "card": "5h"}\n'


def _by_positions(m: Match) -> bool:
    """starts_fresh's definition: the position of a new match of the same seed and dealer."""
    return Match(m.rules, seed=m.seed, dealer=m.dealer).position() == m.position()


@pytest.mark.parametrize("variant", VARIANTS)
def test_starts_fresh_agrees_with_comparing_positions(variant: str) -> None:
    found = set()
    for seed in range(12):
        for moves in (0, 1, 2, 5):
            m = played_out(variant, seed, moves)
            found.add(starts_fresh(m))
            assert starts_fresh(m) == _by_positions(m), (seed, moves)
            restored = Match.from_position(variant, m.position())
            assert starts_fresh(restored) == _by_positions(restored), (seed, moves)
    assert found == {True, False}

