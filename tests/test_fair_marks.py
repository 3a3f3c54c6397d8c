"""The measure of issue 44's "fair marks" target (``benchmarks/fair_marks.py``): its exact value
against an opponent who answers by his own cards is right where it can be worked out by hand,
and the script runs and prints its figures (the rate itself is a measurement, not a test)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from helpers import doctests

from benchmarks import fair_marks
from benchmarks.fair_marks import FairExact
from engine import Match
from engine.actions import Action
from engine.bots.winchance import win_chance


def _card(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "card": card, "covered": False}


def _last_round(led: str, held: str, seen: str) -> dict[str, Any]:
    """One on one, vira 3h (manilhas 4d < 4s < 4h < 4c), 9-9, worth 1: seat 1 took round 1,
    seat 0 round 2; in round 3 seat 0 led ``led`` (his last card, the third he was dealt
    with Kd and 2s) and seat 1 holds ``held``, having played 3c and ``seen``."""
    rounds = [{"cards": [_card(1, "3c"), _card(0, "Kd")], "winner": 1},
              {"cards": [_card(1, seen), _card(0, "2s")], "winner": 0}]
    return {
        "position": 1, "state": "play", "score": [9, 9], "games": [0, 0], "winner": None,
        "dealer": 0, "hand_number": 5, "value": 1, "special": None, "pending": None,
        "refused": [], "last_raise_team": None, "vira": "3h", "shown": [],
        "bound": [None, None], "last_hand": None, "rng": None,
        "hands": [[], [held]], "dealt": [["Kd", "2s", led], ["3c", seen, held]],
        "rounds": rounds,
        "round": {"number": 3, "leader": 0, "turn": 1, "cards": [_card(0, led)]}}


def _values(position: dict[str, Any]) -> tuple[list[float | None], float, float]:
    m = Match.from_position("one-on-one", position)
    moves = m.legal_actions(1)
    assert moves == [Action.play(1, "4c"), Action.play(1, "4c", covered=True),
                     Action.raise_to(1, 3)]
    # seat 1 takes the hand with the zap (9-10), or loses it covering the zap (10-9)
    chance = win_chance(m.rules)
    won, lost = chance.match([9, 10], [0, 0])[1], chance.match([10, 9], [0, 0])[1]
    return FairExact(m.rules, m.position(), 1).values(moves), won, lost


def test_the_opponent_accepts_a_raise_his_cards_say_he_wins() -> None:
    # Seat 0 led the lowest manilha: of the 34 cards he has not seen (40, less the vira, his
    # three and seat 1's 3c and 5d) only 4s, 4h and 4c beat it, so to him accepting truco is
    # worth 31/34 (three points end the match: 12 or the other team's 12), more than folding
    # (9-10, 0.476): he accepts, and seat 1, holding the zap, wins the match.
    values, won, lost = _values(_last_round("4d", "4c", "5d"))
    assert values == [pytest.approx(won), pytest.approx(lost), pytest.approx(1.0)]


def test_the_opponent_folds_a_raise_his_cards_say_he_loses() -> None:
    # Seat 0 led the 5s: every card he has not seen beats it or ties it (the 4s are manilhas;
    # a tie of round 3 goes to seat 1, who took round 1), so accepting is worth 0 to him and
    # he folds: the raise gains seat 1 nothing over playing the card (9-10 either way).
    values, won, lost = _values(_last_round("5s", "4c", "6d"))
    assert values == [pytest.approx(won), pytest.approx(lost), pytest.approx(won)]


def test_the_script_prints_its_figures() -> None:
    out = io.StringIO()
    tallies = fair_marks.measure(12, 0, rounds=(3,), out=out)
    text = out.getvalue()
    assert "12 decisions of round 3 analysed" in text
    t = tallies["all"]
    assert f"| all | {t.marks} | {t.bad} |" in text
    assert "Marks recommending a move worse than the one played:" in text
    again = io.StringIO()
    fair_marks.measure(12, 0, rounds=(3,), out=again)
    assert again.getvalue() == text  # deterministic for a seed


def test_saved_positions_are_measured_alike(tmp_path: Any, capsys: Any) -> None:
    saved = tmp_path / "positions.pkl"
    args = ["--positions", "6", "--rounds", "3"]
    assert fair_marks.main([*args, "--save-positions", str(saved)]) == 0
    made = capsys.readouterr().out
    assert fair_marks.main([*args, "--load-positions", str(saved)]) == 0
    loaded = capsys.readouterr().out
    assert f"--load-positions {saved}`" in loaded
    assert loaded.replace(f" --load-positions {saved}", "") == made


@pytest.mark.parametrize("module", ["benchmarks.fair_marks"])
def test_docstring_examples_run(module: str) -> None:
    result = doctests(module)
    assert result.attempted >= 1 and result.failed == 0
