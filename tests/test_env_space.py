"""The environment's action space and observations, pinned: every shipped variant's list of
actions (their number and names, index by index) and the observations and masks of one random
match stay as they are, whatever builds them (engine.env derives the space from the kinds)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the optional extra [rl] (pip install -e '.[test]')")

from engine.env import TrucoEnv, raw_env  # noqa: E402
from engine.resources import shipped_variants  # noqa: E402

#: variant: (actions, sha256 of their names one a line, sha256 of a seeded match's
#: observations and masks), the first 16 hex digits of each.
PINNED = {
    "all-tied-first-round": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "both-refuse": (89, "579518e8ad864e8d", "91d00a0975a06ae3"),
    "capixaba-jokers": (93, "16a938e0865d23d8", "b722f160f6017ae4"),
    "classic-mineiro": (84, "0d070c8b78127204", "122fe5dcc5257d32"),
    "concede": (90, "7ddad0690d785677", "a1a502f44359ce08"),
    "cut": (93, "5b52d9453086a73a", "7b7549c3ea3536f3"),
    "covered-from-round-1": (89, "579518e8ad864e8d", "c61d6e710c00a011"),
    "doze-e-queda": (84, "0d070c8b78127204", "1b01676bda8a81e8"),
    "five-cards": (93, "033fba56567cf061", "7bc2c7682ea55b32"),
    "game-step": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "gauderio": (53, "bd83c92cc3cf895a", "9839bf6efb17a106"),
    "gauderio-30": (53, "bd83c92cc3cf895a", "6a65222080162ffb"),
    "gauderio-all-tied-nobody": (53, "bd83c92cc3cf895a", "9839bf6efb17a106"),
    "gauderio-baralho-envido-open": (53, "bd83c92cc3cf895a", "2b55a1890860c722"),
    "gauderio-best-of-3": (53, "bd83c92cc3cf895a", "c975d3462df12ebb"),
    "gauderio-carancho": (53, "bd83c92cc3cf895a", "ea67634628beae51"),
    "gauderio-covered": (93, "ab95e49b8c5abe72", "903cfd1f6fe59677"),
    "gauderio-envido-at-end": (53, "bd83c92cc3cf895a", "6b8d47d1b4f8f6f9"),
    "gauderio-envido-pes": (53, "bd83c92cc3cf895a", "0b88b1f638ba2184"),
    "gauderio-envido-public": (53, "bd83c92cc3cf895a", "9839bf6efb17a106"),
    "gauderio-falta-trailer": (53, "bd83c92cc3cf895a", "9839bf6efb17a106"),
    "gauderio-flor-argentina": (53, "bd83c92cc3cf895a", "9839bf6efb17a106"),
    "gauderio-flor-round-1": (53, "bd83c92cc3cf895a", "4d61cdf96f648fcd"),
    "gauderio-one-on-one": (53, "bd83c92cc3cf895a", "1fa0db755bd5d454"),
    "gauderio-real-envido-twice": (53, "bd83c92cc3cf895a", "95d2bbe43a03838a"),
    "gauderio-sem-flor": (49, "af3c676a6b8e1097", "c43f097f1ca547bd"),
    "gauderio-trios": (53, "bd83c92cc3cf895a", "c28dee436a86dfc1"),
    "gauderio-truco-any-time": (53, "bd83c92cc3cf895a", "9839bf6efb17a106"),
    "gauderio-truco-closes-envido": (53, "bd83c92cc3cf895a", "c3ab19ec89bcc6dd"),
    "highest-after-tied-first": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "leader-face-up": (89, "579518e8ad864e8d", "9593220aa8e913cf"),
    "manilha-velha": (89, "579518e8ad864e8d", "a4c8152a2c702939"),
    "manilhas-vira-suit": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "mineiro": (84, "0d070c8b78127204", "81b8db6ca48df47c"),
    "mineiro-12": (84, "0d070c8b78127204", "af602317443356e2"),
    "mineiro-best-of-5": (84, "0d070c8b78127204", "48bfe1e30a8694ee"),
    "mineiro-mao-de-dez-wins-game": (84, "0d070c8b78127204", "81b8db6ca48df47c"),
    "next-seat-answers": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "no-cover-after-tie": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "no-covered-cards": (46, "95941f4a30550b92", "99cabd3f9c5d5d89"),
    "no-raise-back": (89, "579518e8ad864e8d", "075e3f696893b89d"),
    "no-raise-when-winning": (89, "579518e8ad864e8d", "8822f53f51b68e89"),
    "one-on-one": (85, "c4024c29c745a8a2", "2a819aa01f600c1a"),
    "paulista": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "paulista-38-cards": (85, "5b53cdaef0b74b65", "d630ddbe7d47bb8c"),
    "paulista-mao-de-11-decision": (91, "ceb7f073c938e317", "c2209cbf4975093d"),
    "redeal": (90, "f6ce101cb393cccf", "3a0a7f816a7b7c7d"),
    "raiser-must-beat": (89, "579518e8ad864e8d", "544f1479cec3de82"),
    "raiser-must-kill": (89, "579518e8ad864e8d", "d30ef4cec0f11189"),
    "single-decider": (91, "ceb7f073c938e317", "c2209cbf4975093d"),
    "special-hands-list": (91, "ceb7f073c938e317", "c2209cbf4975093d"),
    "three-players": (83, "dac684d835d66477", "a8520f657b3c8a92"),
    "tie-leader-lowest-seat": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "tie-leader-mao": (93, "033fba56567cf061", "7bc2c7682ea55b32"),
    "tie-leader-who-tied": (89, "579518e8ad864e8d", "41ec4eb4d098790d"),
    "truco-de-amostra": (53, "bd83c92cc3cf895a", "5ec91dc4fcc33d53"),
}

GAUDERIO = [
    *(f"play {r}{s}" for s in "cdhs" for r in "A234567JQK"),
    "raise", "accept", "fold", "concede", "envido", "real envido", "falta envido", "flor",
    "com flor me achico", "contra-flor", "contra-flor ao resto", "quero", "nao_quero"]


def _names(e: TrucoEnv) -> list[str]:
    return [e.action_name(i) for i in range(e.action_space("seat_0").n)]


def _digest(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()[:16]


def test_every_shipped_variant_is_pinned() -> None:
    assert sorted(PINNED) == sorted(shipped_variants())


def test_gauderio_actions_in_full() -> None:
    assert _names(raw_env("gauderio")) == GAUDERIO


def test_a_blind_hand_and_a_decision_come_last() -> None:
    names = _names(raw_env("paulista-mao-de-11-decision"))
    assert names[80:] == ["raise", "accept", "fold", "decide play", "decide fold", "play #1",
                          "play #2", "play #3", "play #1 covered", "play #2 covered",
                          "play #3 covered"]


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_actions_and_observations_are_pinned(variant: str) -> None:
    count, names, seen = PINNED[variant]
    e = raw_env(variant)
    got = _names(e)
    assert (len(got), _digest("\n".join(got))) == (count, names)
    e.reset(seed=5)
    pick = np.random.default_rng(5)
    h = hashlib.sha256()
    while not e.match.is_over:  # type: ignore[union-attr]
        obs = e.observe(e.agent_selection)
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        e.step(int(pick.choice(obs["action_mask"].nonzero()[0])))
    assert h.hexdigest()[:16] == seen
