"""Side bets with more than two teams (catalogue #27, carancho): the house variant
`gauderio-carancho` (Gaudério for three, each for himself, with envido and flor), tested by
rule on explicit deals; and a child variant dropping its parent's side bets (`side_bets: {}`).

With dealer 2 the mão is seat 0; seats 0, 1, 2 are teams 0, 1, 2."""

from __future__ import annotations

from typing import Any

from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, match, of

from engine import Match, find_variant
from engine.variant import load_variant

V = "gauderio-carancho"


def said(events: list[dict[str, Any]]) -> list[tuple[int, int | None]]:
    return [(e["seat"], e["points"]) for e in of(events, "side_declare")]


def bet(events: list[dict[str, Any]]) -> dict[str, Any]:
    (got,) = of(events, "side_bet")
    return got


def test_carancho_three_players_each_for_himself_play_envido_and_flor() -> None:
    rules = find_variant(V)
    assert rules.players == 3 and rules.teams == 3 and rules.team_of == (0, 1, 2)
    assert [b.kind for b in rules.side_bets] == ["envido", "flor"]


def test_carancho_G27_any_other_player_answers_the_call() -> None:
    m = match(V, deal(2, "5h Kh 2c | Jc 4c 2h | 7s 4s Kd"), dealer=2)
    act(m, "envido 0 envido")
    assert {"quero 1", "quero 2", "nao_quero 1", "nao_quero 2"} <= set(legal(m))
    assert not [a for a in legal(m) if a.endswith(" 0") or " 0 " in a]
    assert assert_illegal(m, "quero 0").code == "not_challenged_bet"


def test_carancho_G30_the_best_envido_of_the_three_wins() -> None:
    """Seat 0 25 declares; seat 1 24 says são boas; seat 2 31 declares and scores the 2."""
    m = match(V, deal(2, "5h Kh 2c | Jc 4c 2h | 7s 4s Kd"), dealer=2)
    events = act(m, "envido 0 envido", "quero 1")
    assert said(events) == [(0, 25), (1, None), (2, 31)]
    assert (bet(events)["winner"], bet(events)["score"]) == (2, [0, 0, 2])


def test_carancho_G30_equal_points_go_to_the_player_nearer_the_mao() -> None:
    """Seats 1 and 2 both hold 27: seat 1, nearer the mão, wins; seat 2 says são boas."""
    m = match(V, deal(2, "5h Kh 2c | 7c Kc 4h | 7d Qd 3s"), dealer=2)
    events = act(m, "envido 0 envido", "quero 2")
    assert said(events) == [(0, 25), (1, 27), (2, None)]
    assert bet(events)["winner"] == 1 and m.score == [0, 2, 0]


def test_carancho_G28_a_refusal_pays_the_last_caller_whoever_refuses() -> None:
    """Seat 1 raises real envido over seat 0's envido; seat 2 refuses for the table: E-R
    refused pays seat 1 the envido's 2."""
    m = match(V, deal(2, "5h Kh 2c | Jc 4c 2h | 7s 4s Kd"), dealer=2)
    events = act(m, "envido 0 envido", "envido 1 real envido", "nao_quero 2")
    assert (bet(events)["winner"], bet(events)["points"], m.score) == (1, 2, [0, 2, 0])


def test_carancho_G29_the_falta_is_the_target_minus_the_highest_of_three_scores() -> None:
    start = match(V, dealer=2).position()
    m = Match.from_position(V, {**start, "score": [5, 9, 3]})
    m.deal(deal(2, "5h Kh 2c | Jc 4c 2h | 7s 4s Kd"))
    events = act(m, "envido 0 falta envido", "quero 1")
    assert bet(events)["points"] == 24 - 9 and m.score == [5, 9, 3 + 15]


def test_carancho_G20_the_baralho_instead_of_an_answer_pays_the_caller() -> None:
    """Seat 2 calls envido; seat 1 goes to the baralho instead of answering: the envido
    counts as refused (1 to seat 2), and the hand's 1 goes to seat 2 too, who challenged him
    (not to the first other team)."""
    m = match(V, deal(2, "5h Kh 2c | Jc 4c 2h | 7s 4s Kd"), dealer=2)
    events = act(m, "play 0 2c", "play 1 2h", "envido 2 envido", "concede 1")
    assert bet(events)["winner"] == 2
    assert of(events, "hand")[0]["winner"] == 2 and m.score == [0, 0, 2]


def test_carancho_G39_G40_three_flores_compared_the_best_wins() -> None:
    """Every seat holds a flor: seat 0 sings, seat 1 (the first of another team) chooses to
    compare, seat 2 sings; seat 2's 34 beats 29 and 27 and scores 3 for its own flor; the
    three flores compared are declared and shown (G41, G49)."""
    m = match(V, deal(2, "Kc 5c 2c | 4d 5d Qd | 7h 6h Ah"), dealer=2)
    assert legal(m) == ["flor 0 flor"]
    act(m, "flor 0 flor")
    assert "flor 1 com flor me achico" in legal(m)
    act(m, "flor 1 flor")
    assert legal(m) == ["flor 2 flor"]
    events = act(m, "flor 2 flor")
    assert said(events) == [(0, 27), (1, 29), (2, 34)]
    assert (bet(events)["winner"], m.score) == (2, [0, 0, 3])
    events = act(m, "concede 0")
    assert [e["seat"] for e in of(events, "side_show")] == [0, 1, 2]


def test_carancho_G39_a_contra_flor_is_answered_only_by_a_team_holding_a_flor() -> None:
    """Seats 0 and 2 hold flores, seat 1 none: seat 2's contra-flor is seat 0's to answer;
    seat 1, outside the dispute, may neither answer it nor go to the baralho instead."""
    m = match(V, deal(2, "Kc 5c 2c | 4d 5s Qd | 7h 6h Ah"), dealer=2)
    act(m, "flor 0 flor", "flor 2 contra-flor")
    assert m.state == "bet_answer"
    assert not [a for a in legal(m) if a.split()[1] == "1"]
    assert assert_illegal(m, "quero 1").code == "not_challenged_bet"
    assert assert_illegal(m, "flor 1 contra-flor ao resto").code == "not_challenged_bet"
    events = act(m, "quero 0")
    assert (bet(events)["winner"], m.score) == (2, [0, 0, 6])


def test_carancho_G35_a_raise_calls_for_the_flor_of_the_seat_that_answers_it_only() -> None:
    """G35(c), "the first call he must answer": seat 0's truco is answered by seat 1 (the
    next seat); seat 2's flor is not due then, but on his first turn (G35(a))."""
    m = match(V, deal(2, "5h Kh 2c | Jc 4c 2h | 7h 6h Ah"), dealer=2)
    act(m, "raise 0 2")
    assert m.state == "answer" and "accept 1" in legal(m)
    act(m, "accept 1", "play 0 5h", "play 1 Jc")
    assert m.state == "sing" and legal(m) == ["flor 2 flor"]
    m = match(V, deal(2, "5h Kh 2c | 7h 6h Ah | Jc 4c 2h"), dealer=2)
    act(m, "raise 0 2")  # seat 1, who answers, holds the flor: he sings first
    assert m.state == "sing" and legal(m) == ["flor 1 flor"]


def test_carancho_me_achico_pays_the_first_singer_the_other_flores_score_nothing() -> None:
    m = match(V, deal(2, "Kc 5c 2c | 4d 5d Qd | 7h 6h Ah"), dealer=2)
    events = act(m, "flor 0 flor", "flor 1 com flor me achico", "flor 2 flor")
    assert (bet(events)["winner"], m.score) == (0, [3, 0, 0])


def test_a_child_variant_drops_its_parents_side_bets_with_an_empty_mapping(
        write: WriteFile) -> None:
    """The schema: side_bets absent or empty, no side bet; an empty mapping in a child of
    gauderio removes the parent's envido and flor (a mapping with keys still merges)."""
    bare = load_variant(write("bare.yaml", "extends: gauderio\nside_bets: {}\n"))
    assert bare.side_bets == ()
    m = match(bare, deal(3, "7c 5c 4c | 3d 2s Kd | 3h 6c Qh | Ks Qd Jh"), dealer=3)
    assert m.state == "play" and not [a for a in legal(m) if a.split()[0] in ("flor", "envido")]
    merged = load_variant(write("merged.yaml", "extends: gauderio\nside_bets:\n  flor:\n"
                                               "    per_flor: 4\n"))
    assert [b.kind for b in merged.side_bets] == ["envido", "flor"]
    assert merged.side_bets[1].per_flor == 4
