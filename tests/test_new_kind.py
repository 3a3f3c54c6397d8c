"""A new rule mechanism is one module (issue 41): in a copy of the engine, a kind's module
copied under a new name (every ``redeal`` in it renamed, its variant block with it) and a house
variant that turns it on play, record, verify, round-trip their positions and appear in the
environment after ``python -m engine.generate`` (and in the bot protocol's decision and judge
schemas, its phase and its state, a seat's decision valid by them), no other file edited (the
copy leaves out its list and log places: they are derived): for a kind without state
(``redeal``), one with a phase of its own that opens the hand (``cut``), and one with a phase
and a state of its own, which the moves of another kind lead to (``confirm``: its module
declares the phase, a plain string; no ``Phase`` member, no list of phases to extend)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from engine.moves import load_kinds

#: Run in the copy: a match of the new variant where the new kind's move is made (when it is
#: legal, a seed at a time), recorded and verified; every position of the match read back as
#: it was written; each seat's decision, where the kind's move is legal or the match waits in
#: its phase, valid by the generated decision schema (its state among the observation's keys);
#: the kind's moves in the environment's action space.
_PLAY = """
import io, json, sys
from engine import Match
from engine.bots.base import seat_view
from engine.env import raw_env
from engine.logformat import Recorder
from engine.protocol import decision
from engine.replay.verify import verify_bytes
from engine.schemas import strict_validator
from engine.shuffle import SplitMix64

name, kind, phase, own = sys.argv[1:5]
with open("schemas/bot-protocol/decision.schema.json", encoding="utf-8") as f:
    schema = strict_validator(json.load(f))
states, keys = set(), set()
for seed in range(200):
    m, out, pick = Match.new(name, seed=seed), io.StringIO(), SplitMix64(seed)
    rec, made = Recorder(m, out, variant=name), 0
    while not m.is_over:
        p = m.position()
        assert Match.from_position(name, p).position() == p
        states.add(m.state)
        legal = m.legal_actions()
        mine = [a for a in legal if a.kind == kind]
        for seat in range(m.players) if mine or m.state == phase else ():
            obs, moves = seat_view(m, seat)
            if moves:
                message = decision(1, obs, moves, {"move_ms": 1, "clock_ms": None})
                schema.validate(message)
                keys |= set(message["observation"])
        rec.apply(mine[0] if mine else legal[pick.bounded(len(legal))])
        made += bool(mine)
    if made:
        break
assert made, "the new kind's move was never legal"
assert phase == "-" or phase in states, (phase, states)
assert own == "-" or own in keys, (own, keys)
log = out.getvalue()
assert f'"event": "{kind}"' in log
result = verify_bytes(log.encode(), f"{name}.jsonl")
assert not result.problems and result.winner is not None, result.problems
e = raw_env(name)
names = [e.action_name(i) for i in range(e.action_space("seat_0").n)]
assert any(n.split()[0] == kind for n in names), names
print("ok", made)
"""

#: The kind copied: the new name, the house variant's keys under the new block, the variant it
#: extends, the phase of its own the match rests in (``-``: none), and the shipped variant of
#: the kind copied, which plays on beside the copy.
_NEW = {"redeal": ("throwin", "allowed: true\n  void_ranks: [Q, J, K, A]", "paulista", "-",
                   "redeal"),
        "cut": ("slice", "allowed: true\n  choices: [burn, bottom]", "paulista", "slice", "cut"),
        "confirm": ("vouch", "moves: [concede]", "concede", "vouch", "concede-partner-confirms")}


def _copy(root: Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "_data")
    for folder in ("engine", "schemas", "variants"):
        shutil.copytree(REPO / folder, root / folder, ignore=skip)


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("kind", sorted(_NEW))
def test_a_copied_kind_module_is_a_new_mechanism(kind: str, tmp_path: Path) -> None:
    new, keys, parent, phase, shipped = _NEW[kind]
    root = tmp_path / "truco"
    _copy(root)
    source = (REPO / "engine" / "moves" / f"{kind}.py").read_text(encoding="utf-8")
    # the copy leaves its places out (engine.payload.DERIVED): listed and logged after the rest
    source = re.sub(r"\b(order|place)=\d+, ", "", source.replace(kind, new))
    (root / "engine" / "moves" / f"{new}.py").write_text(source, encoding="utf-8")
    (root / "variants" / "house" / f"{new}.yaml").write_text(
        f"name: {new}\nextends: {parent}\n{new}:\n  {keys}\n", encoding="utf-8")
    stale = _run(root, "-m", "engine.generate", "--check")
    assert stale.returncode == 1 and "engine.generate" in stale.stderr, stale.stderr
    assert _run(root, "-m", "engine.generate").returncode == 0
    assert _run(root, "-m", "engine.generate", "--check").returncode == 0
    schemas = {p.name: p.read_text(encoding="utf-8") for p in (root / "schemas").glob("*.json")}
    assert f'"{new}"' in schemas["variant.schema.json"] and f'"{new}"' in schemas[
        "log.schema.json"]
    states = json.loads(schemas["position.schema.json"])["properties"]["state"]["enum"]
    assert phase == "-" or phase in states, states
    state = load_kinds()[kind].state  # the original's own state, its key the kind's name (confirm)
    key = "-" if state is None else state.key.replace(kind, new)
    for message in ("decision", "judge"):  # the bot protocol's: its phase and its state
        seen = json.loads((root / "schemas" / "bot-protocol" / f"{message}.schema.json")
                          .read_text(encoding="utf-8"))["properties"]["observation"]
        assert phase == "-" or phase in seen["properties"]["phase"]["enum"], message
        assert key == "-" or key in seen["properties"], message
    played = _run(root, "-c", _PLAY, new, new, phase, key)
    assert (played.returncode, played.stderr) == (0, ""), played.stdout
    assert played.stdout.startswith("ok")
    own = kind if phase != "-" else "-"  # the original's phase (cut's and confirm's: its name)
    played = _run(root, "-c", _PLAY, shipped, kind, own, "-" if state is None else state.key)
    assert (played.returncode, played.stderr) == (0, ""), played.stdout
