"""Malformed moves (issue 10, item 3): every malformed ``Action`` is a clear ``ValueError``,
at construction or in :meth:`Match.apply`, and changes nothing in the match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine import Action, IllegalMoveError, Match


def _state(m: Match) -> list[Any]:
    return [m.state, m.score[:], m.games[:], m.turn, m.value, m.pending, m.hand_number,
            [h[:] for h in m.hands], m.played[:], [m.observation(s) for s in range(m.players)],
            [str(a) for a in m.legal_actions()]]


BAD_CONSTRUCTIONS: list[tuple[str, Callable[[], Action]]] = [
    ("card 68", lambda: Action.play(1, 68)),  # 52..67 are the extra cards X1..X16
    ("card -1", lambda: Action.play(1, -1)),
    ("card 99", lambda: Action.play(1, 99)),
    ("card a float", lambda: Action.play(1, 3.0)),  # type: ignore[arg-type]
    ("card a bool", lambda: Action.play(1, True)),
    ("card None", lambda: Action.play(1, None)),  # type: ignore[arg-type]
    ("card not a name", lambda: Action.play(1, "1x")),
    ("raise card 99", lambda: Action.raise_to(1, 3, 99)),
    ("seat -1", lambda: Action.play(-1, "4c")),
    ("seat a string", lambda: Action.accept("1")),  # type: ignore[arg-type]
    ("seat a float", lambda: Action.fold(1.0)),  # type: ignore[arg-type]
    ("seat a bool", lambda: Action.fold(True)),
    ("seat None", lambda: Action.accept(None)),  # type: ignore[arg-type]
    ("value a string", lambda: Action.raise_to(1, "3")),  # type: ignore[arg-type]
    ("value a float", lambda: Action.raise_to(1, 3.0)),  # type: ignore[arg-type]
    ("value None", lambda: Action("raise", 1)),
    ("covered not a bool", lambda: Action.play(1, "4c", covered=1)),  # type: ignore[arg-type]
    ("decide not a bool", lambda: Action.decide(1, 1)),  # type: ignore[arg-type]
    ("unknown kind", lambda: Action("bet", 1)),  # type: ignore[arg-type]
    ("accept with a card", lambda: Action("accept", 1, 3)),
    ("fold with a value", lambda: Action("fold", 1, value=3)),
    ("play with a value", lambda: Action("play", 1, 3, False, 3)),
    ("decide with a card", lambda: Action("decide", 1, 3, play_on=True)),
]


@pytest.mark.parametrize("build", [b for _, b in BAD_CONSTRUCTIONS],
                         ids=[i for i, _ in BAD_CONSTRUCTIONS])
def test_a_malformed_action_cannot_be_built(build: Callable[[], Action]) -> None:
    with pytest.raises(ValueError) as info:
        build()
    assert not isinstance(info.value, (IndexError, TypeError))
    assert "must be" in str(info.value) or "takes" in str(info.value) \
        or "not a" in str(info.value)


@pytest.mark.parametrize("variant", ["paulista", "mineiro"])
@pytest.mark.parametrize("move", [
    Action.play(7, "4c"), Action.accept(4), Action.raise_to(9, 3), Action.decide(5, True),
    Action.play(1, "8c"),  # not in either deck's hands (Mineiro has no 8s)
    Action.raise_to(1, 4), Action.raise_to(1, 3, "Kd"), Action.accept(1), Action.fold(0),
    Action.decide(0, False),
    "play 1 4c", None, 3, {"event": "play", "seat": 1, "card": "4c"},
], ids=str)
def test_a_malformed_move_is_refused_and_changes_nothing(variant: str, move: Any) -> None:
    m = Match.new(variant, seed=11)
    twin = m.clone()
    before = _state(m)
    with pytest.raises(ValueError) as info:
        m.apply(move)
    assert "legal:" in str(info.value)
    assert _state(m) == before
    assert _state(twin) == before
    # and the match goes on as the clone does
    legal = m.legal_actions()
    assert m.apply(legal[0]) == twin.apply(legal[0])
    assert _state(m) == _state(twin)


def test_the_reported_case_card_60_is_a_value_error_not_an_index_error() -> None:
    m = Match.new("paulista", seed=1)
    with pytest.raises(ValueError, match="card code 0..67, not 68"):
        m.apply(Action.play(m.turn, 68))
    with pytest.raises(IllegalMoveError, match="does not hold X9"):  # 60: an extra card, X9
        m.apply(Action.play(m.turn, 60))
    with pytest.raises(ValueError, match="not -1"):
        Action.play(m.turn, -1)  # once printed as Ks


def test_well_formed_moves_still_build_and_round_trip() -> None:
    for action in (Action.play(0, "Ks"), Action.play(3, 0, covered=True), Action.raise_to(1, 3),
                   Action.raise_to(2, 12, "Ac"), Action.accept(0), Action.fold(1),
                   Action.decide(2, False)):
        assert Action.from_event(action.to_event()) == action
