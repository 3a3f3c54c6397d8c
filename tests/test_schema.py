"""The variant schema: valid JSON Schema 2020-12, its own manual (a description on every
property, naming the rule ids of docs/rules.md), and closed (no unknown keys anywhere)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
import yaml
from conftest import REPO

from engine.resources import schema_path, shipped_variants

SCHEMA: dict[str, Any] = json.loads(schema_path("variant").read_text(encoding="utf-8"))


def subschemas(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object inside the schema, with a JSON-pointer-like location."""
    if not isinstance(node, dict):
        return
    yield where, node
    for name, sub in node.get("properties", {}).items():
        yield from subschemas(sub, f"{where}/properties/{name}")
    if isinstance(node.get("items"), dict):
        yield from subschemas(node["items"], f"{where}/items")


#: Every rule id: the common rules, Paulista's and Mineiro's.
RULE_IDS = ([f"C{i}" for i in range(1, 13)] + [f"P{i}" for i in range(1, 10)]
            + [f"M{i}" for i in range(1, 10)])


def rule_ids() -> list[str]:
    """The ids of the rule tables of the project's docs/rules.md: rows that start ``| C1 |``."""
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    return re.findall(r"^\| ([CPM]\d+) \|", text, flags=re.MULTILINE)


def test_schema_is_valid_json_schema_2020_12() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_every_property_has_a_description() -> None:
    for where, node in subschemas(SCHEMA):
        for name, sub in node.get("properties", {}).items():
            description = sub.get("description", "")
            assert isinstance(description, str) and description.strip(), f"{where}/{name}"


def test_every_object_refuses_unknown_keys() -> None:
    objects = [(w, n) for w, n in subschemas(SCHEMA) if n.get("type") == "object"]
    assert len(objects) >= 10
    for where, node in objects:
        if "propertyNames" in node:  # a map (card_names): keys by pattern, values typed
            assert node["propertyNames"].get("pattern"), where
            assert isinstance(node.get("additionalProperties"), dict), where
            continue
        assert node.get("additionalProperties") is False, where
        assert node.get("properties"), where


def test_docs_rules_md_lists_every_rule_id_once_in_order() -> None:
    assert rule_ids() == RULE_IDS


def test_every_rule_id_of_docs_rules_md_is_named_by_a_description() -> None:
    descriptions = [n.get("description", "") for _, n in subschemas(SCHEMA)]
    ids = rule_ids()
    assert ids, "docs/rules.md has no rule rows"
    unnamed = [i for i in ids if not any(re.search(rf"\b{i}\b", d) for d in descriptions)]
    assert unnamed == []


def test_property_descriptions_name_a_rule_id() -> None:
    # The variant's own labels (name, title...) are not rules; every rule key names its id.
    labels = {"$schema", "name", "title", "description", "extends"}
    for where, node in subschemas(SCHEMA):
        for name, sub in node.get("properties", {}).items():
            if where == "#" and name in labels or name == "name":
                continue
            assert re.search(r"\b(?:[CPM]|GH?)\d+\b", sub["description"]) or "House rule" in sub[
                "description"], f"{where}/{name}"


@pytest.mark.parametrize("name", sorted(shipped_variants()))
def test_each_shipped_file_is_valid_against_the_schema_as_written(name: str) -> None:
    data = yaml.safe_load(shipped_variants()[name].read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
