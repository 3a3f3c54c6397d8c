"""Truco Gaudério (variants/gauderio.yaml): one test per rule G1-G21 and G42-G47 of the pinned
rules (docs/rules.md, "Truco Gaudério"), and the house variants GH1-GH17 that the keys can say,
on explicit deals. Envido and flor (G22-G41) come with issue 13's side bets.

Dealer 0 makes seat 1 the mão unless a test says otherwise; seats 0 and 2 are team 0, seats 1
and 3 team 1. ``EVEN`` ties every round (each rank is held by both teams)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from helpers import (
    act,
    assert_illegal,
    deal,
    filled_deal,
    legal,
    match,
    of,
    rounds,
    score_to,
    win_hand,
)

from engine import Action, Match, find_variant
from engine.cards import RANKS, SUITS, card_name
from engine.errors import IllegalMoveError, VariantError
from engine.game import Checkpoint
from engine.rules import Rules, rules_from_data
from engine.variant import load_variant

#: The deals below give most seats three cards of one suit: a flor, which every holder must
#: sing first (G35). The rules tested here are the truco's, the same without flor (GH12);
#: flor is tested in tests/test_flor.py.
G = "gauderio-sem-flor"


def sem_flor(name: str) -> Rules:
    """A Gaudério house variant without its flor (GH12): the deals here hold flores."""
    rules = find_variant(name)
    return dataclasses.replace(rules, side_bets=tuple(b for b in rules.side_bets
                                                      if b.kind != "flor"))
EVEN = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"
#: G3's table, strongest first: each level's cards tie.
LEVELS = [["As"], ["Ac"], ["7s"], ["7d"], ["3c", "3d", "3h", "3s"], ["2c", "2d", "2h", "2s"],
          ["Ad", "Ah"], ["Kc", "Kd", "Kh", "Ks"], ["Qc", "Qd", "Qh", "Qs"],
          ["Jc", "Jd", "Jh", "Js"], ["7c", "7h"], ["6c", "6d", "6h", "6s"],
          ["5c", "5d", "5h", "5s"], ["4c", "4d", "4h", "4s"]]


def _hand(events: list[Checkpoint]) -> Checkpoint:
    return of(events, "hand")[0]


def _winner_of(first: list[str]) -> int | None:
    """The team that wins a round where seats 1, 2, 3, 0 (dealer 0) play ``first``."""
    m = match(G, filled_deal(G, first))
    order = [1, 2, 3, 0]
    return rounds(act(m, *(f"play {s} {first[s]}" for s in order)))[0]


# -- 1. deck and card order -------------------------------------------------------------------
def test_G1_forty_card_spanish_deck_without_eights_nines_and_tens() -> None:
    rules = find_variant(G)
    names = {card_name(c) for c in rules.deck}
    assert len(names) == 40
    assert names == {r + s for r in "A234567JQK" for s in SUITS}
    assert not {r for r in RANKS if any(n[0] == r for n in names)} & {"8", "9", "T"}
    m = Match.new(G, seed=None)
    for card in ("8c", "9d", "Th"):
        with pytest.raises(IllegalMoveError, match="not in this variant's deck"):
            m.deal(deal(0, f"{card} 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"))


def test_G2_espadao_bastiao_sete_de_espadas_sete_belo_then_3_2_false_aces_figures() -> None:
    # the four top cards beat each other in a fixed order, whatever the suits elsewhere
    assert _winner_of(["As", "7d", "7s", "Ac"]) == 0  # espadão (seat 0) over bastião
    assert _winner_of(["Kc", "7d", "7s", "Ac"]) == 1  # bastião (seat 3) over 7s
    assert _winner_of(["Kc", "7d", "7s", "3c"]) == 0  # sete de espadas (seat 2) over 7d
    assert _winner_of(["3c", "7d", "2h", "3s"]) == 1  # sete belo (seat 1) over the 3s
    # then 3 > 2 > Ah = Ad > K > Q > J > 7h = 7c > 6 > 5 > 4: suits do not matter
    assert _winner_of(["2c", "Ad", "Kh", "Qs"]) == 0
    assert _winner_of(["Ah", "Kd", "Qh", "Js"]) == 0
    assert _winner_of(["Ah", "Ad", "Kh", "Qs"]) is None  # the false aces tie
    assert _winner_of(["7h", "7c", "6h", "5s"]) is None  # the false sevens tie
    assert _winner_of(["7h", "Jd", "6h", "5s"]) == 1  # sota over a false seven
    assert _winner_of(["Kc", "Qd", "Jh", "7s"]) == 1  # ... but 7s is a top card
    names = find_variant(G).data["card_names"]
    assert {c: names[c] for c in ("As", "Ac", "7s", "7d")} == {
        "As": "espadão", "Ac": "bastião", "7s": "sete de espadas", "7d": "sete belo"}


def test_G1_the_figures_are_named_as_the_table_names_them_in_words_only() -> None:
    """card_names (presentation) names every J, Q, K of Gaudério's family as the table does,
    sota, cavalo, rei of its suit, and a transcript tells them so; the names are not rules:
    the fingerprint (a log's variant_sha256) is the one without them."""
    from engine.transcript import transcript

    suits = {"s": "espadas", "c": "bastos", "h": "copas", "d": "ouros"}
    figures = {"J": "sota", "Q": "cavalo", "K": "rei"}
    for name in ("gauderio", G, "truco-de-amostra"):
        names = find_variant(name).data["card_names"]
        assert {c: n for c, n in names.items() if c[0] in figures} == {
            r + s: f"{figure} de {suit}" for r, figure in figures.items()
            for s, suit in suits.items()}
        plain = {k: v for k, v in find_variant(name).data.items() if k != "card_names"}
        assert find_variant(name).fingerprint == rules_from_data(plain).fingerprint
    log = Path(__file__).resolve().parents[1] / "replays" / "gauderio-seed1.jsonl"
    told = transcript(log.read_bytes(), log.name)
    assert "Ana plays J♥ (sota de copas)\n" in told
    assert "Ana: 6♠ Q♠ (cavalo de espadas) A♠ (espadão) |" in told
    assert "Duda: 5♥ 3♦ K♥ (rei de copas)\n" in told
    assert re.search(r"[JQK][♠♣♥♦](?! \()", told) is None  # no figure told bare
    paulista = find_variant("paulista").data.get("card_names") or {}
    assert not {c for c in paulista if c[0] in figures}  # Paulista names no figure


def test_G3_the_engine_table_has_fourteen_levels() -> None:
    rules = find_variant(G)
    strength = rules.strengths(None)
    by_level: dict[int, list[str]] = {}
    for c in rules.deck:
        by_level.setdefault(strength[c], []).append(card_name(c))
    table = [sorted(by_level[s]) for s in sorted(by_level, reverse=True)]
    assert table == LEVELS


def test_G4_no_vira_and_the_same_top_cards_every_hand() -> None:
    m = Match.new(G, seed=5)
    seen = set()
    for _ in range(6):
        obs = m.observation(0)
        assert obs["vira"] is None
        seen.add(tuple(obs["manilhas"]))
        win_hand_seeded(m)
    assert seen == {("7d", "7s", "Ac", "As")}
    m = Match.new(G, seed=None)
    with pytest.raises(IllegalMoveError, match="no vira"):
        m.deal(deal(0, EVEN, vira="Kc"))


def win_hand_seeded(m: Match) -> None:
    """Play the hand in play to its end with the first legal card each time."""
    hand = m.hand_number
    while m.hand_number == hand and not m.is_over:
        m.apply(next(a for a in m.legal_actions() if a.kind == "play"))


# -- 2. players, deal, mão, rounds ------------------------------------------------------------
def test_G5_four_players_in_two_teams_of_alternate_seats() -> None:
    rules = find_variant(G)
    assert rules.players == 4 and rules.team_of == (0, 1, 0, 1) and rules.teams == 2


def test_G6_three_cards_to_each_player() -> None:
    m = Match.new(G, seed=11)
    assert [len(h) for h in m.hands] == [3, 3, 3, 3]
    assert len({c for h in m.hands for c in h}) == 12
    with pytest.raises(IllegalMoveError, match="expected 3"):
        Match.new(G, seed=None).deal(deal(0, "4c 5c | 4d 5d | 4h 5h | 4s 5s"))


def test_G7_the_mao_is_the_seat_after_the_dealer_and_leads_the_dealer_plays_last() -> None:
    m = match(G, deal(2, EVEN), dealer=2)
    assert m.mao == 3 and m.turn == 3
    assert_illegal(m, "play 2 4h", "it is seat 3's turn")
    act(m, "play 3 4s", "play 0 4c", "play 1 4d")
    assert m.turn == 2  # the dealer plays last in round 1


def test_G8_the_deal_passes_to_the_next_seat_each_hand() -> None:
    m = match(G, dealer=3)
    dealers = []
    for _ in range(5):
        dealers.append(m.dealer)
        win_hand(m, 0)
    assert dealers == [3, 0, 1, 2, 3]


def test_G9_each_round_every_player_plays_one_card_in_seat_order_from_the_leader() -> None:
    m = match(G, deal(0, "3c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"))
    assert [a.seat for a in m.legal_actions() if a.kind == "play"] == [1, 1, 1]
    act(m, "play 1 4d")
    assert_illegal(m, "play 3 4s", "it is seat 2's turn")
    assert_illegal(m, "play 1 5d", "it is seat 2's turn")
    events = act(m, "play 2 4h", "play 3 4s", "play 0 3c")
    assert rounds(events) == [0] and m.turn == 0 and m.round_no == 1  # 0-based: round 2


def test_G10_the_strongest_card_wins_equal_cards_of_both_teams_tie_of_one_team_win() -> None:
    m = match(G, deal(0, "4c 5c 6c | 3d 5d 6d | 4h 5h 6h | 3s 4s 6s"))
    events = act(m, "play 1 3d", "play 2 4h", "play 3 3s", "play 0 4c")
    assert rounds(events) == [1]
    assert m.turn == 1  # pinned: the first of the equal cards (seat 1's 3d) leads next
    assert _winner_of(["3c", "3d", "Kh", "Ks"]) is None  # parda: 3s of both teams


def test_G11_after_a_parda_who_led_the_tied_round_leads_again() -> None:
    m = match(G, deal(0, "3c 5c 6c | 4d 5d 6d | 4h 5h 6h | 3s 4s 6s"))
    events = act(m, "play 1 4d", "play 2 4h", "play 3 3s", "play 0 3c")
    assert rounds(events) == [None]
    assert m.turn == 1  # seat 1 led the parda; not seat 3, who played the first 3


@pytest.mark.parametrize(("hands", "moves", "results", "winner"), [
    # X,X,- : team 1 wins rounds 1 and 2
    ("4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s",
     ["play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c", "play 1 2d", "play 2 5h",
      "play 3 5s", "play 0 5c"], [1, 1], 1),
    # X,Y,X
    ("4c 3c 6c | 3d 4d 2d | 4h 5h 6h | 4s 5s 6s",
     ["play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c", "play 1 4d", "play 2 5h",
      "play 3 5s", "play 0 3c", "play 0 6c", "play 1 2d", "play 2 6h", "play 3 6s"],
     [1, 0, 1], 1),
    # X,Y,Y
    ("4c 3c 2c | 3d 4d 5d | 4h 5h 6h | 4s 5s 6s",
     ["play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c", "play 1 4d", "play 2 5h",
      "play 3 5s", "play 0 3c", "play 0 2c", "play 1 5d", "play 2 6h", "play 3 6s"],
     [1, 0, 0], 0),
    # X,parda,-
    ("4c 5c 6c | 3d 5d 6d | 4h 5h 6h | 4s 5s 6s",
     ["play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c", "play 1 5d", "play 2 5h",
      "play 3 5s", "play 0 5c"], [1, None], 1),
    # parda,X,-
    ("3c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s",
     ["play 1 3d", "play 2 4h", "play 3 4s", "play 0 3c", "play 1 2d", "play 2 5h",
      "play 3 5s", "play 0 5c"], [None, 1], 1),
    # parda,parda,X
    ("3c 2c 6c | 3d 2d 4d | 4h 5h 6h | 4s 5s 5d",
     ["play 1 3d", "play 2 4h", "play 3 4s", "play 0 3c", "play 1 2d", "play 2 5h",
      "play 3 5s", "play 0 2c", "play 1 4d", "play 2 6h", "play 3 5d", "play 0 6c"],
     [None, None, 0], 0),
    # X,Y,parda: the winner of round 1
    ("4c 3c 2c | 3d 4d 2d | 4h 5h 6h | 4s 5s 6s",
     ["play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c", "play 1 4d", "play 2 5h",
      "play 3 5s", "play 0 3c", "play 0 2c", "play 1 2d", "play 2 6h", "play 3 6s"],
     [1, 0, None], 1),
])
def test_G12_the_hand_result_table(hands: str, moves: list[str], results: list[int | None],
                                   winner: int) -> None:
    m = match(G, deal(0, hands))
    events = act(m, *moves)
    assert rounds(events) == results
    assert _hand(events)["winner"] == winner
    assert m.awaiting_deal  # the hand ended as soon as it was decided


def test_G13_all_three_rounds_tied_the_maos_team_wins_the_hand() -> None:
    for dealer, mao_team in ((0, 1), (1, 0)):
        m = match(G, dealer=dealer)
        m.deal(deal(dealer, EVEN))
        events = []
        for r in "456":
            order = [(dealer + 1 + i) % 4 for i in range(4)]
            suits = "cdhs"
            events += act(m, *(f"play {s} {r}{suits[s]}" for s in order))
        assert rounds(events) == [None, None, None]
        assert _hand(events) == {"event": "hand", "winner": mao_team, "points": 1,
                                 "score": [1 - mao_team, mao_team]}


# -- 3. the truco ladder ----------------------------------------------------------------------
def test_G14_a_hand_without_an_accepted_raise_is_worth_one() -> None:
    m = match(G, deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s"))
    assert m.value == 1
    events = act(m, "play 1 3d", "play 2 4h", "play 3 4s", "play 0 4c",
                 "play 1 2d", "play 2 5h", "play 3 5s", "play 0 5c")
    assert _hand(events) == {"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}


def test_G15_truco_2_retruco_3_vale_quatro_4_no_step_skipped() -> None:
    rules = find_variant(G)
    assert [(s.value, s.name) for s in rules.ladder] == [
        (2, "truco"), (3, "retruco"), (4, "vale quatro")]
    m = match(G, deal(0, EVEN))
    assert_illegal(m, "raise 1 3", "next step, 2 (truco)")
    act(m, "raise 1 2")
    assert_illegal(m, "raise 0 4", "next step, 3 (retruco)")
    act(m, "raise 0 3", "accept 1", "raise 1 4")
    assert m.value == 3 and m.pending == (1, 4, None)
    assert not [a for a in m.legal_actions() if a.kind == "raise"]  # vale quatro is the top
    act(m, "accept 2", "play 1 4d")
    assert m.value == 4
    assert_illegal(m, "raise 2 5", "the ladder stops at 4")


def test_G16_truco_only_on_ones_own_turn_in_any_round() -> None:
    m = match(G, deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s"))
    assert_illegal(m, "raise 2 2", "turn")
    assert_illegal(m, "raise 0 2", "turn")
    act(m, "play 1 3d")
    assert "raise 2 2" in legal(m, 2) and legal(m, 1) == []
    act(m, "play 2 4h", "play 3 4s", "play 0 4c")
    act(m, "raise 1 2", "accept 0")  # round 2, on his turn
    assert m.value == 2 and m.round_no == 1  # 0-based: round 2


def test_G17_only_the_team_that_accepted_raises_next_retruco_and_vale_quatro() -> None:
    m = match(G, deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s"))
    act(m, "raise 1 2", "accept 2")  # team 1 called truco, team 0 accepted
    act(m, "play 1 3d")
    assert "raise 2 3" in legal(m, 2)  # the retruco is the accepting team's
    act(m, "play 2 4h")
    assert_illegal(m, "raise 3 3", "cannot raise twice in a row")
    act(m, "play 3 4s", "raise 0 3", "accept 1")  # retruco by team 0, accepted
    act(m, "play 0 4c")
    assert m.value == 3 and "raise 1 4" in legal(m, 1)  # vale quatro: the truco team's
    # a raise as the answer: "quero retruco"
    m = match(G, deal(0, EVEN))
    act(m, "raise 1 2", "raise 2 3")
    assert m.value == 2 and m.pending == (2, 3, None)
    assert legal(m, 3) == ["accept 3", "fold 3", "raise 3 4"]
    assert legal(m, 0) == []


def test_G18_quero_nao_quero_or_the_next_raise_from_either_player_of_the_team() -> None:
    m = match(G, deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s"))
    act(m, "raise 1 2")
    assert m.to_act() == [0, 2]
    assert [a for a in legal(m) if not a.startswith("envido")] == [  # (envido: G26)
        "accept 0", "fold 0", "raise 0 3", "accept 2", "fold 2", "raise 2 3"]
    act(m, "accept 2")  # quero: worth 2, play resumes
    assert m.value == 2 and m.state == "play" and m.turn == 1
    # não quero: the raising team scores the value before the raise
    for raises, points in ((["raise 1 2"], 1), (["raise 1 2", "raise 0 3"], 2),
                           (["raise 1 2", "raise 0 3", "raise 1 4"], 3)):
        m = match(G, deal(0, EVEN))
        events = act(m, *raises, f"fold {3 if len(raises) % 2 == 0 else 2}")
        winner = 1 if len(raises) % 2 else 0
        assert _hand(events)["winner"] == winner and _hand(events)["points"] == points
        assert m.awaiting_deal  # the hand ends at once


def test_G19_a_raise_keeps_the_turn_and_no_card_while_it_awaits_its_answer() -> None:
    m = match(G, deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s"))
    act(m, "play 1 3d", "raise 2 2")
    assert m.turn == 2
    assert_illegal(m, "play 2 4h", "a raise is waiting for its answer")
    assert_illegal(m, "concede 2", "a raise is waiting for its answer")
    act(m, "raise 3 3")
    assert m.turn == 2
    act(m, "accept 0")
    assert m.turn == 2 and m.to_act() == [2]


def test_G20_ir_ao_baralho_on_ones_turn_or_as_the_answer_to_a_truco() -> None:
    # on his turn: the opponents score the hand's accepted value
    m = match(G, deal(0, EVEN))
    assert "concede 1" in legal(m, 1) and "concede 2" not in legal(m)
    assert_illegal(m, "concede 2", "turn")
    assert act(m, "concede 1") == [{"event": "hand", "winner": 0, "points": 1,
                                    "score": [1, 0]}]
    m = match(G, deal(0, EVEN))
    act(m, "raise 1 2", "accept 0", "play 1 4d", "raise 2 3", "accept 3")
    assert act(m, "concede 2") == [{"event": "hand", "winner": 1, "points": 3,
                                    "score": [0, 3]}]
    # as the answer to a truco (não quero): the pending raise counts as refused
    m = match(G, deal(0, EVEN))
    act(m, "raise 1 2", "accept 0", "play 1 4d", "raise 2 3")
    assert "concede 3" not in legal(m)  # the fold is the team's baralho here
    assert act(m, "fold 3") == [{"event": "hand", "winner": 0, "points": 2, "score": [2, 0]}]


def test_G21_no_special_hands_raises_allowed_at_any_score() -> None:
    rules = find_variant(G)
    assert rules.special_hands == () and not rules.one_team.enabled
    assert not rules.both_teams.enabled
    m = match(G)
    score_to(m, (23, 23))
    m.deal(deal(m.dealer, EVEN))
    mao = m.mao
    assert m.state == "play" and m.value == 1 and not m.blind
    assert m.observation(0)["special"] is None
    assert f"raise {mao} 2" in legal(m, mao)


# -- 6. game target, scoring, match -----------------------------------------------------------
def test_G42_a_game_is_24_tentos() -> None:
    m = match(G)
    score_to(m, (0, 20))
    assert not m.is_over
    events = win_hand(m, 1, raises=2)  # worth 3: 23
    assert not of(events, "game") and m.score == [0, 23]
    events = win_hand(m, 1)
    assert of(events, "game") == [{"event": "game", "winner": 1, "score": [0, 24],
                                   "games": [0, 1]}]


def test_G43_the_halves_of_12_are_names_only() -> None:
    m = match(G)
    score_to(m, (11, 11))
    events = win_hand(m, 0, raises=1)  # into the "buenas": nothing happens but the score
    assert _hand(events) == {"event": "hand", "winner": 0, "points": 2, "score": [13, 11]}
    assert not of(events, "game") and m.games == [0, 0]
    m.deal(deal(m.dealer, EVEN))
    assert m.value == 1 and m.state == "play"


def test_G44_the_hands_truco_value_is_credited_when_the_hand_ends() -> None:
    m = match(G, deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s"))
    events = act(m, "raise 1 2", "accept 0", "play 1 3d", "play 2 4h", "play 3 4s")
    assert events == [] and m.score == [0, 0]
    events = act(m, "play 0 4c", "play 1 2d", "play 2 5h", "play 3 5s")
    assert m.score == [0, 0]
    events = act(m, "play 0 5c")
    assert _hand(events) == {"event": "hand", "winner": 1, "points": 2, "score": [0, 2]}


def test_G45_no_score_cap() -> None:
    m = match(G)
    score_to(m, (22, 0))
    events = win_hand(m, 0, raises=3)  # vale quatro from 22
    assert of(events, "game")[0]["score"] == [26, 0]


def test_G46_the_game_ends_the_moment_a_team_reaches_24() -> None:
    m = match(G)
    score_to(m, (23, 10))
    hands = ["3c 2c 6c", "4d 5d 6d", "3h 2h 6h", "4s 5s 6s"]
    m.deal(deal(m.dealer, " | ".join(hands)))
    events = []
    for _ in range(7):  # two rounds but their last card, each player his card of the round
        seat = m.turn
        events += act(m, f"play {seat} {hands[seat].split()[m.round_no]}")
    assert not of(events, "hand")
    seat = m.turn
    events = act(m, f"play {seat} {hands[seat].split()[1]}")
    # the second round won: 24, and the game and the match end with it
    assert [e["event"] for e in events] == ["round", "hand", "game", "match"]
    assert m.is_over and m.score == [24, 10] and m.hands[0] == ["6c"]


def test_G47_a_match_is_one_game() -> None:
    assert find_variant(G).games_to_win == 1
    m = match(G)
    score_to(m, (0, 22))
    events = win_hand(m, 1, raises=1)
    assert of(events, "match") and m.is_over and m.winner == 1 and m.games == [0, 1]


# -- house options GH1-GH17 (variants/house/gauderio-*.yaml) ----------------------------------
def test_GH1_one_against_one_to_18() -> None:
    rules = find_variant("gauderio-one-on-one")
    assert rules.players == 2 and rules.target == 18 and rules.team_of == (0, 1)
    m = match(sem_flor("gauderio-one-on-one"))
    score_to(m, (0, 16))
    events = win_hand(m, 1, raises=1)
    assert of(events, "game")[0]["score"] == [0, 18]
    m = match(sem_flor("gauderio-one-on-one"), deal(0, "3c 2c 4c | 4d 5d 6d"))
    events = act(m, "play 1 4d", "play 0 3c", "play 0 2c", "play 1 5d")
    assert _hand(events) == {"event": "hand", "winner": 0, "points": 1, "score": [1, 0]}


def test_GH1_trios_three_against_three_to_24() -> None:
    rules = find_variant("gauderio-trios")
    assert rules.players == 6 and rules.team_of == (0, 1, 0, 1, 0, 1) and rules.target == 24
    m = match(sem_flor("gauderio-trios"), deal(0, "4c 5c 6c | 3d 2d 6d | 4h 5h 6h | 4s 5s 6s | "
                                        "Jc Jd Jh | Qc Qd Qh"))
    act(m, "raise 1 2")
    assert m.to_act() == [0, 2, 4]  # any of the three partners answers
    act(m, "accept 4")
    events = act(m, "play 1 3d", "play 2 4h", "play 3 4s", "play 4 Jc", "play 5 Qc",
                 "play 0 4c")
    assert rounds(events) == [1]


def test_GH2_all_tied_scores_for_nobody() -> None:
    m = match(sem_flor("gauderio-all-tied-nobody"), deal(0, EVEN))
    events = []
    for r in "456":
        events += act(m, f"play 1 {r}d", f"play 2 {r}h", f"play 3 {r}s", f"play 0 {r}c")
    assert _hand(events) == {"event": "hand", "winner": None, "points": 0, "score": [0, 0]}


def test_GH2b_a_game_of_30() -> None:
    m = match(sem_flor("gauderio-30"))
    score_to(m, (0, 24))
    assert not m.is_over  # 24 does not end it
    score_to(m, (0, 28))
    events = win_hand(m, 1, raises=1)
    assert of(events, "game")[0]["score"] == [0, 30]


def test_GH3_the_mao_leads_after_a_parda_is_G11_with_three_cards(tmp_path: Path) -> None:
    """GH3 needs no house variant: with three cards the player who led a parda is always the
    mão (a parda after a won round ends the hand), so the loader refuses ``mao`` as a key
    that changes nothing."""
    path = tmp_path / "gh3.yaml"
    path.write_text("extends: gauderio\nrounds:\n  tied_round_leader: mao\n", encoding="utf-8")
    with pytest.raises(VariantError, match="tied_round_leader"):
        load_variant(path)
    for first in (["3c", "3d", "4h", "4s"], ["4c", "4d", "4h", "4s"]):
        m = match(G, filled_deal(G, first))
        act(m, *(f"play {s} {first[s]}" for s in (1, 2, 3, 0)))
        assert m.round_results == [None] and m.turn == m.mao


def test_GH15_best_of_three_games() -> None:
    m = match(sem_flor("gauderio-best-of-3"))
    score_to(m, (0, 22))
    events = win_hand(m, 1, raises=1)
    assert of(events, "game")[0]["games"] == [0, 1]
    assert not of(events, "match") and not m.is_over and m.score == [0, 0]


def test_GH16_truco_at_any_time_also_out_of_turn() -> None:
    m = match(G, deal(0, EVEN))
    assert_illegal(m, "raise 2 2", "turn")
    m = match(sem_flor("gauderio-truco-any-time"), deal(0, EVEN))
    act(m, "raise 2 2", "accept 1")
    assert m.value == 2 and m.turn == 1  # the turn did not change


def test_GH17_a_covered_card_in_rounds_2_and_3_is_worth_nothing() -> None:
    assert_illegal(match(G, deal(0, EVEN)), "play 1 4d covered")
    m = match(sem_flor("gauderio-covered"), deal(0, "4c 5c 6c | 4d 2d 6d | 4h 5h 6h | 4s 5s 6s"))
    assert_illegal(m, "play 1 2d covered", "round 2")
    act(m, "play 1 4d", "play 2 4h", "play 3 4s", "play 0 4c")  # parda; seat 1 leads
    events = act(m, "play 1 2d covered", "play 2 6h", "play 3 5s", "play 0 5c")
    assert rounds(events) == [0]  # the hidden 2 is nothing: the 6 wins
    assert _hand(events)["winner"] == 0  # parda, X: X


# -- truco play in Gaudério's words -----------------------------------------------------------
def test_play_words_truco_retruco_vale_quatro_quero_nao_quero_baralho() -> None:
    from engine import Action
    from engine.cli.play_cmd import parse_move

    def said(m: Match, seat: int, text: str) -> object:
        legal_now = m.legal_actions(seat)
        return parse_move(text, legal_now, [str(a) for a in legal_now], m.rules)

    m = match(G, deal(0, EVEN))
    assert said(m, 1, "truco") == Action.raise_to(1, 2)
    assert said(m, 1, "baralho") == Action.concede(1)  # on his turn: ir ao baralho
    act(m, "raise 1 2")
    assert said(m, 2, "quero") == Action.accept(2)
    assert said(m, 2, "não quero") == Action.fold(2)
    assert said(m, 2, "nao quero") == Action.fold(2)
    assert said(m, 2, "baralho") == Action.fold(2)  # answering a truco: the team's baralho
    assert said(m, 2, "retruco") == Action.raise_to(2, 3)
    assert said(m, 2, "quero retruco") == Action.raise_to(2, 3)
    act(m, "raise 2 3")
    assert said(m, 3, "vale quatro") == Action.raise_to(3, 4)


def test_play_menu_says_the_tables_words_and_reads_them() -> None:
    """move_names (presentation): Gaudério's menu says quero, não quero, vou ao baralho, and a
    typed name chooses its move; Paulista's menu keeps aceito and corro; the names are not
    rules (the fingerprint leaves them out)."""
    from engine.cli.play_cmd import parse_move
    from engine.moves import KINDS, Words

    def menu(m: Match, seat: int) -> list[str]:
        words = Words(who="you", s="", me=seat, rules=m.rules, position=None,
                      card=str, label=str)
        return [KINDS[a.kind].menu(a, words) for a in m.legal_actions(seat)  # type: ignore[misc]
                if a.kind in ("accept", "fold", "concede")]

    m = match(G, deal(0, EVEN))
    assert menu(m, 1) == ["vou ao baralho (concede the hand)"]
    legal = m.legal_actions(1)
    assert parse_move("Vou ao baralho", legal, [str(a) for a in legal], m.rules) \
        == Action.concede(1)
    act(m, "raise 1 2")
    assert menu(m, 2)[:2] == ["quero (accept)", "não quero (fold)"]
    p = Match.new("paulista", seed=1)
    p.apply(Action.raise_to(p.turn, 3))
    answering = next(s for s in range(4) if p.legal_actions(s))
    assert menu(p, answering)[:2] == ["aceito (accept)", "corro (fold)"]
    plain = {k: v for k, v in find_variant(G).data.items() if k != "move_names"}
    assert find_variant(G).fingerprint == rules_from_data(plain).fingerprint


def test_play_a_whole_gauderio_match_through_scripted_input(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from engine.cli import main
    from engine.replay import verify_file

    log = tmp_path / "g.jsonl"
    result = CliRunner().invoke(main, [
        "play", "--variant", G, "--seat", "1", "--bots", "heuristic,heuristic,random,heuristic",
        "--seed", "7", "--log", str(log)], input="a\n" * 3000)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "match won by" in out and "(to 24)" in out
    assert "manilhas A♠ espadão > A♣ bastião > 7♠ sete de espadas > 7♦ sete belo" in out
    assert "truco (raise to 2; não quero gives 1)" in out and "retruco (raise to 3;" in out
    checked = verify_file(log)
    assert checked.valid and checked.incomplete is None


# -- the docs, the replay, the variant list ---------------------------------------------------
def test_rules_md_has_a_row_for_every_rule_of_gauderio_here_and_its_keys_hold() -> None:
    import yaml
    from test_docs_reference import RULES_MD, named_keys, table_rows

    rows = table_rows(RULES_MD, "G id")
    ids = [f"G{i}" for i in range(1, 42)] + [f"G{i}" for i in range(42, 48)]  # G22-G41: bets
    assert [r[0] for r in rows] == ids
    data = find_variant(G).data
    checked = 0
    for row in rows:
        assert len(row) == 4, row
        for path, value in named_keys(row[3]):
            if value is not None:
                node = data
                for part in path.split("."):
                    node = node[part]
                assert node == yaml.safe_load(value), (row[0], path)
                checked += 1
    assert checked >= 12


def test_the_recorded_gauderio_log_verifies_and_is_remade_the_same() -> None:
    from engine.logformat import record_random
    from engine.replay import verify_file
    from tests.conftest import REPO

    path = REPO / "replays" / "gauderio-seed1.jsonl"
    result = verify_file(path)
    assert result.problems == [] and result.incomplete is None and result.winner is not None
    players = ["Ana", "Bia", "Caio", "Duda"]
    assert record_random("gauderio", 1, dealer=0,
                         players=players) == path.read_text(encoding="utf-8")
    assert '"event": "concede"' in path.read_text(encoding="utf-8")  # G20 in the log


def test_truco_variants_list_and_show_know_gauderio() -> None:
    from click.testing import CliRunner

    from engine.cli import main

    listing = CliRunner().invoke(main, ["variants", "list"]).output
    assert any(line.startswith("gauderio ") and "[gauderio.yaml]" in line
               for line in listing.splitlines())
    shown = CliRunner().invoke(main, ["variants", "show", G])
    assert shown.exit_code == 0 and "vale quatro" in shown.output
