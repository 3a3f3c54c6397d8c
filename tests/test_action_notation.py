"""The log notation read back (issue 27, item 1): ``Action.parse`` is the inverse of
``str(Action)`` for every move a match offers, and any other text is a clear error naming what
was expected. Each kind's notation, log event and repr derive from its declared payload."""

from __future__ import annotations

import random

import pytest
from helpers import reached_by_hand
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Action, Match
from engine.actions import kinds
from engine.bots.base import seat_view
from engine.payload import NotationError
from engine.resources import shipped_variants

VARIANTS = sorted(shipped_variants())


def _moves_of_a_random_match(variant: str, seed: int, steps: int = 120,
                             calm: bool = False) -> list[Action]:
    """Every legal move (and every bot's view of one, P6/M3) met in a random match (``calm``:
    raising only when nothing else is legal, so that the scores reach the special hands)."""
    rng = random.Random(seed)
    m = Match.new(variant, seed=seed)
    met: list[Action] = [Action.pass_(s) for s in range(m.players)]
    for _ in range(steps):
        if m.is_over:
            break
        legal = m.legal_actions()
        met += legal
        for seat in {a.seat for a in legal}:
            met += seat_view(m, seat)[1]
        calm_moves = [a for a in legal if a.kind != "raise"] if calm else []
        m.apply(rng.choice(calm_moves or legal))
    return met


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=3, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_parse_reads_back_every_move_str_writes(variant: str, seed: int) -> None:
    for a in _moves_of_a_random_match(variant, seed):
        text = str(a)
        assert Action.parse(text) == a, text
        assert eval(repr(a), {"Action": Action}) == a, repr(a)  # noqa: S307 - our own repr
        if a.position is None and a.kind != "pass":
            assert Action.from_event(a.to_event()) == a
            assert Action.of(a.kind, a.seat, **{k: v for k, v in a.to_event().items()
                                                  if k not in ("event", "seat")}) == a


def test_every_declared_kind_is_met_in_the_shipped_variants() -> None:
    """The property above sees every kind of move (so no kind's notation goes untested)."""
    met = {a.kind for v in ("gauderio", "mineiro", "concede", "gauderio-truco-any-time",
                            "cut", "redeal", "resign", "concede-partner-confirms")
           for seed in range(2) for calm in (False, True)
           for a in _moves_of_a_random_match(v, seed, steps=5000, calm=calm)}
    for m in reached_by_hand().values():  # the rare phases' moves (test_house_* read them)
        met |= {a.kind for a in m.legal_actions()}
    assert met == set(kinds())


@pytest.mark.parametrize(("text", "expected"), [
    ("", "expected a kind of move (one of decide, play, raise, pass, accept, fold"),
    ("bet 1", "'bet 1' is not a move: expected a kind of move"),
    ("play", "expected a seat number after 'play', found the end of the move"),
    ("play one 4c", "expected a seat number after 'play', found 'one'"),
    ("play \u00b2 4c", "expected a seat number after 'play', found '\u00b2'"),
    ("play 1", "expected a card (like '4c', or '#1' for a hand's first card) after 'play 1'"),
    ("play 1 4x", "expected a card after 'play 1': '4x' is not a card"),
    ("play 1 #0", "expected a card's place in the hand (#1, #2, ...) after 'play 1'"),
    ("play 1 4c face-down", "unexpected 'face-down' after 'play 1 4c'"),
    ("play 1 4c covered", None),
    ("raise 2", "expected a value (a number) after 'raise 2', found the end of the move"),
    ("raise 2 three", "expected a value (a number) after 'raise 2', found 'three'"),
    ("raise 2 3 4c 5c", "unexpected '5c' after 'raise 2 3 4c'"),
    ("decide 0 maybe", "expected play or fold after 'decide 0', found 'maybe'"),
    ("envido 0", "expected a call (a side bet's call, like 'real envido') after 'envido 0'"),
    ("envido 0 " + "x" * 41, "a envido move takes a call"),
    ("accept 1 now", "unexpected 'now' after 'accept 1' (a accept move is written: accept SEAT)"),
    ("play 1 #60", "a play move's position must be a hand position"),
])
def test_bad_text_is_a_clear_error_naming_what_was_expected(text: str,
                                                            expected: str | None) -> None:
    if expected is None:
        assert str(Action.parse(text)) == text
        return
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    assert expected in str(info.value)
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith(repr(text))


@pytest.mark.parametrize(("text", "form"), [
    ("play", "play SEAT CARD [covered]"), ("raise", "raise SEAT VALUE [CARD]"),
    ("decide", "decide SEAT play|fold"), ("flor", "flor SEAT CALL..."),
    ("fold", "fold SEAT"),
])
def test_an_error_shows_how_the_kind_is_written(text: str, form: str) -> None:
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    assert str(info.value).endswith(f"is written: {form})")


WORDS = ["play", "raise", "decide", "envido", "pass", "fold", "1", "0", "4c", "#2", "#0",
         "covered", "x", "-3", "Kd", "99", "real envido"]


@settings(max_examples=300, deadline=None, database=None)
@given(text=st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join) | st.text(max_size=30))
def test_any_text_is_a_move_or_a_notation_error(text: str) -> None:
    try:
        a = Action.parse(text)
    except NotationError as err:
        assert repr(text) in str(err) or str(err).startswith(repr(text))
        return
    assert Action.parse(str(a)) == a
    assert str(a).split()[0] == text.split()[0]


def test_a_kinds_str_and_event_come_from_its_payload() -> None:
    """One field per slot, in the declared order, under its own log key (decide: ``play``)."""
    a = Action.decide(3, False)
    assert (str(a), a.to_event(), repr(a)) == (
        "decide 3 fold", {"event": "decide", "seat": 3, "play": False},
        "Action.decide(3, False)")
    view = Action("raise", 1, value=3, position=0)
    assert (str(view), repr(view)) == ("raise 1 3 #1", "Action('raise', 1, value=3, position=0)")
    assert Action.parse(str(view)) == view
    with pytest.raises(ValueError, match="bot's view"):
        Action.pass_(0).to_event()
    with pytest.raises(ValueError, match="'pass' is not a move"):
        Action.from_event({"event": "pass", "seat": 0})
    with pytest.raises(ValueError, match="a decide move takes play True or False; found card"):
        Action.of("decide", 0, card="4c")
