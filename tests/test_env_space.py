"""The environment's action space and observations, pinned: every shipped variant's list of
actions (their number and names, index by index) and the observations and masks of one random
match stay as they are, whatever builds them (engine.env derives the space from the kinds)."""

from __future__ import annotations

import pytest
from pins import action_names, load, space_pin

pytest.importorskip("pettingzoo", reason="the optional extra [rl] (pip install -e '.[test]')")

from engine.env import raw_env  # noqa: E402
from engine.resources import shipped_variants  # noqa: E402

#: variant: [actions, sha256 of their names one a line, sha256 of a seeded match's
#: observations and masks], the first 16 hex digits of each (tests/pins.py).
PINNED = load("env-space.json")

GAUDERIO = [
    *(f"play {r}{s}" for s in "cdhs" for r in "A234567JQK"),
    "raise", "accept", "fold", "concede", "envido", "real envido", "falta envido", "flor",
    "com flor me achico", "contra-flor", "contra-flor ao resto", "quero", "nao_quero"]


def test_every_shipped_variant_is_pinned() -> None:
    assert sorted(PINNED) == sorted(shipped_variants()), "run python -m engine.generate"


def test_gauderio_actions_in_full() -> None:
    assert action_names(raw_env("gauderio")) == GAUDERIO


def test_a_blind_hand_and_a_decision_come_last() -> None:
    names = action_names(raw_env("paulista-mao-de-11-decision"))
    assert names[80:] == ["raise", "accept", "fold", "decide play", "decide fold", "play #1",
                          "play #2", "play #3", "play #1 covered", "play #2 covered",
                          "play #3 covered"]


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_actions_and_observations_are_pinned(variant: str) -> None:
    assert space_pin(variant) == PINNED[variant]
