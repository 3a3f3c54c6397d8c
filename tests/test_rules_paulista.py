"""P1-P9, Truco Paulista (seed 003), on explicit deals.

Unless a test says otherwise the vira is 7c (the queens are the manilhas) and dealer 0 makes
seat 1 the mão. Special hands are reached by playing real hands (:func:`helpers.score_to`).
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
    parse_action,
    rounds,
    score_to,
    win_hand,
)

from engine import Action, IllegalMoveError, Match, find_variant

V = "7c"
EVEN = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # every round ties


def test_P1_the_vira_makes_the_next_rank_the_manilhas() -> None:
    for vira, rank in (("3c", "4"), ("7c", "Q"), ("Qd", "J"), ("Ks", "A"), ("2h", "3")):
        m = match("paulista", deal(0, "5c 5d 5h | 6c 6d 6h | Jc Jd Jh | Kc Kd Kh", vira))
        assert m.observation(0)["vira"] == vira
        assert [c[0] for c in m.manilhas] == [rank] * 4, vira
    # with the vira 3c the 4s are manilhas: a 4 beats a 3
    m = match("paulista", deal(0, "5c 6c Kc | 4d 5d 6d | 3h 5h 6h | 3s 5s 6s", "3c"))
    assert rounds(act(m, "play 1 4d", "play 2 3h", "play 3 3s", "play 0 5c")) == [1]


def test_P1_a_deal_needs_a_vira_that_no_one_holds() -> None:
    m = Match.new("paulista", seed=None)
    with pytest.raises(IllegalMoveError, match="this variant turns a vira"):
        m.deal(deal(0, EVEN))
    with pytest.raises(IllegalMoveError, match="5d is dealt twice"):
        m.deal(deal(0, EVEN, "5d"))
    assert m.awaiting_deal and m.hand_number == 0


def test_P2_manilhas_rank_by_suit_ouros_espadas_copas_paus() -> None:
    m = match("paulista", deal(0, "Qd 5c 6c | Qc 5d 6d | Qh 5h 6h | Qs 5s 6s", V))
    assert list(m.manilhas) == ["Qd", "Qs", "Qh", "Qc"]
    assert rounds(act(m, "play 1 Qc", "play 2 Qh", "play 3 Qs", "play 0 Qd")) == [1]
    m = match("paulista", deal(0, "Qd 5c 6c | Qs 5d 6d | Qh 5h 6h | 3s 5s 6s", V))
    assert rounds(act(m, "play 1 Qs", "play 2 Qh", "play 3 3s", "play 0 Qd")) == [0]
    assert m.turn == 2
    m = match("paulista", deal(0, "Qd 5c 6c | Qs 5d 6d | 3h 5h 6h | 3s 5s 6s", V))
    # espadas beats ouros, and a manilha beats a 3
    assert rounds(act(m, "play 1 Qs", "play 2 3h", "play 3 3s", "play 0 Qd")) == [1]


def test_P3_other_cards_rank_4_5_6_7_Q_J_K_A_2_3() -> None:
    """Each rank beats the one below it: seat 2's card beats three of the weaker rank."""
    order = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
    assert find_variant("paulista").ranking == tuple(order)
    for weak, strong in zip(order, order[1:], strict=False):
        vira = next(r for i, r in enumerate(order)
                    if {r, order[(i + 1) % 10]}.isdisjoint({weak, strong}))
        first = [f"{weak}c", f"{weak}d", f"{strong}h", f"{weak}s"]  # by seat
        m = match("paulista", filled_deal("paulista", first, vira + "c"))
        assert rounds(act(m, f"play 1 {weak}d", f"play 2 {strong}h", f"play 3 {weak}s",
                          f"play 0 {weak}c")) == [0], (weak, strong)


def test_P3_equal_ranks_tie_whatever_the_suit() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | Kd 5d 6d | Kh 5h 6h | 4s 5s 6s", V))
    assert rounds(act(m, "play 1 Kd", "play 2 Kh", "play 3 4s", "play 0 4c")) == [None]


def test_P4_a_raise_only_on_ones_own_turn_before_playing() -> None:
    m = match("paulista", deal(0, EVEN, V))
    assert m.turn == 1
    assert legal(m, 2) == [] and legal(m, 3) == []
    assert_illegal(m, "raise 2 3", "own turn (P4)")
    assert_illegal(m, "raise 3 3", "own turn (P4)")
    act(m, "play 1 4d")
    assert_illegal(m, "raise 1 3", "own turn (P4)")  # he played: his turn is over
    assert "raise 2 3" in legal(m, 2)
    # answers, raise back included, come from the challenged team whenever asked
    act(m, "raise 2 3")
    assert legal(m, 1) == ["accept 1", "fold 1", "raise 1 6"]
    act(m, "raise 1 6", "accept 0")
    assert m.turn == 2 and m.value == 6


def _mao_de_onze() -> Match:
    """Paulista at 11-4: the next hand (dealer 1, mão seat 2) is team 0's mão de 11."""
    m = match("paulista")
    score_to(m, (11, 4))
    assert m.dealer == 1
    m.deal(deal(1, "4c 5c 6c | 4d 5d Kd | 3h 5h 6h | 4s 5s 6s", V))
    return m


def test_P5_mao_de_11_is_worth_3_with_no_raise_offered() -> None:
    m = _mao_de_onze()
    assert m.value == 3 and m.state == "play" and m.turn == 2
    obs = m.observation(2)
    assert obs["special"] == {"name": "mão de onze", "team": 0}
    assert obs["hand"] == ["3h", "5h", "6h"] and not obs["blind"]
    events: list[dict[str, object]] = []
    while not of(events, "hand"):
        assert all(a.kind == "play" for a in m.legal_actions())
        events += m.apply(m.legal_actions()[0])
    assert of(events, "hand")[0]["points"] == 3


def test_P5_raise_in_mao_de_11_loses_game() -> None:
    """Pinned: the game ends there, the other team wins it, the scores stay as they were;
    docs/log-format.md: no ``hand`` checkpoint, a ``game`` with the scores unchanged, ``match``."""
    m = _mao_de_onze()
    events = act(m, "raise 2 3")
    assert events == [{"event": "game", "winner": 1, "score": [11, 4], "games": [0, 1]},
                      {"event": "match", "winner": 1, "games": [0, 1]}]
    assert m.is_over and m.winner == 1 and m.score == [11, 4]


def test_P5_any_raise_event_is_penalised_whatever_its_turn_value_or_card() -> None:
    """The trailing team out of turn, with a value off the ladder and a card named: still
    the raising team loses the game."""
    for move in (Action.raise_to(3, 9), Action.raise_to(1, 12, "Kd"), Action.raise_to(0, 3)):
        m = _mao_de_onze()
        act(m, "play 2 3h")
        events = m.apply(move)
        loser = move.seat % 2
        assert of(events, "hand") == []
        assert of(events, "game") == [{"event": "game", "winner": 1 - loser, "score": [11, 4],
                                       "games": [int(loser == 1), int(loser == 0)]}]


def _mao_de_ferro() -> Match:
    m = match("paulista")
    score_to(m, (11, 11))
    m.deal(deal(m.dealer, "4c 5c Kc | 4d 5d 3d | 4h 5h 6h | 4s 5s 6s", V))
    return m


def test_P6_mao_de_ferro_is_played_blind_for_3() -> None:
    m = _mao_de_ferro()
    assert m.value == 3 and m.blind
    for seat, obs in enumerate(observe_all(m)):
        assert obs["hand"] is None and obs["hand_size"] == 3 and obs["blind"]
        assert obs["special"] == {"name": "mão de ferro", "team": None}
        now = str({k: v for k, v in obs.items() if k != "last_hand"})  # this hand's view
        assert not any(c in now for c in ("4c", "5c", "Kc", "3d", "6h", "6s")), seat
    t = m.turn
    assert [str(a) for a in m.observation(t)["legal"]] == [f"play {t} #{i}" for i in (1, 2, 3)]
    m.apply(m.play_by_position(t, 2))
    assert m.observation(0)["played"][0]["card"] == m.dealt[t][2]
    assert all(a.kind == "play" for a in m.legal_actions())


def test_P6_a_raise_in_mao_de_ferro_loses_the_game() -> None:
    m = _mao_de_ferro()
    events = m.apply(Action.raise_to((m.turn + 1) % 4, 6))
    assert events[0] == {"event": "game", "winner": m.turn % 2, "score": [11, 11],
                         "games": [int(m.turn % 2 == 0), int(m.turn % 2 == 1)]}
    assert m.is_over


def test_P7_a_covered_card_is_worth_nothing() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 4d 3d 6d | 4h 5h 6h | 4s 5s 6s", V))
    act(m, "play 1 4d", "play 2 4h", "play 3 4s", "play 0 4c")  # tied: seat 1 leads again
    assert "play 1 3d covered" in legal(m, 1)
    events = act(m, "play 1 3d covered", "play 2 5h", "play 3 5s covered", "play 0 5c covered")
    assert rounds(events) == [0]  # the 3 face down loses to a 5
    assert of(events, "hand")[0]["winner"] == 0  # C7: a tie, then a win
    obs = m.observation(3)["last_hand"]["played"]
    assert obs[4] == {"round": 2, "seat": 1, "card": None, "covered": True}
    assert obs[6] == {"round": 2, "seat": 3, "card": "5s", "covered": True}  # his own


def test_P7_a_round_of_covered_cards_only_is_tied() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s", V))
    act(m, "play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c")  # team 1 wins round 1
    events = act(m, "play 1 2d covered", "play 2 5h covered", "play 3 5s covered",
                 "play 0 5c covered")
    assert rounds(events) == [None]
    assert of(events, "hand")[0]["winner"] == 1  # C7: round 1 won, round 2 tied


def test_P7_covered_cards_only_in_rounds_2_and_3() -> None:
    """Pinned: not in round 1."""
    m = match("paulista", deal(0, EVEN, V))
    assert not any(a.covered for a in m.legal_actions())
    assert_illegal(m, "play 1 4d covered", "covered cards only from round 2 (P7)")
    act(m, "play 1 4d", "play 2 4h", "play 3 4s", "play 0 4c")
    act(m, "play 1 5d", "play 2 5h", "play 3 5s", "play 0 5c")
    assert legal(m, 1) == ["play 1 6d", "play 1 6d covered", "raise 1 3"]


def test_P7_covered_cards_in_blind_hands_too() -> None:
    """Pinned: P7 applies in every hand of the variant, the blind mão de ferro included."""
    m = _mao_de_ferro()
    for _ in range(4):
        m.apply(m.play_by_position(m.turn, 0))
    t = m.turn
    assert Action.play_at(t, 0, covered=True) in m.observation(t)["legal"]
    card = m.dealt[t][1]
    m.apply(m.play_by_position(t, 0, covered=True))
    played = m.observation((t + 1) % 4)["played"][-1]
    assert played == {"round": 2, "seat": t, "card": None, "covered": True}
    assert card not in m.hands[t]


def test_P7_a_variant_without_covered_cards_rejects_them() -> None:
    for variant in ("mineiro", "no-covered-cards"):
        vira = V if variant != "mineiro" else None
        m = match(variant, deal(0, "5c 6c Kc | 5d 6d Kd | 5h 6h Kh | 5s 6s Ks", vira))
        act(m, "play 1 5d", "play 2 5h", "play 3 5s", "play 0 5c")
        assert not any(a.covered for a in m.legal_actions())
        assert_illegal(m, "play 1 6d covered", "this variant has no covered cards (P7)")


def test_P8_all_three_rounds_tied_nobody_scores_and_the_next_hand_is_dealt() -> None:
    m = match("paulista", deal(0, EVEN, V))
    events = []
    for r in "456":
        events += act(m, f"play 1 {r}d", f"play 2 {r}h", f"play 3 {r}s", f"play 0 {r}c")
    assert rounds(events) == [None, None, None]
    assert of(events, "hand") == [{"event": "hand", "winner": None, "points": 0,
                                   "score": [0, 0]}]
    assert m.awaiting_deal and m.dealer == 1 and m.hand_number == 1
    m.deal(deal(1, EVEN, V))
    assert m.hand_number == 2 and m.turn == 2


def test_P8_a_raised_all_tied_hand_still_scores_nothing() -> None:
    m = match("paulista", deal(0, EVEN, V))
    act(m, "raise 1 3", "accept 0")
    events = []
    for r in "456":
        events += act(m, f"play 1 {r}d", f"play 2 {r}h", f"play 3 {r}s", f"play 0 {r}c")
    assert of(events, "hand")[0]["points"] == 0 and m.score == [0, 0]


def test_P9_a_match_is_one_game() -> None:
    m = match("paulista")
    win_hand(m, 0, raises=3)
    events = win_hand(m, 0, raises=1)
    assert [e["event"] for e in events][-2:] == ["game", "match"]
    assert events[-1] == {"event": "match", "winner": 0, "games": [1, 0]}
    assert m.is_over and m.winner == 0 and m.legal_actions() == []
    err = assert_illegal(m, parse_action("play 1 4c"), "the match is over")
    assert err.legal == []
    with pytest.raises(IllegalMoveError, match="the match is over"):
        m.deal(deal(m.dealer, EVEN, V))
