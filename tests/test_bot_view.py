"""What a bot is given (issue 10, item 4): only what its seat may see. In a blind hand (P6)
nobody sees his own cards, so the moves a bot is offered name hand positions, and neither the
observation, nor the moves, nor the bot's choice depend on which cards are where."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from helpers import hidden_swapped, match, score_to

from engine import Action, Deal, Match
from engine.bots import Bot, choose_for, make_bot, next_actor, seat_view
from engine.shuffle import SplitMix64
from engine.shuffle import deal as seeded_deal


def _at_11_11(variant: str = "paulista") -> Match:
    m = match(variant)
    score_to(m, (11, 11))
    return m


@pytest.fixture(scope="module")
def ferro() -> Match:
    """A Paulista match at 11-11, waiting for the deal of its mão de ferro (P6)."""
    return _at_11_11()


def _deal(m: Match, seed: int) -> None:
    r = m.rules
    hands, vira = seeded_deal(r.deck, SplitMix64(seed), r.players, r.cards_per_player,
                              m.dealer, r.has_vira)
    m.deal(Deal(m.dealer, tuple(tuple(h) for h in hands), vira))


def _twin_bot(bot: Bot) -> Bot:
    other = copy.copy(bot)
    other.rng = bot.rng.copy()  # type: ignore[attr-defined]
    return other


def _check_seat(m: Match, bot: Bot, seat: int, shift: int) -> bool:
    """The seat's view and the bot's choice are the same with its hidden cards moved; return
    whether the real legal moves differed (what bots were given before)."""
    obs, view = seat_view(m, seat)
    legal = m.legal_actions(seat)
    twin = hidden_swapped(m, seat, shift)
    twin_obs, twin_view = seat_view(twin, seat)
    assert twin_obs == obs
    assert twin_view == view
    assert all(a.card is None for a in view if a.kind == "play") or not m.blind
    chosen = choose_for(_twin_bot(bot), m, seat)
    chosen_twin = choose_for(_twin_bot(bot), twin, seat)
    assert legal.index(chosen) == twin.legal_actions(seat).index(chosen_twin)
    return twin.legal_actions(seat) != legal


@pytest.mark.parametrize("bot_name", ["random", "heuristic"])
def test_P6_blind_hand_bot_view_and_choice_do_not_depend_on_hidden_cards(
        ferro: Match, bot_name: str) -> None:
    differed = covered_own = 0
    for seed in range(40):
        m = ferro.clone()
        _deal(m, seed)
        assert m.blind
        bots = [make_bot(bot_name, m.rules, seed * 7 + s) for s in range(m.players)]
        while m.hand_number == ferro.hand_number + 1 and not m.is_over:
            seat = next_actor(m)
            for shift in (1, 2, 5):
                differed += _check_seat(m, bots[seat], seat, shift)
            m.apply(choose_for(bots[seat], m, seat))
            covered_own += sum(1 for _, s, _, cov in m.played if cov and s == seat)
    assert differed  # the real moves named the cards: what bots were given before
    if bot_name == "random":
        assert covered_own  # the seat's own covered cards were among the hidden ones


def test_P6_observation_hides_a_card_played_face_down_unseen(ferro: Match) -> None:
    """In a blind hand even the player of a covered card never saw it (P6, P7), in this hand
    and in ``last_hand``."""
    m = ferro.clone()
    _deal(m, 3)
    lead = m.turn
    for k in range(4):
        m.apply(m.play_by_position((lead + k) % 4, 0))
    seat = m.turn
    m.apply(m.play_by_position(seat, 0, covered=True))
    mine = [p for p in m.observation(seat)["played"] if p["seat"] == seat and p["covered"]]
    assert mine == [{"round": 2, "seat": seat, "card": None, "covered": True}]
    while not m.is_over and m.hand_number == ferro.hand_number + 1:
        m.apply(m.legal_actions(m.turn)[0])
    if not m.is_over:
        last = m.observation(seat)["last_hand"]["played"]
        assert {"round": 2, "seat": seat, "card": None, "covered": True} in last


@pytest.mark.parametrize("variant", ["paulista", "capixaba-jokers", "three-players", "concede",
                                     "raiser-must-beat", "raiser-must-kill",
                                     "highest-after-tied-first",
                                     "next-seat-answers", "five-cards"])
def test_normal_hand_view_does_not_depend_on_the_other_seats_cards(variant: str) -> None:
    """Issue 11's house rules included: jokers, three teams, conceding, constraints that read
    the seat's own cards, who answers, more cards each."""
    for seed in range(10):
        m = Match.new(variant, seed=seed)
        bots = [make_bot("heuristic", m.rules, s) for s in range(m.players)]
        for _ in range(30):
            if m.is_over or m.state != "play" or m.special:
                break
            seat = next_actor(m)
            _check_seat(m, bots[seat], seat, 1)
            m.apply(choose_for(bots[seat], m, seat))


def test_P6_view_moves_are_positions_and_map_back_to_the_real_move(ferro: Match) -> None:
    m = ferro.clone()
    _deal(m, 1)
    seat = m.turn
    obs, view = seat_view(m, seat)
    assert view == [Action.play_at(seat, i) for i in range(3)]
    assert view == obs["legal"]
    for a in view:
        with pytest.raises(ValueError, match="bot's view"):
            a.to_event()

    class First:
        name = "first"

        def choose(self, observation: Any, legal_actions: Any) -> Action:
            return legal_actions[2]

    assert choose_for(First(), m, seat) == Action.play(seat, m.hands[seat][2])
    with pytest.raises(ValueError, match="bot's view of a blind hand"):
        m.apply(Action.play_at(seat, 0))

    class Cheat:
        name = "cheat"

        def choose(self, observation: Any, legal_actions: Any) -> Action:
            return Action.play(seat, m.hands[seat][0])  # not what it was offered

    with pytest.raises(ValueError, match="not offered"):
        choose_for(Cheat(), m, seat)
