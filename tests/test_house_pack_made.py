"""The pack made from the last hand, the *feitura do maço* (issue 42, ``deal.pack: made``):
from the match's second hand on, the last hand's face-up cards on top in the order they were
played, the rest of the deck (the covered cards among it) shuffled below them; then cut and
dealt as usual; logs and positions reproduce it (docs/rules.md, "The deal")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import WriteFile
from helpers import act, deal, legal, match

from engine import IllegalMoveError, Match
from engine.bots.base import make_bot
from engine.cards import Card, card_name
from engine.logformat import record_random
from engine.moves.deal import deal_pack
from engine.replay import verify_file
from engine.replay.annotate import annotate, strip_checkpoints
from engine.shuffle import SplitMix64, shuffle
from engine.simulate import play_match
from engine.variant import load

MADE = "pack-made-from-last-hand"
#: Paulista's hand for dealer 0 (the mão is seat 1), vira 7c: the Qs are the manilhas.
FIRST = deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", "7c")
#: Hand 1 played out: seat 1 covers his 2d in round 2 (Paulista allows it from round 2).
HAND_1 = ("play 1 3d", "play 2 5c", "play 3 6c", "play 0 4c",
          "play 1 2d covered", "play 2 5d", "play 3 6d", "play 0 7h",
          "play 0 As", "play 1 Kd", "play 2 5h", "play 3 6h")
#: Its face-up cards in the order they were played: the top of hand 2's pack.
ON_TOP = ["3d", "5c", "6c", "4c", "5d", "6d", "7h", "As", "Kd", "5h", "6h"]


def names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def expected(variant: str, state: int, top: list[str], dealer: int
             ) -> tuple[list[list[str]], str | None]:
    """The hand the made pack deals: ``top`` then the rest of the deck shuffled alone by the
    generator at ``state``, dealt by the variant's keys."""
    rules = load(variant)
    on_top = [c for c in rules.deck if card_name(c) in top]
    on_top.sort(key=lambda c: top.index(card_name(c)))
    rest = shuffle([c for c in rules.deck if c not in on_top], SplitMix64(state))
    hands, vira = deal_pack([*on_top, *rest], rules.players, rules.cards_per_player, dealer,
                            "after_dealt")
    return [names(h) for h in hands], None if vira is None else card_name(vira)


def face_up(m: Match) -> list[str]:
    assert m.last_hand is not None
    return [card_name(c) for _, _, c, covered in m.last_hand[1] if not covered]


def to_next_hand(m: Match, rng: SplitMix64) -> int:
    """Random legal moves until the next hand is dealt; the generator's state before its deal
    (the match draws only at a deal)."""
    hand = m.hand_number
    state = -1
    while m.hand_number == hand and not m.is_over:
        assert m.rng is not None
        state = m.rng.state
        legal_now = m.legal_actions()
        m.apply(legal_now[rng.bounded(len(legal_now))])
    return state


def test_the_made_pack_puts_the_face_up_cards_on_top_in_play_order() -> None:
    m = match(MADE, FIRST)
    act(m, *HAND_1)
    assert face_up(m) == ON_TOP and m.awaiting_deal and m.dealer == 1  # the mão is seat 2
    # the pack's top dealt three at a time from the mão; the covered 2d is not among them
    made = deal(1, "7h As Kd | 5h 6h 2d | 3d 5c 6c | 4c 5d 6d", "Qs")
    m.deal(made)
    assert m.hand_number == 2


def test_a_deal_that_is_not_the_made_pack_is_refused() -> None:
    m = match(MADE, FIRST)
    act(m, *HAND_1)
    # the covered 2d on top in the mão's hand: the made pack gives him the 3d
    with pytest.raises(IllegalMoveError) as info:
        m.deal(deal(1, "7h As Kd | 5h 6h 3d | 2d 5c 6c | 4c 5d 6d", "Qs"))
    assert info.value.code == "not_made_pack"
    assert "seat 2 is not dealt 3d, the made pack's card 1 from the top" in info.value.why
    # each seat's made cards in any order, the rest of the pack anything
    m.deal(deal(1, "Kd 7h As | 2d 6h 5h | 6c 3d 5c | 6d 4c 5d", "Qs"))
    plain = match("paulista", FIRST)  # Paulista takes any deal
    act(plain, *HAND_1)
    plain.deal(deal(1, "7h As Kd | 5h 6h 3d | 2d 5c 6c | 4c 5d 6d", "Qs"))


@pytest.mark.parametrize("seed", range(6))
def test_a_seeded_hand_is_dealt_from_the_made_pack(seed: int) -> None:
    m, rng = Match.new(MADE, seed=seed), SplitMix64(seed + 100)
    for _ in range(3):
        state = to_next_hand(m, rng)
        if m.is_over:
            break
        want = expected(MADE, state, face_up(m), m.dealer)
        assert m.hand.vira is not None
        assert ([names(h) for h in m.hand.dealt], card_name(m.hand.vira)) == want
        top = face_up(m)[:3]  # none where the last hand was folded before a card
        assert names(m.hand.dealt[(m.dealer + 1) % 4])[:len(top)] == top


@pytest.mark.parametrize("seed", range(6))
def test_the_first_hand_is_shuffled_as_paulista_deals_it(seed: int) -> None:
    m, plain = Match.new(MADE, seed=seed), Match.new("paulista", seed=seed)
    assert (m.hand.dealt, m.hand.vira) == (plain.hand.dealt, plain.hand.vira)
    assert m.rng is not None and plain.rng is not None and m.rng.state == plain.rng.state


def test_a_new_games_first_hand_is_made_from_the_last_games_last_hand(
        write: WriteFile) -> None:
    """The pack is gathered across games: a new game deals from the made pack too (the ATB:
    'the cards of the hand before'; the engine keeps no record of where a game began)."""
    path = str(write("made-two-games.yaml", f"name: made-two-games\nextends: {MADE}\n"
                                            "match:\n  games_to_win: 2\n"))
    m, rng = Match.new(path, seed=5), SplitMix64(5)
    while sum(m.games) == 0:
        state = to_next_hand(m, rng)
    assert not m.is_over and m.score == [0, 0] and m.hand.vira is not None
    assert ([names(h) for h in m.hand.dealt], card_name(m.hand.vira)) == expected(
        path, state, face_up(m), m.dealer)


def test_a_cut_cuts_the_made_pack(write: WriteFile) -> None:
    """Burnt at the cut: the top card of the made pack, the last hand's first face-up card."""
    path = str(write("made-cut.yaml", "name: made-cut\nextends: cut\ndeal:\n  pack: made\n"))
    m, rng = Match.new(path, seed=8), SplitMix64(8)
    while m.state != "cut" or m.hand_number == 0:
        legal_now = m.legal_actions()
        m.apply(legal_now[rng.bounded(len(legal_now))])
    top = face_up(m)
    burnt = Match.from_position(path, m.position())
    cutter = (m.dealer - 1) % 4
    act(burnt, f"cut {cutter} burn")
    act(m, f"cut {cutter} seco")
    mao = (m.dealer + 1) % 4
    assert names(m.hand.dealt[mao]) == top[:3] and names(burnt.hand.dealt[mao]) == top[1:4]


@pytest.mark.parametrize("how", [{}, {"deals": True}, {"unseeded": True}])
def test_logs_verify_and_annotate_back_byte_for_byte(tmp_path: Path,
                                                     how: dict[str, bool]) -> None:
    for seed in (3, 4):  # one hand, eight
        log = record_random(MADE, seed, **how)
        assert log == record_random(MADE, seed, **how)
        path = tmp_path / f"made-{seed}.jsonl"
        path.write_text(log, encoding="utf-8")
        result = verify_file(path)
        assert result.valid and not result.problems, result.problems
        text, replaced = annotate(strip_checkpoints(log).encode("utf-8"), path.name)
        assert replaced == [] and text == log


def _second_deal(lines: list[str]) -> int:
    return [i for i, line in enumerate(lines) if json.loads(line).get("event") == "deal"][1]


@pytest.mark.parametrize("how", [{"deals": True}, {"unseeded": True}])
def test_a_deal_flipped_off_the_made_pack_fails_verify(tmp_path: Path,
                                                       how: dict[str, bool]) -> None:
    """Hand 2's mão's first card traded with the vira: the seed deals otherwise (a seeded
    log), and the made pack cannot deal it (an unseeded one)."""
    lines = record_random(MADE, 4, **how).splitlines()  # 8 hands
    at = _second_deal(lines)
    event = json.loads(lines[at])
    mao = (event["dealer"] + 1) % 4
    hands = [list(h) for h in event["hands"]]
    hands[mao][0], vira = event["vira"], hands[mao][0]
    lines[at] = json.dumps({**event, "hands": hands, "vira": vira})
    path = tmp_path / "flipped.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and problems[0].line == at + 1
    assert "deal mismatch" in problems[0].message
    if how.get("unseeded"):
        assert "the made pack's card 1 from the top" in problems[0].message


@pytest.mark.parametrize("seed", range(4))
def test_positions_round_trip_and_deal_the_next_hand_as_the_match(seed: int) -> None:
    m, rng = Match.new(MADE, seed=seed), SplitMix64(seed)
    while m.hand_number < 4 and not m.is_over:
        position = m.position()
        again = Match.from_position(MADE, position)
        assert again.position() == position and legal(again) == legal(m)
        legal_now = m.legal_actions()
        move = legal_now[rng.bounded(len(legal_now))]
        m.apply(move)
        again.apply(move)
        assert again.position() == m.position()  # the next hand's made deal too


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_play_the_made_pack_to_the_end(bot: str) -> None:
    rules = load(MADE)
    m = Match(rules, seed=12)
    play_match(m, [make_bot(bot, rules, s) for s in range(4)])
    assert m.is_over and m.winner is not None and m.hand_number > 1


def test_a_seat_observes_nothing_more_than_under_paulista() -> None:
    """The made part is the public record of the last hand: no new field, the same as
    Paulista's observation of the same position."""
    m, rng = Match.new(MADE, seed=2), SplitMix64(2)
    to_next_hand(m, rng)
    twin = Match.from_position("paulista", m.position())
    for seat in range(4):
        assert m.observation(seat) == twin.observation(seat)
