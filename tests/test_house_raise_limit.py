"""A raise limit read from what the trailing team still needs (``betting.raise_limit:
trailing_needs``, CTruco, issue 42): the house variant ``raise-limit-trailing-needs``."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import act, assert_illegal, assert_random_logs_verify, deal, legal, match_at

from engine import Match
from engine.errors import VariantError
from engine.variant import load_variant

EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: every round ties
V = "raise-limit-trailing-needs"


def _at(variant: str, score: list[int]) -> Match:
    m = match_at(variant, score)  # dealer 3: seat 0 is the mão
    m.deal(deal(m.dealer, EVEN_P, "7c"))
    return m


def test_raise_limit_trailing_needs_stops_at_the_value_that_gives_it_the_game() -> None:
    """At 9-5 the trailing team needs 7: a hand worth 9 gives it the game, so 12 is never
    reached (Paulista's ladder goes on)."""
    paulista = _at("paulista", [9, 5])
    act(paulista, "raise 0 3", "raise 1 6", "raise 0 9")
    assert "raise 1 12" in legal(paulista, 1)
    m = _at(V, [9, 5])
    act(m, "raise 0 3", "raise 1 6", "raise 0 9")
    assert legal(m, 1) == ["accept 1", "fold 1"]  # no raise back to 12
    refused = assert_illegal(m, "raise 1 12", "no raise above 9",
                             "gives the trailing team the game")
    assert refused.code == "raise_limit"
    act(m, "accept 1")
    assert m.value == 9


def test_raise_limit_trailing_needs_close_scores_allow_truco_only() -> None:
    """At 10-10 each needs 2: the truco (3) already gives it, no raise back, no seis later."""
    m = _at(V, [10, 10])
    assert "raise 0 3" in legal(m, 0)
    act(m, "raise 0 3")
    assert not any(a.startswith("raise") for a in legal(m))
    assert_illegal(m, "raise 1 6", "no raise above 3")
    act(m, "accept 1", "play 0 4c", "play 1 4d")
    assert not any(a.startswith("raise") for a in legal(m))


def test_raise_limit_trailing_needs_far_behind_leaves_the_ladder_whole() -> None:
    m = _at(V, [0, 0])  # the trailing team needs 12, the top step
    act(m, "raise 0 3", "raise 1 6", "raise 0 9", "raise 1 12")
    assert m.hand.pending is not None and m.hand.pending[1] == 12


def test_raise_limit_trailing_needs_is_logged_and_verified(tmp_path: Path) -> None:
    assert_random_logs_verify(V, tmp_path)


def test_raise_limit_without_a_ladder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "limit.yaml"
    path.write_text("extends: paulista\nbetting:\n  ladder: []\n  raise_limit: trailing_needs\n",
                    encoding="utf-8")
    with pytest.raises(VariantError, match="expected no raise_limit without a ladder"):
        load_variant(path)
