"""``Rules`` grouped like the variant file's blocks (issue 27, item 5): small frozen, hashable
blocks; the flat names of before still read them; equality and the hash are unchanged in
meaning (cache keys)."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from engine.rules import _HOT, BettingRules, Rules
from engine.variant import find_variant, load_variant

#: Every flat name of before, with the block and key it reads now.
FLAT = {
    "deck_ranks": ("deck_rules", "ranks"), "deck_minus": ("deck_rules", "minus"),
    "deck_plus": ("deck_rules", "plus"), "deck_extra": ("deck_rules", "extra"),
    "manilha_mode": ("manilhas", "mode"), "manilha_suit_order": ("manilhas", "suit_order"),
    "fixed_manilhas": ("manilhas", "cards"), "manilha_ranks": ("manilhas", "ranks"),
    "manilha_stand_in": ("manilhas", "stand_in"),
    "tied_round_leader": ("rounds", "tied_round_leader"), "all_tied": ("rounds", "all_tied"),
    "covered_allowed": ("covered_cards", "allowed"),
    "covered_from_round": ("covered_cards", "from_round"),
    **{k: ("play", k) for k in ("leader_face_up", "no_cover_after_tie", "no_cover_after_partner",
                                "highest_after_tied_first", "raiser_must_beat",
                                "raiser_must_kill")},
    **{k: ("betting", k) for k in ("initial_value", "ladder", "raise_timing", "name_card",
                                   "refused_card_shown_in_rounds", "no_raise_when_winning",
                                   "answered_by", "refusal", "raise_back")},
    "special_hands": ("special_rules", "hands"), "one_team": ("special_rules", "one_team"),
    "both_teams": ("special_rules", "both_teams"),
    "target": ("game", "target"), "cap_score": ("game", "cap_score"),
    "games_to_win": ("match", "games_to_win"),
    "concede": ("concede_rules", "allowed"),
    "concede_instead_of_answer": ("concede_rules", "instead_of_answer"),
    "concede_in_special_hands": ("concede_rules", "in_special_hands"),
}
BLOCKS = sorted({block for block, _ in FLAT.values()})
VARIANTS = ["paulista", "mineiro", "gauderio", "truco-de-amostra", "three-players",
            "special-hands-list", "capixaba-jokers", "concede"]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_flat_name_reads_its_block(name: str) -> None:
    rules = find_variant(name)
    for flat, (block, key) in FLAT.items():
        assert getattr(rules, flat) == getattr(getattr(rules, block), key), flat


@pytest.mark.parametrize("flat", sorted(FLAT))
def test_a_flat_name_is_read_only(flat: str) -> None:
    rules = load_variant("paulista")
    with pytest.raises(AttributeError):
        setattr(rules, flat, getattr(rules, flat))


def test_the_names_read_per_move_are_plain_attributes_set_once() -> None:
    rules = load_variant("mineiro")
    assert {k: FLAT[k] for k in _HOT} == _HOT
    assert set(_HOT) <= set(vars(rules))  # a plain attribute: no property call
    assert not (set(FLAT) - set(_HOT)) & set(vars(rules))  # the others delegate


@pytest.mark.parametrize("name", VARIANTS)
def test_the_blocks_are_frozen_and_hashable(name: str) -> None:
    rules = find_variant(name)
    for block in BLOCKS:
        value = getattr(rules, block)
        assert dataclasses.is_dataclass(value)
        assert hash(value) == hash(dataclasses.replace(value))
        first = dataclasses.fields(value)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, first, getattr(value, first))


def test_rules_equal_and_hash_by_their_rules_not_their_data_or_source() -> None:
    a, b = load_variant("paulista"), find_variant("paulista")
    assert a is not b and a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    copy = pickle.loads(pickle.dumps(a))
    assert copy == a and hash(copy) == hash(a) and copy.target == a.target
    other = dataclasses.replace(a, betting=dataclasses.replace(a.betting, raise_back=False))
    assert other != a and other.raise_back is False and a.raise_back is True
    assert dataclasses.replace(a, source="elsewhere") == a
    assert a != find_variant("mineiro")


def test_a_block_replaced_rederives_the_flat_names() -> None:
    rules = find_variant("paulista")
    betting: BettingRules = dataclasses.replace(rules.betting, ladder=rules.ladder[:1])
    short = dataclasses.replace(rules, betting=betting)
    assert isinstance(short, Rules)
    assert short.ladder == rules.ladder[:1] and short.top_value == 3
