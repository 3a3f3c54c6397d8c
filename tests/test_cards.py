"""Cards in the log notation (docs/log-format.md) and the canonical deck."""

from __future__ import annotations

import pytest

from engine.cards import (
    RANKS,
    SUITS,
    CardError,
    canonical_deck,
    card_name,
    card_pretty,
    card_rank,
    card_suit,
    make_card,
    parse_card,
)

SEED_RANKS = "A234567QJK"  # C2: a 52-card deck without 8, 9, 10


def test_every_card_name_round_trips() -> None:
    names = [r + s for s in SUITS for r in RANKS]
    assert len(names) == 52
    for name in names:
        card = parse_card(name)
        assert card_name(card) == name
        assert card_rank(card) + card_suit(card) == name
        assert make_card(name[0], name[1]) == card


def test_card_codes_sort_in_canonical_order() -> None:
    # docs/log-format.md: for suit in c d h s, for rank in A 2 3 4 5 6 7 8 9 T J Q K.
    assert parse_card("Ac") == 0
    assert parse_card("Kc") < parse_card("Ad") < parse_card("Kd") < parse_card("Ah")
    assert parse_card("Ks") == 51


@pytest.mark.parametrize(
    ("name", "pretty"),
    [("4c", "4♣"), ("7h", "7♥"), ("As", "A♠"), ("7d", "7♦"), ("Td", "10♦"), ("Kh", "K♥")],
)
def test_pretty_form_uses_suit_symbols(name: str, pretty: str) -> None:
    assert card_pretty(parse_card(name)) == pretty


@pytest.mark.parametrize("text", ["", "4", "c", "4C", "4x", "1c", "10c", "c4", " 4c", "4c ", "zz"])
def test_malformed_card_is_rejected_with_expected_form(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)
    assert "like '4c'" in str(info.value)


def test_non_string_card_is_rejected() -> None:
    with pytest.raises(CardError):
        parse_card(3)  # type: ignore[arg-type]


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_C2_deck_has_40_cards() -> None:
    deck = canonical_deck(SEED_RANKS)
    assert len(deck) == 40
    assert not {card_rank(c) for c in deck} & {"8", "9", "T"}
    assert len(set(deck)) == 40


def test_canonical_deck_is_suit_major_in_rank_order() -> None:
    deck = [card_name(c) for c in canonical_deck(SEED_RANKS)]
    assert deck[:10] == ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "Jc", "Qc", "Kc"]
    assert deck[10] == "Ad"
    assert deck[-1] == "Ks"
    # The order of the ranks given does not matter: the canonical order does.
    assert canonical_deck("KQJ765432A") == canonical_deck(SEED_RANKS)
