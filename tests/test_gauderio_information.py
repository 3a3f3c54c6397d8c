"""Truco Gaudério's hidden and public information (G48, G50; G49 is in test_envido.py), on
explicit deals: what a seat's observation holds never depends on what it may not see, and
what the end of a hand reveals is exactly the winning envido's and the scoring flores' cards."""

from __future__ import annotations

from helpers import act, deal, match, of

from engine import Match

G = "gauderio"
#: No seat holds a flor (nothing is sung); seat 0 has envido 33.
PLAIN = "7d 6d 3s | 4c 5h Jh | Kc 2d 3h | 4d Qs 6c"
#: The same seat 0, every other hand and the undealt cards changed (still no flor).
OTHER = "7d 6d 3s | Jc 5c Jd | Kh 2h 3c | 4s Qd 6h"


def _hand_end(m: Match, plays: str) -> list[dict[str, object]]:
    return act(m, *(f"play {p}" for p in plays.split(", ")))


def test_G48_unplayed_and_undealt_cards_are_private() -> None:
    """Seat 0's observation is the same whatever the others hold (their unplayed cards, the
    undealt ones), before and after the same public moves; it holds his own cards only."""
    a = match(G, deal(3, PLAIN), dealer=3)
    b = match(G, deal(3, OTHER), dealer=3)
    assert a.observation(0) == b.observation(0)
    for m in (a, b):
        act(m, "raise 0 2", "accept 1", "play 0 7d")
    assert a.observation(0) == b.observation(0)
    seen = a.observation(0)
    assert seen["hand"] == ["6d", "3s"] and seen["partner_hands"] is None
    text = repr(seen)
    for hidden in ("4c", "5h", "Jh", "Kc", "2d", "3h", "4d", "Qs", "6c"):
        assert f"'{hidden}'" not in text, hidden


def test_G50_the_winning_envido_is_shown_and_nothing_else() -> None:
    """An accepted envido: at the end of the hand the winner's envido cards still in hand are
    shown (G32), nobody else's; a são boas stays hidden."""
    m = match(G, deal(3, PLAIN), dealer=3)
    act(m, "envido 0 envido", "quero 1")
    declared = m.observation(2)["side_bets"][0]["declared"]
    assert {"seat": 1, "points": None} in declared  # são boas: his 25 stays hidden
    events = _hand_end(m, "0 7d, 1 4c, 2 Kc, 3 4d, 0 3s, 1 5h, 2 3h, 3 Qs")
    assert of(events, "side_show") == [{"event": "side_show", "seat": 0, "cards": ["6d"]}]
    last = m.observation(1)["last_hand"]
    assert last is not None and last["shown"] == [{"seat": 0, "card": "6d"}]


def test_G50_a_hand_given_up_or_refused_shows_no_cards() -> None:
    """A team that refuses a truco (não quero) or goes to the baralho shows nothing: the hand
    ends with no side_show and no card shown."""
    refused = match(G, deal(3, PLAIN), dealer=3)
    events = act(refused, "raise 0 2", "fold 1")
    assert of(events, "hand") and not of(events, "side_show")
    assert refused.observation(0)["last_hand"]["shown"] == []  # type: ignore[index]
    baralho = match(G, deal(3, PLAIN), dealer=3)
    events = act(baralho, "concede 0")
    assert of(events, "hand") and not of(events, "side_show")
    assert baralho.observation(1)["last_hand"]["shown"] == []  # type: ignore[index]


def test_G50_a_scoring_flor_is_shown_and_the_others_are_not() -> None:
    """Seat 0's uncontested flor scores: its cards still in hand are shown at the end of the
    hand (G41); the other seats' cards are not."""
    m = match(G, deal(3, "7c 5c 4c | Kh 5h 3s | 3d 2s Kd | Ks Qd Jh"), dealer=3)
    act(m, "flor 0 flor")
    events = _hand_end(m, "0 7c, 1 Kh, 2 3d, 3 Ks, 2 2s, 3 Qd, 0 5c, 1 5h")
    assert of(events, "side_show") == [{"event": "side_show", "seat": 0, "cards": ["4c"]}]
    shown = m.observation(2)["last_hand"]["shown"]  # type: ignore[index]
    assert {e["seat"] for e in shown} == {0}
