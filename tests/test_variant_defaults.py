"""Defaults as data (issue 27, item 5): each optional key's default is the schema's
``default``, which the loader fills in after ``extends`` and before the cross-key checks; the
rules' ``data`` (what ``truco variants show`` prints and ``variant_sha256`` hashes) keeps only
what the files state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pins import load, show_digest

from engine.resources import shipped_variants
from engine.rules import NOT_RULES, special_hands_from_data, variant_schema
from engine.variant import find_variant, load_variant, resolved_document

#: SHA-256 (its first 32 hex digits) of ``truco variants show NAME`` for every shipped variant,
#: as main printed it before the defaults moved into the schema (a variant changed on purpose
#: changes its line: tests/pins.py).
SHOW_SHA256 = load("variants-show.json")

#: The keys a variant that extends nothing could leave out before (``engine/variant.py``'s
#: hand-written ``_OPTIONAL``), but for the labels (name, title, ...).
WAS_OPTIONAL = [
    ("manilhas", "suit_order"), ("manilhas", "cards"), ("card_names",), ("move_names",),
    ("teams",), ("betting", "no_raise_when_winning"), ("special_hands", "one_team", "decider"),
    ("betting", "answered_by"), ("betting", "refusal"), ("betting", "raise_back"), ("concede",),
    ("side_bets",), ("play",), ("play", "leader_face_up"), ("play", "no_cover_after_tie"),
    ("play", "highest_after_tied_first"), ("play", "raiser_must_beat"),
    ("play", "raiser_must_kill"), ("manilhas", "ranks"), ("manilhas", "stand_in"),
    ("deck", "minus"), ("deck", "plus"), ("deck", "extra")]

#: A key left out, the schema's default for it, and what the rules then hold (as the Python
#: defaults of the loader said before): (key path, default, attribute, value).
LEFT_OUT: list[tuple[tuple[str, ...], Any, str, Any]] = [
    (("betting", "answered_by"), "challenged_team", "answered_by", "challenged_team"),
    (("betting", "refusal"), "one_player", "refusal", "one_player"),
    (("betting", "raise_back"), True, "raise_back", True),
    (("betting", "no_raise_when_winning"), False, "no_raise_when_winning", False),
    (("play", "leader_face_up"), False, "leader_face_up", False),
    (("play", "no_cover_after_tie"), False, "no_cover_after_tie", False),
    (("play", "highest_after_tied_first"), False, "highest_after_tied_first", False),
    (("play", "raiser_must_beat"), False, "raiser_must_beat", False),
    (("play", "raiser_must_kill"), False, "raiser_must_kill", False),
    (("play",), {}, "raiser_must_kill", False),
    (("concede", "allowed"), False, "concede", False),
    (("concede", "instead_of_answer"), False, "concede_instead_of_answer", False),
    (("concede", "in_special_hands"), False, "concede_in_special_hands", False),
    (("concede",), {}, "concede", False),
    (("teams",), [], "team_seats", ()),
    (("side_bets",), {}, "side_bets", ()),
    (("deck", "minus"), [], "deck_minus", ()),
    (("deck", "plus"), [], "deck_plus", ()),
    (("deck", "extra"), {}, "deck_extra", ()),
    (("manilhas", "cards"), [], "fixed_manilhas", ()),
    (("manilhas", "ranks"), [], "manilha_ranks", ()),
    (("manilhas", "stand_in"), None, "manilha_stand_in", None),
    (("card_names",), {}, "name", "paulista"),
    (("move_names",), {}, "name", "paulista"),
]


def _schema_at(path: tuple[str, ...]) -> dict[str, Any]:
    node: dict[str, Any] = variant_schema()
    for key in path:
        node = node["properties"][key]
    return node


def _root(name: str) -> dict[str, Any]:
    """A shipped variant resolved, as a file that extends nothing (``truco variants show``)."""
    return resolved_document(find_variant(name).data)


def _without(data: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """A copy of ``data`` without the key at ``path`` (its parent mappings written, empty
    where ``data`` has none)."""
    out: dict[str, Any] = yaml.safe_load(yaml.safe_dump(data))
    node = out
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node.pop(path[-1], None)
    return out


def _load(tmp_path: Path, data: dict[str, Any], stem: str = "root") -> Any:
    path = tmp_path / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_variant(path)


@pytest.mark.parametrize("name", list(shipped_variants()))
def test_variants_show_prints_what_it_printed_before_defaults_became_data(name: str) -> None:
    assert show_digest(name) == SHOW_SHA256[name]


def test_every_variant_is_in_the_table_of_show_outputs() -> None:
    assert sorted(SHOW_SHA256) == sorted(shipped_variants()), "run python -m engine.generate"


@pytest.mark.parametrize("path", WAS_OPTIONAL, ids=".".join)
def test_every_key_a_root_variant_may_leave_out_has_a_default_in_the_schema(
        path: tuple[str, ...]) -> None:
    assert "default" in _schema_at(path)


def test_the_labels_are_the_only_optional_keys_without_a_default() -> None:
    schema = variant_schema()
    without = {k for k, sub in schema["properties"].items() if "default" not in sub}
    assert without & NOT_RULES == NOT_RULES - {"card_names", "move_names"}


@pytest.mark.parametrize(("path", "default", "attribute", "value"), LEFT_OUT,
                         ids=[".".join(row[0]) for row in LEFT_OUT])
def test_a_key_left_out_takes_the_schema_default(tmp_path: Path, path: tuple[str, ...],
                                                 default: Any, attribute: str,
                                                 value: Any) -> None:
    assert _schema_at(path)["default"] == default
    rules = _load(tmp_path, _without(_root("paulista"), path), "paulista")
    assert getattr(rules, attribute) == value
    assert rules == find_variant("paulista")


def test_fixed_manilhas_leave_out_the_suit_order(tmp_path: Path) -> None:
    assert _schema_at(("manilhas", "suit_order"))["default"] == []
    rules = _load(tmp_path, _without(_root("mineiro"), ("manilhas", "suit_order")), "mineiro")
    assert rules.manilha_suit_order == () and rules == find_variant("mineiro")


def test_the_one_team_decider_left_out_is_either(tmp_path: Path) -> None:
    data = _without(_root("mineiro"), ("special_hands", "one_team", "decider"))
    assert _schema_at(("special_hands", "one_team", "decider"))["default"] == "either"
    assert _load(tmp_path, data, "mineiro").one_team.decider == "either"


def test_a_special_hand_entry_s_keys_left_out_take_the_schema_defaults() -> None:
    items = _schema_at(("special_hands",))["items"]["properties"]
    (hand,) = special_hands_from_data([{"name": "x", "when": {"teams": "all", "from_score": 3},
                                        "value": 2, "raises": "allowed"}])
    assert (hand.decision, hand.decider, hand.show_partner_cards, hand.fold_points,
            hand.blind, hand.winner_takes_game) == (False, "either", False, 0, False, False)
    assert [items[k]["default"] for k in ("decision", "decider", "show_partner_cards",
                                          "fold_points", "blind", "winner_takes_game")] == \
        [False, "either", False, 0, False, False]
    assert hand.to_score is None is items["when"]["properties"]["to_score"]["default"]
    assert (hand.penalty_team_at_score, hand.penalty_other_team) == ("lose_game", "lose_game")


#: Keys with a default (what the rules hold when they are unused) that a file must write where
#: they are used: with a decision, with raises: penalised.
_REQUIRED_WHERE_USED = {"fold_points", "raise_penalty"}


def _strip_defaults(value: Any, sub: dict[str, Any]) -> Any:
    """``value`` without the keys that state their schema default."""
    if isinstance(value, dict):
        props = sub.get("properties", {})
        return {k: _strip_defaults(v, props.get(k, {})) for k, v in value.items()
                if k in _REQUIRED_WHERE_USED
                or not ("default" in props.get(k, {}) and props[k]["default"] == v)}
    if isinstance(value, list) and isinstance(sub.get("items"), dict):
        return [_strip_defaults(v, sub["items"]) for v in value]
    return value


@pytest.mark.parametrize("name", list(shipped_variants()))
def test_a_root_variant_may_leave_out_every_key_it_takes_at_its_default(
        tmp_path: Path, name: str) -> None:
    full = _root(name)
    lean = _strip_defaults(full, variant_schema())
    rules = _load(tmp_path, lean, name)
    assert rules == find_variant(name)
    assert rules.fingerprint != find_variant(name).fingerprint or lean == full
