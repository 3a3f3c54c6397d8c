"""Leaving the table (``resign.allowed``, ``resign.gives``, issue 42): the house variant
``resign``, "a game left before its end goes to the other team"."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import act, assert_illegal, assert_random_logs_verify, deal, legal, match

from engine import Action, IllegalMoveError
from engine.errors import VariantError
from engine.logformat import record_random
from engine.variant import load_variant

EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: every round ties


def test_resign_gives_the_game_to_the_other_team_scores_unchanged() -> None:
    m = match("resign", deal(0, EVEN_P, "7c"))  # seat 1, the mão, plays first
    assert "resign 1" in legal(m, 1) and not any(a.startswith("resign") for a in legal(m, 0))
    assert_illegal(m, "resign 0", "a player resigns on his own turn; it is seat 1's")
    act(m, "play 1 4d")
    assert act(m, "resign 2") == [
        {"event": "game", "winner": 1, "score": [0, 0], "games": [0, 1]},
        {"event": "match", "winner": 1, "games": [0, 1]}]
    assert m.is_over and m.winner == 1
    paulista = match("paulista", deal(0, EVEN_P, "7c"))
    with pytest.raises(IllegalMoveError, match=r"no resignation in this variant") as info:
        paulista.apply(Action("resign", 1))
    assert info.value.code == "not_in_variant"


def test_resign_not_while_a_raise_waits_for_its_answer() -> None:
    m = match("resign", deal(0, EVEN_P, "7c"))
    act(m, "raise 1 3")
    assert_illegal(m, "resign 0", "a raise is waiting for its answer")


def _best_of_3(tmp_path: Path, gives: str) -> object:
    path = tmp_path / f"resign-{gives}.yaml"
    path.write_text(f"extends: mineiro\nresign:\n  allowed: true\n  gives: {gives}\n",
                    encoding="utf-8")
    return load_variant(path)


@pytest.mark.parametrize(("gives", "over"), [("game", False), ("match", True)])
def test_resign_gives_the_game_or_the_match(tmp_path: Path, gives: str, over: bool) -> None:
    m = match(_best_of_3(tmp_path, gives), deal(0, "5c 6c Kc | 5d 6d Kd | 5h 6h Kh | 5s 6s Ks"))
    events = act(m, "resign 1")
    assert events[0] == {"event": "game", "winner": 0, "score": [0, 0], "games": [1, 0]}
    assert m.is_over is over
    if not over:
        assert m.state == "deal" and m.score == [0, 0]  # the next game starts


def test_resign_is_logged_in_version_2_and_verified(tmp_path: Path) -> None:
    seed = next(s for s in range(50) if '"event": "resign"' in record_random("resign", s))
    assert record_random("resign", seed).startswith('{"truco_log": 2')
    assert_random_logs_verify("resign", tmp_path)


@pytest.mark.parametrize(("text", "says"), [
    ("extends: paulista\nresign:\n  gives: match\n", "expected resign.allowed: true"),
    ("extends: three-players\nresign:\n  allowed: true\n", "expected two teams"),
])
def test_resign_keys_that_cannot_act_are_refused(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError, match=says):
        load_variant(path)
