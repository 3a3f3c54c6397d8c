"""Who answers a raise, a designated seat per team (``betting.answered_by: designated``,
``betting.answerers``, issue 42): the house variant ``only-the-player-answers``, "only the
player may accept, never his partner for him" (miniTruco's users)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import act, assert_illegal, assert_random_logs_verify, deal, legal, match

from engine import Match
from engine.bots import next_actor
from engine.errors import VariantError
from engine.variant import load_variant

EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: every round ties
V = "only-the-player-answers"


def _even(variant: str) -> Match:
    return match(variant, deal(0, EVEN_P, "7c"))  # seat 1, the mão, plays first


def test_only_the_player_answers_his_partner_never_answers_for_him() -> None:
    paulista = _even("paulista")
    act(paulista, "raise 1 3")
    assert paulista.to_act() == [0, 2]  # C9 pinned: either partner
    m = _even(V)
    act(m, "raise 1 3")
    assert m.to_act() == [0] and legal(m) == ["accept 0", "fold 0", "raise 0 6"]
    for move in ("accept 2", "fold 2", "raise 2 6"):
        refused = assert_illegal(m, move, "only seat 0 answers for team 0, never a partner")
        assert refused.code == "not_designated"
    act(m, "raise 0 6")  # a raise back is answered by team 1's player, seat 1
    assert m.to_act() == [1]
    assert_illegal(m, "accept 3", "only seat 1 answers for team 1")
    assert act(m, "fold 1") == [{"event": "hand", "winner": 0, "points": 3, "score": [3, 0]}]


def test_only_the_player_answers_a_raise_by_either_opponent() -> None:
    """Not the next seat: the player answers whoever raised (seat 3's raise is seat 0's to
    answer, where next-seat-answers would ask seat 0 too, and seat 1's raise seat 0's, where
    it would ask seat 2)."""
    m = _even(V)
    act(m, "play 1 4d", "play 2 4h", "raise 3 3")
    assert m.to_act() == [0]
    assert next_actor(m, prefer=2) == 0  # a driver asks the player, not his partner
    act(m, "accept 0")
    assert m.value == 3


def test_only_the_player_answers_is_logged_and_verified(tmp_path: Path) -> None:
    assert_random_logs_verify(V, tmp_path)


@pytest.mark.parametrize(("text", "says"), [
    ("answerers: [0, 1]", "expected betting.answered_by: designated with answerers"),
    ("answered_by: designated\n  answerers: [0, 2]", "expected a seat of team 1 (1, 3), found 2"),
    ("answered_by: designated\n  answerers: [0, 1, 3]", "one seat for each of the 2 teams"),
    ("answered_by: designated\n  refusal: whole_team", "expected one_player with answered_by"),
])
def test_designated_answerers_that_cannot_act_are_refused(tmp_path: Path, text: str,
                                                          says: str) -> None:
    path = tmp_path / "answerers.yaml"
    path.write_text(f"extends: paulista\nbetting:\n  {text}\n", encoding="utf-8")
    with pytest.raises(VariantError, match=says.replace("(", r"\(").replace(")", r"\)")):
        load_variant(path)


def test_designated_without_answerers_is_each_team_s_first_seat(tmp_path: Path) -> None:
    path = tmp_path / "first.yaml"
    path.write_text("extends: paulista\nbetting:\n  answered_by: designated\n",
                    encoding="utf-8")
    m = match(load_variant(path), deal(0, EVEN_P, "7c"))
    act(m, "raise 1 3")
    assert m.to_act() == [0]
