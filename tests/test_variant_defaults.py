"""Defaults as data (issue 27, item 5): each optional key's default is the schema's
``default``, which the loader fills in after ``extends`` and before the cross-key checks; the
rules' ``data`` (what ``truco variants show`` prints and ``variant_sha256`` hashes) keeps only
what the files state."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from engine.cli import main
from engine.resources import shipped_variants
from engine.rules import NOT_RULES, special_hands_from_data, variant_schema
from engine.variant import find_variant, load_variant, resolved_document

#: SHA-256 (its first 32 hex digits) of ``truco variants show NAME`` for every shipped variant,
#: as main printed it before the defaults moved into the schema (a variant changed on purpose
#: changes its line here).
SHOW_SHA256 = {
    "gauderio": "86feecad7c4b9d1b32c660dc59ae78c1",
    "mineiro-12": "7f819773a311f783940313534eec481a",
    "mineiro": "6b8c1c1c07a3fdfa71ecf18b31270e0e",
    "paulista": "092922ad06c56eebe228b12cd35a3dd3",
    "all-tied-first-round": "4897f0b9c7ac8b455d9596377e77fda1",
    "both-refuse": "f681416541da971f10bc8dc2d5a16af0",
    "capixaba-jokers": "d8d39b82d71fd6cfd79dca21cd578139",
    "classic-mineiro": "b3444dc5f1b4948ec32b9c28b65f3f2f",
    "concede": "933b2d6686a62f909f4f78a1d2151d7b",
    "cut": "f2d93600eccd8d1de3839fa16baca92a",
    "covered-from-round-1": "fd394c8c43e448e642c1016deaafcba7",
    "doze-e-queda": "d918bf495d33fad36e4af0619f322dd5",
    "five-cards": "19c07559edbe20521991f38e942b1988",
    "game-step": "f940a3278ec237c11a8466cc0934047b",
    "gauderio-30": "19a9e1237a8bd2dd43813efa4467d4a7",
    "gauderio-all-tied-nobody": "a5317bf7def182b42a9c4106d73c3859",
    "gauderio-baralho-envido-open": "eb40528aafad6b6b829cb39869976321",
    "gauderio-best-of-3": "d47e8f58d7d17d43de1defa76e82741b",
    "gauderio-carancho": "47a9aac1bf694a3c0078a9f6193b4682",
    "gauderio-covered": "80195ce2f6d76822ec9831b5b23c3faf",
    "gauderio-envido-at-end": "9ffbd62d7bcded49a526053b5391ae0b",
    "gauderio-envido-pes": "b7c7f4fba70e88cb905ef7550de8fee1",
    "gauderio-envido-public": "a1a057e01adafa2d3328a37d7ca0ceac",
    "gauderio-falta-trailer": "3cbf984f2a5747db02c293b2880c1ef2",
    "gauderio-flor-argentina": "1fd2e3f64203a282737a02a37165840e",
    "gauderio-flor-round-1": "7f10a0ffb3c2eed3c52e00ac684ba497",
    "gauderio-one-on-one": "b9ad84657f986e3f04d529d598803d9f",
    "gauderio-real-envido-twice": "20843dbbfaf988aa754d6e73cf6bc4f1",
    "gauderio-sem-flor": "deef5a377114eda7cd934498608ca149",
    "gauderio-trios": "c8f08ab9d70ab4e06a2cd4f553e095c9",
    "gauderio-truco-any-time": "766834dc05e3af1662a4ac87fd920fb3",
    "gauderio-truco-closes-envido": "10c64268363da4589d9f9564f0dcddbf",
    "highest-after-tied-first": "2a177f2ac5dd333b631bca16bd41456f",
    "leader-face-up": "4f0a10a4fdb2d7670c56af343d1d48bb",
    "manilha-velha": "bd05540e244c0faf4933c373b331ca92",
    "manilhas-vira-suit": "64bd192cffbf1a04762f565f8bb20998",
    "mineiro-best-of-5": "457fa9ef2e45a2069274cfc93dace941",
    "mineiro-mao-de-dez-wins-game": "9ca56500d92f4204f92f3c54e82bc5b8",
    "next-seat-answers": "89059c5fc307cd76e134fd0cfe124786",
    "no-cover-after-tie": "315d9651d0a750aa5ed7ee1db091119e",
    "no-covered-cards": "512720a2ef165c6867da53eb88bd0e6b",
    "no-raise-back": "37572477c105f27d9fda43c0bc6b056c",
    "no-raise-when-winning": "43eb6b1a94cfe8dfe0d0f513d684037e",
    "one-on-one": "164f932ef1c8c9f1f938c957735ba0ea",
    "paulista-38-cards": "a207473392120e82c16e30d89dbfab92",
    "paulista-mao-de-11-decision": "6365e7c67f134662fe651d5b94b2d83b",
    "raiser-must-beat": "a553e8b0124c325bc0cb1b5be1eff527",
    "raiser-must-kill": "b383e0a6c702cf4ffd9fdc74df7a38e9",
    "redeal": "f837794b50f2963c17bacda288622cbd",
    "single-decider": "66dee0ded276401903ea3091d92d8d53",
    "special-hands-list": "8ac104cdd6b4f42d9b4fdc04b315df8c",
    "three-players": "6ffbc299a1825a7fdbeca4c65a0302c2",
    "tie-leader-lowest-seat": "f692075e80e4955fde67e815cdb16ffa",
    "tie-leader-mao": "65eaac4c497fbb1f5c200b4cdf653388",
    "tie-leader-who-tied": "8eccd48d98952c8221a35e18313541ca",
    "truco-de-amostra": "6671679ca6eb7104be8474bfb7896940",  # its pieces (main, c9f6094)
}

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
    result = CliRunner().invoke(main, ["variants", "show", name])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(result.output.encode()).hexdigest()[:32] == SHOW_SHA256[name]


def test_every_variant_is_in_the_table_of_show_outputs() -> None:
    assert sorted(SHOW_SHA256) == sorted(shipped_variants())


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
