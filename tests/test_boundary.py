"""The Python API a user reads (issue 27, item 6): cards by name, is_legal, names that say
what they hold, legal moves as Actions, bots typed with the real Observation."""

from __future__ import annotations

import json
import typing

import pytest
from helpers import deal, match, played_out, score_to

from engine import Action, Deal, Match, checkpoint
from engine.bots import base
from engine.cards import card_name
from engine.observation import Observation, from_json, to_json
from engine.shuffle import SplitMix64

MINEIRO = Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
                      ["Jd", "Qd", "Ks"]])


# -- cards a user sees are card names ----------------------------------------------------------
def test_the_properties_give_card_names_and_the_hand_keeps_codes() -> None:
    m = Match.new("paulista", seed=7)
    assert m.hands == [[card_name(c) for c in h] for h in m.hand.hands]
    assert m.hands[1] == ["2h", "7h", "Jh"] == m.observation(1)["hand"]
    assert m.vira == "Qc" == m.observation(0)["vira"] and isinstance(m.hand.vira, int)
    assert list(m.manilhas) == m.observation(0)["manilhas"]
    assert m.dealt == tuple(tuple(h) for h in m.hands)
    assert set(m.strength) == {card_name(c) for c in m.rules.deck}
    m.apply(Action.play(1, "2h"))
    assert m.played == [(0, 1, "2h", False)] and m.round_cards == [(1, "2h", False)]
    assert "2h" not in m.hands[1]


def test_a_raise_s_card_is_a_name_in_pending_shown_and_bound() -> None:
    m = Match.from_deals("mineiro", [MINEIRO])
    m.apply(Action.raise_to(1, 3, "3d"))
    assert m.pending == (1, 3, "3d") and isinstance(m.hand.pending[2], int)  # type: ignore[index]
    m.apply(Action.accept(0))
    assert m.bound[1] == "3d" and ("3d" in {c for _, c in m.shown} or not m.shown)


# -- phase, to_move, move_table ---------------------------------------------------------------
def test_to_move_is_the_answerer_while_a_raise_waits_and_turn_is_not() -> None:
    m = Match.new("paulista", seed=7)
    assert (m.phase, m.turn, m.to_move) == ("play", 1, 1)
    m.apply(Action.raise_to(1, 3))
    assert (m.phase, m.turn, m.to_move) == ("answer", 1, 2)
    assert m.to_move in m.to_act() and m.phase == m.state
    m.apply(Action.fold(2))
    assert m.to_move == m.turn


def test_to_move_is_none_while_a_deal_waits_and_moves_is_the_table() -> None:
    m = Match.new("paulista")
    assert m.phase == "deal" and m.to_move is None
    assert m.moves is m.move_table and m.move_table.players == 4


# -- is_legal and the history --------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio"])
def test_is_legal_agrees_with_apply(variant: str) -> None:
    m = played_out(variant, 3, 25)
    for seat in range(m.players):
        for action in m.legal_actions(seat):
            assert m.is_legal(action)
    for card in m.rules.deck[:12]:
        for seat in range(m.players):
            action = Action.play(seat, card)
            try:
                m.clone().apply(action)
                accepted = True
            except ValueError:
                accepted = False
            assert m.is_legal(action) is accepted
    assert not m.is_legal("play 1 2h")  # type: ignore[arg-type]
    assert not m.is_legal(Action.play_at(m.turn, 0))


def test_is_legal_changes_nothing() -> None:
    m = Match.new("paulista", seed=7)
    before = m.position()
    assert m.is_legal(Action.raise_to(1, 3)) and m.position() == before


# -- bots typed with the real Observation ----------------------------------------------------
def test_the_bot_protocol_is_typed_with_the_observation() -> None:
    assert base.Observation is Observation
    hints = typing.get_type_hints(base.Bot.choose)
    assert hints["observation"] is Observation


# -- legal moves as Actions ---------------------------------------------------------------------
def test_the_observation_s_legal_moves_are_actions_and_its_json_their_words() -> None:
    m = Match.new("gauderio", seed=4)
    seat = m.turn
    obs = m.observation(seat)
    assert obs["legal"] == m.legal_actions(seat)
    data = to_json(obs)
    assert list(data) == list(obs) and data["legal"] == [str(a) for a in obs["legal"]]
    assert {k: v for k, v in data.items() if k != "legal"} == {
        k: v for k, v in obs.items() if k != "legal"}
    assert from_json(json.loads(json.dumps(data))) == obs


def test_a_blind_hand_s_plays_are_positions_in_the_observation() -> None:
    m = match("paulista")
    score_to(m, [11, 11])  # mão de ferro (P6): nobody sees his cards
    m.deal(deal(m.dealer, "4c 7h As | Kd Kh Ks | Jc Jd Jh | Qc Qd Qh", vira="3s"))
    seat = m.turn
    assert m.blind
    legal = m.observation(seat)["legal"]
    assert legal == [Action.play_at(seat, i) for i in range(3)]
    assert [str(a) for a in legal] == [f"play {seat} #{i}" for i in (1, 2, 3)]


def test_illegal_move_error_lists_actions_and_keeps_its_words() -> None:
    m = Match.new("paulista", seed=7)
    with pytest.raises(ValueError) as info:
        m.apply(Action.play(2, "2h"))
    err = info.value
    assert err.legal == m.legal_actions()  # type: ignore[attr-defined]
    assert str(err).endswith("legal: " + ", ".join(str(a) for a in m.legal_actions()))


# -- typed checkpoints ------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio", "gauderio-envido-at-end"])
def test_every_checkpoint_has_the_keys_its_type_names(variant: str) -> None:
    """Match.apply's checkpoints are plain dicts typed by :mod:`engine.checkpoint`: each has
    exactly the keys of the TypedDict its ``event`` names, and every type is met."""
    types = {typing.get_args(typing.get_type_hints(t)["event"])[0]: t
             for t in typing.get_args(checkpoint.Checkpoint)}
    seen = set()
    for seed in range(12):
        m = Match.new(variant, seed=seed)
        rng = SplitMix64(seed)
        while not m.is_over:
            legal = m.legal_actions()
            for cp in m.apply(legal[rng.bounded(len(legal))]):
                assert set(cp) == set(typing.get_type_hints(types[cp["event"]])), cp
                seen.add(cp["event"])
    assert seen >= {"round", "hand", "game", "match"}
