"""The last house rules of the catalogue (issue 24 section 3), each a key read by general code
and a house variant, tested rule by rule on explicit deals (dealer 0: seat 1 is the mão):
#29 doze e em seguida queda (``doze-e-queda``)."""

from __future__ import annotations

import pytest
from conftest import WriteFile
from helpers import act, deal, legal, of

from engine import Match, VariantError, find_variant, load_variant

# -- #29 doze, e em seguida queda: a step worth the match after a 12 ------------------------------
#: Mineiro: seat 0 holds the three top manilhas, so team 0 wins the first two rounds.
QUEDA = deal(0, "4c 7h As | 5d 6d Kd | 5h 6h Kh | 5s 6s Ks")
#: truco, seis, nove and doze, each raise back accepting the one before: doze waits for seat 1.
TO_DOZE = ("raise 1 3 5d", "raise 0 6 4c", "raise 1 9 5d", "raise 0 12 4c")
#: The rest of the hand once every raise is answered: team 0 wins rounds 1 and 2.
PLAY_OUT = ("play 1 5d", "play 2 5h", "play 3 5s", "play 0 4c",
            "play 0 7h", "play 1 6d", "play 2 6h", "play 3 6s")


def test_catalogue_29_the_ladder_is_doze_then_queda_worth_the_match() -> None:
    rules = find_variant("doze-e-queda")
    assert [(s.value, s.name, s.game, s.match) for s in rules.ladder] == [
        (3, "truco", False, False), (6, "seis", False, False), (9, "nove", False, False),
        (12, "doze", False, False), (24, "queda", True, True)]
    for variant, queda in (("mineiro-12", False), ("doze-e-queda", True)):
        m = Match.from_deals(variant, [QUEDA])
        act(m, *TO_DOZE)
        assert ("raise 1 24 5d" in legal(m, 1)) is queda  # the queda after the doze
        assert legal(m, 1)[:2] == ["accept 1", "fold 1"]


def test_catalogue_29_queda_accepted_wins_the_match_at_once() -> None:
    m = Match.from_deals("doze-e-queda", [QUEDA])
    act(m, *TO_DOZE, "raise 1 24 5d")
    assert m.observation(0)["pending_raise"] == {"seat": 1, "value": 24, "name": "queda"}
    assert legal(m, 0) == ["accept 0", "fold 0"]  # the top: no raise beyond the match
    again = Match.from_position("doze-e-queda", m.position())  # a position pending the queda
    events = act(m, "accept 0", *PLAY_OUT)
    assert act(again, "accept 0", *PLAY_OUT) == events
    # the winner's score goes to the target (what it lacked), the game and the match with it,
    # though Mineiro's match is the best of 3 games (M8)
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 12,
                                   "score": [12, 0]}]
    assert of(events, "game") == [{"event": "game", "winner": 0, "score": [12, 0],
                                   "games": [1, 0]}]
    assert of(events, "match") == [{"event": "match", "winner": 0, "games": [1, 0]}]
    assert m.is_over


def test_catalogue_29_doze_accepted_is_worth_12_and_one_game() -> None:
    m = Match.from_deals("doze-e-queda", [QUEDA])
    events = act(m, *TO_DOZE, "accept 1", *PLAY_OUT)
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 12,
                                   "score": [12, 0]}]
    assert of(events, "game")[0]["games"] == [1, 0]
    assert not of(events, "match") and not m.is_over  # a game of the queda, not the queda


def test_catalogue_29_queda_refused_scores_the_doze() -> None:
    m = Match.from_deals("doze-e-queda", [QUEDA])
    events = act(m, *TO_DOZE, "raise 1 24 5d", "fold 0")
    assert of(events, "hand") == [{"event": "hand", "winner": 1, "points": 12,
                                   "score": [0, 12]}]
    assert of(events, "game")[0]["games"] == [0, 1]
    assert not of(events, "match")


_LADDER = ("extends: mineiro-12\nbetting:\n  ladder:\n    - {value: 3, name: truco}\n"
           "    - {value: 12, name: doze}\n")


@pytest.mark.parametrize(("last", "key_path", "words"), [
    # the old spelling after a 12: the target is no step above it; the error says what to write
    ("    - {value: match, name: queda}\n", "betting.ladder[2].value",
     "give it a value of its own with worth: {value: 13, name: queda, worth: match}"),
    # worth on a step that is worth the game already
    ("    - {value: game, name: queda, worth: match}\n", "betting.ladder[2].worth",
     "expected worth only on a step with a numeric value"),
    # a step worth the game scores the game at least
    ("    - {value: 11, name: queda, worth: game}\n", "betting.ladder[2].value",
     "expected a value of at least game.target (12), found 11"),
])
def test_catalogue_29_wrong_uses_of_worth_are_clear_errors(write: WriteFile, last: str,
                                                           key_path: str, words: str) -> None:
    path = write("v.yaml", _LADDER + last)
    with pytest.raises(VariantError) as info:
        load_variant(path)
    lines = [line for line in str(info.value).splitlines() if f": {key_path}: " in line]
    assert lines and words in lines[0] and str(path) in lines[0], str(info.value)


def test_catalogue_29_worth_only_on_the_last_step(write: WriteFile) -> None:
    path = write("v.yaml", _LADDER.replace("{value: 3, name: truco}",
                                           "{value: 13, name: truco, worth: match}"))
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert "betting.ladder[0].worth: expected the step worth the match last in the ladder" \
        in str(info.value)
