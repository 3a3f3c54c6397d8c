"""Quick moves (engine/moves/quick.py): a kind's commonest move made whole by one function
must do exactly what the variant's machine does with it, and refuse nothing itself: a card
(the hand's last too), a raise and a raise back, an accept, a fold, and the seeded deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import BUILD, IllegalMoveError, Match
from engine.actions import Action
from engine.moves.quick import _fused
from engine.shuffle import SplitMix64

REPO = Path(__file__).resolve().parent.parent
VARIANTS = ["paulista", "mineiro", "mineiro-12", "gauderio",
            *sorted(str(p) for p in (REPO / "variants" / "house").glob("*.yaml"))]


def _game(variant: str, seed: int) -> list[Any]:
    """Every legal move's checkpoints and the position after it, a random match of the
    variant; and at each step the refusal of every play of the deck that is not legal."""
    m = Match.new(variant, seed=seed)
    rng = SplitMix64(seed + 17)
    seen: list[Any] = []
    while not m.is_over and len(seen) < 400:
        legal = m.legal_actions()
        if not legal:  # a chance step awaited (a cut not offered): dealt by the engine
            break
        for a in _tried(m):  # what a seat might try: refused the same way
            if a not in legal:
                try:
                    m.apply(a)
                except IllegalMoveError as e:
                    seen.append(str(e))
                else:  # pragma: no cover - a test failure, said below
                    seen.append(f"accepted {a}")
        move = legal[rng.bounded(len(legal))]
        seen.append((str(move), m.apply(move), m.position()))
    return seen


def _tried(m: Match) -> list[Action]:
    """Cards (some of the deck, face up and covered), raises to every value, accepts and
    folds, by every seat: the moves the quick ones make, legal or not."""
    values = sorted({m.rules.initial_value, *(step.value for step in m.rules.ladder)})
    out = []
    for seat in range(m.players):
        out += [Action("play", seat, card, covered) for card in m.rules.deck[::7]
                for covered in (False, True)]
        out += [Action("raise", seat, None, False, v) for v in values]
        if m.rules.ladder:
            out += [Action("accept", seat), Action("fold", seat)]
    return out


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).stem)
def test_quick_moves_play_exactly_as_the_machine(variant: str, monkeypatch: Any) -> None:
    table = Match.new(variant, seed=0).move_table
    quick = [_game(variant, seed) for seed in (1, 2)]
    monkeypatch.setattr(table, "quick", {})  # every move through the machine
    assert quick == [_game(variant, seed) for seed in (1, 2)]
    assert not any(isinstance(s, str) and s.startswith("accepted") for g in quick for s in g)


def test_a_card_is_quick_where_the_machine_has_the_kind_s_own_transitions() -> None:
    assert set(Match.new("paulista", seed=0).move_table.quick) == {
        "play", "raise", "accept", "fold", "deal"}
    # Mineiro's raises name a card (M4): the raise is the machine's
    assert set(Match.new("mineiro", seed=0).move_table.quick) == {
        "play", "accept", "fold", "deal"}
    # Gauderio's flor sends a card or a raise after which a flor is due to its sing state
    # (G35), and a deal that gives one (G36)
    assert set(Match.new("gauderio", seed=0).move_table.quick) == {"accept", "fold"}
    # a play constraint may refuse a card: the machine judges every card
    house = REPO / "variants" / "house"
    assert "play" not in Match.new(str(house / "leader-face-up.yaml"), seed=0).move_table.quick
    # the next seat answers a raise (C9 house): raises, accepts and folds are the machine's
    assert set(Match.new(str(house / "next-seat-answers.yaml"), seed=0).move_table.quick) == {
        "play", "deal"}
    # both partners refuse (betting.refusal: whole_team): a fold may not end the hand
    assert "fold" not in Match.new(str(house / "both-refuse.yaml"), seed=0).move_table.quick
    # a pack made from the last hand, a vira from the pack's bottom, cards dealt one at a
    # time, a cut before the deal: the deal is the machine's
    for name in ("pack-made-from-last-hand", "vira-last-card", "dealt-one-at-a-time", "cut"):
        assert "deal" not in Match.new(str(house / f"{name}.yaml"), seed=0).move_table.quick


def test_a_quick_card_plays_a_whole_hand_and_its_last_deals_the_next() -> None:
    m = Match.new("paulista", seed=3)
    twin = m.clone()
    quick = m.move_table.quick["play"]
    seats = []
    while len(m.round.cards) < m.players - 1:
        a = next(x for x in m.legal_actions() if x.kind == "play")
        seats.append(a.seat)
        assert quick(m, a) == []  # made whole: the card left the hand, the turn moved on
        assert a.card not in m.hand.hands[a.seat]
    assert len(set(seats)) == m.players - 1
    # the first round's last card decides the round, never the hand (C7): made whole too
    last = next(x for x in m.legal_actions() if x.kind == "play")
    assert quick(m, last) == [{"event": "round", "winner": m.hand.results[0]}]
    assert m.round.number == 1 and m.round.cards == [] and m.round.turn == m.round.leader
    played = []
    while m.hand_number == 1:  # a later round's last card may end the hand: made whole too
        a = next(x for x in m.legal_actions() if x.kind == "play")
        played.append(a)
        made = quick(m, a)
        assert made is not None
    assert [cp["event"] for cp in made] == ["round", "hand"]
    assert m.state == "play" and m.hand.results == [] and len(m.hand.hands[0]) == 3
    # the machine's way: the same checkpoints, the same next hand dealt from the seed
    assert m.last_hand is not None
    moves = m.last_hand[1]
    table = twin.move_table
    saved = table.quick
    table.quick = {}
    try:
        got = [twin.apply(Action("play", seat, card, covered)) for _, seat, card, covered
               in moves]
    finally:
        table.quick = saved
    assert got[-1] == made and twin.position() == m.position()


def test_the_quick_deal_deals_only_a_seeded_match_waiting_for_its_deal() -> None:
    m = Match.new("paulista", seed=5)
    deal = m.move_table.quick["deal"]
    before = m.position()
    assert deal(m, None) is None and m.position() == before  # in play: no deal awaited
    unseeded = Match.new("paulista")  # waits for a recorded deal
    assert unseeded.state == "deal" and deal(unseeded, None) is None


def _listings(variant: str, seed: int) -> list[list[list[str]]]:
    """At every step of a random match of the variant, the legal moves for all seats and
    for each seat."""
    m = Match.new(variant, seed=seed)
    rng = SplitMix64(seed + 29)
    seen = []
    while not m.is_over and len(seen) < 400:
        seen.append([[str(a) for a in m.legal_actions(seat)]
                     for seat in (None, *range(m.players))])
        legal = m.legal_actions()
        if not legal:
            break
        m.apply(legal[rng.bounded(len(legal))])
    return seen


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).stem)
def test_quick_listings_list_exactly_as_the_listers(variant: str, monkeypatch: Any) -> None:
    table = Match.new(variant, seed=0).move_table
    quick = [_listings(variant, seed) for seed in (1, 2, 3)]
    monkeypatch.setattr(table, "listed", {})  # every state's listers, one by one
    assert quick == [_listings(variant, seed) for seed in (1, 2, 3)]


def test_a_state_is_listed_quick_where_every_lister_there_gives_its_source() -> None:
    listed = Match.new("paulista", seed=0).move_table.listed
    # a card and a raise in play; the answers of a raise and a raise back, seat by seat
    assert set(listed) == (set() if BUILD == "compiled" else {"play", "answer"})
    # Mineiro's raises name a card (M4) and are made out of turn (M3): written out too
    assert set(Match.new("mineiro", seed=0).move_table.listed) == set(listed)
    # a play constraint may refuse a card, a house limit caps the raises: their listers
    house = REPO / "variants" / "house"
    assert "play" not in Match.new(str(house / "leader-face-up.yaml"), seed=0).move_table.listed
    capped = Match.new(str(house / "raise-limit-trailing-needs.yaml"), seed=0).move_table
    assert "play" not in capped.listed and "answer" not in capped.listed
    # Gauderio's play state lists its side bets' calls, which give no lines
    assert not Match.new("gauderio", seed=0).move_table.listed


def test_a_quick_listing_reads_only_names_of_its_own_kind() -> None:
    with pytest.raises(ValueError, match="start with 'play_'"):
        _fused("play", [("play", (["out.append(cards)"], {"cards": [1]}))])
    listed = _fused("play", [("play", (["out.append(play_x)"], {"play_x": "a"})),
                             ("raise", (["out.append(raise_x)"], {"raise_x": "b"}))])
    assert listed(Match.new("paulista", seed=0), None) == ["a", "b"]
