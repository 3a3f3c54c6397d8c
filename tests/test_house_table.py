"""House rules of issue 42 about the table and the match: a starting score for a match's later
games (``later-games-11-11``), an order among ordinary cards by suit (``amostra-ace-of-ouros``),
tables of 8, 10 and 12 players (``amostra-twelve-players``), rounds and leads
(``partners-tie-lowest-seat``, ``no-cover-after-partner``), the first dealer drawn
(``first-dealer-drawn``), blind cards numbered as dealt (``blind-dealt-numbers``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import (
    act,
    assert_illegal,
    deal,
    legal,
    match,
    match_at,
    of,
    rounds,
    score_to,
    stacked_deal,
    win_hand,
)

from engine import Match
from engine.actions import Action
from engine.bots.base import viewed_moves
from engine.errors import VariantError
from engine.logformat import record_random
from engine.moves.draw import draw_first_dealer, draw_names
from engine.replay.verify import verify_bytes
from engine.shuffle import SplitMix64
from engine.state import NORMAL
from engine.variant import load_variant


def _game_over(m: Match, team: int) -> list[dict[str, object]]:
    """Win hands for ``team`` until a game ends; that game's checkpoints."""
    while True:
        events = win_hand(m, team)
        if of(events, "game"):
            return events


# -- later-games-11-11: match.start_score, match.start_score_from_game --------------------------
def test_later_games_11_11_the_second_game_starts_at_11_11() -> None:
    m = Match.new("later-games-11-11", seed=None)
    assert m.score == [0, 0]  # the first game starts at 0-0
    score_to(m, [11, 0])
    assert _game_over(m, 0)[-1] == {"event": "game", "winner": 0, "score": [14, 0],
                                    "games": [1, 0]}  # the mão de onze is worth 3
    assert m.score == [11, 11] and m.games == [1, 0]
    # at 11-11 the hand is Paulista's mão de ferro: one hand decides the game
    events = win_hand(m, 1)
    assert of(events, "game")[0]["score"] == [11, 14] and m.score == [11, 11]  # game 3 too
    events = win_hand(m, 0)
    assert of(events, "match") == [{"event": "match", "winner": 0, "games": [2, 1]}]


def test_later_games_11_11_left_out_every_game_starts_at_0() -> None:
    m = Match.new("mineiro", seed=None)  # a best of 3 without the keys
    _game_over(m, 0)
    assert m.score == [0, 0]


def test_later_games_11_11_from_game_1_starts_the_match_there(tmp_path: Path) -> None:
    f = tmp_path / "all-11.yaml"
    f.write_text("extends: paulista\nmatch: {start_score: 11}\n", encoding="utf-8")
    m = Match.new(load_variant(str(f)), seed=1)
    assert m.score == [11, 11] and m.hand.blind


@pytest.mark.parametrize(("keys", "words"), [
    ("{start_score: 12}", "expected a start_score below game.target (12), found 12"),
    ("{start_score: 5, start_score_from_game: 2}", "a match has at most 1 game: expected a "
                                                   "start_score_from_game of at most 1, found 2"),
])
def test_later_games_11_11_a_start_the_match_never_reaches_is_refused(
        tmp_path: Path, keys: str, words: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(f"extends: paulista\nmatch: {keys}\n", encoding="utf-8")
    with pytest.raises(VariantError) as e:
        load_variant(str(f))
    assert words in str(e.value) and "bad.yaml:2:" in str(e.value)


# -- amostra-ace-of-ouros: suit_ranking ----------------------------------------------------------
#: Truco de amostra, dealer 0 (seat 1 is the mão), vira 6s (the pieces are spades, none dealt):
#: seat 1 holds the ace of copas, seat 2 the ace of ouros; no flor.
ACES = deal(0, "4c 5d 6h | Ah 4d 5c | Ad 4h 6c | Kc 5h 6d", vira="6s")


def test_amostra_ace_of_ouros_beats_the_ace_of_copas() -> None:
    m = match("amostra-ace-of-ouros", ACES)
    assert m.strength["Ad"] > m.strength["Ah"] > m.strength["Kd"]
    assert m.strength["2c"] > m.strength["Ad"]  # between the rank below and the rank above
    assert m.strength["4c"] == m.strength["4d"]  # the other ranks still tie
    assert rounds(act(m, "play 1 Ah", "play 2 Ad", "play 3 Kc", "play 0 4c")) == [0]


def test_amostra_ace_of_ouros_the_parent_ties_the_aces() -> None:
    m = match("truco-de-amostra", ACES)
    assert m.strength["Ad"] == m.strength["Ah"]
    assert rounds(act(m, "play 1 Ah", "play 2 Ad", "play 3 Kc", "play 0 4c")) == [None]


def test_amostra_ace_of_ouros_a_manilha_is_not_ordered_by_suit() -> None:
    m = match("amostra-ace-of-ouros", ACES)  # the espadão (As) and bastião (Ac) are matas
    assert m.strength["As"] > m.strength["Ac"] > m.strength["3c"] > m.strength["2c"]


def test_amostra_ace_of_ouros_a_rank_outside_the_ranking_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("extends: gauderio\nsuit_ranking: {ranks: [A, '8']}\n", encoding="utf-8")
    with pytest.raises(VariantError) as e:
        load_variant(str(f))
    assert ("bad.yaml:2:27: suit_ranking.ranks[1]: expected a rank of ranking "
            "(4 5 6 7 J Q K A 2 3), found 8") in str(e.value)


# -- amostra-twelve-players: players 8, 10, 12 ---------------------------------------------------
def test_amostra_twelve_players_deals_twelve_hands_to_two_teams_of_six() -> None:
    m = Match.new("amostra-twelve-players", seed=1)
    assert m.rules.teams == 2 and m.rules.team_of == (0, 1) * 6  # partners alternate
    assert [len(h) for h in m.hand.dealt] == [3] * 12
    assert len({c for h in m.hand.dealt for c in h} | {m.hand.vira}) == 37  # of the 40


@pytest.mark.parametrize("seed", [2, 6])  # among 12 a flor is nearly always dealt: 2 and 6
def test_amostra_twelve_players_side_bets_are_called_and_credited(seed: int) -> None:
    text = record_random("amostra-twelve-players", seed)
    events = [json.loads(line) for line in text.splitlines()[1:]]
    settled = {e["bet"] for e in events if e.get("event") == "side_bet"}
    assert settled == {"envido", "flor"}  # both Gaudério side bets, among 12
    assert {e["seat"] for e in events if e.get("event") in ("envido", "flor")} & set(range(4, 12))
    assert verify_bytes(text.encode(), "a.jsonl").valid


@pytest.mark.parametrize("players", [8, 10, 12])
def test_amostra_twelve_players_special_hands_act_at_a_big_table(
        tmp_path: Path, players: int) -> None:
    f = tmp_path / f"paulista-{players}.yaml"
    f.write_text(f"extends: paulista\nplayers: {players}\n", encoding="utf-8")
    m = Match.new(load_variant(str(f)), seed=None)
    score_to(m, [11, 4])
    m.deal(stacked_deal(m, 0))
    assert m.hand.special != NORMAL and m.value == 3  # P5, the mão de onze, worth 3
    m = Match.new(load_variant(str(f)), seed=None)
    score_to(m, [11, 11])
    m.deal(stacked_deal(m, 1))
    assert m.hand.special != NORMAL and m.hand.blind  # P6, the mão de ferro, blind


@pytest.mark.parametrize("players", [5, 14])
def test_amostra_twelve_players_other_table_sizes_are_refused(
        tmp_path: Path, players: int) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(f"extends: paulista\nplayers: {players}\n", encoding="utf-8")
    with pytest.raises(VariantError) as e:
        load_variant(str(f))
    assert "bad.yaml:2:10: players:" in str(e.value) and "12" in str(e.value)


# -- partners-tie-lowest-seat, no-cover-after-partner: rounds.partners_tie_leader,
# -- play.no_cover_after_partner -----------------------------------------------------------------
#: Paulista, dealer 1 (seat 2 is the mão), vira 7c (the Qs are manilhas, none dealt): in round 1
#: seat 3 and then his partner seat 1 play a 3, the round's strongest cards.
PARTNERS = deal(1, "4d 5d 6d | 3h 4h 6h | 4s 5s 6s | 3c 5c 6c", vira="7c")
ROUND_1 = ("play 2 4s", "play 3 3c", "play 0 4d", "play 1 3h")


@pytest.mark.parametrize(("variant", "leader"), [("paulista", 3),
                                                 ("partners-tie-lowest-seat", 1)])
def test_partners_tie_lowest_seat_leads_the_next_round(variant: str, leader: int) -> None:
    m = match(variant, PARTNERS, dealer=1)
    assert rounds(act(m, *ROUND_1)) == [1]  # equal cards of one team win for it (C5)
    assert m.round.leader == leader  # the first of them (pinned), or the lowest seat (house)


def test_no_cover_after_partner_refuses_a_covered_card_after_a_partner_s() -> None:
    m = match("no-cover-after-partner", PARTNERS, dealer=1)
    act(m, *ROUND_1, "play 3 5c")
    assert "play 0 5d covered" in legal(m)  # seat 0's partner (seat 2) has not played yet
    act(m, "play 0 5d")
    assert legal(m) == ["play 1 4h", "play 1 6h", "raise 1 3"]  # seat 3 played: face up
    err = assert_illegal(m, "play 1 4h covered", "no covered card after a partner's card")
    assert err.code == "no_cover_after_partner"


def test_no_cover_after_partner_paulista_still_covers() -> None:
    m = match("paulista", PARTNERS, dealer=1)
    act(m, *ROUND_1, "play 3 5c", "play 0 5d")
    assert "play 1 4h covered" in legal(m)


# -- first-dealer-drawn: match.first_dealer, match.first_dealer_suits ---------------------------
def _no_suits(tmp_path: Path) -> Path:
    """The drawn first dealer without a suit order: tied seats draw again."""
    f = tmp_path / "drawn-no-suits.yaml"
    f.write_text("extends: first-dealer-drawn\nmatch: {first_dealer_suits: []}\n",
                 encoding="utf-8")
    return f


def _draw(variant: str | Path, seed: int) -> tuple[list[list[str | None]], int]:
    draw, dealer = draw_first_dealer(load_variant(str(variant)), SplitMix64(seed))
    return draw_names(draw), dealer


def test_first_dealer_drawn_the_highest_card_deals() -> None:
    # seed 7: the seats draw 2h 7h Jh 3h; the three (of hearts) is the highest: seat 3 deals
    assert _draw("first-dealer-drawn", 7) == ([["2h", "7h", "Jh", "3h"]], 3)
    m = Match.new("first-dealer-drawn", seed=7, dealer=1)  # the draw, not the caller, decides
    assert m.dealer == 3 and m.mao == 0
    assert Match.new("paulista", seed=7, dealer=1).dealer == 1  # given: today's behaviour


def test_first_dealer_drawn_the_suits_break_a_tie() -> None:
    # seed 2: Ad and Ah tie by rank; APCEF-PA's order paus, copas, espadas, ouros: Ah is higher
    assert _draw("first-dealer-drawn", 2) == ([["Ad", "Ah", "7s", "7h"]], 1)


def test_first_dealer_drawn_ties_draw_again(tmp_path: Path) -> None:
    # without a suit order, seats 0 and 1 tie with their aces and draw again: 6d beats 4d
    assert _draw(_no_suits(tmp_path), 2) == ([["Ad", "Ah", "7s", "7h"], ["6d", "4d", None, None]],
                                              0)


def test_first_dealer_drawn_the_draw_comes_before_the_first_deal() -> None:
    # the first hand is shuffled after the draw: its cards are not the drawn ones
    m = Match.new("first-dealer-drawn", seed=7)
    assert [str(c) for c in m.hand.dealt[0]] != [str(c) for c in
                                                  Match.new("paulista", seed=7).hand.dealt[0]]
    assert m.rng is not None and m.rng.state != Match.new("paulista", seed=7).rng.state


def test_first_dealer_drawn_verify_checks_the_header_s_draw_and_dealer() -> None:
    log = record_random("first-dealer-drawn", 7)
    header = json.loads(log.splitlines()[0])
    assert header["truco_log"] == 2 and header["dealer"] == 3
    assert header["draw"] == [["2h", "7h", "Jh", "3h"]]
    assert verify_bytes(log.encode(), "drawn.jsonl").valid
    for old, new, words in (
            ('"dealer": 3', '"dealer": 0', "the seed's draw gives the first deal to seat 3"),
            ('"2h", "7h"', '"2c", "7h"', "the seed's draw of the first dealer is")):
        bad = verify_bytes(log.replace(old, new, 1).encode(), "drawn.jsonl")
        assert not bad.valid and words in str(bad.problems[0])
        assert "drawn.jsonl:1: bad header: " in str(bad.problems[0])


def test_first_dealer_drawn_without_a_seed_the_draw_names_the_dealer() -> None:
    log = record_random("first-dealer-drawn", 7, unseeded=True, dealer=2)
    lines = log.splitlines()
    header = json.loads(lines[0])
    assert "draw" not in header  # the table drew: its dealer stands

    def with_draw(draw: list[list[str | None]]) -> bytes:
        return "\n".join([json.dumps({**header, "draw": draw}), *lines[1:]]).encode()

    assert verify_bytes(with_draw([["4c", "5c", "3c", "6c"]]), "u.jsonl").valid
    for draw, words in (([["4c", "5c", "Kc", "3c"]], "highest card is seat 3's, not the dealer"),
                        ([["3c", "5c", "3d", "6c"], ["4d", None, "5d", None]],
                         "round 2: seat 0 won the draw already"),
                        ([["4c", "5c", "3c", "4c"]], "4c is drawn twice")):
        bad = verify_bytes(with_draw(draw), "u.jsonl")
        assert not bad.valid and words in str(bad.problems[0])


def test_first_dealer_drawn_a_draw_in_another_variant_is_refused() -> None:
    log = record_random("paulista", 7)
    header = json.loads(log.splitlines()[0])
    for version, words in ((1, "a header with a draw needs log format version 2"),
                           (2, "this variant does not draw its first dealer")):
        text = json.dumps({**header, "truco_log": version, "draw": [["3c", "4c", "5c", "6c"]]})
        bad = verify_bytes("\n".join([text, *log.splitlines()[1:]]).encode(), "p.jsonl")
        assert not bad.valid and words in str(bad.problems[0])


# -- blind-dealt-numbers: play.blind_places -------------------------------------------------------
def _blind_round_2(variant: str) -> Match:
    """A mão de ferro (11-11, blind, P6), dealer 0: seat 1 plays its #2 (2d) and wins round 1;
    it leads round 2 holding 3d (dealt #1) and Kd (dealt #3)."""
    m = match_at(variant, [11, 11], dealer=0)
    m.deal(deal(0, "4c 7h As | 3d 2d Kd | 5c 6c 7c | 5d 6d 7d", vira="Qs"))
    assert m.blind
    m.apply(m.play_by_position(1, 1))
    act(m, "play 2 5c", "play 3 5d", "play 0 4c")
    assert m.turn == 1
    return m


def _places(m: Match) -> set[int | None]:
    return {a.position for a in m.observation(1)["legal"] if a.kind == "play"}


def test_blind_dealt_numbers_a_card_keeps_its_number_after_a_play() -> None:
    m = _blind_round_2("blind-dealt-numbers")
    assert _places(m) == {0, 2}  # #1 and #3: 2d (#2) was played
    assert m.play_by_position(1, 2) == Action.play(1, m.hand.dealt[1][2])
    view = viewed_moves(m, 1, m.legal_actions(1))
    assert {a.position for a in view if a.kind == "play"} == {0, 2}


def test_blind_dealt_numbers_left_out_the_cards_held_are_numbered_again() -> None:
    m = _blind_round_2("paulista")  # play.blind_places: held, today's numbering
    assert _places(m) == {0, 1}  # 3d is #1, Kd is now #2
    assert m.play_by_position(1, 1) == Action.play(1, m.hand.dealt[1][2])
