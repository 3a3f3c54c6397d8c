"""The cut and the deal as data (issue 42, ``deal``): where the vira comes from, and how
many cards each seat is given at a time, from the seeded pack; the cut dealing the same way;
the logs verified against them; the keys' checks (docs/rules.md, "The deal")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import WriteFile
from helpers import act

from engine import Match
from engine.cards import card_name
from engine.errors import VariantError
from engine.logformat import record_random
from engine.moves.deal import seeded, special_for
from engine.replay import verify_file
from engine.shuffle import SplitMix64, shuffle
from engine.shuffle import deal as plain_deal
from engine.state import NORMAL
from engine.variant import load

VIRA_LAST = "vira-last-card"
ONE_AT_A_TIME = "dealt-one-at-a-time"


def pack(variant: str, seed: int) -> list[int]:
    """The first hand's whole seeded shuffle, top first."""
    return shuffle(load(variant).deck, SplitMix64(seed))


@pytest.mark.parametrize("seed", range(8))
def test_vira_last_card_turns_the_packs_last_card(seed: int) -> None:
    deck = pack(VIRA_LAST, seed)
    m, plain = Match.new(VIRA_LAST, seed=seed), Match.new("paulista", seed=seed)
    assert m.hand.vira == deck[-1] != plain.hand.vira == deck[12]
    # the hands are the same slices from the mão (seat 1): only the vira moves
    assert m.hand.hands == plain.hand.hands == [deck[9:12], deck[0:3], deck[3:6], deck[6:9]]
    assert m.rng is not None and plain.rng is not None
    assert m.rng.state == plain.rng.state  # the next hands' shuffles are the same


@pytest.mark.parametrize("seed", range(8))
def test_dealt_one_at_a_time_gives_each_seat_every_fourth_card(seed: int) -> None:
    deck = pack(ONE_AT_A_TIME, seed)
    m, plain = Match.new(ONE_AT_A_TIME, seed=seed), Match.new("paulista", seed=seed)
    # from the mão (seat 1) round to the dealer (seat 0), one card a round, three rounds
    assert m.hand.hands == [deck[3:12:4], deck[0:12:4], deck[1:12:4], deck[2:12:4]]
    assert m.hand.vira == deck[12] == plain.hand.vira  # the card after the dealt ones
    assert m.rng is not None and plain.rng is not None and m.rng.state == plain.rng.state


def test_dealt_in_packets_of_two_then_one(write: WriteFile) -> None:
    path = write("two-one.yaml", "name: two-one\nextends: paulista\n"
                                 "deal:\n  packets: [2, 1]\n")
    deck = pack(str(path), 5)
    m = Match.new(str(path), seed=5, dealer=3)  # the mão is seat 0
    assert m.hand.hands == [[*deck[0:2], deck[8]], [*deck[2:4], deck[9]],
                            [*deck[4:6], deck[10]], [*deck[6:8], deck[11]]]


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio", "five-cards"])
def test_the_defaults_deal_as_the_log_formats_seeded_deal(variant: str) -> None:
    rules = load(variant)
    for dealer in range(rules.players):
        a, b = SplitMix64(dealer + 40), SplitMix64(dealer + 40)
        assert seeded(rules, a, dealer) == plain_deal(
            rules.deck, b, rules.players, rules.cards_per_player, dealer, rules.has_vira)
        assert a.state == b.state


def test_the_cut_deals_the_rest_of_the_pack_as_the_variant_deals(write: WriteFile) -> None:
    """The cutter's bottom card is taken first; the vira is then the last card left, and the
    rest is dealt one card at a time, the taker skipped in the last round."""
    path = write("cut-deal.yaml", "name: cut-deal\nextends: cut\n"
                                  "deal:\n  vira: last\n  packets: [1, 1, 1]\n")
    deck = pack(str(path), 9)
    m = Match.new(str(path), seed=9)
    act(m, "cut 3 bottom")  # dealer 0, the mão seat 1, the cutter seat 3
    assert m.hand.hands == [[deck[3], deck[7], deck[10]], [deck[0], deck[4], deck[8]],
                            [deck[1], deck[5], deck[9]], [deck[-1], deck[2], deck[6]]]
    assert m.hand.vira == deck[-2]
    m = Match.new(str(path), seed=9)
    act(m, "cut 3 burn")  # the top card burnt, the vira still the pack's last
    assert m.hand.hands[1] == [deck[1], deck[5], deck[9]] and m.hand.vira == deck[-1]


@pytest.mark.parametrize("variant", [VIRA_LAST, ONE_AT_A_TIME])
@pytest.mark.parametrize("how", [{"deals": True}, {"unseeded": True}, {}])
def test_logs_of_the_dealing_variants_verify(tmp_path: Path, variant: str,
                                             how: dict[str, bool]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(record_random(variant, 11, **how), encoding="utf-8")
    result = verify_file(path)
    assert not result.problems, result.problems


def test_a_deal_with_the_13th_card_as_vira_fails_where_the_vira_is_the_last(
        tmp_path: Path) -> None:
    lines = record_random(VIRA_LAST, 11, deals=True).splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "deal")
    deal = json.loads(lines[at])
    plain = Match.new("paulista", seed=11)  # the same hands, the 13th card turned
    assert card_name(plain.hand.vira) != deal["vira"]
    lines[at] = json.dumps({**deal, "vira": card_name(plain.hand.vira)})
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and "deal mismatch" in problems[0].message


def test_packets_must_add_up_to_a_seats_cards(write: WriteFile) -> None:
    path = write("short.yaml", "name: short\nextends: paulista\ndeal:\n  packets: [1, 1]\n")
    with pytest.raises(VariantError, match=r"packets adding up to cards_per_player \(3\)"):
        load(str(path))


def test_no_place_for_a_vira_where_none_is_turned(write: WriteFile) -> None:
    path = write("mineiro-last.yaml", "name: mineiro-last\nextends: mineiro\n"
                                      "deal:\n  vira: last\n")
    with pytest.raises(VariantError, match="no vira is turned"):
        load(str(path))


NO_CUT_SPECIAL = "cut-not-in-special-hands"


def _at_11(write: WriteFile, parent: str, extra: str = "") -> str:
    """``parent`` whose games start at 11 x 11: every hand a mão de ferro (special)."""
    return str(write(f"{parent}-11.yaml", f"name: {parent}-11\nextends: {parent}\nmatch:\n"
                                          f"  start_score: 11\n  start_score_from_game: 1\n"
                                          + extra))


def test_no_cut_before_a_special_hand_it_is_dealt_as_a_corte_seco(write: WriteFile) -> None:
    m = Match.new(_at_11(write, NO_CUT_SPECIAL), seed=7)
    plain = Match.new(_at_11(write, "paulista"), seed=7)
    assert (m.state, m.hand_number, m.hand.special) == ("play", 1, plain.hand.special)
    assert (m.hand.hands, m.hand.vira) == (plain.hand.hands, plain.hand.vira)
    assert not any(a.kind == "cut" for a in m.legal_actions())
    offered = Match.new(_at_11(write, "cut"), seed=7)  # the default: the cut is offered
    assert offered.state == "cut"


def test_no_cut_before_a_special_hand_whatever_the_choices(write: WriteFile) -> None:
    m = Match.new(_at_11(write, NO_CUT_SPECIAL, "cut:\n  choices: [burn]\n"), seed=3)
    assert m.state == "play" and m.hand_number == 1


@pytest.mark.parametrize("seed", range(4))
def test_the_cut_is_offered_before_normal_hands_only(seed: int) -> None:
    """A seeded walk (cards, cuts and accepts only: long matches) reaches special hands."""
    m, rng = Match.new(NO_CUT_SPECIAL, seed=seed), SplitMix64(seed)
    cuts = specials = seen = 0
    while not m.is_over:
        if m.state == "cut":
            assert special_for(m.rules, m.score)[0] == NORMAL
            cuts += 1
        if m.hand_number != seen:
            seen = m.hand_number
            specials += m.hand.special != NORMAL
        legal = m.legal_actions()
        calm = [a for a in legal if a.kind in ("play", "cut", "accept")] or legal
        m.apply(calm[rng.bounded(len(calm))])
    assert cuts and specials and cuts + specials == m.hand_number


@pytest.mark.parametrize("how", [{"deals": True}, {"unseeded": True}, {}])
def test_logs_without_a_cut_before_special_hands_verify(tmp_path: Path,
                                                        how: dict[str, bool]) -> None:
    log = record_random(NO_CUT_SPECIAL, 5, **how)  # seed 5: a special hand, its cut left out
    events = [json.loads(line).get("event") for line in log.splitlines()]
    if how:
        assert events.count("deal") == events.count("cut") + 1
    path = tmp_path / "game.jsonl"
    path.write_text(log, encoding="utf-8")
    result = verify_file(path)
    assert not result.problems, result.problems


def test_no_cut_in_special_hands_needs_the_cut(write: WriteFile) -> None:
    path = write("no-cut.yaml", "name: no-cut\nextends: paulista\n"
                                "cut:\n  in_special_hands: false\n")
    with pytest.raises(VariantError, match="expected cut.allowed: true"):
        load(str(path))


def test_a_cut_logged_before_a_special_hand_fails_verification(tmp_path: Path) -> None:
    lines = record_random(NO_CUT_SPECIAL, 5, deals=True).splitlines()
    events = [json.loads(line) for line in lines]
    at = next(i for i, e in enumerate(events) if i > 1 and e.get("event") == "deal"
              and events[i - 1].get("event") != "cut")  # the special hand's deal
    cutter = (events[at]["dealer"] - 1) % 4
    lines.insert(at, json.dumps({"event": "cut", "seat": cutter, "choice": "seco"}))
    path = tmp_path / "cut-at-11.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and "no cut is awaited" in problems[0].message
