"""Seeing a partner's cards, as data (``seeing.partners``, issue 42): the house variants
``partners-see-cards`` and ``mao-de-11-cards-kept``, through the one visibility function the
observation and the environment both read (``engine.moves.hands_seen``): what a seat is shown
changes with its partner's cards and never with the cards it may not see."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, deal, match, observe_all, score_to

from engine import Match
from engine.cards import card_name
from engine.env import raw_env
from engine.errors import VariantError
from engine.variant import load_variant

HANDS = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"
#: Seats 1 and 3 (the other team) and the undealt cards changed; seats 0 and 2 the same.
OTHERS_CHANGED = "4c 5c 6c | Kd Jd Qd | 4h 5h 6h | As 2s 3s"
#: Seat 2 (seat 0's partner) changed; the others the same.
PARTNER_CHANGED = "4c 5c 6c | 4d 5d 6d | Kh Jh Qh | 4s 5s 6s"


def _vectors(m: Match, seat: int) -> bytes:
    """The environment's observation vector of ``seat`` for the match ``m``."""
    e = raw_env(m.rules)
    e.reset(seed=0)
    e.match = m
    return bytes(e.observe(f"seat_{seat}")["observation"].tobytes())


def _seen(variant: str, hands: str, *moves: str) -> tuple[dict[str, Any], bytes]:
    m = match(variant, deal(0, hands, "7c"))
    act(m, *moves)
    return m.observation(0), _vectors(m, 0)


def test_partners_see_cards_each_seat_sees_its_partner_s_hand() -> None:
    m = match("partners-see-cards", deal(0, HANDS, "7c"))
    obs = observe_all(m)
    assert obs[0]["partner_hands"] == {0: ["4c", "5c", "6c"], 2: ["4h", "5h", "6h"]}
    assert obs[1]["partner_hands"] == {1: ["4d", "5d", "6d"], 3: ["4s", "5s", "6s"]}
    act(m, "play 1 4d")
    assert m.observation(3)["partner_hands"] == {1: ["5d", "6d"], 3: ["4s", "5s", "6s"]}
    assert match("paulista", deal(0, HANDS, "7c")).observation(0)["partner_hands"] is None


@pytest.mark.parametrize("moves", [(), ("play 1 4d", "play 2 4h")])
def test_partners_see_cards_hides_the_other_team_s_cards(moves: tuple[str, ...]) -> None:
    """Seat 0's observation and environment vector do not change with the other team's
    cards, and do change with his partner's."""
    seen = _seen("partners-see-cards", HANDS, *moves)
    hidden = OTHERS_CHANGED.replace("Kd", "4d") if moves else OTHERS_CHANGED
    assert _seen("partners-see-cards", hidden, *moves) == seen
    partner = PARTNER_CHANGED.replace("Kh", "4h") if moves else PARTNER_CHANGED
    changed = _seen("partners-see-cards", partner, *moves)
    assert changed[0] != seen[0] and changed[1] != seen[1]
    # in the parent, the partner's cards are hidden as well
    assert _seen("paulista", partner, *moves) == _seen("paulista", HANDS, *moves)


def test_partners_see_cards_not_in_a_blind_hand() -> None:
    m = match("partners-see-cards")
    score_to(m, (11, 11))  # the mão de ferro (P6): every card unseen
    m.deal(deal(m.dealer, HANDS, "7c"))
    assert m.hand.blind and all(o["partner_hands"] is None for o in observe_all(m))


def _at_11(variant: str) -> Match:
    m = match(variant)
    score_to(m, (4, 11))
    m.deal(deal(m.dealer, HANDS, "7c"))
    return m


def test_mao_de_11_cards_kept_the_team_at_11_sees_them_through_the_hand() -> None:
    kept, parent = _at_11("mao-de-11-cards-kept"), _at_11("paulista-mao-de-11-decision")
    for m in (kept, parent):
        assert m.observation(1)["partner_hands"] == {1: ["4d", "5d", "6d"],
                                                     3: ["4s", "5s", "6s"]}
        act(m, "decide 1 play")
    assert parent.observation(1)["partner_hands"] is None  # only during the decision
    assert kept.observation(1)["partner_hands"] == {1: ["4d", "5d", "6d"], 3: ["4s", "5s", "6s"]}
    assert kept.observation(0)["partner_hands"] is None  # the other team sees nothing
    for _ in range(2):  # through the rounds: the cards each still holds
        kept.apply(next(a for a in kept.legal_actions() if a.kind == "play"))
    assert kept.observation(3)["partner_hands"] == {
        s: [card_name(c) for c in kept.hand.hands[s]] for s in (1, 3)}

@pytest.mark.parametrize(("variant", "text", "says"), [
    ("one-on-one", "partners: always", "every team is one seat"),
    ("paulista", "partners: special_hand", "no special hand shows the partners' cards"),
])
def test_seeing_partners_that_shows_nothing_is_refused(tmp_path: Any, variant: str, text: str,
                                                       says: str) -> None:
    path = tmp_path / "seeing.yaml"
    path.write_text(f"extends: {variant}\nseeing:\n  {text}\n", encoding="utf-8")
    with pytest.raises(VariantError, match=says):
        load_variant(path)
