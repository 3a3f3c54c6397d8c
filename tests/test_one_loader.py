"""One loader (issue 27, items 3 and 5): ``engine.variant.load(ref)`` with the cache; the five
older names are thin aliases that still work."""

from __future__ import annotations

import ast

import pytest
from conftest import REPO, WriteFile

import engine.variant
from engine.errors import VariantError
from engine.game import Match, resolve_rules
from engine.replay import header_rules, resolve_variant
from engine.variant import find_variant, load, load_ref, load_variant


def test_a_shipped_variant_is_loaded_once_whatever_name_asks() -> None:
    rules = load("mineiro")
    assert rules is load("mineiro") is find_variant("mineiro") is load_ref("mineiro")
    assert rules is resolve_variant("mineiro", None) is resolve_rules("mineiro")
    assert header_rules("mineiro", None) == (rules, rules.fingerprint)
    assert Match.new("mineiro", seed=1).rules is rules
    fresh = load_variant("mineiro")
    assert fresh is not rules and fresh == rules and fresh.fingerprint == rules.fingerprint


def test_a_variant_file_is_the_same_rules_through_every_name(write: WriteFile) -> None:
    path = write("mine.yaml", "extends: paulista\nname: mine\ngame: {target: 15}\n")
    got = [load(str(path)), load(path), load_ref(str(path)), load_variant(path),
           resolve_variant(str(path), None), header_rules(str(path), None)[0],
           resolve_rules(path), Match.new(path, seed=1).rules,
           load("mine.yaml", base=path.parent), load("mine.yaml", base=path.parent, fresh=True)]
    assert all(r == got[0] and r.fingerprint == got[0].fingerprint for r in got)
    assert got[0].target == 15


def test_a_kept_variant_file_is_each_caller_s_own_copy(write: WriteFile) -> None:
    path = write("mine.yaml", "extends: paulista\nname: mine\n")
    first = load(str(path))
    first.data["game"]["target"] = 99
    again = load(str(path))
    assert again is not first and again.data["game"]["target"] == 12


def test_the_unknown_shipped_name_is_told_as_before() -> None:
    with pytest.raises(VariantError, match="unknown variant 'paulistaa': expected a shipped "
                                           "name .did you mean paulista"):
        find_variant("paulistaa")
    with pytest.raises(VariantError, match="or a path to a .yaml file"):
        load("paulistaa")


def test_the_match_module_does_not_import_the_replay_for_its_variants() -> None:
    tree = ast.parse((REPO / "engine" / "game.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert "engine.replay" not in imported and "engine.variant" in imported


def test_the_cache_lives_in_the_variant_layer(write: WriteFile) -> None:
    path = write("mine.yaml", "extends: paulista\nname: mine\n")
    engine.variant._FILES.clear()
    load(str(path))
    assert [key[0] for key in engine.variant._FILES] == [str(path)]
