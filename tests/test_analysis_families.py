"""Blunders that lose by force are marked in every family (issue 44): a won hand folded, a
losing card played while the winning one is held, a special hand refused with the top cards.
``tests/test_analysis.py`` holds Paulista's fold and card and Mineiro's mão de dez; these are
the rest, each with the right move unmarked. Gaudério has no special hand (G21).

The grade follows the family (docs/analysis.md, "Severity depends on the family"): a truco lost
at 9-9 costs Mineiro (a match of two games) about half what it costs a one-game match, so it
is a mistake there and a blunder elsewhere. Hindsight, which knows every card, marks each a
blunder: the loss is forced whatever the hidden cards are.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Match
from engine.actions import Deal
from engine.analysis import decision_at, value_decision
from engine.analysis.run import Job
from engine.cluster import VariantRef

PLAYOUTS = 48
MAO_DE_11_DECISION = "variants/house/paulista-mao-de-11-decision.yaml"


def _match(variant: str, hands: list[list[str]], score: list[int], moves: list[str]) -> Match:
    """A match dealt ``hands`` (dealer 0, no vira) at ``score``, after ``moves`` (log notation)."""
    m = Match.from_deals(variant, [Deal.of(0, hands)])
    position = m.position()
    position["score"] = score
    m = Match.from_position(variant, position)
    for move in moves:
        m.apply(_offered(m, move))
    return m


def _offered(m: Match, move: str) -> Any:
    found = [a for a in m.legal_actions() if str(a) == move]
    assert found, f"{move} not in {[str(a) for a in m.legal_actions()]}"
    return found[0]


def _analysed(m: Match, move: str) -> dict[str, Any]:
    decision = decision_at(m, _offered(m, move), 1)
    assert decision is not None
    return value_decision(Job(VariantRef.of(m.rules), decision, 5, PLAYOUTS, True))


def _marked(m: Match, wrong: str, right: str, grade: str) -> None:
    """``wrong`` marked ``grade`` (and a blunder in hindsight), ``right`` unmarked; the best
    move is ``right`` or, where a raise gains more, a raise."""
    bad = _analysed(m, wrong)
    assert bad["mark"] == grade
    assert bad["hindsight"]["mark"] == "blunder"
    for best in (bad["best_move"], bad["hindsight"]["best_move"]):
        assert best == right or best.startswith(f"raise {right.split()[1]} ")
    good = _analysed(m, right)
    assert good["mark"] is None and good["rank"] == 1 and good["hindsight"]["mark"] is None


#: Team 0 wins round 1 with seat 2's second-best card and seat 0 keeps the best one: round 2
#: is team 0's whatever is played, so the hand is won; team 1 raises in round 2.
FOLD_WON = {
    "mineiro": ([["4c", "3c", "4d"], ["5h", "6d", "Kc"], ["7h", "4h", "5d"],
                 ["6h", "Jd", "Qc"]], "raise 3 3 Jd", "blunder"),
    "gauderio": ([["As", "3c", "4d"], ["5h", "6d", "Kc"], ["Ac", "4h", "5d"],
                  ["6h", "Jd", "Qc"]], "raise 3 2", "blunder"),
}


@pytest.mark.parametrize("variant", sorted(FOLD_WON))
def test_folding_a_won_hand_is_marked_in_every_family(variant: str) -> None:
    hands, raise_, grade = FOLD_WON[variant]
    top = hands[2][0]
    m = _match(variant, hands, [9, 9] if variant == "mineiro" else [22, 22],
               ["play 1 5h", f"play 2 {top}", "play 3 6h", "play 0 4d", "play 2 4h", raise_])
    _marked(m, "fold 0", "accept 0", grade)


#: A truco accepted in round 1, which team 1 wins; in round 2 seat 0 plays last against a 3
#: with the top card and a 5: the 5 loses rounds 1 and 2, the hand and the game; the top card
#: wins round 2, and seat 2's 2 wins round 3.
LOSING_CARD = {
    "mineiro": ("4c", ["raise 1 3 3h", "accept 0"], [9, 9], "mistake"),
    "gauderio": ("As", ["raise 1 2", "accept 0"], [22, 22], "blunder"),
}


@pytest.mark.parametrize("variant", sorted(LOSING_CARD))
def test_the_losing_card_is_marked_in_every_family(variant: str) -> None:
    top, truco, score, grade = LOSING_CARD[variant]
    hands = [[top, "5c", "4d"], ["3h", "3d", "Kc"], ["6s", "4h", "2s"], ["6h", "Jd", "Qc"]]
    m = _match(variant, hands, score, [*truco, "play 1 3h", "play 2 6s", "play 3 6h",
                                       "play 0 4d", "play 1 3d", "play 2 4h", "play 3 Jd"])
    _marked(m, "play 0 5c", f"play 0 {top}", grade)


def test_refusing_the_mao_de_11_with_the_three_top_manilhas_is_a_blunder() -> None:
    """Paulista's mão de 11 is played, not decided (P5); its house variant with the decision:
    at 11-9, the three top manilhas win the hand and the match by force."""
    hands = [["4c", "4h", "4s"], ["3c", "2s", "Kd"], ["7c", "2d", "Ah"], ["Jh", "7d", "Js"]]
    position = {
        "position": 1, "state": "decide", "score": [11, 9], "games": [0, 0], "winner": None,
        "dealer": 0, "hand_number": 9, "value": 3,
        "special": {"entry": 1, "name": "mão de onze", "team": 0, "decider": None},
        "pending": None, "refused": [], "last_raise_team": None, "vira": "3h",
        "hands": hands, "dealt": hands, "rounds": [],
        "round": {"number": 1, "leader": 1, "turn": 1, "cards": []}, "shown": [],
        "bound": [None] * 4, "last_hand": None, "rng": None}
    m = Match.from_position(MAO_DE_11_DECISION, position)
    _marked(m, "decide 0 fold", "decide 0 play", "blunder")
