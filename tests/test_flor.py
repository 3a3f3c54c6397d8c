"""Flor (variants/gauderio.yaml's ``side_bets.flor``): one test per rule G33-G41 of
shared/spec/GAUDERIO.md, the flor rows of the worked point examples, bet sequence 3 score by
score (and its variants in the text), the house options GH12 and GH13, the log, the
observations and random-play invariants.

Seats 0 and 2 are team A (0), seats 1 and 3 team B (1); with dealer 3 the mão is seat 0.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import act, assert_illegal, deal, legal, match, match_at, of

from engine import Action, Match
from engine.cards import parse_card
from engine.game import resolve_rules
from engine.sidebets import flor_points

G = "gauderio"
SEM_FLOR = "gauderio-sem-flor"
ARGENTINA = "gauderio-flor-argentina"


def refused(m: Match, move: str, code: str, *why: str) -> None:
    """``move`` is refused with the stable ``code`` (docs/error-codes.md), changing nothing."""
    assert assert_illegal(m, move, *why).code == code


def flor_bets(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in of(events, "side_bet") if e["bet"] == "flor"]


def said(events: list[dict[str, Any]]) -> list[tuple[int, int | None]]:
    return [(e["seat"], e["points"]) for e in of(events, "side_declare")]


def at(score: list[int], variant: Any = G, dealer: int = 3) -> Match:
    """A match at ``score`` whose next hand is dealt by ``dealer``."""
    return match_at(variant, score, dealer)


def value(cards: str, variant: Any = G) -> int | None:
    bet = next(b for b in resolve_rules(variant).side_bets if b.kind == "flor")
    got = flor_points([parse_card(c) for c in cards.split()], bet, None)
    return None if got is None else got[0]


# -- G33, G34: flor is played; its value ----------------------------------------------------
def test_G33_flor_is_played_in_gauderio_and_not_sem_flor() -> None:
    assert [b.kind for b in resolve_rules(G).side_bets] == ["envido", "flor"]
    assert [b.kind for b in resolve_rules(SEM_FLOR).side_bets] == ["envido"]


@pytest.mark.parametrize(("cards", "points"), [
    ("7c 5c 4c", 36),  # the worked example: 20 + 7 + 5 + 4
    ("5s 6s 7s", 38), ("Jh Qh Kh", 20), ("Kc 5c 2c", 27), ("7h 6h Ah", 34),
    ("7c 5c 4d", None), ("As Ac 7s", None)])
def test_G34_flor_value_is_20_plus_the_three_envido_values(cards: str,
                                                          points: int | None) -> None:
    assert value(cards) == points


def test_G34_equal_flores_the_player_nearer_the_mao_wins() -> None:
    """Seat 1 (B) and seat 2 (A) both hold a flor of 27; seat 1 is nearer the mão (seat 0)."""
    m = match(G, deal(3, "4d 5d 6s | Kc 5c 2c | Kh 4h 3h | 3d 6c 7d"), dealer=3)
    events = act(m, "play 0 4d", "flor 1 flor", "flor 2 flor")
    assert said(events) == [(1, 27), (2, 27)]
    assert flor_bets(events)[0]["winner"] == 1 and m.score == [0, 3]


# -- G35: compulsory, at the pinned moments -------------------------------------------------
def test_G35_the_mao_holding_a_flor_must_sing_before_anything_else() -> None:
    m = match(G, deal(3, "7c 5c 4c | 3d 2s Kd | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    assert m.state == "sing" and legal(m) == ["flor 0 flor"]
    refused(m, "play 0 7c", "flor_pending")
    refused(m, "envido 0 envido", "flor_pending")
    refused(m, "raise 0 2", "flor_pending")
    refused(m, "flor 1 flor", "not_your_song")
    events = act(m, "flor 0 flor")
    assert m.state == "play" and m.score == [3, 0] and flor_bets(events)[0]["points"] == 3


def test_G35_a_seat_sings_at_his_first_turn_and_nobody_without_a_flor() -> None:
    m = match(G, deal(3, "3d 2s Kd | 7c 5c 4c | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    assert m.state == "play"
    refused(m, "flor 0 flor", "not_now", "no flor is sung now")
    act(m, "play 0 3d")
    assert m.state == "sing" and legal(m) == ["flor 1 flor"]
    act(m, "flor 1 flor")
    assert m.state == "play" and m.turn == 1 and m.score == [0, 3]


def test_G35_an_envido_call_makes_every_holder_sing_before_it_is_answered() -> None:
    """(b): seat 0 calls envido; seats 1 and 3 (B) hold flores and sing at once, in order."""
    m = match(G, deal(3, "3d 2s Kd | 7c 5c 4c | 3h 6c Qh | 7s 6s 5s"), dealer=3)
    act(m, "envido 0 envido")
    assert m.state == "sing" and legal(m) == ["flor 1 flor"]
    refused(m, "quero 1", "flor_pending")
    refused(m, "flor 3 flor", "not_your_song", "seat 1 sings")
    events = act(m, "flor 1 flor", "flor 3 flor")
    assert m.state == "play" and m.turn == 0 and m.score == [0, 6]
    assert not [e for e in of(events, "side_bet") if e["bet"] == "envido"]


def test_G35_the_first_call_he_must_answer_makes_him_sing() -> None:
    """(c): seat 0 calls truco; seat 3 (B, to answer it) holds a flor and sings first."""
    m = match(G, deal(3, "3d 2s Kd | 3h 6c Qh | Ks Qd Jh | 7c 5c 4c"), dealer=3)
    act(m, "raise 0 2")
    assert m.state == "sing" and legal(m) == ["flor 3 flor"]
    refused(m, "accept 1", "flor_pending")
    act(m, "flor 3 flor")
    assert m.state == "answer" and m.pending == (0, 2, None) and m.score == [0, 3]
    act(m, "accept 1")
    assert m.value == 2


# -- G36: every other holder sings in turn; a pending truco waits ---------------------------
def test_G36_partners_sing_in_playing_order_before_play_goes_on() -> None:
    m = match(G, deal(3, "7c 5c 4c | 3h 6c Qh | 7s 6s 5s | Ks Qd Jh"), dealer=3)
    assert legal(m) == ["flor 0 flor"]
    act(m, "flor 0 flor")
    assert m.state == "sing" and legal(m) == ["flor 2 flor"]
    refused(m, "play 0 7c", "flor_pending")
    act(m, "flor 2 flor")
    assert m.state == "play" and m.score == [6, 0]


def test_G36_a_pending_truco_is_suspended_until_the_flores_are_settled() -> None:
    m = match(G, deal(3, "3d 2s Kd | 3c 6c Qd | Kh 4h 3h | 7c 5c 4c"), dealer=3)
    act(m, "raise 0 2")
    assert m.state == "sing" and m.pending == (0, 2, None)
    # seat 2 (A, the raiser's partner) holds a flor too: every holder sings, from the mão
    # (seat 2 first); seat 3, the first holder of the other team, chooses
    assert legal(m) == ["flor 2 flor"]
    act(m, "flor 2 flor")
    assert legal(m) == ["flor 3 flor", "flor 3 com flor me achico", "flor 3 contra-flor",
                        "flor 3 contra-flor ao resto"]
    act(m, "flor 3 flor")  # compared: 27 (seat 2) against 36 (seat 3)
    assert m.state == "answer" and m.pending == (0, 2, None) and m.score == [0, 3]


# -- G37: flor kills envido ---------------------------------------------------------------
def test_G37_flor_kills_a_called_envido_and_no_envido_after_it() -> None:
    m = match(G, deal(3, "3d 2s Kd | 3c 6c Qd | Kh 4h 3h | 7d 6d 5s"), dealer=3)
    events = act(m, "envido 0 real envido", "flor 2 flor")
    assert m.state == "play" and m.score == [3, 0]
    envido = m.hand.side[0]  # type: ignore[index]
    assert envido.killed and not envido.pending and not envido.settled
    assert [e["bet"] for e in of(events, "side_bet")] == ["flor"]
    refused(m, "envido 0 envido", "bet_done")
    act(m, "play 0 3d")
    refused(m, "envido 1 envido", "bet_done")
    assert "envido 1 envido" not in legal(m)


# -- G38: uncontested ----------------------------------------------------------------------
def test_G38_uncontested_3_per_flor_and_partner_flores_add_up() -> None:
    m = match(G, deal(3, "3d 2s Kd | 7c 5c 4c | 3h 6c Qh | 7s 6s 5s"), dealer=3)
    events = act(m, "play 0 3d", "flor 1 flor", "flor 3 flor")
    (bet,) = flor_bets(events)
    assert (bet["winner"], bet["points"], bet["score"]) == (1, 6, [0, 6])
    assert not of(events, "side_declare")  # no answer asked, nothing compared


# -- G39: contested: the first opposing holder chooses ------------------------------------
def test_G39_the_first_opposing_holder_chooses_and_the_others_sing_plain() -> None:
    m = match(G, deal(3, "7c 5c 4c | Kh 4h 3h | 7s 6s 5s | Kd 2d 5d"), dealer=3)
    act(m, "flor 0 flor")
    assert legal(m) == ["flor 1 flor", "flor 1 com flor me achico", "flor 1 contra-flor",
                        "flor 1 contra-flor ao resto"]
    act(m, "flor 1 contra-flor")
    assert legal(m) == ["flor 2 flor"]
    refused(m, "flor 2 contra-flor", "plain_song")
    act(m, "flor 2 flor")
    assert legal(m) == ["flor 3 flor"]
    act(m, "flor 3 flor")
    assert m.state == "bet_answer"
    # team A answers: quero, não quero, or contra-flor ao resto over the contra-flor
    assert sorted(legal(m)) == sorted(["flor 0 contra-flor ao resto", "flor 2 contra-flor ao "
                                       "resto", "quero 0", "quero 2", "nao_quero 0",
                                       "nao_quero 2", "concede 0", "concede 2"])
    refused(m, "quero 1", "not_challenged_bet")
    refused(m, "flor 0 contra-flor", "chain_not_allowed")


# -- G40: the stakes ------------------------------------------------------------------------
#: Seat 0 (A) 36 and seat 2 (A) 38 against seat 1 (B) 27 and seat 3 (B) 29.
FOUR = "7c 5c 4c | Kh 5h 2h | 7s 6s 5s | Kd 4d 5d"


@pytest.mark.parametrize(("moves", "winner", "points"), [
    (["flor 1 flor", "flor 2 flor", "flor 3 flor"], 0, 6),  # compared: 3 per own flor
    (["flor 1 com flor me achico", "flor 2 flor", "flor 3 flor"], 0, 6),  # to the first
    (["flor 1 contra-flor", "flor 2 flor", "flor 3 flor", "quero 0"], 0, 6),
    (["flor 1 contra-flor", "flor 2 flor", "flor 3 flor", "nao_quero 0"], 1, 6),  # 3 per own
    (["flor 1 contra-flor ao resto", "flor 2 flor", "flor 3 flor", "quero 2"], 0, 24 + 12),
    (["flor 1 contra-flor ao resto", "flor 2 flor", "flor 3 flor", "nao_quero 2"], 1, 6),
    (["flor 1 contra-flor", "flor 2 flor", "flor 3 flor", "flor 0 contra-flor ao resto",
      "nao_quero 3"], 0, 6),  # the previous stake, 6
])
def test_G40_contested_stakes(moves: list[str], winner: int, points: int) -> None:
    m = match(G, deal(3, FOUR), dealer=3)
    events = act(m, "flor 0 flor", *moves)
    (bet,) = flor_bets(events)
    assert (bet["winner"], bet["points"]) == (winner, points)
    if points >= 24:
        assert m.is_over and of(events, "game")  # G46: the ao resto ended the game


def test_G40_me_achico_the_concedes_flor_scores_nothing() -> None:
    """Seat 1 concedes for B; B's other flor (seat 3) scores nothing either, and neither is
    shown (G50); A's two flores are."""
    m = match(G, deal(3, FOUR), dealer=3)
    events = act(m, "flor 0 flor", "flor 1 com flor me achico", "flor 2 flor", "flor 3 flor")
    (bet,) = flor_bets(events)
    assert (bet["winner"], bet["points"], m.score) == (0, 6, [6, 0])
    assert not of(events, "side_declare")
    events = act(m, "concede 0")
    assert [e["seat"] for e in of(events, "side_show")] == [0, 2]


# -- G41: credited when settled; the flores that scored are shown -------------------------
def test_G41_credited_at_once_and_the_flores_that_scored_shown_at_the_end() -> None:
    m = match(G, deal(3, "7c 5c 4c | Kh 5h 2h | 3d 2s Kd | Ks Qd Jh"), dealer=3)
    events = act(m, "flor 0 flor", "flor 1 flor")
    assert m.score == [3, 0] and flor_bets(events)[0]["score"] == [3, 0]
    assert said(events) == [(0, 36), (1, 27)]
    events = act(m, "play 0 7c", "play 1 Kh", "play 2 3d", "play 3 Ks",
                 "play 2 2s", "play 3 Qd", "play 0 5c", "play 1 5h")
    shows = of(events, "side_show")  # both compared flores, their cards still in hand
    assert shows == [{"event": "side_show", "seat": 0, "cards": ["4c"]},
                     {"event": "side_show", "seat": 1, "cards": ["2h"]}]
    assert of(events, "hand")[0]["score"][0] == 4


def test_G41_a_flor_that_reaches_the_target_ends_the_game_at_once() -> None:
    m = at([22, 0])
    m.deal(deal(m.dealer, "7c 5c 4c | 3h 6c Qh | Ks Qd Jh | 3d 2s Kd"))
    events = act(m, "flor 0 flor")
    assert m.is_over and m.score == [25, 0] and of(events, "game")[0]["winner"] == 0


# -- the worked examples -------------------------------------------------------------------
def test_worked_example_flor_36_and_32_under_GH12() -> None:
    assert value("7c 5c 4c") == 36
    envido = resolve_rules(SEM_FLOR).side_bets[0]
    assert envido.points([parse_card(c) for c in ["7c", "5c", "4c"]], None) == 32


#: Bet sequence 3: seat 1 (B) Kc 5c 2c (flor 27), seat 2 (A) 7h 6h Ah (flor 34).
SEQ3 = "3d 2s Kd | Kc 5c 2c | 7h 6h Ah | Ks Qd Js"


def seq3() -> Match:
    m = at([3, 3])
    m.deal(deal(m.dealer, SEQ3))
    act(m, "envido 0 envido")
    assert m.state == "sing" and legal(m) == ["flor 1 flor"]
    act(m, "flor 1 flor", "flor 2 contra-flor")
    assert m.state == "bet_answer" and m.hand.side[0].killed  # type: ignore[index]
    return m


def test_bet_sequence_3_contra_flor_quero_A_scores_6() -> None:
    m = seq3()
    events = act(m, "quero 1")
    assert said(events) == [(1, 27), (2, 34)]
    (bet,) = flor_bets(events)
    assert (bet["winner"], bet["points"], m.score) == (0, 6, [9, 3])
    assert [e["bet"] for e in of(events, "side_bet")] == ["flor"]  # the envido is void
    assert m.state == "play"
    # the hand is then played for its truco value; both flores are shown at its end (G41)
    events = act(m, "play 0 3d", "play 1 Kc", "play 2 7h", "play 3 Ks", "play 0 2s",
                 "play 1 5c", "play 2 6h", "play 3 Qd")
    assert of(events, "side_show") == [{"event": "side_show", "seat": 1, "cards": ["2c"]},
                                       {"event": "side_show", "seat": 2, "cards": ["Ah"]}]
    assert m.score == [10, 3]


def test_bet_sequence_3_nao_quero_A_scores_3() -> None:
    m = seq3()
    act(m, "nao_quero 3")
    assert m.score == [6, 3]


def test_bet_sequence_3_contra_flor_ao_resto_stake_27_and_refused_6() -> None:
    m = seq3()
    events = act(m, "flor 1 contra-flor ao resto", "quero 2")
    assert flor_bets(events)[0]["points"] == 27 and m.is_over  # (24 - 3) + 3 x 2
    assert flor_bets(events)[0]["winner"] == 0  # A holds the best flor (34 > 27)
    m = seq3()
    act(m, "flor 3 contra-flor ao resto", "nao_quero 0")
    assert m.score == [3, 9]  # B scores the previous stake, 6


def test_bet_sequence_3_only_B_holding_flor_scores_6_without_answer() -> None:
    m = at([3, 3])
    m.deal(deal(m.dealer, "3d 2s Kd | Kc 5c 2c | 7h 6c Ad | 7s 6s 5s"))
    events = act(m, "envido 0 envido", "flor 1 flor", "flor 3 flor")
    assert m.score == [3, 9] and flor_bets(events)[0]["points"] == 6 and m.state == "play"


# -- GH12, GH13 ----------------------------------------------------------------------------
def test_GH12_sem_flor_three_suited_cards_are_an_envido_of_the_best_two() -> None:
    m = match(SEM_FLOR, deal(3, "7c 5c 4c | 3d 2s Kd | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    assert m.state == "play" and "flor" not in {a.kind for a in m.legal_actions()}
    events = act(m, "envido 0 envido", "quero 1")
    assert said(events)[0] == (0, 32) and m.score == [2, 0]


@pytest.mark.parametrize(("moves", "winner", "points"), [
    (["flor 1 flor", "flor 2 flor", "flor 3 flor"], 0, 4),
    (["flor 1 com flor me achico", "flor 2 flor", "flor 3 flor"], 0, 4),
    (["flor 1 contra-flor", "flor 2 flor", "flor 3 flor", "quero 0"], 0, 6),
    (["flor 1 contra-flor", "flor 2 flor", "flor 3 flor", "nao_quero 0"], 1, 4),
    (["flor 1 contra-flor", "flor 2 flor", "flor 3 flor", "flor 0 contra-flor ao resto",
      "nao_quero 1"], 0, 6),
    (["flor 1 contra-flor ao resto", "flor 2 flor", "flor 3 flor", "quero 0"], 0, 24)])
def test_GH13_the_argentine_flor_table(moves: list[str], winner: int, points: int) -> None:
    m = match(ARGENTINA, deal(3, FOUR), dealer=3)
    events = act(m, "flor 0 flor", *moves)
    (bet,) = flor_bets(events)
    assert (bet["winner"], bet["points"]) == (winner, points)


def test_GH13_uncontested_is_still_3_per_flor() -> None:
    m = match(ARGENTINA, deal(3, "7c 5c 4c | 3d 2s Kd | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    act(m, "flor 0 flor")
    assert m.score == [3, 0]


# -- observations, logs --------------------------------------------------------------------
def test_G49_a_seat_knows_its_own_flor_and_the_flores_sung_never_hidden_ones() -> None:
    hands = ["3d 2s Kd", "Kc 5c 2c", "7h 6h Ah", "Ks Qd Js"]
    m = match(G, deal(3, " | ".join(hands)), dealer=3)
    act(m, "envido 0 envido", "flor 1 flor")
    view = m.observation(2)["side_bets"][1]
    assert view["my_points"] == 34 and view["sung"] == [1] and view["declared"] == []
    assert m.observation(0)["side_bets"][1]["my_points"] is None
    # seat 0's view does not change when the hidden cards of seat 3 change
    other = ["3d 2s Kd", "Kc 5c 2c", "7h 6h Ah", "Ks Qh Jh"]
    m2 = match(G, deal(3, " | ".join(other)), dealer=3)
    act(m2, "envido 0 envido", "flor 1 flor")
    assert m.observation(0) == m2.observation(0)
    act(m, "flor 2 flor")
    assert m.observation(0)["side_bets"][1]["declared"] == [
        {"seat": 1, "points": 27}, {"seat": 2, "points": 34}]


def test_a_flor_log_verifies_and_a_wrong_flor_settlement_is_caught_at_its_line(
        tmp_path: Any) -> None:
    import json

    from engine.logformat import record_random
    from engine.replay import verify_file

    text = record_random(G, 1, dealer=0)
    lines = text.splitlines()
    at_line = next(i for i, line in enumerate(lines)
                   if '"side_bet"' in line and '"flor"' in line)
    good = tmp_path / "good.jsonl"
    good.write_text(text, encoding="utf-8")
    assert verify_file(good).problems == []
    ev = json.loads(lines[at_line])
    ev["points"] += 1
    ev["score"][ev["winner"]] += 1
    lines[at_line] = json.dumps(ev, ensure_ascii=False)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = verify_file(bad).problems
    assert problems and problems[0].line == at_line + 1


# -- random play ---------------------------------------------------------------------------
@pytest.mark.parametrize("variant", [G, ARGENTINA])
def test_random_play_a_flor_is_settled_once_and_no_envido_after_it(variant: str) -> None:
    sung = contested = 0
    for seed in range(40):
        m = Match.new(variant, seed=seed)
        rng = random.Random(seed)
        flor_in_hand = False
        settled_in_hand = 0
        hand = m.hand_number
        while not m.is_over:
            moves = m.legal_actions()
            assert moves
            if m.state == "sing":  # G35: the only moves are one holder's songs
                assert {a.kind for a in moves} == {"flor"} and len({a.seat for a in moves}) == 1
            a = rng.choice(moves)
            events = m.apply(a)
            if m.hand_number != hand:
                hand, flor_in_hand, settled_in_hand = m.hand_number, False, 0
            for e in events:
                if e["event"] == "side_bet" and e["bet"] == "flor":
                    settled_in_hand += 1
                    flor_in_hand = True
                    sung += 1
                    contested += e["accepted"]
                    assert settled_in_hand == 1
                elif e["event"] == "side_bet":  # an envido
                    assert not flor_in_hand, "envido credited after a flor (G37)"
            if a.kind == "flor":
                flor_in_hand = True
            assert m.hand_number != hand or settled_in_hand <= 1
    assert sung > 10 and contested > 0


def test_flor_moves_round_trip_through_the_log_event() -> None:
    a = Action.flor(2, "contra-flor ao resto")
    assert a.to_event() == {"event": "flor", "seat": 2, "call": "contra-flor ao resto"}
    assert Action.from_event(a.to_event()) == a
    assert str(a) == "flor 2 contra-flor ao resto"
    assert repr(a) == "Action.flor(2, 'contra-flor ao resto')"


# -- positions -----------------------------------------------------------------------------
def test_positions_cover_the_sing_state_and_the_flor_record() -> None:
    from engine.errors import PositionError

    m = match(G, deal(3, SEQ3), dealer=3)
    act(m, "envido 0 envido")
    p = m.position()
    assert p["state"] == "sing" and p["side_bets"][0]["pending"]
    assert Match.from_position(G, p).position() == p
    act(m, "flor 1 flor")
    p = m.position()
    assert p["side_bets"][1]["sung"] == [1] and p["side_bets"][0]["killed"]
    back = Match.from_position(G, p)
    assert back.position() == p and legal(back) == legal(m)
    wrong = {**p, "side_bets": [p["side_bets"][0], {**p["side_bets"][1], "sung": [2]}]}
    with pytest.raises(PositionError) as info:
        Match.from_position(G, wrong)
    assert info.value.code == "flor_sung"
    wrong = {**p, "state": "play"}
    with pytest.raises(PositionError) as info:
        Match.from_position(G, wrong)
    assert info.value.code == "flor_state"
    act(m, "flor 2 contra-flor")
    p = m.position()
    assert p["state"] == "bet_answer" and Match.from_position(G, p).position() == p
    # positions of a variant without flor keep their shape
    sem = match(SEM_FLOR, deal(3, SEQ3), dealer=3)
    assert "killed" not in sem.position()["side_bets"][0]


# -- bots, truco play, simulate, replay ----------------------------------------------------
def test_the_heuristic_bot_sings_and_chooses_by_its_flor_value() -> None:
    from engine.bots import make_bot
    from engine.bots.base import choose_for

    bot = make_bot("heuristic", resolve_rules(G), seed=1)
    m = match(G, deal(3, "7c 5c 4c | Kh Qh Jh | 7s 6s 5s | Kd 4d 5d"), dealer=3)
    assert str(choose_for(bot, m, 0)) == "flor 0 flor"  # compulsory: the only move
    act(m, "flor 0 flor")
    assert str(choose_for(bot, m, 1)) == "flor 1 com flor me achico"  # 20: é boa
    m = match(G, deal(3, "Kh 5h 2h | 7c 5c 4c | 3d 2s Kd | 5s 6s 7s"), dealer=3)
    act(m, "flor 0 flor")
    assert str(choose_for(bot, m, 1)) == "flor 1 contra-flor ao resto"  # 36: the most
    m = match(G, deal(3, "Kh 5h 2h | 6c 5c 4c | 3d 2s Kd | Qs Js Ks"), dealer=3)
    act(m, "flor 0 flor")
    assert str(choose_for(bot, m, 1)) == "flor 1 contra-flor"  # 35
    m = match(G, deal(3, "Kh 5h 2h | Qc 5c 2c | 3d 2s Kd | Qs Js Ks"), dealer=3)
    act(m, "flor 0 flor")
    assert str(choose_for(bot, m, 1)) == "flor 1 flor"  # 27: compare


def test_truco_play_reads_the_flor_words() -> None:
    from engine.cli.play_cmd import parse_move

    m = match(G, deal(3, FOUR), dealer=3)
    act(m, "flor 0 flor")
    legal_now = m.legal_actions(1)
    texts = [str(a) for a in legal_now]
    for said, move in (("flor", "flor 1 flor"), ("contra-flor", "flor 1 contra-flor"),
                       ("contra-flor ao resto", "flor 1 contra-flor ao resto"),
                       ("com flor me achico", "flor 1 com flor me achico"),
                       ("é boa", "flor 1 com flor me achico")):
        assert str(parse_move(said, legal_now, texts, m.rules)) == move


def test_simulate_reports_flor_statistics_in_text_and_json() -> None:
    from engine.cli.simulate_cmd import format_statistics
    from engine.simulate import run_simulation

    stats = run_simulation(G, games=10, seed=1, bots=["heuristic", "heuristic"])
    flor = stats["side_bets"][1]
    assert flor["bet"] == "flor" and flor["sung"] > 0
    assert 0 <= flor["contested"] <= flor["sung"] and flor["average_points"] >= 3
    assert "won_by_mao_team_any" in flor and "sung" not in stats["side_bets"][0]
    text = format_statistics(stats)
    assert "\nflor  sung " in text and "contested" in text


def test_truco_replay_tells_the_songs() -> None:
    from engine.logformat import record_random
    from engine.transcript import transcript

    text = transcript(record_random(G, 1, dealer=0).encode(), "flor.jsonl")
    assert "sings: flor" in text and "flor (flor, sung)" in text


# -- GH14: flor sung until the end of round 1 ----------------------------------------------
ROUND_1 = "gauderio-flor-round-1"


def test_GH14_a_holder_may_sing_on_his_turn_or_play_first() -> None:
    m = match(ROUND_1, deal(3, "7c 5c 4c | 3d 2s Kd | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    assert m.state == "play" and "flor 0 flor" in legal(m) and "play 0 7c" in legal(m)
    act(m, "flor 0 flor")
    assert m.state == "play" and m.score == [3, 0] and "flor 0 flor" not in legal(m)
    m = match(ROUND_1, deal(3, "3d 2s Kd | 7c 5c 4c | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    refused(m, "flor 0 flor", "no_flor")
    refused(m, "flor 1 flor", "not_your_turn")


def test_GH14_the_flor_is_due_by_the_end_of_round_1() -> None:
    m = match(ROUND_1, deal(3, "3d 2s Kd | 7c 5c 4c | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    act(m, "play 0 3d", "play 1 7c", "play 2 3h")
    assert m.state == "play"
    act(m, "play 3 Ks")  # the last card of round 1: seat 1 must sing now
    assert m.state == "sing" and legal(m) == ["flor 1 flor"]
    act(m, "flor 1 flor")
    assert m.state == "play" and m.score == [0, 3] and m.round.number == 1


def test_GH14_an_envido_settled_before_the_flor_stands() -> None:
    m = match(ROUND_1, deal(3, "3d 2s Kd | 7c 5c 4c | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    events = act(m, "envido 0 envido", "quero 1")  # seat 1's flor is not due: 32 wins
    assert [e["bet"] for e in of(events, "side_bet")] == ["envido"] and m.score == [0, 2]
    act(m, "play 0 3d", "flor 1 flor")
    assert m.score == [0, 5] and not m.hand.side[0].killed  # type: ignore[index]


#: Dealer 0 (the mão is seat 1): seat 0 (A) and seat 3 (B) hold a flor; seat 3 comes first
#: from the mão, but seat 0 sings first, of his own will, on his turn (GH14).
LATER_FIRST = "5s 6s As | 6c 7d 7h | 7c 2s 4s | 2h Jh 3h"


def test_GH14_G40_me_achico_pays_the_first_singer_not_the_first_from_the_mao() -> None:
    """G40: "com flor me achico" pays the first-singing team 3 per flor of its own; the
    conceder's flor scores nothing, even when the conceder is nearer the mão."""
    m = match(ROUND_1, deal(0, LATER_FIRST), dealer=0)
    act(m, "play 1 7d", "play 2 4s", "play 3 2h", "flor 0 flor")
    events = act(m, "flor 3 com flor me achico")
    bet = flor_bets(events)[0]
    assert (bet["winner"], bet["points"], bet["score"]) == (0, 3, [3, 0]) and m.score == [3, 0]


def test_GH14_G50_me_achico_shows_the_flor_that_scored_not_the_conceded_one() -> None:
    """G50: at the end of the hand the flor that scored (seat 0's, its cards still held) is
    shown, and nothing else: the conceder's flor stays hidden."""
    m = match(ROUND_1, deal(0, LATER_FIRST), dealer=0)
    act(m, "play 1 7d", "play 2 4s", "play 3 2h", "flor 0 flor", "flor 3 com flor me achico")
    events = act(m, "play 0 As", "concede 0")
    assert [(e["seat"], e["cards"]) for e in of(events, "side_show")] == [(0, ["6s", "5s"])]


# -- the loader's cross-checks -------------------------------------------------------------
@pytest.mark.parametrize(("body", "path", "says"), [
    ("  envido:\n    per_flor: 3\n", "side_bets.envido.per_flor", "only on a flor"),
    ("  flor:\n    kills: [truco]\n", "side_bets.flor.kills[0]", "another side bet"),
    ("  flor:\n    chains:\n      - {calls: [flor], accepted: flores, at_once: compare}\n"
     "      - {calls: [contra-flor], accepted: 6}\n", "side_bets.flor.chains[1].refused",
     "expected refused"),
    ("  flor:\n    chains:\n      - {calls: [flor], accepted: flores}\n"
     "      - {calls: [contra-flor], accepted: 6, refused: 3}\n", "side_bets.flor.chains",
     "settled at_once: compare"),
    ("  envido:\n    timing: round_end\n", "side_bets.envido.timing", "only on a flor"),
])
def test_flor_keys_that_make_no_sense_are_refused_with_their_path(
        tmp_path: Any, body: str, path: str, says: str) -> None:
    from click.testing import CliRunner

    from engine.cli import main
    from engine.errors import VariantError
    from engine.variant import load_variant

    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {G}\nside_bets:\n{body}", encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    assert any(e.path == path and says in str(e) for e in info.value.errors), \
        [str(e) for e in info.value.errors]
    result = CliRunner().invoke(main, ["variants", "check", str(bad)])
    assert result.exit_code == 1 and path in result.output
    assert "Traceback" not in result.output


def test_a_flor_left_out_changes_no_other_variants_fingerprint() -> None:
    """The new keys are optional: a variant without flor reads them with their defaults."""
    sem = resolve_rules(SEM_FLOR)
    assert [b.kind for b in sem.side_bets] == ["envido"]
    assert sem.side_bets[0].timing == "first_turn" and sem.side_bets[0].kills == ()
