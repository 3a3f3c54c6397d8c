"""The heuristic bot reads the hand's shape and its side bets from the rules, not from
literals: the rounds a hand needs (C3, C7: three of five under ``five-cards``) and which side
bet is the envido (a variant may list its bets in another order, or have only a flor)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import WriteFile
from helpers import act, deal, match

from engine import Action, Match
from engine.bots import HeuristicBot, choose_for, make_bot, next_actor, out_of_turn_raise

#: Gaudério's envido under another name, listed after the flor (``envido`` itself not played):
#: the bets are (flor, tento), so the first side bet is not the envido.
TENTO_AFTER_FLOR = """\
extends: gauderio
side_bets:
  envido: {played: false}
  flor: {kills: [tento]}
  tento:
    calls: [envido, real envido, falta envido]
    chains:
      - {calls: [envido], accepted: 2}
      - {calls: [real envido], accepted: 3}
      - {calls: [falta envido], accepted: falta}
      - {calls: [envido, envido], accepted: 4}
      - {calls: [envido, real envido], accepted: 5}
      - {calls: [envido, falta envido], accepted: falta}
      - {calls: [real envido, falta envido], accepted: falta}
"""
#: Gaudério with the flor only (GH12 the other way round: no envido).
FLOR_ONLY = "extends: gauderio\nside_bets:\n  envido: {played: false}\n"
#: ``five-cards`` (three round wins of five take the hand) where a player may concede.
FIVE_CARDS_CONCEDE = "extends: five-cards\nconcede: {allowed: true}\n"


def _choose(m: Match, seat: int) -> Action:
    return HeuristicBot(m.rules, seed=0, bluff=0.0).choose(m.observation(seat),
                                                           m.legal_actions(seat))


def _five_cards(path: Path) -> Match:
    # Vira Qs: the jacks are manilhas. Team 1 (seat 1, the mão) holds the threes and twos.
    return match(path, deal(0, "4c 4h 5c 5h 6c | 3c 3h 3d 3s 2c | 4d 4s 5d 5s 6d | "
                               "6h 6s 7c 7h 7d", vira="Qs"))


def test_heuristic_does_not_concede_five_cards_after_two_rounds_lost(write: WriteFile) -> None:
    # Round 1 lost; in round 2 seat 0 plays last and cannot beat the 3h: two rounds lost of
    # five, and three still to play, so the hand is not lost (three wins take it).
    m = _five_cards(write("five.yaml", FIVE_CARDS_CONCEDE))
    act(m, "play 1 3c", "play 2 4d", "play 3 6h", "play 0 4c",
        "play 1 3h", "play 2 4s", "play 3 6s")
    assert Action.concede(0) in m.legal_actions(0)
    assert _choose(m, 0).kind == "play"


def test_heuristic_concedes_five_cards_when_the_third_round_is_lost(write: WriteFile) -> None:
    # Two rounds lost already: losing the third (nothing beats the 3d) loses the hand.
    m = _five_cards(write("five.yaml", FIVE_CARDS_CONCEDE))
    act(m, "play 1 3c", "play 2 4d", "play 3 6h", "play 0 4c",
        "play 1 3h", "play 2 4s", "play 3 6s", "play 0 4h",
        "play 1 3d", "play 2 5d", "play 3 7c")
    assert _choose(m, 0) == Action.concede(0)


def test_heuristic_concedes_three_cards_when_the_second_round_is_lost() -> None:
    # The same two rounds with three cards: the second round lost loses the hand.
    m = match("concede", deal(0, "4c 4h 5c | 3c 3h 3d | 4d 4s 5d | 6h 6s 7c", vira="Qs"))
    act(m, "play 1 3c", "play 2 4d", "play 3 6h", "play 0 4c",
        "play 1 3h", "play 2 4s", "play 3 6s")
    assert _choose(m, 0) == Action.concede(0)


def _tento(write: WriteFile) -> Match:
    # Dealer 0, the mão is seat 1: 7c 6c = 33 of envido (34 counting the mão's tie); seat 2
    # 6h 2h = 28. Nobody holds a flor.
    return match(write("tento.yaml", TENTO_AFTER_FLOR),
                 deal(0, "3s 4d 5h | 7c 6c Kd | 6h 2h 3d | Js Qd 2s"))


def test_heuristic_calls_the_envido_that_is_not_the_first_side_bet(write: WriteFile) -> None:
    m = _tento(write)
    assert [b.name for b in m.rules.side_bets] == ["flor", "tento"]
    assert _choose(m, 1) == Action.envido(1, "real envido")  # 34 points: from 30


def test_heuristic_answers_the_envido_that_is_not_the_first_side_bet(write: WriteFile) -> None:
    m = _tento(write)
    act(m, "envido 1 envido")
    assert next_actor(m) == 2
    assert _choose(m, 2) == Action.quero(2)  # 28 points against a first call: accepted


@pytest.mark.parametrize("text", [TENTO_AFTER_FLOR, FLOR_ONLY], ids=["tento-after-flor",
                                                                      "flor-only"])
def test_heuristic_plays_whole_matches_of_reordered_side_bets(write: WriteFile,
                                                              text: str) -> None:
    path = write("v.yaml", text)
    for seed in (1, 2, 3):
        m = Match.new(path, seed=seed)
        bots = [make_bot("heuristic", m.rules, seed * 10 + s) for s in range(m.players)]
        while not m.is_over:
            action = out_of_turn_raise(m, bots)
            if action is None:
                seat = next_actor(m)
                action = choose_for(bots[seat], m, seat)
            m.apply(action)
        assert m.winner is not None
