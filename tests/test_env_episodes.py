"""Seeded episodes through ``engine.env.env`` (PettingZoo's AEC loop, ``agent_iter`` and
``last``), pinned: at every step every agent's observation vector and mask, the acting agent's
reward, flags and info, and every agent's step and cumulative rewards go into one digest per
episode. Whatever makes the environment faster, the same seeds give the same bytes."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import hidden_swapped
from pins import EPISODES_BY_SEED, episode, load

pytest.importorskip("pettingzoo", reason="the optional extra [rl] (pip install -e '.[test]')")

from engine import Match  # noqa: E402
from engine.env import TrucoEnv, raw_env  # noqa: E402
from engine.resources import shipped_variants  # noqa: E402

#: (variant, seed, hand_rewards): the first 16 hex digits of the episode's sha256, made on
#: ec67947 (main before the environment's speed work); paulista 35 has a blind hand,
#: mineiro 4 and paulista-mao-de-11-decision 13 a decision, its seed 60 a blind hand.
PINNED = {
    ("paulista", 1, False): "3fc0cc19ee1719c7",
    ("paulista", 2, True): "ef1b58f2bfc0c0ae",
    ("paulista", 3, False): "58eecd02d4ab84c1",
    ("mineiro", 1, False): "2daca8a4afe7140a",
    ("mineiro", 2, True): "7651122c85f6aba6",
    ("mineiro", 3, False): "332217758f18ac63",
    ("gauderio", 1, False): "3953eda89d35abbd",
    ("gauderio", 2, True): "7f530288f95af44b",
    ("gauderio", 3, False): "8a45595f67671e50",
    ("paulista", 35, False): "12a8b25b048ee395",
    ("mineiro", 4, True): "b366e2f980eca8bc",
    ("paulista-mao-de-11-decision", 13, False): "0fb23df6c6854be8",
    ("paulista-mao-de-11-decision", 60, True): "e5ac34672c0d3d3a",
}

#: every other shipped variant, once (tests/pins.py)
OTHERS = load("env-episodes.json")


@pytest.mark.parametrize(("variant", "seed", "hand_rewards"), sorted(PINNED))
def test_seeded_episodes_are_pinned(variant: str, seed: int, hand_rewards: bool) -> None:
    assert episode(variant, seed, hand_rewards) == PINNED[variant, seed, hand_rewards]


@pytest.mark.parametrize("variant", sorted(OTHERS))
def test_every_variant_has_a_pinned_episode(variant: str) -> None:
    assert episode(variant, 4, variant.startswith("g")) == OTHERS[variant]


def test_every_shipped_variant_is_played() -> None:
    assert {v for v, _, _ in PINNED} - set(OTHERS) == EPISODES_BY_SEED
    assert sorted({v for v, _, _ in PINNED} | set(OTHERS)) == sorted(shipped_variants()), (
        "run python -m engine.generate")


def _vectors(e: TrucoEnv, m: Match) -> list[bytes]:
    real = e.match
    e.match = m
    try:
        return [e.observe(a)["observation"].tobytes() for a in e.agents]
    finally:
        e.match = real


@pytest.mark.parametrize(("variant", "seed"), [
    ("paulista", 1), ("paulista", 35), ("mineiro", 4), ("gauderio", 1),
    ("gauderio-covered", 4), ("gauderio", 2), ("gauderio-envido-public", 4),
    ("paulista-mao-de-11-decision", 13),
    ("paulista-mao-de-11-decision", 60), ("three-players", 2), ("capixaba-jokers", 3),
    ("last-hand-hidden", 1)])
def test_observations_do_not_depend_on_hidden_cards(variant: str, seed: int) -> None:
    """Every agent's vector, at every step, is the same with the cards it may not see moved."""
    e = raw_env(variant)
    e.reset(seed=seed)
    pick = np.random.default_rng(seed)
    m = e.match
    assert m is not None
    while not m.is_over:
        for a in e.agents:
            seat = e.agent_seat[a]
            mine = e.observe(a)["observation"].tobytes()
            for shift in (1, 3):
                twin = hidden_swapped(m, seat, shift)
                assert _vectors(e, twin)[seat] == mine, (variant, seed, a, m.hand_number)
        e.step(int(pick.choice(e.legal_indices())))
