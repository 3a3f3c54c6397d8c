"""The tables the tests pin for every shipped variant, one JSON file each in ``tests/pins/``:
what ``truco variants show`` prints (``variants-show.json``), the environment's action space
and one seeded match's observations (``env-space.json``), one seeded episode
(``env-episodes.json``, the variants ``tests/test_env_episodes.py`` does not pin by seed).

``python -m engine.generate`` (in a checkout) calls :func:`refresh`: it pins a shipped variant
a table lacks and drops one no longer shipped; ``--repin`` computes every pin again (a pin that
changes is a behaviour that changed: say why in the commit). The tests read the tables with
:func:`load` and compute the same values with the functions below.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.resources import shipped_variants

PINS = Path(__file__).resolve().parent / "pins"
#: The variants ``tests/test_env_episodes.py`` pins by seed alone (its ``PINNED``): no pin of
#: ``env-episodes.json``.
EPISODES_BY_SEED = frozenset({"paulista", "mineiro", "gauderio"})


def digest(text: str | bytes) -> str:
    """The first 16 hex digits of the SHA-256 of ``text``."""
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()[:16]


def show_digest(name: str) -> str:
    """The first 32 hex digits of the SHA-256 of ``truco variants show NAME``."""
    from click.testing import CliRunner

    from engine.cli import main

    result = CliRunner().invoke(main, ["variants", "show", name])
    assert result.exit_code == 0, result.output
    return hashlib.sha256(result.output.encode()).hexdigest()[:32]


def action_names(e: Any) -> list[str]:
    """The environment's actions, by index."""
    return [e.action_name(i) for i in range(e.action_space("seat_0").n)]


def space_pin(variant: str) -> list[Any]:
    """The number of actions, the digest of their names one a line, and the digest of the
    observations and masks of a match played from ``reset(seed=5)`` by a seeded choice."""
    import numpy as np

    from engine.env import raw_env

    e = raw_env(variant)
    names = action_names(e)
    e.reset(seed=5)
    pick = np.random.default_rng(5)
    h = hashlib.sha256()
    while not e.match.is_over:
        obs = e.observe(e.agent_selection)
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        e.step(int(pick.choice(obs["action_mask"].nonzero()[0])))
    return [len(names), digest("\n".join(names)), h.hexdigest()[:16]]


def episode(variant: str, seed: int, hand_rewards: bool) -> str:
    """The digest of a seeded episode through PettingZoo's AEC loop: every step's agent,
    reward, flags and info, every agent's observation, mask and rewards, the action chosen."""
    import numpy as np

    from engine.env import env

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


#: Each table: its file, the variants it pins, and how a pin is computed.
TABLES: dict[str, tuple[Callable[[], list[str]], Callable[[str], Any]]] = {
    "variants-show.json": (lambda: list(shipped_variants()), show_digest),
    "env-space.json": (lambda: list(shipped_variants()), space_pin),
    "env-episodes.json": (lambda: [v for v in shipped_variants() if v not in EPISODES_BY_SEED],
                          lambda v: episode(v, 4, v.startswith("g"))),
}


def load(name: str) -> dict[str, Any]:
    """A table, by its file's name."""
    return json.loads((PINS / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def render(table: dict[str, Any]) -> str:
    """A table as its file holds it: one variant a line, by name."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(table.items())]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def refresh(check: bool = False, repin: bool = False) -> list[Path]:
    """The tables that lack a shipped variant or pin one no longer shipped (with ``repin``:
    every table), rewritten unless ``check``."""
    stale = []
    for name, (variants, pin) in TABLES.items():
        path = PINS / name
        old = load(name)
        wanted = variants()
        if not repin and sorted(old) == sorted(wanted):
            continue
        if not check:
            new = {v: old[v] if v in old and not repin else pin(v) for v in wanted}
            if render(new) == path.read_text(encoding="utf-8"):
                continue
            path.write_text(render(new), encoding="utf-8")
        stale.append(path)
    return stale
