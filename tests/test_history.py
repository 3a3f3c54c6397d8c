"""``Match.history`` (issue 27): the moves applied to a match, in order, as python-chess's
``board.move_stack``, kept only by a match made with ``history=True`` (so that a playout,
which never asks, runs the plain ``apply``)."""

from __future__ import annotations

import pytest
from helpers import act, assert_illegal, deal

from engine import Match
from engine.actions import Action
from engine.shuffle import SplitMix64

HAND = deal(0, "4d 5d 6d | 4c 5h 6h | 7d Qd Jd | 7s Qs Js", vira="3s")


def _random_match(seed: int, variant: str = "paulista", moves: int = 400) -> Match:
    m = Match.new(variant, seed=seed, history=True)
    pick = SplitMix64(seed)
    for _ in range(moves):
        if m.is_over:
            break
        legal = m.legal_actions()
        m.apply(legal[pick.next() % len(legal)])
    return m


def test_the_moves_applied_in_order_and_no_illegal_one() -> None:
    m = Match.new("paulista", seed=7, history=True)
    assert m.history == ()
    act(m, "raise 1 3", "accept 2")
    assert_illegal(m, "play 3 4c")  # refused: not kept
    act(m, "play 1 2h")
    assert m.history == (Action.raise_to(1, 3), Action.accept(2), Action.play(1, "2h"))


@pytest.mark.parametrize(("variant", "seed"), [("paulista", 3), ("mineiro", 4),
                                               ("gauderio", 5), ("cut", 6), ("redeal", 7)])
def test_the_history_replayed_from_the_seed_gives_the_same_match(variant: str,
                                                                 seed: int) -> None:
    m = _random_match(seed, variant)
    again = Match.new(variant, seed=seed)
    for move in m.history:
        again.apply(move)
    assert again.position() == m.position() and len(m.history) > 20


def test_a_match_without_history_keeps_none_and_says_how() -> None:
    m = Match.new("paulista", seed=7)
    act(m, "raise 1 3")
    with pytest.raises(ValueError, match="history=True"):
        _ = m.history
    assert type(m) is Match and type(Match.new("paulista", seed=7, history=True)) is not Match


def test_recorded_deals_and_a_position_keep_the_moves_from_there_on() -> None:
    m = Match.from_deals("paulista", [HAND], history=True)
    act(m, "play 1 4c")
    assert m.history == (Action.play(1, "4c"),)
    later = Match.from_position("paulista", m.position(), history=True)
    assert later.history == ()
    act(later, "play 2 7d")
    assert later.history == (Action.play(2, "7d"),)


def test_a_clone_has_its_own_copy() -> None:
    m = Match.new("paulista", seed=7, history=True)
    act(m, "play 1 2h")
    twin = m.clone()
    act(twin, "play 2 3h")
    assert m.history == (Action.play(1, "2h"),)
    assert twin.history == (Action.play(1, "2h"), Action.play(2, "3h"))
    assert Match.new("paulista", seed=7).clone().__class__ is Match
