"""Playthrough snapshots. A root variant (one that extends nothing) has whole seeded matches,
state by state, in tests/snapshots/<variant>/<variant>-seed<N>.txt; a variant that extends
another has the hands where its rules make a difference from its parent's, in
<variant>-focus.txt (``engine.playthrough.focus``). A rule change in a variant file shows up
as a diff of these files; ``pytest --snapshot-update`` regenerates them (docs/snapshots.md)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import doctests

from engine.actions import Action
from engine.playthrough import choose, focus, playthrough
from engine.resources import shipped_variants
from engine.shuffle import SplitMix64

REPO = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
VARIANTS = sorted(shipped_variants())  # every shipped variant, house variants included
#: Each variant's parent: what its ``extends`` names (None for a root variant).
PARENTS: dict[str, str | None] = {
    name: yaml.safe_load(path.read_text(encoding="utf-8")).get("extends")
    for name, path in shipped_variants().items()}
ROOTS = [v for v in VARIANTS if PARENTS[v] is None]
HOUSE = [v for v in VARIANTS if PARENTS[v] is not None]
SEEDS = (1, 38)
#: Where a rule acts too rarely for the first hundred seeds (a hand whose every round ties),
#: the seeds of matches where it does.
FOCUS_SEEDS: dict[str, tuple[int, ...]] = {
    "all-tied-first-round": (124, 1019),
    "gauderio-all-tied-nobody": (1294, 2290),
    # its pieces' stand-in and envido points act in seed 2's first hands (test_rule_keys_watched)
    "truco-de-amostra": (2, 3),
    # where the default search (seeds 1 to 100) finds them, pinned: the search would probe
    # every state of some sixty matches first (a minute of the fast loop); the snapshot is the
    # same either way, and the search itself is tested by every other house variant
    "amostra-ace-of-ouros": (13, 65),
    "blind-dealt-numbers": (38, 60),
}


@cache
def text(variant: str, seed: int) -> str:
    return playthrough(variant, seed)


@cache
def focused(variant: str) -> str:
    parent = PARENTS[variant]
    assert parent is not None
    if variant in FOCUS_SEEDS:
        return focus(variant, parent, seeds=FOCUS_SEEDS[variant])
    return focus(variant, parent)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", ROOTS)
def test_playthrough_snapshot(snapshot: Any, variant: str, seed: int) -> None:
    snapshot.snapshot_dir = SNAPSHOTS / variant
    snapshot.assert_match(text(variant, seed), f"{variant}-seed{seed}.txt")


@pytest.mark.parametrize("variant", HOUSE)
def test_focus_snapshot(snapshot: Any, variant: str) -> None:
    snapshot.snapshot_dir = SNAPSHOTS / variant
    snapshot.assert_match(focused(variant), f"{variant}-focus.txt")


@pytest.mark.parametrize("variant", HOUSE)
def test_every_house_variant_s_rules_act_in_its_focus(variant: str) -> None:
    """The guard keeps its teeth: each variant that extends another changes some play of its
    parent's, in the hands its snapshot shows (a rule that never acted there would be a rule
    no snapshot watches)."""
    body = focused(variant)
    assert "\n    ≠ " in body and "\nfound in " not in body
    assert body.count("\n--- seed ") == 2


def test_a_focus_shows_only_the_hands_where_the_rules_differ() -> None:
    body = focus("no-raise-back", "paulista", hands=1, seeds=[1])
    hand = body.split("\n--- seed 1\n", 1)[1]
    assert hand.count("=== hand ") == 1  # one hand, in full
    assert "≠ legal here, not under paulista: -; under paulista only: raise 1 6, raise 3 6" in hand
    assert focus("paulista", "paulista", hands=1, seeds=[1]).endswith(
        "\nfound in 0 of the 1 hands looked for\n")


def test_playthroughs_reach_every_kind_of_move() -> None:
    everything = "".join(text(v, s) for v in VARIANTS for s in SEEDS)
    for what in ("> play", "> raise", "> accept", "> fold", "> decide", " covered\n", "▼??",
                 "special mão de onze", "special mão de ferro", "special mão de dez",
                 "blind yes", "partner_hands", "= round tied", "= game won", "= match won"):
        assert what in everything, what


def test_every_playthrough_ends_with_its_match() -> None:
    for variant in VARIANTS:
        t = text(variant, SEEDS[0])
        last = t.rstrip("\n").splitlines()[-1]
        assert last.startswith("end after ") and "match won by team" in last
        moves = int(last.split()[2])
        assert t.count("\n  > ") == moves
        assert t.count("\n[") == moves


def test_move_choice_is_seeded_and_mixed() -> None:
    legal = [Action.play(1, "4c"), Action.play(1, "7h"), Action.raise_to(1, 3)]
    draws = [choose(legal, rng) for rng in [SplitMix64(9)] for _ in range(200)]
    again = [choose(legal, rng) for rng in [SplitMix64(9)] for _ in range(200)]
    assert draws == again
    assert {str(a) for a in draws} == {"play 1 4c", "play 1 7h", "raise 1 3"}
    with pytest.raises(ValueError):
        choose([], SplitMix64(0))


def test_playthrough_is_byte_identical_whatever_the_hash_seed() -> None:
    code = ("import hashlib, sys; from engine.playthrough import playthrough; "
            "sys.stdout.write(hashlib.sha256(playthrough('one-on-one', 38).encode()).hexdigest())")
    digests = set()
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed,
               "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, check=True,
                             capture_output=True, text=True)
        digests.add(out.stdout)
    assert digests == {hashlib.sha256(text("one-on-one", 38).encode()).hexdigest()}


def _copy_with(tmp_path: Path, variant: str, old: str, new: str) -> Path:
    source = shipped_variants()[variant].read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{old!r} is not once in {variant}"
    path = tmp_path / f"{variant}.yaml"
    path.write_text(source.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(("variant", "old", "new"), [
    ("mineiro", "{value: 3, name: truco}", "{value: 4, name: truco}"),
    ("classic-mineiro", "{value: 8, name: oito}", "{value: 7, name: oito}"),
])
def test_a_ladder_step_changed_in_a_copy_changes_the_playthrough(
        tmp_path: Path, variant: str, old: str, new: str) -> None:
    """The workflow of a rule change, without touching the real snapshots: a copy of the
    variant file plays exactly as its snapshot says, and the copy with one ladder step
    changed does not, in its rules and in its moves."""
    parent = PARENTS[variant]
    if parent is None:
        snapshot = (SNAPSHOTS / variant / f"{variant}-seed{SEEDS[0]}.txt").read_text("utf-8")
        same = playthrough(_copy_with(tmp_path, variant, old, old), SEEDS[0])
        changed = playthrough(_copy_with(tmp_path, variant, old, new), SEEDS[0])
        body = slice(changed.index("\n=== hand 1 "), None)
    else:
        snapshot = (SNAPSHOTS / variant / f"{variant}-focus.txt").read_text("utf-8")
        same = focus(_copy_with(tmp_path, variant, old, old), parent)
        changed = focus(_copy_with(tmp_path, variant, old, new), parent)
        body = slice(changed.index("\n--- seed "), None)
    assert same == snapshot
    assert changed != snapshot
    assert changed[body] != snapshot[body]  # not only the rules lines: the play differs too
    rules_diff = [line for line in changed.splitlines()[:60]
                  if "betting.ladder:" in line and line not in snapshot]
    assert rules_diff and new.split(",")[0].replace("{", "").replace(": ", "=") in rules_diff[-1]
    # Every other variant's playthrough is untouched by this copy.
    other = "paulista" if variant != "paulista" else "mineiro"
    assert text(other, SEEDS[0]) == (SNAPSHOTS / other / f"{other}-seed{SEEDS[0]}.txt"
                                     ).read_text(encoding="utf-8")


def test_docstring_examples_run() -> None:

    import engine.playthrough

    result = doctests(engine.playthrough)
    assert result.attempted >= 5 and result.failed == 0
