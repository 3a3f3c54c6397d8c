"""Seeded episodes through ``engine.env.env`` (PettingZoo's AEC loop, ``agent_iter`` and
``last``), pinned: at every step every agent's observation vector and mask, the acting agent's
reward, flags and info, and every agent's step and cumulative rewards go into one digest per
episode. Whatever makes the environment faster, the same seeds give the same bytes."""

from __future__ import annotations

import hashlib
import struct

import numpy as np
import pytest
from helpers import hidden_swapped

pytest.importorskip("pettingzoo", reason="the optional extra [rl] (pip install -e '.[test]')")

from engine import Match  # noqa: E402
from engine.env import TrucoEnv, env, raw_env  # noqa: E402
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

#: every other shipped variant, once
OTHERS = {
    "all-tied-first-round": "52daf1d4524f575b",
    "both-refuse": "3d063fec5d1769d5",
    "capixaba-jokers": "46bc4096ad693af8",
    "classic-mineiro": "b4bd0016111d6755",
    "concede": "bf3c6f044d84ef42",
    "covered-from-round-1": "69cdcbdc3c791563",
    "cut": "ac8a954786d6b300",
    "doze-e-queda": "effe18d9ae3bbdba",
    "five-cards": "b9968be865eed51b",
    "game-step": "5e14e566e0a022d2",
    "gauderio-30": "9e4d08a407d78e6e",
    "gauderio-all-tied-nobody": "84465019672f1f0b",
    "gauderio-baralho-envido-open": "a1cfe72742a5f54d",
    "gauderio-best-of-3": "644901937437b9fe",
    "gauderio-carancho": "7c32696906b8d9be",
    "gauderio-covered": "a6550959d3038ec8",
    "gauderio-envido-at-end": "21886d685c623a37",
    "gauderio-envido-pes": "fe7b1cd5da9d5ca0",
    "gauderio-envido-public": "84465019672f1f0b",
    "gauderio-falta-trailer": "84465019672f1f0b",
    "gauderio-flor-argentina": "84465019672f1f0b",
    "gauderio-flor-round-1": "e413f3277af19a17",
    "gauderio-one-on-one": "1b9de1f4eaa820f7",
    "gauderio-real-envido-twice": "84465019672f1f0b",
    "gauderio-sem-flor": "1987eefa23bd6e1e",
    "gauderio-trios": "1487a1cd1824625a",
    "gauderio-truco-any-time": "84465019672f1f0b",
    "gauderio-truco-closes-envido": "94587516a442b0ec",
    "highest-after-tied-first": "5fde559d951b3a5d",
    "leader-face-up": "f511b0a6e7a8cdfa",
    "manilha-velha": "f045614de299beba",
    "manilhas-vira-suit": "52daf1d4524f575b",
    "mineiro-12": "1b5130d76e44c2b1",
    "mineiro-best-of-5": "3c433e3c15fce411",
    "mineiro-mao-de-dez-wins-game": "b7206df356d1f2ce",
    "next-seat-answers": "52daf1d4524f575b",
    "no-cover-after-tie": "597db4397b518fa1",
    "no-covered-cards": "7399541d14bf9d35",
    "no-raise-back": "d00450cca39a884d",
    "no-raise-when-winning": "f34c45828b8aec70",
    "one-on-one": "f0da1ee30d557462",
    "paulista-38-cards": "a10cec975085264f",
    "paulista-mao-de-11-decision": "25ed641b6c302123",
    "raiser-must-beat": "c4580c26d39c9b2d",
    "raiser-must-kill": "52daf1d4524f575b",
    "redeal": "cc7d57e85bb707b0",
    "single-decider": "25ed641b6c302123",
    "special-hands-list": "18c3a0c7ffe1a52d",
    "three-players": "cdb5c32d45e07ef1",
    "tie-leader-lowest-seat": "d32b6a09b781f693",
    "tie-leader-mao": "b9968be865eed51b",
    "tie-leader-who-tied": "4fafef453e97dee9",
    "truco-de-amostra": "9f074bc64985fd41",
}


def episode(variant: str, seed: int, hand_rewards: bool) -> str:
    """The digest of one seeded episode played by a seeded random agent."""
    e = env(variant, hand_rewards=hand_rewards)
    e.reset(seed=seed)
    pick = np.random.default_rng(seed)
    h = hashlib.sha256()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        h.update(agent.encode())
        h.update(struct.pack("<d??", reward, terminated, truncated))
        h.update(repr(sorted(info.items())).encode())
        for other in e.agents:
            o = e.observe(other)
            h.update(o["observation"].tobytes())
            h.update(o["action_mask"].tobytes())
            h.update(struct.pack("<dd", e.rewards[other], e.unwrapped._cumulative_rewards[other]))
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        if terminated or truncated:
            action = None
        else:
            action = int(pick.choice(obs["action_mask"].nonzero()[0]))
            h.update(struct.pack("<i", action))
        e.step(action)
    assert not e.agents and e.unwrapped.match.is_over
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("variant", "seed", "hand_rewards"), sorted(PINNED))
def test_seeded_episodes_are_pinned(variant: str, seed: int, hand_rewards: bool) -> None:
    assert episode(variant, seed, hand_rewards) == PINNED[variant, seed, hand_rewards]


@pytest.mark.parametrize("variant", sorted(OTHERS))
def test_every_variant_has_a_pinned_episode(variant: str) -> None:
    assert episode(variant, 4, variant.startswith("g")) == OTHERS[variant]


def test_every_shipped_variant_is_played() -> None:
    assert sorted({v for v, _, _ in PINNED} | set(OTHERS)) == sorted(shipped_variants())


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
    ("paulista-mao-de-11-decision", 60), ("three-players", 2), ("capixaba-jokers", 3)])
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
