"""C1-C12, the rules both seed variants share, on explicit deals.

Most deals are Paulista's with the vira 7c, so the manilhas are the queens and the other
cards rank 4 5 6 7 J K A 2 3. With dealer 0 the mão is seat 1 and rounds go 1, 2, 3, 0.
"""

from __future__ import annotations

import pytest
from helpers import act, assert_illegal, deal, legal, match, of, rounds, score_to, win_hand

from engine import Action, IllegalMoveError, Match, find_variant
from engine.cards import RANKS

V = "7c"  # vira: the queens are the manilhas


def test_C1_four_players_in_two_teams_of_alternate_seats() -> None:
    rules = find_variant("paulista")
    assert rules.players == 4
    m = match("paulista", deal(0, "3c 5c 6c | 2d 5d 6d | 4h 5h 6h | 4s 5s 6s", V))
    assert [m.observation(s)["team"] for s in range(4)] == [0, 1, 0, 1]
    # seat 0 wins round 1 with 3c: team 0; seat 3's win in a later round goes to team 1
    assert rounds(act(m, "play 1 2d", "play 2 4h", "play 3 4s", "play 0 3c")) == [0]
    assert rounds(act(m, "play 0 5c", "play 1 6d", "play 2 5h", "play 3 6s")) == [1]
    fresh = Match.new("paulista", seed=None)
    with pytest.raises(IllegalMoveError, match="expected 4 hands, found 3"):
        fresh.deal(deal(0, "3c 5c 6c | 2d 5d 6d | 4h 5h 6h", V))
    assert fresh.awaiting_deal


def test_C2_forty_card_deck_without_eights_nines_tens() -> None:
    for name in ("paulista", "mineiro"):
        deck = find_variant(name).deck
        assert len(deck) == 40
        assert {RANKS[c % 13] for c in deck} == set("A234567JQK")
    m = Match.new("paulista", seed=None)
    for card in ("8c", "9d", "Th"):
        with pytest.raises(IllegalMoveError, match=f"{card} is not in this variant's deck"):
            m.deal(deal(0, f"{card} 5c 6c | 2d 5d 6d | 4h 5h 6h | 4s 5s 6s", V))
    with pytest.raises(IllegalMoveError, match="8s is not in this variant's deck"):
        m.deal(deal(0, "3c 5c 6c | 2d 5d 6d | 4h 5h 6h | 4s 5s 6s", "8s"))


def test_C3_each_player_gets_three_cards() -> None:
    m = match("paulista", deal(0, "3c 5c 6c | 2d 5d 6d | 4h 5h 6h | 4s 5s 6s", V))
    assert [len(m.observation(s)["hand"]) for s in range(4)] == [3, 3, 3, 3]
    assert m.observation(2)["hand"] == ["4h", "5h", "6h"]
    short = Match.new("paulista", seed=None)
    with pytest.raises(IllegalMoveError, match="seat 1 has 2 cards, expected 3"):
        short.deal(deal(0, "3c 5c 6c | 2d 5d | 4h 5h 6h | 4s 5s 6s", V))
    with pytest.raises(IllegalMoveError, match="5c is dealt twice"):
        short.deal(deal(0, "3c 5c 6c | 2d 5c 6d | 4h 5h 6h | 4s 5s 6s", V))


def test_C4_one_card_each_in_seat_order_from_the_leader_at_most_three_rounds() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s", V))
    order = []
    for rnd in range(3):
        for _ in range(4):
            assert len({a.seat for a in m.legal_actions() if a.kind == "play"}) == 1
            seat = m.turn
            if rnd == 0 and seat == 1:
                assert_illegal(m, "play 2 4h", "it is seat 1's turn")
            order.append(seat)
            card = next(a for a in m.legal_actions(seat) if a.kind == "play")
            events = m.apply(card)
    assert order == [1, 2, 3, 0] * 3
    assert len(of(events, "hand")) == 1  # three tied rounds: the hand is over (P8)
    assert m.awaiting_deal


def test_C5_strongest_card_wins_the_round_for_its_team() -> None:
    m = match("paulista", deal(0, "3c 5c 6c | 2d 5d 6d | 4h 5h 6h | 4s 5s 6s", V))
    assert rounds(act(m, "play 1 2d", "play 2 4h", "play 3 4s", "play 0 3c")) == [0]
    assert m.turn == 0


def test_C5_equal_strongest_cards_of_both_teams_tie() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 5d 6d | 3h 5h 6h | 4s 5s 6s", V))
    assert rounds(act(m, "play 1 3d", "play 2 3h", "play 3 4s", "play 0 4c")) == [None]


def test_C5_equal_strongest_cards_within_one_team_win_and_the_first_played_leads() -> None:
    """Pinned: the first of the team's equal cards leads the next round."""
    m = match("paulista", deal(0, "4c 5c 6c | 3d 5d 6d | 4h 5h 6h | 3s 5s 6s", V))
    assert rounds(act(m, "play 1 3d", "play 2 4h", "play 3 3s", "play 0 4c")) == [1]
    assert m.turn == 1 and m.to_act() == [1]
    m = match("paulista", deal(0, "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 3s 3d 6s", V))
    assert rounds(act(m, "play 1 4d", "play 2 4h", "play 3 3s", "play 0 4c")) == [1]
    assert m.turn == 3


def test_C6_the_mao_leads_round_one_and_the_round_winner_leads_the_next() -> None:
    m = match("paulista", deal(2, "4c 5c 6c | 3d 5d 6d | 4h 5h 6h | 3s 2s 6s", V), dealer=2)
    assert m.mao == 3 and m.turn == 3 and m.to_act() == [3]
    # seat 1's 3d beats everything: seat 1 leads round 2
    assert rounds(act(m, "play 3 2s", "play 0 4c", "play 1 3d", "play 2 4h")) == [1]
    assert m.turn == 1


def test_C6_after_a_tied_round_its_leader_leads_again() -> None:
    """Pinned: "se a vaza empatar não se muda", who led the tied round leads again."""
    m = match("paulista", deal(0, "4c 5c 6c | 3d 5d 6d | 3h 5h 6h | 4s 2s 6s", V))
    assert rounds(act(m, "play 1 3d", "play 2 3h", "play 3 4s", "play 0 4c")) == [None]
    assert m.turn == 1  # seat 2 tied it, seat 1 led it
    m = match("paulista", deal(3, "4c 5c 6c | 3d 5d 6d | 3h 5h 6h | 4s 2s 6s", V), dealer=3)
    assert rounds(act(m, "play 0 4c", "play 1 3d", "play 2 3h", "play 3 4s")) == [None]
    assert m.turn == 0


def _hand(events: list[dict[str, object]]) -> dict[str, object]:
    (hand,) = of(events, "hand")
    return hand


def test_C7_round_one_won_and_round_two_tied_goes_to_the_round_one_winner() -> None:
    m = match("paulista", deal(0, "3c 5c 6c | 2d 5d 6d | 4h 5h 6h | 4s 5s 6s", V))
    events = act(m, "play 1 2d", "play 2 4h", "play 3 4s", "play 0 3c",
                 "play 0 5c", "play 1 5d", "play 2 5h", "play 3 5s")
    assert rounds(events) == [0, None]
    assert _hand(events) == {"event": "hand", "winner": 0, "points": 1, "score": [1, 0]}


def test_C7_round_one_tied_goes_to_the_round_two_winner() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 3h 5h 6h | 4s 5s 6s", V))
    events = act(m, "play 1 3d", "play 2 3h", "play 3 4s", "play 0 4c",
                 "play 1 2d", "play 2 5h", "play 3 5s", "play 0 5c")
    assert rounds(events) == [None, 1]
    assert _hand(events)["winner"] == 1


def test_C7_rounds_one_and_two_tied_go_to_the_round_three_winner() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 3h 2h Kh | 4s 5s 6s", V))
    events = act(m, "play 1 3d", "play 2 3h", "play 3 4s", "play 0 4c",
                 "play 1 2d", "play 2 2h", "play 3 5s", "play 0 5c",
                 "play 1 6d", "play 2 Kh", "play 3 6s", "play 0 6c")
    assert rounds(events) == [None, None, 0]
    assert _hand(events)["winner"] == 0


def test_C7_split_rounds_then_a_tie_go_to_the_round_one_winner() -> None:
    """Pinned (Paulista's "qualquer rodada anterior", the same for Mineiro)."""
    for variant, cards in (("paulista", "4c 5c 6c | 3d 4d 6d | 4h 3h Kh | 4s 5s Ks"),
                           ("mineiro", "5c 6c Qc | 3d 5d 6d | 5h 3h Kh | 5s 6s Ks")):
        vira = V if variant == "paulista" else None
        m = match(variant, deal(0, cards, vira))
        low = "4" if variant == "paulista" else "5"
        events = act(m, "play 1 3d", f"play 2 {low}h", f"play 3 {low}s", f"play 0 {low}c")
        assert rounds(events) == [1] and m.turn == 1
        nxt = "4d" if variant == "paulista" else "5d"
        mid = "5" if variant == "paulista" else "6"
        events = act(m, f"play 1 {nxt}", "play 2 3h", f"play 3 {mid}s", f"play 0 {mid}c")
        assert rounds(events) == [0] and m.turn == 2
        last = "6" if variant == "paulista" else "Q"
        events = act(m, "play 2 Kh", "play 3 Ks", f"play 0 {last}c", "play 1 6d")
        assert rounds(events) == [None]
        assert _hand(events)["winner"] == 1, variant


def test_C7_two_round_wins_end_the_hand_at_once() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    events = act(m, "play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c",
                 "play 1 2d", "play 2 5h", "play 3 5s", "play 0 5c")
    assert rounds(events) == [1, 1]
    assert _hand(events) == {"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}
    assert m.awaiting_deal and m.dealer == 1  # cards are left in hand: no third round


def test_C8_a_hand_starts_at_one_and_raises_climb_the_ladder_without_skipping() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    assert m.value == 1
    assert "raise 1 3" in legal(m, 1)
    assert_illegal(m, "raise 1 6", "next step, 3")
    act(m, "raise 1 3")
    assert_illegal(m, "raise 2 9", "next step, 6")
    act(m, "raise 2 6", "raise 1 9", "raise 0 12")
    assert m.value == 9 and m.pending == (0, 12, None)
    assert not [a for a in m.legal_actions() if a.kind == "raise"]  # the top of the ladder
    act(m, "accept 3")
    assert m.value == 12
    assert_illegal(m, "raise 1 15", "the ladder stops at 12")


def test_C9_accept_makes_the_hand_worth_the_raise_and_play_goes_on() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    act(m, "raise 1 3")
    assert m.state == "answer" and m.value == 1
    assert act(m, "accept 0") == []
    assert m.value == 3 and m.state == "play" and m.turn == 1
    events = act(m, "play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c",
                 "play 1 2d", "play 2 5h", "play 3 5s", "play 0 5c")
    assert _hand(events) == {"event": "hand", "winner": 1, "points": 3, "score": [0, 3]}


def test_C9_fold_gives_the_raising_team_the_value_before_the_raise() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    events = act(m, "raise 1 3", "fold 2")
    assert events == [{"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}]


def test_C9_a_raise_back_accepts_the_pending_raise_so_a_fold_after_3_to_6_scores_3() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    act(m, "raise 1 3", "raise 2 6")
    assert m.value == 3 and m.challenged_team == 1
    # only the challenged team acts on the pending raise
    assert_illegal(m, "accept 0", "only the challenged team")
    assert_illegal(m, "raise 0 9", "only the challenged team may raise back")
    assert_illegal(m, "play 1 3d", "a raise is waiting for its answer")
    events = act(m, "fold 3")
    assert events == [{"event": "hand", "winner": 0, "points": 3, "score": [3, 0]}]


def test_C9_either_player_of_the_challenged_team_answers_and_the_first_answer_counts() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    act(m, "raise 1 3")
    assert legal(m) == ["accept 0", "fold 0", "raise 0 6", "accept 2", "fold 2", "raise 2 6"]
    assert m.to_act() == [0, 2]
    act(m, "accept 2")
    assert_illegal(m, "fold 0", "no raise is waiting for an answer")
    assert m.value == 3


def test_C10_a_team_cannot_raise_twice_in_a_row() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    act(m, "raise 1 3", "accept 2", "play 1 3d", "play 2 4h")
    assert m.turn == 3
    assert legal(m, 3) == ["play 3 4s", "play 3 5s", "play 3 6s"]
    assert_illegal(m, "raise 3 6", "cannot raise twice in a row (C10)")
    act(m, "play 3 4s")
    assert "raise 0 6" in legal(m, 0)  # the other team may
    act(m, "raise 0 6", "accept 1")
    assert m.value == 6
    act(m, "play 0 4c")
    assert "raise 1 9" in legal(m, 1)  # and now team 1 again


def test_C11_the_hand_winner_scores_its_value_and_twelve_ends_the_game() -> None:
    m = match("paulista")
    events = win_hand(m, 1, raises=3)
    assert _hand(events) == {"event": "hand", "winner": 1, "points": 9, "score": [0, 9]}
    events = win_hand(m, 1, raises=1)
    assert of(events, "game") == [{"event": "game", "winner": 1, "score": [0, 12],
                                   "games": [0, 1]}]


def test_C11_no_cap_a_game_may_end_thirteen_or_fourteen() -> None:
    m = match("paulista")
    score_to(m, (10, 0))
    events = win_hand(m, 0, raises=1)
    assert of(events, "game")[0]["score"] == [13, 0]
    m = match("mineiro")
    score_to(m, (0, 11))
    events = win_hand(m, 1)  # the mão de dez is worth 3
    assert of(events, "hand")[0] == {"event": "hand", "winner": 1, "points": 3, "score": [0, 14]}
    assert of(events, "game")[0]["score"] == [0, 14]


def test_C12_a_raise_never_changes_whose_turn_it_is() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    act(m, "play 1 3d")
    assert m.turn == 2
    act(m, "raise 2 3")
    assert m.turn == 2
    act(m, "raise 3 6")
    assert m.turn == 2
    act(m, "accept 0")
    assert m.turn == 2 and m.to_act() == [2]
    m = match("mineiro", deal(0, "5c 6c Qc | 3d 5d 6d | 5h 3h Kh | 5s 6s Ks"))
    act(m, "raise 0 3 5c", "accept 1")  # out of turn (M3): seat 1 still plays first
    assert m.turn == 1 and legal(m, 0) == []
    assert {a.seat for a in m.legal_actions() if a.kind == "play"} == {1}


def test_C9_answers_only_while_a_raise_is_pending() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    for move in ("accept 2", "fold 0"):
        assert_illegal(m, move, "no raise is waiting for an answer")
    assert_illegal(m, Action.decide(1, True), "no decision is awaited")
