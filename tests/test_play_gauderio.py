"""``truco play`` of Gaudério's side bets as its players say them (issue 25): the proof of a
declaration told as such, never as a raise; declarations by the players' names."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from helpers import deal, match

from engine import Action, Match
from engine.bots.base import Observation
from engine.cli.play_cmd import _Game, seat_names


class _First:
    """A bot that always makes the first legal move."""

    name = "first"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return legal_actions[0]


def _run(m: Match, answers: str, capsys: pytest.CaptureFixture[str]) -> str:
    names = seat_names(["human", "first", "first", "first"])
    _Game(m, 0, {s: _First() for s in (1, 2, 3)}, "Gaudério", None, io.StringIO(answers),
          names).run()
    return capsys.readouterr().out


def test_G32_a_flor_shown_at_the_end_is_no_raise(capsys: pytest.CaptureFixture[str]) -> None:
    m = match("gauderio", deal(0, "Qs 2s 3s | 4c 5d 6h | 4d 5h 6c | 7h Kd Jc"))
    out = _run(m, "a\n" * 3, capsys)  # sing the flor, then play the strongest cards
    assert "raised with" not in out
    assert "  shown for the flor: you Q♠\n" in out
