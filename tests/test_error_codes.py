"""One test per error code of a refused move or deal (docs/error-codes.md): each builds the exact
situation on explicit deals, makes the refused move, and checks the code, that the match is
unchanged (its position, docs/positions.md) and that the legal moves are still offered. Then
the docs' list of codes is checked against the tests: every code is asserted somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO, WriteFile
from helpers import deal, legal, match, parse_action, score_to

from engine import Action, Deal, IllegalMoveError, Match
from engine.variant import load_variant

#: Paulista, dealer 0 (seat 1 is the mão), vira 7c: the Qs are the manilhas, none is dealt.
#: Seat 1's 3d is the strongest card; seat 2's 5s beat nothing of seat 1's.
PAULISTA = "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h"
#: The same cards in every seat's first round: round 1 ties (C5).
EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"
#: Mineiro (fixed manilhas 7d As 7h 4c, none dealt), dealer 0: round 1 is all 5s, tied.
EVEN_M = "5c 6c Kc | 5d 3d 6d | 5h 6h Kh | 5s 6s Ks"


def refused(m: Match, move: str | Action, code: str) -> IllegalMoveError:
    """``move`` is refused with ``code``; the match is unchanged (the same position) and offers
    the same legal moves, which the error lists."""
    action = parse_action(move) if isinstance(move, str) else move
    before = m.position()
    offered = legal(m)
    assert offered, "the situation offers no move"
    assert action not in m.legal_actions()
    with pytest.raises(IllegalMoveError) as info:
        m.apply(action)
    err = info.value
    assert err.code == code, str(err)
    assert err.move is action
    assert [str(a) for a in err.legal] == offered
    assert m.position() == before
    assert legal(m) == offered
    return err


def deal_refused(m: Match, bad: Deal, code: str, good: Deal) -> IllegalMoveError:
    """``Match.deal(bad)`` is refused with ``code``; the match still waits for its deal,
    unchanged, and ``good`` is dealt."""
    before = m.position()
    assert m.state == "deal" and legal(m) == []
    with pytest.raises(IllegalMoveError) as info:
        m.deal(bad)
    err = info.value
    assert err.code == code, str(err)
    assert err.move is bad
    assert "nothing (a deal is awaited)" in str(err)
    assert m.position() == before
    assert m.state == "deal" and legal(m) == []
    m.deal(good)
    assert m.state != "deal" and legal(m)
    return err


def _tied_first_round(m: Match) -> None:
    """Play round 1 of ``EVEN_P``/``EVEN_M``: every seat its first card, a tie."""
    for seat in (1, 2, 3, 0):
        m.apply(Action.play(seat, m.hands[seat][0]))
    assert m.hand.results == [None] and m.turn == 1


# -- playing a card ------------------------------------------------------------------------------
def test_position_not_a_move_a_blind_hands_move_by_position_is_refused() -> None:
    m = match("paulista", deal(0, PAULISTA, "7c"))
    err = refused(m, Action.play_at(1, 0), "position_not_a_move")
    assert "bot's view" in err.why
    refused(m, Action("raise", 1, value=3, position=0), "position_not_a_move")


def test_bound_card_the_card_named_with_an_accepted_raise_is_played_next() -> None:
    m = match("mineiro", deal(0, EVEN_M))
    act_all(m, "raise 1 3 3d", "accept 2")
    assert legal(m, 1) == ["play 1 3d"]
    refused(m, "play 1 5d", "bound_card")


def test_bound_card_covered_a_card_shown_with_a_raise_cannot_be_covered(
        write: WriteFile) -> None:
    """M4 with P7: only in a variant that names the raise's card and has covered cards (no
    shipped or house variant has both)."""
    path = write("mineiro-covered.yaml", "extends: mineiro\ncovered_cards:\n  allowed: true\n")
    m = match(load_variant(path), deal(0, EVEN_M))
    _tied_first_round(m)
    assert "play 1 3d covered" in legal(m, 1)  # covered cards from round 2
    act_all(m, "raise 1 3 3d", "accept 2")
    assert legal(m, 1) == ["play 1 3d"]
    refused(m, "play 1 3d covered", "bound_card_covered")


def test_covered_not_allowed_a_variant_without_covered_cards() -> None:
    for variant, may in (("paulista", True), ("no-covered-cards", False)):
        m = match(variant, deal(0, PAULISTA, "7c"))
        act_all(m, "play 1 3d", "play 2 5c", "play 3 6c", "play 0 4c")  # seat 1 leads round 2
        assert ("play 1 2d covered" in legal(m, 1)) is may
        if not may:
            refused(m, "play 1 2d covered", "covered_not_allowed")


def test_covered_too_early_no_covered_card_in_round_1() -> None:
    for variant, may in (("paulista", False), ("covered-from-round-1", True)):
        m = match(variant, deal(0, PAULISTA, "7c"))
        assert ("play 1 3d covered" in legal(m, 1)) is may
        if not may:
            err = refused(m, "play 1 3d covered", "covered_too_early")
            assert "round 2" in err.why


def test_leader_face_up_the_rounds_leader_cannot_cover() -> None:
    m = match("leader-face-up", deal(0, PAULISTA, "7c"))
    act_all(m, "play 1 3d", "play 2 5c", "play 3 6c", "play 0 4c")
    refused(m, "play 1 2d covered", "leader_face_up")


def test_no_cover_after_tie_no_covered_card_once_a_round_tied() -> None:
    m = match("no-cover-after-tie", deal(0, EVEN_P, "7c"))
    _tied_first_round(m)
    refused(m, "play 1 5d covered", "no_cover_after_tie")


def test_not_highest_card_after_a_tied_first_round() -> None:
    m = match("highest-after-tied-first", deal(0, "4c 5c Kc | 4d 2d 6d | 4h 5h 6h | 4s As 6s",
                                               "7c"))
    _tied_first_round(m)
    assert legal(m, 1) == ["play 1 2d", "raise 1 3"]
    refused(m, "play 1 6d", "not_highest_card")


def test_highest_face_up_the_highest_card_after_a_tied_first_round_is_not_covered() -> None:
    m = match("highest-after-tied-first", deal(0, "4c 5c Kc | 4d 2d 6d | 4h 5h 6h | 4s As 6s",
                                               "7c"))
    _tied_first_round(m)
    refused(m, "play 1 2d covered", "highest_face_up")


# -- raising -------------------------------------------------------------------------------------
def test_same_team_raised_last_a_team_cannot_raise_twice_in_a_row() -> None:
    m = match("paulista", deal(0, PAULISTA, "7c"))
    act_all(m, "raise 1 3", "accept 2", "play 1 3d", "play 2 5c")
    assert m.turn == 3 and legal(m, 3) == ["play 3 6c", "play 3 6d", "play 3 6h"]
    refused(m, "raise 3 6", "same_team_raised_last")


def test_ladder_exhausted_no_raise_past_the_ladders_top() -> None:
    m = match("mineiro", deal(0, EVEN_M))  # the ladder stops at 9
    act_all(m, "raise 1 3 3d", "raise 2 6 5h", "raise 1 9 3d")
    assert not [a for a in m.legal_actions() if a.kind == "raise"]
    refused(m, "raise 2 12 5h", "ladder_exhausted")


def test_wrong_step_a_raise_names_the_next_step() -> None:
    m = match("paulista", deal(0, PAULISTA, "7c"))
    refused(m, "raise 1 6", "wrong_step")
    act_all(m, "raise 1 3")
    refused(m, "raise 2 9", "wrong_step")  # a raise back too


def test_not_challenged_the_raisers_team_neither_answers_nor_raises_back() -> None:
    m = match("paulista", deal(0, PAULISTA, "7c"))
    act_all(m, "raise 1 3")
    refused(m, "accept 3", "not_challenged")
    refused(m, "fold 1", "not_challenged")
    refused(m, "raise 3 6", "not_challenged")


def test_raise_not_allowed_in_a_special_hand_that_refuses_raises() -> None:
    """one-on-one: at 11 a raise is refused, not penalised (P5 house)."""
    m = match("one-on-one")
    score_to(m, (11, 4))
    m.deal(deal(m.dealer, "4c 5c 6c | 4d 5d 6d", "7c"))
    assert m.state == "decide"
    refused(m, Action.raise_to(0, 6), "raise_not_allowed")
    act_all(m, "decide 0 play")
    assert m.state == "play"
    refused(m, Action.raise_to(m.turn, 6), "raise_not_allowed")


def test_decision_first_a_special_hand_that_allows_raises_decides_first(
        write: WriteFile) -> None:
    """M5 with raises allowed: only in a variant whose decision hand allows raises (no shipped
    or house variant has one)."""
    path = write("decide-then-raise.yaml", "extends: paulista-mao-de-11-decision\n"
                 "special_hands:\n  one_team:\n    raises: allowed\n")
    m = match(load_variant(path))
    score_to(m, (11, 4))
    m.deal(deal(m.dealer, EVEN_P, "7c"))
    assert m.state == "decide"
    refused(m, Action.raise_to(0, 6), "decision_first")
    act_all(m, "decide 0 play")
    assert Action.raise_to(m.turn, 6) in m.legal_actions()  # after the decision, a raise


def test_no_card_to_name_a_seat_with_no_card_left_cannot_raise() -> None:
    m = match("mineiro", deal(0, "5c 6c Kd | 3s 5d 6d | Qc Jc 2h | Qd Jd 3c"))
    act_all(m, "play 1 3s", "play 2 Qc", "play 3 Qd", "play 0 5c",  # team 1
            "play 1 5d", "play 2 2h", "play 3 Jd", "play 0 6c",  # team 0: seat 2 leads
            "play 2 Jc", "play 3 3c")
    assert m.hands[3] == [] and m.state == "play"
    assert Action.raise_to(1, 3, "6d") in m.legal_actions()  # M3: out of turn, with a card
    refused(m, "raise 3 3", "no_card_to_name")


def test_card_not_named_a_raise_names_its_card() -> None:
    m = match("mineiro", deal(0, EVEN_M))
    refused(m, "raise 1 3", "card_not_named")


def test_card_named_a_variant_whose_raises_name_no_card() -> None:
    m = match("paulista", deal(0, PAULISTA, "7c"))
    refused(m, "raise 1 3 3d", "card_named")


def test_does_not_beat_table_a_raisers_best_card_beats_the_table() -> None:
    for variant, may in (("paulista", True), ("raiser-must-beat", False)):
        m = match(variant, deal(0, PAULISTA, "7c"))
        act_all(m, "play 1 3d")  # seat 2's 5s beat nothing
        assert ("raise 2 3" in legal(m, 2)) is may
        if not may:
            refused(m, "raise 2 3", "does_not_beat_table")


# -- answering, deciding, conceding ----------------------------------------------------------
def test_not_next_seat_only_the_seat_after_the_raiser_answers() -> None:
    m = match("next-seat-answers", deal(0, PAULISTA, "7c"))
    act_all(m, "raise 1 3")
    assert {a.seat for a in m.legal_actions()} == {2}
    refused(m, "accept 0", "not_next_seat")
    refused(m, "fold 0", "not_next_seat")


def test_folded_already_a_seat_that_folded_answers_no_more() -> None:
    m = match("both-refuse", deal(0, PAULISTA, "7c"))
    act_all(m, "raise 1 3", "fold 2")
    assert m.state == "answer" and {a.seat for a in m.legal_actions()} == {0}
    refused(m, "accept 2", "folded_already")
    refused(m, "fold 2", "folded_already")


def test_not_deciding_team_only_the_team_at_the_score_decides() -> None:
    m = match("mineiro")
    score_to(m, (10, 4))
    m.deal(deal(m.dealer, EVEN_M))
    assert m.state == "decide" and {a.seat for a in m.legal_actions()} == {0, 2}
    refused(m, "decide 1 play", "not_deciding_team")
    refused(m, "decide 3 fold", "not_deciding_team")


def test_no_concede_in_special_hand_unless_the_variant_says_so() -> None:
    m = match("concede")
    score_to(m, (11, 4))
    m.deal(deal(m.dealer, EVEN_P, "7c"))
    assert m.state == "play" and m.value == 3  # the mão de onze
    assert not [a for a in m.legal_actions() if a.kind == "concede"]
    refused(m, Action.concede(m.turn), "no_concede_in_special_hand")


# -- deals ---------------------------------------------------------------------------------------
GOOD = deal(0, PAULISTA, "7c")


def test_wrong_dealer_the_dealer_is_the_one_by_rotation() -> None:
    err = deal_refused(match("paulista"), deal(1, PAULISTA, "7c"), "wrong_dealer", GOOD)
    assert "seat 0" in err.why


def test_wrong_hand_count_one_hand_per_seat() -> None:
    deal_refused(match("paulista"), deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h", "7c"),
                 "wrong_hand_count", GOOD)


def test_wrong_card_count_each_hand_of_the_variants_size() -> None:
    deal_refused(match("paulista"), deal(0, "4c 7h As | 3d 2d | 5c 5d 5h | 6c 6d 6h", "7c"),
                 "wrong_card_count", GOOD)


def test_vira_missing_a_variant_that_turns_a_vira() -> None:
    deal_refused(match("paulista"), deal(0, PAULISTA), "vira_missing", GOOD)


def test_vira_not_allowed_a_variant_without_a_vira() -> None:
    deal_refused(match("mineiro"), deal(0, EVEN_M, "7c"), "vira_not_allowed", deal(0, EVEN_M))


def test_card_not_in_deck_a_card_outside_the_variants_deck() -> None:
    err = deal_refused(match("paulista"), deal(0, "4c 7h 8s | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h",
                                                "7c"), "card_not_in_deck", GOOD)
    assert "8s" in err.why
    deal_refused(match("paulista"), deal(0, PAULISTA, "Ts"), "card_not_in_deck", GOOD)  # vira


def test_card_dealt_twice_no_card_in_two_places() -> None:
    err = deal_refused(match("paulista"), deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 4c",
                                                "7c"), "card_dealt_twice", GOOD)
    assert "4c" in err.why
    deal_refused(match("paulista"), deal(0, PAULISTA, "As"), "card_dealt_twice", GOOD)  # vira


def test_a_seeded_match_never_waits_for_a_deal() -> None:
    """The code for a recorded deal given to a seeded match (docs/error-codes.md, Deals) is
    never given: a seeded match deals each hand from its seed as the hand before ends, so it
    is never in state ``deal``, and a recorded deal is refused first as not awaited."""
    m = Match.new("paulista", seed=3)
    while not m.is_over:
        assert m.state != "deal"
        if m.state == "play" and not m.round.cards:
            assert refused_deal_code(m) == "not_now"
        m.apply(m.legal_actions()[0])
    assert refused_deal_code(m) == "match_over"


def refused_deal_code(m: Match) -> str:
    with pytest.raises(IllegalMoveError) as info:
        m.deal(GOOD)
    return info.value.code


def act_all(m: Match, *moves: str) -> None:
    """Apply moves written as text (each legal)."""
    for text in moves:
        action = parse_action(text)
        assert action in m.legal_actions(), (text, legal(m))
        m.apply(action)


# -- every documented code is asserted by a test ------------------------------------------------
#: Codes of docs/error-codes.md that no move or deal can produce, and why (no test can assert
#: them without faking the situation).
UNREACHABLE = {
    "seeded_match": "a seeded match is never in state deal: Match.deal refuses a recorded deal "
                    "as not_now (or match_over) before the deal's judge is asked",
}


def _asserted(code: str, sources: str) -> bool:
    """Whether a test quotes ``code`` as a value (not as a dict key, like a variant key)."""
    return re.search(rf"""(["']){code}\1(?!\s*:)""", sources) is not None


def test_every_documented_code_is_asserted_by_a_test() -> None:
    doc = (REPO / "docs" / "error-codes.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z_]+)` \|", doc, flags=re.MULTILINE)
    assert "card_twice" in listed and "not_your_turn" in listed  # positions and moves
    sources = "\n".join(p.read_text(encoding="utf-8")
                        for p in sorted(Path(REPO / "tests").rglob("*.py")))
    missing = [c for c in listed if c not in UNREACHABLE and not _asserted(c, sources)]
    assert missing == [], f"documented codes that no test asserts: {missing}"
    assert set(UNREACHABLE) <= set(listed)
    assert [c for c in UNREACHABLE if _asserted(c, sources)] == [], \
        "a code listed as unreachable is asserted by a test: remove it from UNREACHABLE"
