"""The last house rules of the catalogue (issue 24 section 3), each a key read by general code
and a house variant, tested rule by rule on explicit deals (dealer 0: seat 1 is the mão):
#29 doze e em seguida queda (``doze-e-queda``), #31 quem truca tem que matar
(``raiser-must-kill``), #25 truco de amostra (``truco-de-amostra``)."""

from __future__ import annotations

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, of, rounds

from engine import Match, VariantError, find_variant, load_variant
from engine.actions import Deal
from engine.bots.search import SearchBot
from engine.cards import card_name, parse_card
from engine.errors import PositionError
from engine.game import resolve_rules
from engine.rules import Rules

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


# -- #31 quem truca tem que matar: an accepted raiser beats the table if he can -------------------
#: Paulista, vira 7c (the queens are the manilhas). Seat 1 leads 4d; seat 2 holds two cards that
#: beat it (3s, Kh) and one that only ties it (4h); seat 1 holds 3d and Jd, both above a 5.
KILL = deal(0, "2c 6c 5s | 4d 3d Jd | 4h 3s Kh | 5c 6d Jc", "7c")


def plays(m: Match, seat: int) -> list[str]:
    """The seat's legal plays (its raises left out)."""
    return [a for a in legal(m, seat) if a.startswith("play")]


def test_catalogue_31_the_raiser_may_play_only_a_card_that_beats_the_table() -> None:
    for variant, kills in (("paulista", False), ("raiser-must-kill", True)):
        m = Match.from_deals(variant, [KILL])
        act(m, "play 1 4d", "raise 2 3", "accept 3")
        if kills:
            assert legal(m, 2) == ["play 2 3s", "play 2 Kh"]  # not 4h: a tie is no kill
            err = assert_illegal(m, "play 2 4h", "seat 2 raised against the table",
                                 "play.raiser_must_kill")
            assert err.code == "must_kill"
        else:
            assert legal(m, 2) == ["play 2 4h", "play 2 3s", "play 2 Kh"]
        act(m, "play 2 Kh")
        assert plays(m, 3) == ["play 3 5c", "play 3 6d", "play 3 Jc"]  # his duty only


def test_catalogue_31_face_up_where_a_card_could_be_covered() -> None:
    m = Match.from_deals("raiser-must-kill", [KILL])
    act(m, "play 1 4d", "play 2 Kh", "play 3 Jc", "play 0 2c")  # team 0 wins round 1
    act(m, "play 0 5s", "raise 1 3", "accept 2")  # round 2 (P7: a card may be covered)
    assert legal(m, 1) == ["play 1 3d", "play 1 Jd"]
    err = assert_illegal(m, "play 1 Jd covered", "face up")
    assert err.code == "must_kill"


def test_catalogue_31_holding_no_card_that_beats_it_anything_legal() -> None:
    m = Match.from_deals("raiser-must-kill", [deal(0, "2c 6c 5s | 3d 4d Jd | 4h 5h Kh | "
                                                      "5c 6d Jc", "7c")])
    act(m, "play 1 3d", "raise 2 3", "accept 3")  # nothing of seat 2 beats a 3
    assert legal(m, 2) == ["play 2 4h", "play 2 5h", "play 2 Kh"]


def test_catalogue_31_only_a_raise_against_an_opponents_card_binds() -> None:
    m = Match.from_deals("raiser-must-kill", [KILL])
    act(m, "raise 1 3", "accept 2")  # the leader raises before any card: nothing to kill
    assert legal(m, 1) == ["play 1 4d", "play 1 3d", "play 1 Jd"]
    m = Match.from_deals("raiser-must-kill", [KILL])
    # seat 3 raises back against his partner's 4d only: no duty; seat 2's raise, accepted by
    # the raise back, binds him
    act(m, "play 1 4d", "raise 2 3", "raise 3 6", "accept 2")
    assert legal(m, 2) == ["play 2 3s", "play 2 Kh", "raise 2 9"]
    act(m, "play 2 3s")
    assert plays(m, 3) == ["play 3 5c", "play 3 6d", "play 3 Jc"]


def test_catalogue_31_the_duty_is_in_the_position() -> None:
    m = Match.from_deals("raiser-must-kill", [KILL])
    act(m, "play 1 4d", "raise 2 3", "accept 3")
    p = m.position()
    assert p["must_kill"] == [2]
    again = Match.from_position("raiser-must-kill", p)
    assert again.position() == p and legal(again) == legal(m)
    assert "must_kill" not in Match.from_deals("paulista", [KILL]).position()
    for variant, changed in (("raiser-must-kill", {"must_kill": [1]}),  # seat 1 has played
                             ("paulista", {"must_kill": []})):  # not a key of Paulista's
        with pytest.raises(PositionError) as info:
            Match.from_position(variant, {**{k: v for k, v in p.items() if k != "must_kill"},
                                          **changed})
        assert info.value.code == "bad_must_kill"


def test_catalogue_31_every_seat_sees_the_duty_and_the_search_bot_guesses_with_it() -> None:
    m = Match.from_deals("raiser-must-kill", [KILL])
    act(m, "play 1 4d", "raise 2 3", "accept 3")
    assert [m.observation(s)["must_kill"] for s in range(4)] == [[2]] * 4  # public
    assert "must_kill" not in Match.from_deals("paulista", [KILL]).observation(0)
    for seat in range(4):  # a guess of the hidden cards is a position the engine accepts
        guess = SearchBot(m.rules, seat, budget=1).guess(m.observation(seat))
        again = Match.from_position("raiser-must-kill", guess)
        assert again.position()["must_kill"] == [2]
        if seat == 2:  # his own cards, his own duty
            assert legal(again, 2) == legal(m, 2)


def test_catalogue_31_without_a_ladder_is_a_clear_error(write: WriteFile) -> None:
    path = write("v.yaml", "extends: raiser-must-kill\nbetting:\n  ladder: []\n")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    # reported at the key this file wrote, the empty ladder
    assert f"{path}:3:11: betting.ladder: play.raiser_must_kill constrains raises: expected a " \
        "betting.ladder with a step, found none" in str(info.value)


# -- #25 truco de amostra: the amostra's pieces, then the fixed matas -----------------------------
def test_catalogue_25_pieces_above_the_matas_above_every_other_card() -> None:
    rules = find_variant("truco-de-amostra")
    # amostra 3h: the hearts' sota, cavalo, 5, 4 and 2 (weakest first) above Gaudério's matas
    assert [card_name(c) for c in rules.manilhas_for(parse_card("3h"))] == [
        "7d", "7s", "Ac", "As", "Jh", "Qh", "5h", "4h", "2h"]
    hands = "As 6c Kc | 5c 4h Jd | 3d 6d Kh | 3s 6s Qc"
    m = Match.from_deals("truco-de-amostra", [deal(0, hands, "3h")])
    assert m.observation(0)["manilhas"] == ["7d", "7s", "Ac", "As", "Jh", "Qh", "5h", "4h", "2h"]
    events = act(m, "play 1 5c", "play 2 3d", "play 3 3s", "play 0 As",  # a mata beats a 3
                 "play 0 6c", "play 1 4h", "play 2 6d", "play 3 6s")  # a piece beats them all
    assert rounds(events) == [0, 1]
    strength = m.hand.strength
    assert strength[parse_card("4h")] > strength[parse_card("As")] > strength[parse_card("3d")]
    assert strength[parse_card("4d")] < strength[parse_card("5c")]  # a 4 of another suit
    assert strength[parse_card("Kh")] == strength[parse_card("Kc")]  # no stand-in: a K


def test_catalogue_25_the_king_stands_in_for_an_amostra_that_is_a_piece(
        write: WriteFile) -> None:
    rules = find_variant("truco-de-amostra")
    assert [card_name(c) for c in rules.manilhas_for(parse_card("4h"))] == [
        "7d", "7s", "Ac", "As", "Jh", "Qh", "5h", "Kh", "2h"]  # the rei at the 4's place
    without = load_variant(write("v.yaml", "extends: gauderio\nmanilhas:\n  mode: vira_suit\n"
                                            "  ranks: [J, Q, \"5\", \"4\", \"2\"]\n"))
    hands = "Kc 6c 7h | 5h 6d Jc | Kh 6s Jd | As 5c 7c"
    for variant, winner in (("truco-de-amostra", 0), (without, 1)):
        m = Match.from_deals(variant, [deal(0, hands, "4h")])
        # the 5h piece, the Kh (stand-in or a plain king), the espadão, a plain king
        events = act(m, "play 1 5h", "play 2 Kh", "play 3 As", "play 0 Kc")
        assert rounds(events) == [winner]


def test_catalogue_25_shipped_variants_keep_their_manilhas() -> None:
    gauderio = find_variant("gauderio")
    assert [card_name(c) for c in gauderio.manilhas_for(None)] == ["7d", "7s", "Ac", "As"]
    suit = find_variant("manilhas-vira-suit")  # Paulista's vira_suit: no fixed cards below
    assert [card_name(c) for c in suit.manilhas_for(parse_card("Kh"))] == ["7h", "Ah", "4h"]


@pytest.mark.parametrize(("text", "key_path", "words"), [
    ("manilhas:\n  stand_in: Q\n", "manilhas.stand_in", "expected a rank not among them"),
    ("manilhas:\n  cards: [7d, 2s]\n", "manilhas.cards[1]",
     "2s is of the rank 2 of manilhas.ranks: with a vira of its suit it would be a manilha "
     "twice"),
    ("manilhas:\n  cards: [Kc]\n", "manilhas.cards[0]", "Kc is of the rank K of "
     "manilhas.stand_in"),
])
def test_catalogue_25_wrong_uses_are_clear_errors(write: WriteFile, text: str, key_path: str,
                                                  words: str) -> None:
    path = write("v.yaml", "extends: truco-de-amostra\n" + text)
    with pytest.raises(VariantError) as info:
        load_variant(path)
    lines = [line for line in str(info.value).splitlines() if f": {key_path}: " in line]
    assert lines and words in lines[0] and str(path) in lines[0], str(info.value)


def test_catalogue_25_stand_in_only_with_vira_suit(write: WriteFile) -> None:
    path = write("v.yaml", "extends: gauderio\nmanilhas:\n  stand_in: K\n")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert "manilhas.stand_in: manilhas.stand_in has no effect with mode fixed: expected mode " \
        "vira_suit, or no stand_in" in str(info.value)


# -- #25 truco de amostra: the pieces' envido and flor points (the CBTG's table) ------------------
#: Amostra 3h (its pieces Jh Qh 5h 4h 2h): nobody but seat 1 holds a piece or a flor; seat 2
#: has 33 (7s 6s), seat 0 and seat 3 no two of a suit.
OTHERS = ("Kc 5d 3s", "7s 6s 3d", "4c 6h Ad")


def amostra_deal(mine: str, vira: str = "3h", others: tuple[str, ...] = OTHERS) -> Deal:
    """Dealer 0: seat 1 (the mão) holds ``mine``, the others ``others`` (seats 0, 2, 3)."""
    return deal(0, " | ".join((others[0], mine, *others[1:])), vira)


def envido_points(variant: str | Rules, cards: str, vira: str | None) -> int:
    bet = resolve_rules(variant).side_bets[0]
    return bet.points([parse_card(c) for c in cards.split()],
                      None if vira is None else parse_card(vira))


@pytest.mark.parametrize(("cards", "points"), [
    ("2h 7c 6d", 37), ("4h 7c 6d", 36), ("5h Kc Jd", 28), ("5h Kc 3d", 31),
    ("Qh 7c 6d", 34), ("Jh 7c 6d", 34),
    ("2h 4h 7c", 39),  # two pieces: 20 + 10 + 9
    ("Jh Qh Ks", 34), ("7c 6c 2h", 37),  # the piece beats the pair of clubs (33)
    ("Kh 7c 6d", 7),  # the rei of the amostra is a plain card while the amostra is no piece
    ("As 7s Kd", 28)])  # the matas count their Gaudério values
def test_catalogue_25_a_piece_counts_its_points_with_any_card(cards: str, points: int) -> None:
    assert envido_points("truco-de-amostra", cards, "3h") == points


def test_catalogue_25_a_piece_wins_the_envido() -> None:
    m = Match.from_deals("truco-de-amostra", [amostra_deal("2h 7c 6d")])
    assert m.state == "play"  # a piece and two of different suits: no flor
    assert m.observation(1)["side_bets"][0]["my_points"] == 37
    events = act(m, "envido 1 envido", "quero 2")
    assert [(e["seat"], e["points"]) for e in of(events, "side_declare")][0] == (1, 37)
    assert of(events, "side_bet")[0]["winner"] == 1  # 37 beats seat 2's 33
    assert m.score == [0, 2]


@pytest.mark.parametrize(("cards", "points"), [
    ("5h 7c 6c", 41),  # a piece and two of a suit (the ligas): 20 + 8 + 7 + 6
    ("2h 4h 7c", 46),  # two pieces and any card (the liga): 20 + 10 + 9 + 7
    ("2h 4h 5h", 47)])  # three pieces: 20 + 10 + 9 + 8
def test_catalogue_25_a_piece_makes_a_flor(cards: str, points: int) -> None:
    m = Match.from_deals("truco-de-amostra", [amostra_deal(cards)])
    assert m.state == "sing" and legal(m) == ["flor 1 flor"]  # G35: the mão must sing it
    assert m.observation(1)["side_bets"][1]["my_points"] == points
    events = act(m, "flor 1 flor")
    assert of(events, "side_bet")[0]["winner"] == 1
    assert m.score == [0, 3]
    again = Match.from_position("truco-de-amostra", m.position())
    assert again.position() == m.position()


def test_catalogue_25_a_flor_with_a_piece_beats_a_flor_of_a_suit() -> None:
    others = ("Kc 5d 3s", "7s 6s 5s", "4c 6h Ad")  # seat 2: a flor of spades, 38
    m = Match.from_deals("truco-de-amostra", [amostra_deal("5h 7c 6c", others=others)])
    events = act(m, "flor 1 flor", "flor 2 flor")
    assert [(e["seat"], e["points"]) for e in of(events, "side_declare")] == [(1, 41), (2, 38)]
    assert of(events, "side_bet")[0]["winner"] == 1


def test_catalogue_25_the_rei_standing_in_counts_the_amostras_points() -> None:
    # amostra 2h, a piece: the Kh takes its place, and its 30 points
    assert envido_points("truco-de-amostra", "Kh 7c 6d", "2h") == 37
    assert envido_points("truco-de-amostra", "Kh 4h 7c", "2h") == 39
    m = Match.from_deals("truco-de-amostra", [amostra_deal("Kh 7c 6c", vira="2h")])
    assert m.state == "sing"  # the rei standing in is a piece: a flor with the two clubs
    assert m.observation(1)["side_bets"][1]["my_points"] == 43
    m = Match.from_deals("truco-de-amostra", [amostra_deal("Kh 7c 6d", vira="2h")])
    events = act(m, "envido 1 envido", "quero 2")
    assert [(e["seat"], e["points"]) for e in of(events, "side_declare")][0] == (1, 37)


def test_catalogue_25_without_pieces_every_card_keeps_its_value(write: WriteFile) -> None:
    without = load_variant(write("v.yaml", "extends: gauderio\nmanilhas:\n  mode: vira_suit\n"
                                            "  ranks: [J, Q, \"5\", \"4\", \"2\"]\n"))
    for variant, vira in ((without, "3h"), ("gauderio", None)):
        assert envido_points(variant, "2h 7c 6d", vira) == 7
        assert envido_points(variant, "2h 4h 7c", vira) == 26
    m = Match.from_deals(without, [amostra_deal("5h 7c 6c")])
    assert m.state == "play"  # no flor: the 5h is of hearts only
    assert m.observation(1)["side_bets"][0]["my_points"] == 33


@pytest.mark.parametrize(("text", "key_path", "words"), [
    ("extends: gauderio\nside_bets:\n  envido:\n    points:\n      pieces:\n"
     "        values: {\"2\": 30}\n", "side_bets.envido.points.pieces",
     "the pieces are cards of the vira's suit: expected manilhas.mode vira or vira_suit, "
     "found fixed"),
    ("extends: truco-de-amostra\nside_bets:\n  flor:\n    points:\n      pieces:\n"
     "        values: {\"2\": 10}\n", "side_bets.flor.points.pieces.values.2",
     "a piece's points count the same_suit_bonus: expected at least 20, found 10"),
])
def test_catalogue_25_wrong_pieces_are_clear_errors(write: WriteFile, text: str, key_path: str,
                                                    words: str) -> None:
    path = write("v.yaml", text)
    with pytest.raises(VariantError) as info:
        load_variant(path)
    lines = [line for line in str(info.value).splitlines() if f": {key_path}: " in line]
    assert lines and words in lines[0] and str(path) in lines[0], str(info.value)
