"""The seeded shuffle of docs/log-format.md: SplitMix64, the bounded draw, Fisher-Yates, dealing."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import CONFORMANCE

from engine.cards import canonical_deck, card_name, parse_card
from engine.shuffle import MASK64, SplitMix64, _shuffled, deal, draws, shuffle
from engine.variant import load_variant

SEED_RANKS = "A234567QJK"


def test_splitmix64_matches_the_spec_test_vector() -> None:
    rng = SplitMix64(0)
    draws = [rng.next() for _ in range(5)]
    assert draws == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
        0x1B39896A51A8749B,
    ]


def test_splitmix64_state_wraps_modulo_2_64() -> None:
    rng = SplitMix64(MASK64)
    value = rng.next()
    assert 0 <= value <= MASK64
    assert rng.state == (MASK64 + 0x9E3779B97F4A7C15) & MASK64


@pytest.mark.parametrize("seed", [-1, 1 << 64])
def test_seed_outside_64_bits_is_rejected(seed: int) -> None:
    with pytest.raises(ValueError):
        SplitMix64(seed)


def test_copy_continues_the_same_stream_independently() -> None:
    rng = SplitMix64(42)
    rng.next()
    twin = rng.copy()
    assert [rng.next() for _ in range(3)] == [twin.next() for _ in range(3)]


def test_bounded_draw_is_the_raw_draw_modulo_n_below_the_limit() -> None:
    # With n = 40, limit = 2^64 - (2^64 mod 40); the seed-0 draws are all below it.
    raw = SplitMix64(0)
    bounded = SplitMix64(0)
    for _ in range(5):
        assert bounded.bounded(40) == raw.next() % 40


def test_bounded_draw_rejects_values_at_or_above_the_limit() -> None:
    # n = 2^63 + 1: limit = 2^64 - (2^63 - 1) = 2^63 + 1, so any draw >= 2^63 + 1 is redrawn.
    n = (1 << 63) + 1
    raw = SplitMix64(0)
    expected = next(x % n for x in iter(raw.next, None) if x < n)
    assert SplitMix64(0).bounded(n) == expected
    # The first seed-0 draw (0xE220...) is above the limit: the result is the second draw.
    assert expected == 0x6E789E6AA1B965F4


def test_bounded_draw_stays_in_range() -> None:
    rng = SplitMix64(7)
    for n in (1, 2, 3, 13, 40):
        assert all(0 <= rng.bounded(n) < n for _ in range(200))


@pytest.mark.parametrize("n", [0, -3])
def test_bounded_draw_from_an_empty_range_is_refused(n: int) -> None:
    with pytest.raises(ValueError):
        SplitMix64(0).bounded(n)


def test_shuffle_is_fisher_yates_from_the_top() -> None:
    deck = canonical_deck(SEED_RANKS)
    rng, replay = SplitMix64(99), SplitMix64(99)
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = replay.bounded(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    assert shuffle(deck, rng) == cards
    assert rng.state == replay.state
    assert sorted(cards) == sorted(deck)


def test_deal_gives_slices_from_the_mao_round_to_the_dealer_then_the_vira() -> None:
    deck = canonical_deck(SEED_RANKS)
    shuffled = shuffle(deck, SplitMix64(5))
    hands, vira = deal(deck, SplitMix64(5), players=4, cards_each=3, dealer=2, vira=True)
    assert hands[3] == shuffled[0:3]  # the mão, dealer + 1
    assert hands[0] == shuffled[3:6]
    assert hands[1] == shuffled[6:9]
    assert hands[2] == shuffled[9:12]  # the dealer takes the last slice
    assert vira == shuffled[12]


def test_deal_without_vira_returns_none() -> None:
    deck = canonical_deck(SEED_RANKS)
    hands, vira = deal(deck, SplitMix64(5), players=2, cards_each=3, dealer=0, vira=False)
    assert vira is None
    assert [len(h) for h in hands] == [3, 3]


def _seeded_deals(log_name: str) -> tuple[dict[str, object], list[dict[str, object]]]:
    lines = (CONFORMANCE / log_name).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    deals = [e for e in map(json.loads, lines[1:]) if e["event"] == "deal"]
    return header, deals


@pytest.mark.parametrize(
    "log_name", ["paulista-seed202-deals.jsonl", "mineiro-seed202-deals.jsonl"]
)
def test_seeded_shuffle_reproduces_the_example_deals(log_name: str) -> None:
    header, deals = _seeded_deals(log_name)
    rules = load_variant(str(header["variant"]))
    rng = SplitMix64(int(header["seed"]))  # type: ignore[call-overload]
    dealer = int(header.get("dealer", 0))  # type: ignore[call-overload]
    assert len(deals) >= 5, "the example should hold several hands"
    for number, event in enumerate(deals, start=1):
        hands, vira = deal(rules.deck, rng, rules.players, rules.cards_per_player, dealer,
                           rules.has_vira)
        assert event["dealer"] == dealer, f"hand {number}: dealer rotates (dealer + 1) % n"
        expected = event["hands"]
        assert isinstance(expected, list)
        got = [[card_name(c) for c in hand] for hand in hands]
        # "in any order within the hand": compare each seat's cards as a multiset.
        assert [Counter(h) for h in got] == [Counter(h) for h in expected], f"hand {number}"
        if rules.has_vira:
            assert vira is not None and card_name(vira) == event["vira"], f"hand {number}"
        else:
            assert vira is None and "vira" not in event
        dealer = (dealer + 1) % rules.players


def test_example_deal_cards_are_distinct_cards_of_the_deck() -> None:
    header, deals = _seeded_deals("paulista-seed202-deals.jsonl")
    rules = load_variant(str(header["variant"]))
    for event in deals:
        hands = event["hands"]
        assert isinstance(hands, list)
        cards = [parse_card(c) for hand in hands for c in hand] + [parse_card(str(event["vira"]))]
        assert len(set(cards)) == len(cards)
        assert set(cards) <= set(rules.deck)


def _reference_shuffle(deck: list[int], rng: SplitMix64) -> list[int]:
    """docs/log-format.md's Fisher-Yates, one bounded draw at a time."""
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.bounded(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("count", [0, 1, 2, 39, 63, 64, 65, 130])
def test_draws_at_once_are_the_generators_draws(count: int) -> None:
    for seed in (0, 1, 2026, MASK64, MASK64 - 0x9E3779B97F4A7C15 + 3):
        rng = SplitMix64(seed)
        assert list(draws(seed, count)) == [rng.next() for _ in range(count)]


def test_shuffle_is_bit_exact_with_one_draw_at_a_time() -> None:
    for size in (2, 20, 40, 52):
        deck = list(range(size))
        for seed in range(300):
            a, b = SplitMix64(seed * 7919), SplitMix64(seed * 7919)
            assert shuffle(deck, a) == _reference_shuffle(deck, b)
            assert a.state == b.state  # the generator goes on from the same point


def test_shuffle_redraws_a_rejected_draw_like_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rejections are too rare to meet (at most 63 in 2^64): with limits lowered to 2^62,
    three draws in four are rejected, and the shuffle still takes the draws bounded takes,
    fetching more than its first batch."""
    import engine.shuffle as module

    low = [0] + [1 << 62] * (len(module._LIMITS) - 1)
    monkeypatch.setattr(module, "_LIMITS", low)
    monkeypatch.setattr(module, "_SAFE", 1 << 62)  # the no-rejection path's bound, as lowered
    for seed in range(50):
        a, b = SplitMix64(seed), SplitMix64(seed)
        assert shuffle(list(range(40)), a) == _reference_shuffle(list(range(40)), b)
        assert a.state == b.state


@pytest.mark.parametrize("forced", [False, True])
def test_a_deal_is_the_first_cards_of_the_whole_shuffle(forced: bool,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal shuffles only as far as the cards it deals (engine.shuffle._shuffled): its hands
    and vira are the first cards of the one-draw-at-a-time shuffle, dealt from the mão, and
    the generator goes on from the same point; also when draws are rejected (``forced``:
    limits lowered to 2^62, as in the test above)."""
    import engine.shuffle as module

    if forced:
        monkeypatch.setattr(module, "_LIMITS", [0] + [1 << 62] * (len(module._LIMITS) - 1))
        monkeypatch.setattr(module, "_SAFE", 1 << 62)
        monkeypatch.setattr(module, "_FUSED", {})  # the fused deals made with the bound lowered
    for seed in range(60):
        players, each = (4, 3) if seed % 3 else (2, 3)
        dealer = seed % players
        a, b = SplitMix64(seed * 31), SplitMix64(seed * 31)
        hands, vira = deal(list(range(40)), a, players, each, dealer, seed % 2 == 0)
        cards = _reference_shuffle(list(range(40)), b)
        for i in range(players):
            assert hands[(dealer + 1 + i) % players] == cards[i * each:(i + 1) * each]
        assert vira == (cards[players * each] if seed % 2 == 0 else None)
        assert a.state == b.state


@pytest.mark.parametrize("size", [1, 2, 3, 13, 40, 63, 64])
def test_the_straight_line_steps_shuffle_as_the_loop_does(size: int) -> None:
    """The interpreted shuffle's steps written out once per size (engine.shuffle.
    _straight_steps): for any number of cards kept, the first cards of the whole shuffle, and
    the generator where the whole shuffle leaves it."""
    deck = list(range(size))
    for needed in sorted({0, 1, size // 3, size - 1, size}):
        for seed in range(40):
            a, b = SplitMix64(seed * 104_729 + size), SplitMix64(seed * 104_729 + size)
            assert _shuffled(deck, a, needed) == _reference_shuffle(deck, b)[:needed]
            assert a.state == b.state
