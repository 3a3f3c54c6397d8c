"""M1-M9, Truco Mineiro (seeds 004 and 000), on explicit deals.

Dealer 0 makes seat 1 the mão unless a test says otherwise. The ``EVEN`` deal ties every round
(no manilhas in it). Special hands are reached by playing real hands (:func:`helpers.score_to`).
"""

from __future__ import annotations

import pytest
from helpers import (
    act,
    assert_illegal,
    deal,
    filled_deal,
    legal,
    match,
    observe_all,
    of,
    rounds,
    score_to,
    win_hand,
)

from engine import Action, IllegalMoveError, Match, find_variant

EVEN = "5c 6c Kc | 5d 6d Kd | 5h 6h Kh | 5s 6s Ks"
MANILHAS = {"4c", "7h", "As", "7d"}


def test_M1_fixed_manilhas_zap_copas_espadilha_pica_fumo_and_no_vira() -> None:
    m = match("mineiro", deal(0, "4c 5c 6c | 7d 5d 6d | As 5h 6h | 7h 5s 6s"))
    obs = m.observation(0)
    assert obs["vira"] is None and obs["manilhas"] == ["7d", "As", "7h", "4c"]
    assert rounds(act(m, "play 1 7d", "play 2 As", "play 3 7h", "play 0 4c")) == [0]
    m = match("mineiro", deal(0, "3c 5c 6c | 7d 5d 6d | As 5h 6h | 3s 5s 6s"))
    assert rounds(act(m, "play 1 7d", "play 2 As", "play 3 3s", "play 0 3c")) == [0]
    assert m.turn == 2  # espadilha beats pica-fumo, and both beat the 3s
    m = match("mineiro", deal(0, "3c 5c 6c | 7d 5d 6d | 3h 5h 6h | 3s 5s 6s"))
    assert rounds(act(m, "play 1 7d", "play 2 3h", "play 3 3s", "play 0 3c")) == [1]
    with pytest.raises(IllegalMoveError, match="this variant has no vira"):
        Match.new("mineiro", seed=None).deal(deal(0, EVEN, "7c"))


def test_M2_other_cards_rank_3_2_A_K_J_Q_7_6_5_4_suits_do_not_matter() -> None:
    order = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]  # weakest first
    assert find_variant("mineiro").ranking == tuple(order)
    plain = [f"{r}{s}" for r in order for s in "cdhs" if f"{r}{s}" not in MANILHAS]
    for weak, strong in zip(order, order[1:], strict=False):
        w = next(c for c in plain if c[0] == weak)
        s = next(c for c in plain if c[0] == strong)
        low = [c for c in plain if order.index(c[0]) <= order.index(weak) and c != w][:2]
        m = match("mineiro", filled_deal("mineiro", [low[0], w, s, low[1]]))
        assert rounds(act(m, f"play 1 {w}", f"play 2 {s}", f"play 3 {low[1]}",
                          f"play 0 {low[0]}")) == [0], (weak, strong)
    m = match("mineiro", deal(0, "5c 6c Kc | 2d 6d Kd | 2h 6h Kh | 5s 6s Ks"))
    assert rounds(act(m, "play 1 2d", "play 2 2h", "play 3 5s", "play 0 5c")) == [None]


def test_M3_any_player_may_raise_at_any_moment_also_out_of_turn() -> None:
    m = match("mineiro", deal(0, EVEN))
    assert m.turn == 1
    assert {a.seat for a in m.legal_actions() if a.kind == "raise"} == {0, 1, 2, 3}
    act(m, "play 1 5d")
    act(m, "raise 0 3 5c")  # seat 2 is to play; seat 0 raises
    assert m.turn == 2 and m.state == "answer"
    # never while a raise waits: the raising team cannot raise, nobody plays
    assert_illegal(m, "raise 2 6 5h", "only the challenged team may raise back")
    assert_illegal(m, "play 2 5h", "a raise is waiting for its answer")
    act(m, "accept 3")
    # C10 holds: team 0 cannot raise again until team 1 has
    assert {a.seat for a in m.legal_actions() if a.kind == "raise"} == {1, 3}
    assert_illegal(m, "raise 2 6 5h", "cannot raise twice in a row (C10)")
    act(m, "raise 1 6 6d", "accept 2")
    assert m.value == 6 and m.turn == 2


def test_M4_the_raiser_names_his_card() -> None:
    m = match("mineiro", deal(0, EVEN))
    assert legal(m, 3)[-3:] == ["raise 3 3 5s", "raise 3 3 6s", "raise 3 3 Ks"]
    assert_illegal(m, "raise 3 3", "the raiser names the card he raises with (M4)")
    assert_illegal(m, "raise 3 3 5c", "seat 3 does not hold 5c")
    act(m, "raise 3 3 6s")
    assert m.observation(3)["pending_raise"]["card"] == "6s"
    for seat in (0, 1, 2):  # only the raiser knows the card while it is pending
        assert "card" not in m.observation(seat)["pending_raise"]
        assert "6s" not in str({k: v for k, v in m.observation(seat).items() if k != "legal"})


def test_M4_an_accepted_raise_shows_the_card_and_it_must_be_played_next() -> None:
    m = match("mineiro", deal(0, EVEN))
    act(m, "raise 3 3 6s", "accept 0")
    for obs in observe_all(m):
        assert obs["shown"] == [{"seat": 3, "card": "6s"}]
    act(m, "play 1 5d", "play 2 5h")
    assert legal(m, 3) == ["play 3 6s"]
    assert_illegal(m, "play 3 5s", "seat 3 raised with 6s and must play it (M4)")
    act(m, "play 3 6s")
    assert m.bound == [None] * 4


def test_M4_a_refused_raise_card_is_shown_in_round_1_only() -> None:
    m = match("mineiro", deal(0, EVEN))
    act(m, "raise 3 3 Ks", "fold 2")
    for obs in observe_all(m):
        assert obs["last_hand"]["shown"] == [{"seat": 3, "card": "Ks"}]
    m = match("mineiro", deal(0, EVEN))
    act(m, "play 1 5d", "play 2 5h", "play 3 5s", "play 0 5c")
    events = act(m, "raise 3 3 Ks", "fold 2")
    assert of(events, "hand")[0]["points"] == 1
    for seat, obs in enumerate(observe_all(m)):
        assert obs["last_hand"]["shown"] == []
        if seat != 3:
            assert "Ks" not in str(obs)


def test_M4_a_seat_with_no_card_left_cannot_raise() -> None:
    """Pinned."""
    m = match("mineiro", deal(0, EVEN))
    for r in "56":
        act(m, f"play 1 {r}d", f"play 2 {r}h", f"play 3 {r}s", f"play 0 {r}c")
    act(m, "play 1 Kd")
    assert not [a for a in m.legal_actions(1) if a.kind == "raise"]
    assert [a for a in m.legal_actions(3) if a.kind == "raise"]
    assert_illegal(m, "raise 1 3 Kd", "a seat with no card left cannot raise (M4)")


def test_M4_a_bound_seat_names_the_same_card_again_and_plays_it_next() -> None:
    """Pinned."""
    m = match("mineiro", deal(0, EVEN))
    act(m, "raise 3 3 6s", "accept 0", "raise 0 6 5c")
    assert legal(m, 3) == ["accept 3", "fold 3", "raise 3 9 6s"]
    assert_illegal(m, "raise 3 9 Ks", "seat 3 is bound to 6s (M4)")
    act(m, "raise 3 9 6s", "accept 2")
    assert m.value == 9
    assert m.observation(1)["shown"] == [{"seat": 3, "card": "6s"}, {"seat": 0, "card": "5c"}]
    act(m, "play 1 5d", "play 2 5h")
    assert legal(m, 3) == ["play 3 6s"]


def _mao_de_dez(variant: str = "mineiro") -> Match:
    """Mineiro at 10-4: the next hand (dealer 0, mão seat 1) is team 0's mão de dez."""
    m = match(variant)
    score_to(m, (10, 4))
    assert m.dealer == 0
    m.deal(deal(0, "3c 2c Kc | 5d 6d Kd | 3h 6h Qh | 5s 6s Ks"))
    return m


def test_M5_mao_de_dez_the_leading_partners_see_both_hands_and_decide_first() -> None:
    m = _mao_de_dez()
    assert m.state == "decide" and m.value == 3
    partners = {0: ["3c", "2c", "Kc"], 2: ["3h", "6h", "Qh"]}
    for seat, obs in enumerate(observe_all(m)):
        assert obs["partner_hands"] == (partners if seat % 2 == 0 else None)
        assert obs["special"] == {"name": "mão de dez", "team": 0}
    assert legal(m) == ["decide 0 play", "decide 0 fold", "decide 2 play", "decide 2 fold"]
    assert_illegal(m, "play 1 5d", "the special hand's decision comes first")
    assert_illegal(m, "decide 1 play", "only team 0 decides this hand")
    assert act(m, "decide 2 play") == []
    assert m.state == "play" and m.value == 3 and m.turn == 1
    assert all(obs["partner_hands"] is None for obs in observe_all(m))
    assert all(a.kind == "play" for a in m.legal_actions())


def test_M5_a_fold_gives_the_trailing_team_1() -> None:
    m = _mao_de_dez()
    assert act(m, "decide 0 fold") == [{"event": "hand", "winner": 1, "points": 1,
                                        "score": [10, 5]}]


def test_M5_played_the_hand_is_worth_3() -> None:
    m = _mao_de_dez()
    events = act(m, "decide 0 play", "play 1 5d", "play 2 3h", "play 3 5s", "play 0 2c",
                 "play 2 6h", "play 3 6s", "play 0 3c", "play 1 6d")
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 3, "score": [13, 4]}]


def test_M5_a_raise_by_the_trailing_team_gives_the_leading_team_the_game() -> None:
    """Also before the decision, out of turn, with any value and card (pinned)."""
    for before in ([], ["decide 0 play"], ["decide 0 play", "play 1 5d"]):
        for move in (Action.raise_to(3, 3, "5s"), Action.raise_to(1, 9),
                     Action.raise_to(3, 6, "4c")):
            m = _mao_de_dez()
            act(m, *before)
            events = m.apply(move)
            assert events == [{"event": "game", "winner": 0, "score": [10, 4], "games": [1, 0]}]
            assert m.games == [1, 0] and m.score == [0, 0] and not m.is_over


def test_M5_a_raise_by_the_leading_team_loses_the_hand_and_gives_3() -> None:
    for before in ([], ["decide 0 play", "play 1 5d"]):
        m = _mao_de_dez()
        act(m, *before)
        events = m.apply(Action.raise_to(2, 3, "Qh"))
        assert events == [{"event": "hand", "winner": 1, "points": 3, "score": [10, 7]}]


def test_M5_special_hands_are_decided_by_the_scores_when_the_hand_starts() -> None:
    m = match("mineiro")
    score_to(m, (7, 9))
    events = win_hand(m, 0, raises=1)  # a normal hand: it may be raised
    assert of(events, "hand")[0]["score"] == [10, 9]
    m.deal(deal(m.dealer, EVEN))
    assert m.state == "decide" and m.special_team == 0
    assert of(act(m, "decide 0 fold"), "hand")[0]["score"] == [10, 10]
    m.deal(deal(m.dealer, EVEN))  # now both teams are at 10: M6, no decision
    assert m.state == "play" and m.observation(0)["special"]["team"] is None


def test_M6_both_teams_at_ten_the_hand_is_worth_3_no_decision_no_raise_not_blind() -> None:
    """Pinned."""
    m = match("mineiro")
    score_to(m, (10, 10))
    m.deal(deal(m.dealer, EVEN))
    assert m.state == "play" and m.value == 3 and not m.blind
    assert m.observation(0)["hand"] == ["5c", "6c", "Kc"]
    assert m.observation(0)["special"] == {"name": "mão de dez dupla", "team": None}
    assert all(a.kind == "play" for a in m.legal_actions())
    seat = (m.turn + 1) % 4  # any raise, here out of turn: the raising team loses the game
    events = m.apply(Action.raise_to(seat, 3, "5s" if seat == 3 else None))
    winner = 1 - seat % 2
    assert events == [{"event": "game", "winner": winner, "score": [10, 10],
                       "games": [int(winner == 0), int(winner == 1)]}]


def test_M7_all_three_rounds_tied_the_mao_team_wins_the_hand_value() -> None:
    """Pinned: the mão's team scores the hand's value (here raised to 3)."""
    m = match("mineiro", deal(1, EVEN), dealer=1)  # the mão is seat 2: team 0
    events = []
    for r in "56K":
        events += act(m, f"play 2 {r}h", f"play 3 {r}s", f"play 0 {r}c", f"play 1 {r}d")
    assert rounds(events) == [None] * 3
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 1, "score": [1, 0]}]
    m.deal(deal(2, EVEN))  # the mão is seat 3: team 1
    events = act(m, "raise 0 3 5c", "accept 1")
    for r in "56K":
        events += act(m, f"play 3 {r}s", f"play 0 {r}c", f"play 1 {r}d", f"play 2 {r}h")
    assert of(events, "hand") == [{"event": "hand", "winner": 1, "points": 3, "score": [1, 3]}]


def test_M8_a_match_is_the_best_of_3_games_and_each_game_starts_at_0_0() -> None:
    m = match("mineiro", dealer=2)
    win_hand(m, 1, raises=3)
    dealer = m.dealer
    events = win_hand(m, 1, raises=1)
    assert events[-1] == {"event": "game", "winner": 1, "score": [0, 12], "games": [0, 1]}
    assert not m.is_over and m.score == [0, 0] and m.games == [0, 1]
    assert m.dealer == (dealer + 1) % 4  # the dealer rotates as after any hand
    events = win_hand(m, 0, raises=3) + win_hand(m, 0, raises=1)
    assert of(events, "game")[0]["games"] == [1, 1] and not m.is_over
    events = win_hand(m, 1, raises=3) + win_hand(m, 1, raises=1)
    assert events[-2:] == [{"event": "game", "winner": 1, "score": [0, 12], "games": [1, 2]},
                           {"event": "match", "winner": 1, "games": [1, 2]}]
    assert m.is_over and m.winner == 1


def test_M9_the_mineiro_ladder_stops_at_9_and_mineiro_12_goes_on_to_12() -> None:
    assert [s.value for s in find_variant("mineiro").ladder] == [3, 6, 9]
    m = match("mineiro", deal(0, EVEN))
    act(m, "raise 1 3 5d", "raise 2 6 5h", "raise 3 9 5s")
    assert legal(m, 0) == ["accept 0", "fold 0"]
    assert_illegal(m, "raise 0 12 5c", "the ladder stops at 9")
    m = match("mineiro-12", deal(0, EVEN))
    act(m, "raise 1 3 5d", "raise 2 6 5h", "raise 3 9 5s")
    assert legal(m, 0)[-3:] == ["raise 0 12 5c", "raise 0 12 6c", "raise 0 12 Kc"]
    act(m, "raise 0 12 5c", "accept 1")
    assert m.value == 12
    assert m.bound[0] == "5c"
