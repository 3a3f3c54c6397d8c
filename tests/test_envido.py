"""Envido, the side bet of Truco Gaudério (G22-G32, G44, G46), on explicit deals: one test
(or a few) per rule id, named after it, and the worked examples of the spec (the 8 point
computations, bet sequences 1 and 2, score by score)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, assert_illegal, deal, legal, match, match_at, of

from engine import Match
from engine.cards import parse_card
from engine.game import resolve_rules
from engine.sidebets import falta_value

#: The variant the rules are tested on.
VARIANT: Any = "gauderio-sem-flor"  # the deals hold flores: the envido is GH12's here


def at(score: list[int], dealer: int = 3, variant: Any = VARIANT) -> Match:
    """A match whose score is ``score`` and whose next hand is dealt by ``dealer``."""
    return match_at(variant, score, dealer)


def refused(m: Match, move: str, code: str, *why: str) -> None:
    """``move`` is refused with the stable ``code`` (docs/error-codes.md), changing nothing."""
    assert assert_illegal(m, move, *why).code == code


def bets(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return of(events, "side_bet")


def said(events: list[dict[str, Any]]) -> list[tuple[int, int | None]]:
    return [(e["seat"], e["points"]) for e in of(events, "side_declare")]


# -- G22: the points, the worked examples ------------------------------------------------------
@pytest.mark.parametrize(("cards", "points"), [
    ("7d 6d 3s", 33), ("5h Kh 2c", 25), ("Jc Qc 4d", 20), ("As 7s Kd", 28), ("7h 3s Ad", 7),
    ("Ks Qd Jh", 0), ("7c 5c 4c", 32),  # flor under GH12's reading (no flor built): 20+7+5
    ("6s As 2h", 27), ("7c Kc 5d", 27)])
def test_G22_envido_points_worked_examples(cards: str, points: int) -> None:
    bet = resolve_rules(VARIANT).side_bets[0]
    assert bet.points([parse_card(c) for c in cards.split()], None) == points


def test_G22_played_cards_count_and_G30_tie_goes_to_the_mao() -> None:
    """mão 6s As 2h (27) against the pé 7c Kc 5d (27): the mão wins the tie, though he has
    played his 6s already (the points are of the cards dealt)."""
    m = match(VARIANT, deal(3, "6s As 2h | Jd Qd 3h | Jh Qh 3c | 7c Kc 5d"), dealer=3)
    events = act(m, "play 0 6s", "play 1 3h", "play 2 3c", "envido 3 envido", "quero 0")
    assert said(events) == [(0, 27), (1, None), (3, None)]
    assert bets(events)[0]["winner"] == 0 and bets(events)[0]["points"] == 2


def test_G23_envido_with_any_hand() -> None:
    """A hand without two of a suit may call: its points are its best single card."""
    m = match(VARIANT, deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s"), dealer=3)
    assert "envido 0 envido" in legal(m)
    events = act(m, "envido 0 envido", "quero 1")
    assert said(events) == [(0, 0), (1, 6), (2, 7), (3, None)]
    assert bets(events)[0]["winner"] == 0


# -- G24: the window --------------------------------------------------------------------------
def test_G24_envido_only_on_ones_turn_before_ones_card() -> None:
    m = match(VARIANT, deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s"), dealer=3)
    refused(m, "envido 1 envido", "not_your_turn")
    act(m, "play 0 Ks")
    refused(m, "envido 0 envido", "not_your_turn")
    # a player whose partner has played may still start it on his own turn
    act(m, "play 1 4c")
    assert "envido 2 envido" in legal(m)
    act(m, "play 2 7c")
    assert [a for a in legal(m) if a.startswith("envido")] == [
        "envido 3 envido", "envido 3 real envido", "envido 3 falta envido"]


def test_G24_envido_only_in_round_1_and_once_per_hand() -> None:
    m = match(VARIANT, deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s"), dealer=3)
    act(m, "envido 0 envido", "nao_quero 1")
    assert m.state == "play" and m.turn == 0  # a refused envido does not end the hand (G31)
    refused(m, "envido 0 envido", "bet_done", "one envido dispute per hand")
    m = match(VARIANT, deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s"), dealer=3)
    act(m, "play 0 Ks", "play 1 4c", "play 2 7c", "play 3 6s")  # round 1: 7c wins for A
    assert m.round_no == 1 and not [a for a in legal(m) if a.startswith("envido")]
    refused(m, f"envido {m.turn} envido", "bet_window_closed", "round 1 (G24)")


def test_G24_the_opponents_answer_whether_or_not_they_have_played() -> None:
    m = match(VARIANT, deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s"), dealer=3)
    act(m, "play 0 Ks", "envido 1 envido")
    assert legal(m) == ["concede 0", "concede 2",  # the baralho instead (G20)
                        "envido 0 envido", "envido 0 real envido", "envido 0 falta envido",
                        "envido 2 envido", "envido 2 real envido", "envido 2 falta envido",
                        "quero 0", "quero 2", "nao_quero 0", "nao_quero 2"]
    refused(m, "quero 3", "not_challenged_bet")
    refused(m, "play 2 7c", "bet_answer_pending")
    refused(m, "raise 2 2", "bet_answer_pending")


# -- G25, G26: envido and truco ----------------------------------------------------------------
def test_G25_an_accepted_truco_closes_envido() -> None:
    m = match(VARIANT, deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s"), dealer=3)
    act(m, "raise 0 2", "accept 1")
    assert not [a for a in legal(m) if a.startswith("envido")]
    refused(m, "envido 0 envido", "bet_closed_by_truco", "(G25)")


def test_G26_envido_esta_primero() -> None:
    """The answerer of a pending truco who has not played calls envido instead; the truco
    waits, the envido is settled first, then the same team answers the truco."""
    m = match(VARIANT, deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s"), dealer=3)
    act(m, "play 0 Ks", "play 1 4c", "raise 2 2")
    refused(m, "envido 1 envido", "card_played", "(G26)")  # seat 1 has played
    assert "envido 3 envido" in legal(m)
    act(m, "envido 3 real envido")
    assert m.state == "bet_answer" and m.pending == (2, 2, None)
    events = act(m, "quero 2")
    assert bets(events)[0]["points"] == 3
    assert m.state == "answer" and m.pending == (2, 2, None)  # the truco is pending again
    assert set(m.to_act()) == {1, 3}
    assert not [a for a in legal(m) if a.startswith("envido")]  # settled: once per hand


# -- G27, G28: chains and stakes ----------------------------------------------------------------
def test_G27_the_legal_chains() -> None:
    def raises(m: Match, seat: int) -> list[str]:
        return [a.split(" ", 2)[2] for a in legal(m, seat) if a.startswith("envido")]

    d = deal(3, "Ks Qd Jh | 4c 5d 6h | 7c 2d 3h | 4d 5h 6s")
    m = match(VARIANT, d, dealer=3)
    act(m, "envido 0 envido")
    assert raises(m, 1) == ["envido", "real envido", "falta envido"]
    act(m, "envido 1 envido")
    assert raises(m, 0) == ["real envido", "falta envido"]  # E at most twice
    act(m, "envido 2 real envido")
    assert raises(m, 1) == ["falta envido"]  # R once, never followed by E
    refused(m, "envido 1 envido", "chain_not_allowed", "(G27)")
    refused(m, "envido 2 falta envido", "not_challenged_bet")  # the other team raises
    act(m, "envido 3 falta envido")
    assert raises(m, 0) == [] and legal(m, 0) == ["concede 0", "quero 0", "nao_quero 0"]
    m = match(VARIANT, d, dealer=3)
    act(m, "envido 0 real envido")
    assert raises(m, 1) == ["falta envido"]


@pytest.mark.parametrize(("chain", "accepted", "refused"), [
    (["envido"], 2, 1), (["real envido"], 3, 1), (["envido", "envido"], 4, 2),
    (["envido", "real envido"], 5, 2), (["envido", "envido", "real envido"], 7, 4),
    (["falta envido"], 24, 1), (["envido", "falta envido"], 24, 2),
    (["envido", "envido", "falta envido"], 24, 4), (["real envido", "falta envido"], 24, 3),
    (["envido", "real envido", "falta envido"], 24, 5),
    (["envido", "envido", "real envido", "falta envido"], 24, 7)])
def test_G28_stakes_accepted_and_refused(chain: list[str], accepted: int, refused: int) -> None:
    """The table of G28; at 0-0 the falta is 24 (G29). Seat 0 (33) wins every comparison."""
    d = deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c")
    for answer, points in (("quero", accepted), ("nao_quero", refused)):
        m = match(VARIANT, d, dealer=3)
        callers = [0, 1, 2, 3]
        for k, call in enumerate(chain):
            act(m, f"envido {callers[k]} {call}")
        answerer = 1 if len(chain) % 2 else 0
        events = act(m, f"{answer} {answerer}")
        bet = bets(events)[0]
        assert bet["points"] == points and bet["calls"] == chain
        last_team = (len(chain) - 1) % 2
        assert bet["winner"] == (0 if answer == "quero" else last_team)


# -- G29: the falta ---------------------------------------------------------------------------
def test_G29_falta_is_the_target_minus_the_leader() -> None:
    assert falta_value("target_minus_leader", 24, [12, 14], 0) == 10
    assert falta_value("target_minus_leader", 24, [9, 9], 1) == 15
    assert falta_value("target_minus_leader", 24, [23, 0], 1) == 1


# -- G30-G32 ---------------------------------------------------------------------------------
def test_G30_declarations_from_the_mao_the_team_ahead_silent() -> None:
    """mão A0 25; B1 20 says são boas; A2 31 is silent (A ahead); B3 30 declares; then A2,
    no longer ahead, declares 31 and wins."""
    m = match(VARIANT, deal(3, "5h Kh 2c | Jc 4c 2h | 7s 4s Ks | 7d 3d Qh"), dealer=3)
    events = act(m, "envido 0 envido", "quero 1")
    assert said(events) == [(0, 25), (1, None), (3, 30), (2, 31)]
    assert bets(events)[0]["winner"] == 0


def test_G30_a_refused_call_is_paid_at_once_to_the_last_caller() -> None:
    m = match(VARIANT, deal(3, "5h Kh 2c | Jc 4c 2h | 7s 4s Ks | 7d 3d Qh"), dealer=3)
    events = act(m, "envido 0 envido", "envido 1 real envido", "nao_quero 2")
    assert said(events) == []
    assert bets(events) == [{"event": "side_bet", "bet": "envido",
                             "calls": ["envido", "real envido"], "accepted": False,
                             "winner": 1, "points": 2, "score": [0, 2]}]
    assert m.score == [0, 2]


def test_G31_credited_when_settled_the_hand_goes_on() -> None:
    m = match(VARIANT, deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"), dealer=3)
    events = act(m, "envido 0 envido", "quero 1")
    assert m.score == [2, 0] and bets(events)[0]["score"] == [2, 0]
    assert m.state == "play" and m.value == 1 and m.turn == 0  # the truco value is unchanged


def test_G32_the_winning_points_are_shown_at_the_end_of_the_hand() -> None:
    m = match(VARIANT, deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"), dealer=3)
    act(m, "envido 0 envido", "quero 1", "play 0 7d")
    m2 = m.clone()
    events = act(m, "play 1 4c", "play 2 Kc", "play 3 4d", "play 0 6d", "play 1 5h",
                 "play 2 2d", "play 3 Qs")
    shows = of(events, "side_show")
    assert shows == [{"event": "side_show", "seat": 0, "cards": ["6d"]}] or shows == []
    assert m2.observation(1)["last_hand"] is None
    # the hand ended before seat 0 played his 6d: it is shown (7d was played)
    events = act(m2, "play 1 4c", "play 2 Kc", "play 3 4d", "play 0 3s", "play 1 5h",
                 "play 2 3h", "play 3 Qs")
    assert of(events, "hand") and of(events, "side_show") == [
        {"event": "side_show", "seat": 0, "cards": ["6d"]}]
    assert {"seat": 0, "card": "6d"} in m2.observation(1)["last_hand"]["shown"]


SIXES = "4s 6d 6c | 5h 4c Jd | 3h 2d Ks | Kh Qc Js"  # seat 0 declares 6 (6d or 6c); the rest less


def shows(events: list[dict[str, Any]]) -> list[tuple[int, list[str]]]:
    return [(e["seat"], e["cards"]) for e in of(events, "side_show")]


def test_G32_equal_cards_the_one_still_in_hand_is_shown() -> None:
    """G32 ("those still in hand"), pinned: where two cards make the same points, the one
    still in hand at the end of the hand is shown, not the played one."""
    m = match(VARIANT, deal(3, SIXES), dealer=3)
    act(m, "envido 0 envido", "quero 1", "play 0 6c")
    assert shows(act(m, "concede 1")) == [(0, ["6d"])]
    m = match(VARIANT, deal(3, SIXES), dealer=3)
    act(m, "envido 0 envido", "quero 1", "play 0 6d")
    assert shows(act(m, "concede 1")) == [(0, ["6c"])]


def test_G32_equal_cards_all_held_the_first_in_card_order() -> None:
    """Pinned: both still held, the first in the card order (suits c, d, h, s) is shown."""
    m = match(VARIANT, deal(3, SIXES), dealer=3)
    act(m, "envido 0 envido", "quero 1")
    assert shows(act(m, "concede 0")) == [(0, ["6c"])]


def test_G32_equal_pairs_the_one_with_more_cards_held_is_shown() -> None:
    """Sem flor (GH12) 5h Kh Qh is 25 with either figure: the Qh played, 5h Kh are shown."""
    m = match(VARIANT, deal(3, "5h Kh Qh | 4c 3d 2s | As 3c Jd | Jc Qd Ks"), dealer=3)
    act(m, "envido 0 envido", "quero 1")
    assert shows(act(m.clone(), "concede 0")) == [(0, ["5h", "Qh"])]  # both held: Q before K
    act(m, "play 0 Qh")
    assert shows(act(m, "concede 1")) == [(0, ["5h", "Kh"])]


# -- G44, G46 --------------------------------------------------------------------------------
def test_G44_envido_and_truco_points_in_one_hand_in_order() -> None:
    m = match(VARIANT, deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"), dealer=3)
    events = act(m, "envido 0 envido", "nao_quero 1", "raise 0 2", "accept 1")
    for seat, card in [(0, "7d"), (1, "4c"), (2, "Kc"), (3, "4d"), (0, "3s"), (1, "5h"),
                       (2, "2d"), (3, "Qs")]:
        events += act(m, f"play {seat} {card}")
    assert [e["event"] for e in events if e["event"] in ("side_bet", "hand")] == [
        "side_bet", "hand"]
    assert of(events, "hand")[0]["score"] == [3, 0]


def test_G46_envido_reaching_the_target_ends_the_game_mid_hand() -> None:
    m = at([20, 5], dealer=3)
    m.deal(deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"))
    events = act(m, "envido 0 envido", "envido 1 real envido", "quero 0")
    assert [e["event"] for e in events] == ["side_declare", "side_declare", "side_declare",
                                            "side_bet", "side_show", "game", "match"]
    assert bets(events)[0]["score"] == [25, 5] and m.is_over and m.winner == 0


# -- the worked bet sequences -----------------------------------------------------------------
def test_bet_sequence_1_envido_refused_truco_accepted() -> None:
    m = at([5, 9], dealer=3)
    m.deal(deal(3, "3h 6s Jd | As 7d Qh | 2c Kc 4s | 5d 4h Js"))
    events = act(m, "envido 0 envido", "envido 1 real envido", "nao_quero 2")
    assert bets(events)[0]["points"] == 2 and m.score == [5, 11]
    events = act(m, "play 0 3h", "raise 1 2", "accept 2", "play 1 As", "play 2 2c", "play 3 5d")
    assert of(events, "round") == [{"event": "round", "winner": 1}] and m.turn == 1
    events = act(m, "play 1 7d", "play 2 Kc", "play 3 4h", "play 0 6s")
    assert of(events, "hand") == [{"event": "hand", "winner": 1, "points": 2,
                                   "score": [5, 13]}]
    assert of(events, "side_show") == []  # a refused envido shows nothing (G50)


def test_bet_sequence_2_envido_esta_primero_falta_truco_resumed() -> None:
    m = at([12, 14], dealer=3)
    m.deal(deal(3, "4c 7h 6h | 7d 2d Kc | 6c Qc 3s | Ah Qh 4s"))
    act(m, "play 0 4c", "raise 1 2", "envido 2 envido", "envido 3 falta envido")
    events = act(m, "quero 0")
    assert said(events) == [(0, 33), (1, None), (3, None)]
    assert bets(events) == [{"event": "side_bet", "bet": "envido",
                             "calls": ["envido", "falta envido"], "accepted": True,
                             "winner": 0, "points": 10, "score": [22, 14]}]
    assert m.state == "answer" and m.pending == (1, 2, None)
    events = act(m, "raise 2 3", "fold 3")
    assert [e["event"] for e in events] == ["side_show", "hand", "game", "match"]
    assert of(events, "side_show")[0] == {"event": "side_show", "seat": 0,
                                          "cards": ["7h", "6h"]}
    assert of(events, "hand")[0]["score"] == [24, 14] and m.winner == 0


def test_bet_sequence_2_had_a_refused_the_falta_b_scores_2() -> None:
    m = at([12, 14], dealer=3)
    m.deal(deal(3, "4c 7h 6h | 7d 2d Kc | 6c Qc 3s | Ah Qh 4s"))
    events = act(m, "play 0 4c", "raise 1 2", "envido 2 envido", "envido 3 falta envido",
                 "nao_quero 0")
    assert bets(events)[0]["winner"] == 1 and m.score == [12, 16]


# -- observation, bots, simulation --------------------------------------------------------------
def test_G49_observation_shows_own_points_and_declarations_never_hidden_values() -> None:
    """Before the settlement a seat knows its own points only: other hidden cards changed, the
    observation is the same; after it, the declared values (são boas stays hidden)."""
    a = match(VARIANT, deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"), dealer=3)
    b = match(VARIANT, deal(3, "7d 6d 3s | Jc 5c Jd | Kh 2h 3c | 4s Qd 6h"), dealer=3)
    for m in (a, b):
        act(m, "envido 0 envido")
    assert a.observation(0) == b.observation(0)
    view = a.observation(0)["side_bets"][0]
    assert view["my_points"] == 33 and view["pending"] and view["calls"] == ["envido"]
    assert a.observation(1)["side_bets"][0]["my_points"] == 25
    act(a, "quero 1")
    view = a.observation(3)["side_bets"][0]
    assert view["declared"] == [{"seat": 0, "points": 33}, {"seat": 1, "points": None},
                                {"seat": 3, "points": None}]
    assert view["settled"] and view["accepted"] and view["winner"] == 0 and view["points"] == 2


def test_a_variant_without_side_bets_has_no_side_bets_in_observations() -> None:
    assert "side_bets" not in Match.new("paulista", seed=1).observation(0)


def test_the_heuristic_bot_calls_and_answers_envido_by_its_points() -> None:
    from engine.bots.heuristic import HeuristicBot

    m = match(VARIANT, deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"), dealer=3)
    bot = HeuristicBot(m.rules, seed=1)
    move = bot.choose(m.observation(0), m.legal_actions(0))
    assert move.kind == "envido" and move.call == "real envido"  # 33 (+1 as the mão)
    act(m, "envido 0 envido")
    assert bot.choose(m.observation(1), m.legal_actions(1)).kind == "nao_quero"  # 5 points
    m = match(VARIANT, deal(3, "Ks Qd Jh | 7c 6c 4d | Kc 2d 3h | 4c Qs 5d"), dealer=3)
    assert bot.choose(m.observation(0), m.legal_actions(0)).kind != "envido"  # 0 points
    act(m, "envido 0 envido")
    move = bot.choose(m.observation(1), m.legal_actions(1))
    assert move.kind == "envido" and move.call == "falta envido"  # 33: raises to the top


def test_simulate_reports_envido_statistics() -> None:
    from engine.simulate import run_simulation

    stats = run_simulation(VARIANT, games=6, seed=2, bots=["heuristic", "heuristic"])
    bet = stats["side_bets"][0]
    assert bet["bet"] == "envido" and bet["called"] >= bet["accepted"] > 0
    assert bet["won_by_mao_team"] <= bet["accepted"] and bet["average_points"] > 0
    assert "side_bets" not in run_simulation("paulista", games=2, seed=2,
                                             bots=["heuristic", "random"])


def test_G46_envido_won_under_a_pending_truco_ends_the_game_and_the_truco_with_it() -> None:
    m = at([21, 21], dealer=3)
    m.deal(deal(3, "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"))
    act(m, "play 0 3s", "raise 1 2")
    events = act(m, "envido 2 real envido", "quero 1")
    assert [e["event"] for e in events] == ["side_declare", "side_declare", "side_declare",
                                            "side_bet", "side_show", "game", "match"]
    assert m.is_over and m.winner == 0 and m.score == [24, 21]
    assert m.pending is None
    assert Match.from_position(VARIANT, m.position()).position() == m.position()
