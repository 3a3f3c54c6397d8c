"""The cut as data, the cutter's further choices (issue 42, ``cut``): sobe or desce, the pack
dealt from the bottom up or from the top down; each a logged move that replays
(docs/rules.md, "The cut")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, legal

from engine import Match
from engine.actions import Action
from engine.errors import VariantError
from engine.logformat import record_random
from engine.replay import verify_file
from engine.shuffle import SplitMix64, shuffle
from engine.telling import describe, menu_entry
from engine.variant import load

SOBE = "cut-sobe-desce"


def pack(variant: str, seed: int) -> list[int]:
    """The first hand's whole seeded shuffle, top first."""
    return shuffle(load(variant).deck, SplitMix64(seed))


def test_sobe_desce_offers_the_two_words_in_order() -> None:
    assert legal(Match.new(SOBE, seed=2)) == ["cut 3 seco", "cut 3 sobe"]


@pytest.mark.parametrize("seed", range(6))
def test_sobe_deals_the_pack_from_the_bottom_up(seed: int) -> None:
    up = pack(SOBE, seed)[::-1]
    m, plain = Match.new(SOBE, seed=seed), Match.new("paulista", seed=seed)
    act(m, "cut 3 sobe")  # dealer 0: the mão is seat 1, the cutter seat 3
    assert m.hand.hands == [up[9:12], up[0:3], up[3:6], up[6:9]]
    assert m.hand.vira == up[12]
    assert m.rng is not None and plain.rng is not None
    assert m.rng.state == plain.rng.state  # the next hands' shuffles are the same
    desce = Match.new(SOBE, seed=seed)
    act(desce, "cut 3 seco")  # desce: the seeded deal, from the top down
    assert (desce.hand.hands, desce.hand.vira) == (plain.hand.hands, plain.hand.vira)


def test_sobe_with_the_vira_the_packs_last_card_turns_its_top_card(write: WriteFile) -> None:
    path = write("sobe-last.yaml", f"name: sobe-last\nextends: {SOBE}\ndeal:\n  vira: last\n")
    deck = pack(str(path), 4)
    m = Match.new(str(path), seed=4)
    act(m, "cut 3 sobe")
    assert m.hand.vira == deck[0] and m.hand.hands[1] == deck[:-4:-1]


def test_sobe_is_refused_where_the_choices_leave_it_out() -> None:
    m = Match.new("cut", seed=2)  # the default choices: seco, burn, bottom, partner
    assert "cut 3 sobe" not in legal(m)
    assert assert_illegal(m, "cut 3 sobe", "no sobe cut in this variant",
                          "cut.choices: seco, burn, bottom, partner").code == "cut_not_allowed"
    m = Match.new(SOBE, seed=2)
    assert assert_illegal(m, "cut 3 burn", "cut.choices: seco, sobe").code == "cut_not_allowed"


def _sobe_log(**how: bool) -> list[str]:
    log = record_random(SOBE, 1, **how).splitlines()
    choices = [json.loads(line).get("choice") for line in log]
    assert {"seco", "sobe"} <= set(choices)  # both words chosen, each logged
    return log


@pytest.mark.parametrize("how", [{"deals": True}, {"unseeded": True}, {}])
def test_a_log_of_sobe_and_desce_verifies(tmp_path: Path, how: dict[str, bool]) -> None:
    path = tmp_path / "sobe.jsonl"
    path.write_text("\n".join(_sobe_log(**how)) + "\n", encoding="utf-8")
    result = verify_file(path)
    assert not result.problems, result.problems


def test_a_log_whose_sobe_is_changed_to_desce_fails_its_seeded_deal(tmp_path: Path) -> None:
    log = _sobe_log(deals=True)
    at = next(i for i, line in enumerate(log) if json.loads(line).get("choice") == "sobe")
    log[at] = log[at].replace('"sobe"', '"seco"')
    path = tmp_path / "desce.jsonl"
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and "deal mismatch" in problems[0].message


TAKE_TWO = "cut-take-two"


@pytest.mark.parametrize("seed", range(6))
def test_take_two_gives_the_two_bottom_cards_first(seed: int) -> None:
    deck = pack(TAKE_TWO, seed)
    m = Match.new(TAKE_TWO, seed=seed)
    act(m, "cut 3 bottom")  # dealer 0: the mão is seat 1; the cutter, seat 3, one card dealt
    assert m.hand.hands == [deck[7:10], deck[0:3], deck[3:6], [deck[-1], deck[-2], deck[6]]]
    assert m.hand.vira == deck[10]
    m = Match.new(TAKE_TWO, seed=seed)
    act(m, "cut 3 partner")  # seat 1, the cutter's partner, takes them
    assert m.hand.hands[1] == [deck[-1], deck[-2], deck[0]] and m.hand.vira == deck[10]


def test_take_two_is_told_and_offered_in_the_plural() -> None:
    two, one = load(TAKE_TWO), load("cut")
    assert describe(Action.cut(3, "bottom"), two, 3) == "you cut: take the 2 bottom cards"
    assert describe(Action.cut(3, "partner"), two, 0) == \
        "seat 3 cuts: gives the 2 bottom cards to his partner"
    assert menu_entry(Action.cut(3, "bottom"), two, None) == "take the 2 bottom cards"
    assert describe(Action.cut(3, "bottom"), one, 3) == "you cut: take the bottom card"
    assert menu_entry(Action.cut(3, "sobe"), load(SOBE), None) == \
        "sobe (deal from the bottom of the pack)"


@pytest.mark.parametrize("how", [{"deals": True}, {"unseeded": True}, {}])
def test_a_log_of_take_two_verifies(tmp_path: Path, how: dict[str, bool]) -> None:
    log = record_random(TAKE_TWO, 1, **how)
    assert {"bottom", "partner"} & {json.loads(line).get("choice") for line in log.splitlines()}
    path = tmp_path / "take.jsonl"
    path.write_text(log, encoding="utf-8")
    result = verify_file(path)
    assert not result.problems, result.problems


def test_a_take_two_log_read_as_taking_one_fails(tmp_path: Path, write: WriteFile) -> None:
    """The same moves under cut.take: 1 deal other hands: the count is the variant's."""
    log = record_random(TAKE_TWO, 1, deals=True).splitlines()
    one = write("take-one.yaml", f"name: take-one\nextends: {TAKE_TWO}\ncut:\n  take: 1\n")
    header = {**json.loads(log[0]), "variant": str(one)}
    del header["variant_sha256"]  # the rules named, not fingerprinted: the deal speaks
    log[0] = json.dumps(header)
    path = tmp_path / "one.jsonl"
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and "deal mismatch" in problems[0].message


@pytest.mark.parametrize(("yaml", "why"), [
    ("extends: paulista\ncut:\n  take: 2\n", "expected cut.allowed: true and bottom or partner"),
    ("extends: cut\ncut:\n  take: 2\n  choices: [seco, burn]\n", "found allowed: true, "
                                                                  "choices: seco, burn"),
    ("extends: cut\ncut:\n  take: 4\n", r"at most cards_per_player \(3\), found 4"),
])
def test_take_needs_a_cut_that_takes_and_at_most_a_hand(write: WriteFile, yaml: str,
                                                        why: str) -> None:
    path = write("bad-take.yaml", "name: bad-take\n" + yaml)
    with pytest.raises(VariantError, match=why):
        load(str(path))
