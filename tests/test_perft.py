"""Perft snapshots: for every shipped variant, the number of distinct legal move sequences of a
hand from fixed deals (tests/snapshots/<variant>/<variant>-perft.txt), and checks of the counts
against ones worked out by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import doctests

from engine.actions import Deal
from engine.cards import card_name, card_pretty
from engine.game import Match
from engine.perft import perft, perft_levels, perft_table, position, whole_hand
from engine.resources import shipped_variants
from engine.rules import Rules
from engine.shuffle import SplitMix64
from engine.shuffle import deal as seeded_deal
from engine.variant import find_variant

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
#: Every shipped variant; a house variant only where it has snapshots (new house variants get
#: them when their task says so).
VARIANTS = sorted(shipped_variants())  # every shipped variant, house variants included
#: Each table goes as deep as keeps this many sequences still in the hand (a fixed amount of
#: work whatever the variant's branching), and no deeper than a whole hand of 4 players.
LIVE_LIMIT = 1500
MAX_DEPTH = 12
#: Fixed deals for 4 players, with a vira for variants that turn one. Variants with fewer
#: players take the first hands; the dealer is taken modulo the players.
DEALS: dict[str, tuple[int, list[list[str]], str]] = {
    "A": (0, [["3c", "Kd", "5s"], ["4c", "Qh", "2d"], ["7h", "As", "6c"], ["Jd", "3s", "5h"]],
          "7c"),
    "B": (1, [["2h", "2s", "7d"], ["Kc", "Ad", "4h"], ["Qs", "3d", "6h"], ["Jc", "Js", "5d"]],
          "Ks"),
}


def deal_for(rules: Rules, name: str) -> Deal:
    """The fixed deal ``name``; for a variant whose deck or hands it does not fit (fewer
    cards, more cards each, jokers), a seeded deal of the variant's own deck instead."""
    dealer, hands, vira = DEALS[name]
    fixed = Deal.of(dealer % rules.players, hands[: rules.players],
                    vira if rules.has_vira else None)
    if Match.new(rules, dealer=fixed.dealer).deal_problem(fixed, fixed.dealer) is None:
        return fixed
    dealt, turned = seeded_deal(rules.deck, SplitMix64(ord(name)), rules.players,
                                rules.cards_per_player, fixed.dealer, rules.has_vira)
    return Deal.of(fixed.dealer, [[card_name(c) for c in h] for h in dealt],
                   card_name(turned) if turned is not None else None)


def positions(rules: Rules) -> list[tuple[str, Deal, tuple[int, int]]]:
    """Both deals at 0-0, and deal A in each special hand the variant has (P5/M5, P6/M6)."""
    out = [(f"deal {name}", deal_for(rules, name), (0, 0)) for name in DEALS]
    one, both = rules.one_team, rules.both_teams
    if one.enabled:
        out.append((f"deal A, {one.name}", deal_for(rules, "A"), (one.from_score, 0)))
    if both.enabled:
        out.append((f"deal A, {both.name}", deal_for(rules, "A"),
                    (both.from_score, both.from_score)))
    return out


def perft_report(rules: Rules) -> str:
    lines = [f"perft {rules.name}: distinct legal move sequences within one hand",
             f"(tables stop once more than {LIVE_LIMIT} sequences are still in the hand, or at "
             f"depth {MAX_DEPTH})"]
    for label, deal, score in positions(rules):
        m = position(rules, deal, score)
        hands = " | ".join(" ".join(card_pretty(c) for c in h) for h in deal.hands)
        vira = f" · vira {card_pretty(deal.vira)}" if deal.vira is not None else ""
        lines += ["", f"{label} · dealer {deal.dealer} · score {score[0]}-{score[1]} · "
                      f"{m.state} · {hands}{vira}",
                  "depth  sequences  ended"]
        rows = perft_levels(m, LIVE_LIMIT, MAX_DEPTH)
        lines += [f"{d:>5}  {n:>9}  {e:>5}" for d, n, e in rows]
        live = rows[-1][1] - rows[-1][2]
        lines.append(f"whole hand: {sum(e for _, _, e in rows)} sequences" if live == 0
                     else f"still in the hand after depth {rows[-1][0]}: {live}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_snapshot(snapshot: Any, variant: str) -> None:
    snapshot.snapshot_dir = SNAPSHOTS / variant
    snapshot.assert_match(perft_report(find_variant(variant)), f"{variant}-perft.txt")


def test_perft_counts_worked_out_by_hand() -> None:
    deal = deal_for(find_variant("mineiro"), "A")
    # Paulista: the mão plays one of 3 cards or calls truco; after a card the next seat has the
    # same 4 choices, after truco either opponent accepts, folds or raises to 6.
    paulista = position("paulista", deal_for(find_variant("paulista"), "A"))
    assert [perft(paulista, d) for d in range(3)] == [1, 4, 3 * 4 + 6]
    # Mineiro (M3, M4): any seat of either team may raise, naming one of its 3 cards.
    assert perft(position("mineiro", deal), 1) == 3 + 4 * 3
    # Mão de dez (M5): two partners may play or fold; after "play" no raise is offered and no
    # card is covered, so round 3 is forced and the hand has 3^4 * 2^4 orders of play.
    assert whole_hand(position("mineiro", deal, (10, 0))) == 2 + 2 * 3**4 * 2**4
    # Mão de 11 (P5): no decision, no raise, covered cards from round 2 (P7).
    eleven = position("paulista", deal_for(find_variant("paulista"), "A"), (11, 0))
    assert perft(eleven, 5) == 3**4 * 4


@pytest.mark.parametrize("variant", ["paulista", "mineiro-12", "one-on-one"])
def test_perft_agrees_with_its_table(variant: str) -> None:
    rules = find_variant(variant)
    m = position(rules, deal_for(rules, "B"))
    table = perft_table(m, 3)
    assert [n for _, n, _ in table] == [perft(m, d) for d in (1, 2, 3)]
    assert all(0 <= e <= n for _, n, e in table)


def test_whole_hand_is_the_sum_of_hand_ends() -> None:
    rules = find_variant("one-on-one")
    m = position(rules, deal_for(rules, "A"), (11, 0))
    rows = perft_table(m, MAX_DEPTH)
    assert rows[-1][1] == 0  # every sequence has ended the hand by then
    assert whole_hand(m) == sum(e for _, _, e in rows) > 0


def test_perft_leaves_the_match_unchanged() -> None:
    m = Match.new("mineiro", seed=5)
    before = [m.observation(s) for s in range(4)], m.legal_actions()
    assert perft(m, 3) > 0
    assert ([m.observation(s) for s in range(4)], m.legal_actions()) == before


def test_no_sequences_without_a_hand() -> None:
    m = Match.new("paulista")  # no seed: waiting for a deal
    assert m.awaiting_deal
    assert perft(m, 2) == 0 and whole_hand(m) == 0 and perft_table(m, 2) == [(1, 0, 0),
                                                                              (2, 0, 0)]
    with pytest.raises(ValueError, match="negative"):
        perft(m, -1)


def test_docstring_examples_run() -> None:

    import engine.perft

    result = doctests(engine.perft)
    assert result.attempted >= 5 and result.failed == 0
