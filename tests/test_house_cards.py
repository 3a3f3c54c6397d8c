"""The deck as cards (C2: deck.minus, deck.plus, deck.extra), manilhas by the vira's suit, and
the log format version 2 that extra cards need; through the house variants paulista-38-cards,
capixaba-jokers and manilhas-vira-suit, on explicit deals (dealer 0: seat 1 is the mão)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import WriteFile
from helpers import act, assert_illegal, deal, match, rounds
from test_docs_reference import snippet

from engine import IllegalMoveError, Match, VariantError, find_variant, load_variant
from engine.bots.heuristic import HeuristicBot
from engine.cards import CARD_CODES, CardError, card_name, card_pretty, card_rank, parse_card
from engine.logformat import record_random
from engine.logversion import event_needs, log_needs, rules_need, version_problem
from engine.replay import verify_bytes
from engine.shuffle import SplitMix64
from engine.shuffle import deal as seeded_deal

ORDINARY = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"


def names(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_name(c) for c in cards]


def load_error(path: Path) -> str:
    with pytest.raises(VariantError) as info:
        load_variant(path)
    return str(info.value)


# -- deck.minus: a 38-card deck ----------------------------------------------------------------
def test_deck_minus_38_cards_without_the_red_aces() -> None:
    rules, paulista = find_variant("paulista-38-cards"), find_variant("paulista")
    assert len(rules.deck) == 38
    assert set(names(paulista.deck)) - set(names(rules.deck)) == {"Ad", "Ah"}
    assert list(rules.deck) == sorted(rules.deck)  # canonical order: card codes sorted


def test_deck_minus_a_removed_card_cannot_be_dealt() -> None:
    hands = "Ad 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"
    match("paulista", deal(0, hands, "7c"))  # Paulista has it
    m = Match.new("paulista-38-cards", seed=None)
    with pytest.raises(IllegalMoveError, match="Ad is not in this variant's deck"):
        m.deal(deal(0, hands, "7c"))
    with pytest.raises(IllegalMoveError, match="Ah is not in this variant's deck"):
        m.deal(deal(0, ORDINARY, "Ah"))


def test_deck_minus_vira_K_leaves_two_ace_manilhas() -> None:
    m = match("paulista-38-cards", deal(0, "As 5c 6c | 3d 5d 6d | Ac 5h 6h | 3s 4s 6s", "Kc"))
    assert list(m.manilhas) == ["As", "Ac"]
    assert m.observation(0)["manilhas"] == ["As", "Ac"]
    # the zap (Ac) beats the espadilha (As), which beats a 3
    assert rounds(act(m, "play 1 3d", "play 2 Ac", "play 3 3s", "play 0 As")) == [0]


def test_deck_minus_seeded_deals_hold_no_removed_card_and_follow_the_published_shuffle() -> None:
    rules = find_variant("paulista-38-cards")
    ns = snippet("# seeded_deal.py")
    rng, published = SplitMix64(11), ns["SplitMix64"](11)
    for hand in range(40):
        hands, vira = seeded_deal(rules.deck, rng, 4, 3, hand % 4, True)
        want_hands, want_vira = ns["deal"](published, "A234567QJK", 4, hand % 4,
                                           minus=("Ad", "Ah"))
        assert [names(h) for h in hands] == want_hands and card_name(vira) == want_vira
        dealt = {card_name(c) for h in hands for c in h} | {card_name(vira)}
        assert not {"Ad", "Ah"} & dealt


def test_deck_minus_a_card_not_in_the_deck_is_an_error(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ndeck:\n  minus: [Ad, 8c]\n")
    text = load_error(path)
    assert f"{path}:3:15: deck.minus[1]: deck.minus: expected a card of the ranks" in text
    assert "found 8c, which is not in the deck to remove" in text


def test_deck_minus_every_card_of_a_rank_is_an_error(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ndeck:\n  minus: [Kc, Kd, Kh, Ks]\n")
    assert "removes every card of rank K: expected it left out of deck.ranks" in load_error(path)


def test_deck_minus_too_small_a_deck_is_an_error(write: WriteFile) -> None:
    path = write("v.yaml", 'extends: paulista\nplayers: 6\ndeck:\n  ranks: [A, "2", "3", "4", '
                 '"5"]\n  minus: [Ac, Ad]\nranking: ["4", "5", A, "2", "3"]\n')
    text = load_error(path)
    assert "expected a deck of at least 19 cards for 6 players and the vira, found 18 " \
           "(ranks A 2 3 4 5, minus)" in text


def test_deck_minus_a_fixed_manilha_or_a_named_card_taken_out_is_an_error(
        write: WriteFile) -> None:
    path = write("v.yaml", "extends: manilha-velha\ndeck:\n  minus: [As]\n")
    text = load_error(path)  # reported where this file changed the deck
    assert f"{path}:3:10: deck.minus: manilha As is not in the deck (ranks" in text
    assert f"{path}:3:10: deck.minus: As is not in the deck (ranks" in text


# -- deck.plus -------------------------------------------------------------------------------
def test_deck_plus_puts_a_card_of_another_rank_in(write: WriteFile) -> None:
    path = write("v.yaml", 'extends: paulista\ndeck:\n  plus: [8c]\n'
                 'ranking: ["4", "5", "6", "7", "8", Q, J, K, A, "2", "3"]\n')
    rules = load_variant(path)
    assert len(rules.deck) == 41 and "8c" in names(rules.deck)
    m = match(rules, deal(0, "4c 5c 6c | 8c 5d 6d | 7h 5h 6h | 4s 5s 6s", "Kc"))
    assert rounds(act(m, "play 1 8c", "play 2 7h", "play 3 4s", "play 0 4c")) == [1]


def test_deck_plus_a_card_already_in_the_deck_is_an_error(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ndeck:\n  plus: [4c]\n")
    assert "deck.plus[0]: deck.plus: expected a card outside the ranks" in load_error(path)


def test_deck_plus_its_rank_must_be_in_the_ranking(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ndeck:\n  plus: [8c]\n")
    assert "the ranking must list exactly the deck's ranks; missing: 8" in load_error(path)


# -- jokers: deck.extra ----------------------------------------------------------------------
def test_jokers_the_deck_has_42_cards_the_jokers_last() -> None:
    rules = find_variant("capixaba-jokers")
    assert len(rules.deck) == 42
    assert names(rules.deck[-2:]) == ["X1", "X2"] and rules.deck[-2:] == (52, 53)
    assert rules.deck[:40] == find_variant("paulista").deck


def test_jokers_notation_cannot_clash_with_rank_and_suit() -> None:
    assert parse_card("X1") == 52 and parse_card("X16") == CARD_CODES - 1
    assert (card_name(53), card_pretty(53), card_rank(53)) == ("X2", "X2", "X")
    for text in ("X0", "X17", "x1", "XX", "Xc", "JK"):
        with pytest.raises(CardError):
            parse_card(text)


def test_jokers_beat_every_3_and_lose_to_every_manilha() -> None:
    # vira 7c: the queens are the manilhas
    m = match("capixaba-jokers", deal(0, "3c 5c 6c | X1 5d 6d | 3h 5h 6h | 2s 5s 6s", "7c"))
    assert rounds(act(m, "play 1 X1", "play 2 3h", "play 3 2s", "play 0 3c")) == [1]
    m = match("capixaba-jokers", deal(0, "3c 5c 6c | X1 5d 6d | Qd 5h 6h | 2s 5s 6s", "7c"))
    assert rounds(act(m, "play 1 X1", "play 2 Qd", "play 3 2s", "play 0 3c")) == [0]
    assert find_variant("capixaba-jokers").levels["X1"] > find_variant("paulista").levels["3"]


def test_jokers_tie_each_other() -> None:
    m = match("capixaba-jokers", deal(0, "3c 5c 6c | X1 5d 6d | X2 5h 6h | 3s 5s 6s", "7c"))
    assert rounds(act(m, "play 1 X1", "play 2 X2", "play 3 3s", "play 0 3c")) == [None]
    m = match("capixaba-jokers", deal(0, "3c 5c 6c | X1 5d 6d | 3h 5h 6h | X2 5s 6s", "7c"))
    events = act(m, "play 1 X1", "play 2 3h", "play 3 X2", "play 0 3c")
    assert rounds(events) == [1]  # partners' equal cards: team 1 wins (C5)


def test_jokers_turned_as_the_vira_name_no_manilhas() -> None:
    m = match("capixaba-jokers", deal(0, "Qc 5c 6c | 3d 5d 6d | X2 5h 6h | 4s 5s 6s", "X1"))
    assert m.manilhas == () and m.observation(0)["vira"] == "X1"
    assert rounds(act(m, "play 1 3d", "play 2 X2", "play 3 4s", "play 0 Qc")) == [0]
    m = match("capixaba-jokers", deal(0, "Qc 5c 6c | 3d 5d 6d | 4h 5h 6h | 4s 5s 6s", "X1"))
    assert rounds(act(m, "play 1 3d", "play 2 4h", "play 3 4s", "play 0 Qc")) == [1]


def test_jokers_are_not_in_a_deck_without_them() -> None:
    with pytest.raises(IllegalMoveError, match="X1 is not in this variant's deck"):
        match("paulista", deal(0, "X1 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s", "7c"))
    m = match("capixaba-jokers", deal(0, "X1 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s", "7c"))
    assert_illegal(m, "play 1 X1", "seat 1 does not hold X1")


def test_jokers_above_manilhas_and_above_another_joker(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ndeck:\n  extra:\n    X1: {above: manilhas}\n"
                 "    X2: {above: X3}\n    X3: {above: K}\n")
    rules = load_variant(path)
    levels = rules.levels
    assert levels["K"] < levels["X3"] < levels["X2"] < levels["A"] < levels["3"]
    strength = rules.strengths(parse_card("7c"))  # the queens are the manilhas
    assert strength[parse_card("X1")] > strength[parse_card("Qc")] > strength[parse_card("3c")]


def test_jokers_above_an_unknown_rank_or_in_a_circle_is_an_error(write: WriteFile) -> None:
    path = write("v.yaml", 'extends: paulista\ndeck:\n  extra:\n    X1: {above: "8"}\n')
    assert "deck.extra.X1.above: deck.extra.X1.above: expected a rank of the ranking, an extra " \
           "card of deck.extra or manilhas, found 8, a rank not in the deck" in load_error(path)
    path = write("w.yaml", "extends: paulista\ndeck:\n  extra:\n    X1: {above: X2}\n"
                 "    X2: {above: X1}\n")
    assert "the extra cards are each above the other: X1 above X2 above X1" in load_error(path)
    path = write("x.yaml", "extends: paulista\ndeck:\n  extra:\n    Y1: {above: K}\n")
    assert "deck.extra" in load_error(path)


def test_jokers_card_names_must_be_in_the_deck(write: WriteFile) -> None:
    path = write("v.yaml", "extends: capixaba-jokers\ncard_names: {X3: coringa}\n")
    assert "card_names.X3: X3 is not in the deck (ranks" in load_error(path)


def test_jokers_the_heuristic_bot_values_them_between_the_3s_and_the_manilhas() -> None:
    bot = HeuristicBot(find_variant("capixaba-jokers"))
    manilhas = ["Qd", "Qs", "Qh", "Qc"]
    assert bot.strength("3c", manilhas) < bot.strength("X1", manilhas) \
        == bot.strength("X2", manilhas) < bot.strength("Qd", manilhas)


# -- jokers in logs: format version 2 --------------------------------------------------------
def _joker_log() -> str:
    """A recorded random match of capixaba-jokers in which a joker is played."""
    for seed in range(1, 60):
        log = record_random("capixaba-jokers", seed, deals=True)
        if '"card": "X' in log:
            return log
    raise AssertionError("no joker was played")


def test_jokers_a_game_is_recorded_as_a_version_2_log_that_truco_verify_accepts(
        tmp_path: Path) -> None:
    from engine.cli import main

    log = _joker_log()
    header = json.loads(log.splitlines()[0])
    assert header["truco_log"] == 2
    assert header["variant_sha256"] == find_variant("capixaba-jokers").fingerprint
    result = verify_bytes(log.encode("utf-8"), "jokers.jsonl")
    assert result.valid and result.incomplete is None, [str(p) for p in result.problems]
    (tmp_path / "jokers.jsonl").write_text(log, encoding="utf-8")
    out = CliRunner().invoke(main, ["verify", str(tmp_path / "jokers.jsonl")])
    assert out.exit_code == 0, out.output


def test_jokers_in_a_version_1_log_fail_with_a_clear_error(tmp_path: Path) -> None:
    from engine.cli import main

    log = _joker_log().replace('"truco_log": 2', '"truco_log": 1', 1)
    line = next(i for i, t in enumerate(log.splitlines(), 1) if '"X' in t and i > 1)
    result = verify_bytes(log.encode("utf-8"), "v1.jsonl")
    assert not result.valid
    first = result.problems[0]
    assert (first.kind, first.line) == ("schema", line)
    assert "needs log format version 2, but the header says version 1: write " \
           '"truco_log": 2 in the header' in first.message
    (tmp_path / "v1.jsonl").write_text(log, encoding="utf-8")
    out = CliRunner().invoke(main, ["verify", str(tmp_path / "v1.jsonl")])
    assert out.exit_code == 1 and f"v1.jsonl:{line}: the extra card X" in out.output
    assert "Traceback" not in out.output


def test_jokers_an_escaped_joker_in_a_version_1_log_is_caught() -> None:
    lines = ['{"truco_log": 1, "variant": "capixaba-jokers"}',
             '{"event": "deal", "dealer": 0, "hands": [["Kc", "5c", "6c"], ["\\u00581", "5d", '
             '"6d"], ["4h", "5h", "6h"], ["4s", "5s", "6s"]], "vira": "7c"}']
    result = verify_bytes(("\n".join(lines) + "\n").encode(), "esc.jsonl")
    assert [p.kind for p in result.problems] == ["schema"]
    assert "the extra card X1 needs log format version 2" in result.problems[0].message
    version_2 = ("\n".join(lines) + "\n").replace('"truco_log": 1', '"truco_log": 2')
    assert verify_bytes(version_2.encode(), "esc.jsonl").valid


def test_jokers_what_a_log_needs_is_decided_in_one_place() -> None:
    assert event_needs({"event": "raise", "seat": 0, "value": 3, "card": "X2"}) == (
        2, "the extra card X2")
    assert event_needs({"event": "deal", "dealer": 0, "hands": [["4c"]], "vira": "X1"})[0] == 2
    assert log_needs([{"event": "play", "seat": 1, "card": "4c"}, {"event": "round",
                                                                   "winner": 0}]) == 1
    assert version_problem(2, {"event": "play", "seat": 1, "card": "X1"}) is None
    assert rules_need(find_variant("capixaba-jokers")) == 2
    for name in ("paulista", "mineiro", "paulista-38-cards", "manilhas-vira-suit"):
        assert rules_need(find_variant(name)) == 1
        assert record_random(name, 3).startswith('{"truco_log": 1, ')


def test_concede_needs_log_version_2() -> None:
    assert rules_need(find_variant("concede")) == 2
    log = next(x for x in (record_random("concede", s) for s in range(50))
               if '"event": "concede"' in x)
    assert log.startswith('{"truco_log": 2, ') and verify_bytes(log.encode(), "c.jsonl").valid
    result = verify_bytes(log.replace('"truco_log": 2', '"truco_log": 1', 1).encode(), "c.jsonl")
    assert result.problems[0].kind == "schema"
    assert result.problems[0].message.startswith("a concede move needs log format version 2")


def test_jokers_the_published_shuffle_puts_them_after_the_52() -> None:
    rules = find_variant("capixaba-jokers")
    ns = snippet("# seeded_deal.py")
    rng, published = SplitMix64(5), ns["SplitMix64"](5)
    for hand in range(30):
        hands, vira = seeded_deal(rules.deck, rng, 4, 3, hand % 4, True)
        assert ([names(h) for h in hands], card_name(vira)) == ns["deal"](
            published, "A234567QJK", 4, hand % 4, extra=("X2", "X1"))


# -- manilhas by the vira's suit --------------------------------------------------------------
def test_manilhas_vira_suit_the_suits_7_A_4_are_the_manilhas() -> None:
    m = match("manilhas-vira-suit", deal(0, "3c 5c 6c | 7h 5d 6d | 3h Qh 6h | 7c 5s 6s", "5h"))
    assert list(m.manilhas) == ["7h", "Ah", "4h"]
    # the 7 of copas beats every 3; the 7 of paus is an ordinary 7
    assert rounds(act(m, "play 1 7h", "play 2 3h", "play 3 7c", "play 0 3c")) == [1]
    m = match("manilhas-vira-suit", deal(0, "3c 5c 6c | 7c 5d 6d | 3h Qh 6h | 7s 5s 6s", "5h"))
    assert rounds(act(m, "play 1 7c", "play 2 3h", "play 3 7s", "play 0 3c")) == [0]


def test_manilhas_vira_suit_weakest_first() -> None:
    m = match("manilhas-vira-suit", deal(0, "7s 5c 6c | As 5d 6d | 4s Qh 6h | 3s 5s 6s", "Ks"))
    assert list(m.manilhas) == ["7s", "As", "4s"]
    assert rounds(act(m, "play 1 As", "play 2 4s", "play 3 3s", "play 0 7s")) == [0]
    assert m.turn == 2  # the 4 of the vira's suit won


def test_manilhas_vira_suit_a_vira_of_a_listed_rank_leaves_the_other_two() -> None:
    m = match("manilhas-vira-suit", deal(0, ORDINARY, "Ad"))
    assert list(m.manilhas) == ["7d", "4d"]
    m = match("manilhas-vira-suit", deal(0, ORDINARY, "Ac"))
    assert list(m.manilhas) == ["7c", "4c"]
    assert m.strength["4c"] > m.strength["7c"] > m.strength["3d"]


def test_manilhas_vira_suit_needs_a_vira_and_its_ranks(write: WriteFile) -> None:
    m = Match.new("manilhas-vira-suit", seed=None)
    with pytest.raises(IllegalMoveError, match="this variant turns a vira"):
        m.deal(deal(0, ORDINARY))
    path = write("v.yaml", "extends: paulista\nmanilhas:\n  mode: vira_suit\n")
    assert "mode vira_suit needs ranks" in load_error(path)
    path = write("w.yaml", 'extends: paulista\nmanilhas:\n  ranks: ["7"]\n')
    assert "manilhas.ranks has no effect with mode vira: expected mode vira_suit" in \
        load_error(path)
    path = write("x.yaml", 'extends: manilhas-vira-suit\nmanilhas:\n  ranks: ["8"]\n')
    assert "manilhas.ranks: expected a rank of the deck, found 8" in load_error(path)


def test_manilhas_vira_suit_the_cli_refuses_a_bad_file_with_exit_1(write: WriteFile) -> None:
    from engine.cli import main

    path = write("v.yaml", "extends: paulista\nmanilhas:\n  mode: vira_suit\n")
    out = CliRunner().invoke(main, ["variants", "check", str(path)])
    assert out.exit_code == 1 and "mode vira_suit needs ranks" in out.output
    assert "Traceback" not in out.output


# -- what stays -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["paulista", "mineiro", "mineiro-12", "manilha-velha"])
def test_deck_ranks_alone_deal_as_before(name: str) -> None:
    rules = find_variant(name)
    assert rules.deck == tuple(c for c in range(52) if card_rank(c) in rules.deck_ranks)
    assert (rules.deck_minus, rules.deck_plus, rules.deck_extra) == ((), (), ())
