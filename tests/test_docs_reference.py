"""The project's own reference documents, docs/rules.md and docs/log-format.md, checked against
the code so that they cannot drift: rule ids, variant keys, house variants, the fingerprint and
shuffle programs they publish, the reader's limits, the error kinds and the example log."""

from __future__ import annotations

import hashlib
import importlib
import json
import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from engine import Action, Deal, Match
from engine.cards import card_name
from engine.logread import ProblemKind
from engine.replay import verify_bytes
from engine.resources import data_dir, schema_path, shipped_variants
from engine.shuffle import SplitMix64
from engine.shuffle import deal as engine_deal
from engine.variant import load_variant

REPO = Path(__file__).resolve().parent.parent
RULES_MD = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
LOG_MD = (REPO / "docs" / "log-format.md").read_text(encoding="utf-8")
SCHEMA: dict[str, Any] = json.loads(schema_path("variant").read_text(encoding="utf-8"))

ALL_IDS = ([f"C{i}" for i in range(1, 13)] + [f"P{i}" for i in range(1, 10)]
           + [f"M{i}" for i in range(1, 10)])
ROW = re.compile(r"^\| ([CPM]\d+) \|", flags=re.MULTILINE)


# -- helpers -----------------------------------------------------------------------------------
def table_rows(text: str, first_header: str) -> list[list[str]]:
    """The body rows of every Markdown table whose header's first cell is ``first_header``."""
    rows: list[list[str]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and _cells(line)[0] == first_header and i + 1 < len(lines) \
                and lines[i + 1].startswith("|---"):
            for body in lines[i + 2:]:
                if not body.startswith("|"):
                    break
                rows.append(_cells(body))
    return rows


def _cells(line: str) -> list[str]:
    """The cells of a table row (no cell of these documents holds a ``|``)."""
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def code_block(text: str, lang: str, first_line: str) -> str:
    """The fenced ``lang`` block of ``text`` whose first line starts with ``first_line``."""
    blocks = re.findall(rf"^```{lang}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)
    found = [b for b in blocks if b.startswith(first_line)]
    assert len(found) == 1, f"one ```{lang} block starting {first_line!r}"
    return str(found[0])


def snippet(first_line: str) -> dict[str, Any]:
    """Run a Python block of docs/log-format.md as a module; its globals."""
    namespace: dict[str, Any] = {"__name__": "docs_snippet"}
    exec(compile(code_block(LOG_MD, "python", first_line), "log-format.md", "exec"), namespace)
    return namespace


def schema_node(path: list[str]) -> dict[str, Any] | None:
    node: dict[str, Any] = SCHEMA
    for part in path:
        props = node.get("properties", {})
        if part not in props:
            extra = node.get("additionalProperties")  # a map of named entries (side_bets)
            if isinstance(extra, dict) and "$ref" in extra:
                node = SCHEMA["$defs"][extra["$ref"].rsplit("/", 1)[1]]
                continue
            return None
        node = props[part]
    return node


KEY_SPAN = re.compile(r"([a-z_][a-z_.]*)(?:: (.+))?")


def named_keys(cell: str) -> list[tuple[str, str | None]]:
    """The key paths (and values) a keys cell names, from its code spans: after
    ``special_hands.one_team``, ``from_score: 11`` names ``special_hands.one_team.from_score``
    with the value 11; a span that is no key but a valid value of the key named before it
    (``same_leader``) is checked as that value."""
    out: list[tuple[str, str | None]] = []
    prefix = ""
    for span in re.findall(r"`([^`]+)`", cell):
        spec = KEY_SPAN.fullmatch(span)
        if spec is None:
            continue  # a value written out, like a list of cards
        path, value = spec.groups()
        full = path if "." in path and schema_node(path.split(".")) is not None else \
            f"{prefix}.{path}" if prefix else path
        node = schema_node(full.split("."))
        if node is None and out and value is None:
            check_value(out[-1][0], span)  # another value of the key named before
            continue
        assert node is not None, f"{full}: not a key of the variant schema ({cell})"
        if node.get("type") == "object":
            prefix = full
        out.append((full, value))
    return out


def check_value(path: str, value: str) -> None:
    node = schema_node(path.split("."))
    assert node is not None
    jsonschema.Draft202012Validator(node).validate(yaml.safe_load(value))


# -- docs/rules.md -----------------------------------------------------------------------------
def test_rules_md_names_every_rule_id_once_as_a_table_row() -> None:
    assert ROW.findall(RULES_MD) == ALL_IDS


@pytest.mark.parametrize("rule_id", ROW.findall(RULES_MD))
def test_every_rule_id_of_rules_md_is_named_by_a_schema_description(rule_id: str) -> None:
    descriptions: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("description"), str):
                descriptions.append(node["description"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(SCHEMA)
    assert any(re.search(rf"\b{rule_id}\b", d) for d in descriptions), rule_id


def test_every_key_rules_md_names_is_a_schema_key_with_a_valid_value() -> None:
    rows = table_rows(RULES_MD, "id")
    assert [r[0] for r in rows] == ALL_IDS
    named = 0
    for row in rows:
        assert len(row) == 4, row
        for path, value in named_keys(row[3]):
            named += 1
            if value is not None:
                check_value(path, value)
    assert named >= 40


def _get(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[part]
    return data


@pytest.mark.parametrize(("prefix", "variant"), [("P", "paulista"), ("M", "mineiro")])
def test_the_values_rules_md_gives_are_the_shipped_variants(prefix: str, variant: str) -> None:
    data = load_variant(variant).data
    checked = 0
    for row in table_rows(RULES_MD, "id"):
        if row[0].startswith(prefix):
            for path, value in named_keys(row[3]):
                if value is not None:
                    checked += 1
                    assert _get(data, path) == yaml.safe_load(value), (row[0], path)
    assert checked >= 8


def _written_keys(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """The leaf keys a variant file states itself (mappings walked, lists are leaves;
    ``card_names`` and ``deck.extra``, mappings keyed by card, and a mapping keyed by rank
    (``points.pieces.values``) are one leaf each)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if not prefix and key in ("$schema", "name", "title", "description", "extends"):
            continue
        path = f"{prefix}.{key}" if prefix else key
        if (isinstance(value, dict) and path not in ("card_names", "deck.extra")
                and all(KEY_SPAN.fullmatch(k) for k in value)):
            out.update(_written_keys(value, path))
        else:
            out[path] = value
    return out


def test_the_house_rules_table_names_every_house_variant_and_exactly_its_keys() -> None:
    rows = {r[0].strip("`"): r for r in table_rows(RULES_MD, "variant")}
    house = sorted((data_dir("variants") / "house").glob("*.yaml"))
    assert sorted(rows) == sorted(p.stem for p in house)
    for path in house:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        _, extends, _, keys = rows[path.stem]
        assert extends == f"`{data['extends']}`", path.stem
        written = _written_keys(data)
        named = named_keys(keys)
        assert sorted(p for p, _ in named) == sorted(written), path.stem
        for key, value in named:
            if value is not None:
                assert yaml.safe_load(value) == written[key], (path.stem, key)


# -- docs/log-format.md: the fingerprint -------------------------------------------------------
def _show(ref: str) -> str:
    from engine.cli import main

    result = CliRunner().invoke(main, ["variants", "show", ref])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", sorted(shipped_variants()))
def test_the_published_variant_sha256_program_gives_the_fingerprint(name: str) -> None:
    variant_sha256 = snippet("# variant_sha256.py")["variant_sha256"]
    expected = load_variant(name).fingerprint
    shown = _show(name)
    assert shown.splitlines()[0] == f"# variant_sha256: {expected}"
    assert variant_sha256(yaml.safe_load(shown)) == expected
    assert variant_sha256(load_variant(name).data) == expected  # the resolved rules as data


def test_the_variant_sha256_program_runs_as_written_on_a_house_file(tmp_path: Path) -> None:
    mine = tmp_path / "my-house.yaml"
    mine.write_text("title: Mine\nextends: paulista\ncovered_cards:\n  allowed: false\n"
                    "special_hands:\n  one_team:\n    name: mão de onze e meia\n",
                    encoding="utf-8")
    program = code_block(LOG_MD, "python", "# variant_sha256.py")
    out = subprocess.run([sys.executable, "-c", program], input=_show(str(mine)),
                         capture_output=True, text=True, check=True, encoding="utf-8")
    fingerprint = load_variant(mine).fingerprint
    assert out.stdout == fingerprint + "\n"
    assert fingerprint not in (load_variant("paulista").fingerprint,
                               load_variant("no-covered-cards").fingerprint)


def test_the_fingerprint_recipe_in_words() -> None:
    """Steps 2 to 4 of the section: the top-level labels dropped, sorted keys, no spaces."""
    rules = load_variant("mineiro")
    kept = {k: v for k, v in rules.data.items()
            if k not in ("$schema", "name", "title", "description", "extends", "card_names")}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert "mão de dez" in text and ": " not in text
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == rules.fingerprint
    velha = load_variant("manilha-velha").data["manilhas"]
    assert velha["mode"] == "fixed" and velha["suit_order"] == ["d", "s", "h", "c"]


# -- docs/log-format.md: the seeded shuffle ----------------------------------------------------
def test_the_published_shuffle_gives_the_test_vectors() -> None:
    ns = snippet("# seeded_deal.py")
    rng = ns["SplitMix64"](0)
    draws = [f"0x{rng.next():016X}" for _ in range(5)]
    vector = re.search(r"Seed 0, the first five draws: (.*?)\. ", LOG_MD, flags=re.DOTALL)
    assert vector is not None
    assert draws == re.findall(r"`(0x[0-9A-F]{16})`", vector.group(1))
    hands, vira = ns["deal"](ns["SplitMix64"](7), "A234567QJK", 4, 0)
    written = re.search(r"Seed 7, Paulista's 40-card\s+deck, dealer 0, the first hand:(.*?)\.\n",
                        LOG_MD, flags=re.DOTALL)
    assert written is not None
    seats = re.findall(r"seat (\d)\s+`([^`]+)`", written.group(1))
    assert [h for _, h in seats] == [" ".join(h) for h in hands]
    assert f"vira `{vira}`" in written.group(1)
    m = Match.new("paulista", seed=7)
    assert [list(h) for h in m.dealt] == hands and m.vira == vira


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "one-on-one"])
def test_the_published_shuffle_deals_as_the_engine_hand_after_hand(variant: str) -> None:
    ns = snippet("# seeded_deal.py")
    rules = load_variant(variant)
    for seed in (0, 1, 2**64 - 1):
        mine, theirs = ns["SplitMix64"](seed), SplitMix64(seed)
        for hand in range(6):
            dealer = hand % rules.players
            hands, vira = ns["deal"](mine, rules.deck_ranks, rules.players, dealer,
                                     rules.cards_per_player, rules.has_vira)
            e_hands, e_vira = engine_deal(rules.deck, theirs, rules.players,
                                          rules.cards_per_player, dealer, rules.has_vira)
            assert hands == [[card_name(c) for c in h] for h in e_hands]
            assert vira == (None if e_vira is None else card_name(e_vira))


# -- docs/log-format.md: limits, errors, example -----------------------------------------------
def test_the_limits_table_states_the_reader_constants() -> None:
    rows = table_rows(LOG_MD, "limit")
    assert len(rows) == 8
    for _, value, where in rows:
        number = int(re.match(r"\d+", value).group())  # type: ignore[union-attr]
        constant = re.fullmatch(r"`(engine\.\w+)\.(\w+)`", where)
        if constant is None:
            assert "default_max_str_digits" in where
            assert number == sys.int_info.default_max_str_digits
        else:
            assert number == getattr(importlib.import_module(constant.group(1)),
                                     constant.group(2)), where


def test_the_error_kinds_table_is_the_readers_list() -> None:
    kinds = [r[0].strip("`") for r in table_rows(LOG_MD, "kind")]
    assert kinds == list(typing.get_args(ProblemKind))


def test_the_example_log_verifies_and_is_incomplete() -> None:
    log = code_block(LOG_MD, "jsonl", '{"truco_log": 1').encode("utf-8")
    result = verify_bytes(log, "example.jsonl")
    assert result.valid, [str(p) for p in result.problems]
    assert result.incomplete is not None and result.score == [0, 3]


def test_a_version_3_header_is_refused_as_the_doc_says() -> None:
    result = verify_bytes(b'{"truco_log": 3, "variant": "paulista"}\n', "v3.jsonl")
    message = "bad header: unsupported format version 3: expected 1 or 2"
    assert [p.message for p in result.problems] == [message] and message in LOG_MD


def _mao_de_dez_log(raise_event: str) -> bytes:
    """Mineiro: team 0 reaches 10 with ten trucos that team 1 refuses (a point each, C9); in the
    mão de dez that follows, ``raise_event`` is written."""
    rules = load_variant("mineiro")
    m = Match.new(rules, seed=None)
    cards = rules.deck[:12]
    lines = ['{"truco_log": 1, "variant": "mineiro"}']
    while m.state != "decide":
        deal = Deal(m.dealer, tuple(tuple(cards[s * 3:s * 3 + 3]) for s in range(4)), None)
        m.deal(deal)
        lines.append(json.dumps(deal.to_event()))
        if m.state == "decide":
            break
        for move in (next(a for a in m.legal_actions(0) if a.kind == "raise"), Action.fold(1)):
            m.apply(move)
            lines.append(json.dumps(move.to_event()))
    assert m.score == [10, 0] and m.special_team == 0
    lines.append(raise_event)
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.mark.parametrize("card", [', "card": "3c"', ', "card": "8c"', ""])
def test_M5_a_penalised_raise_may_name_any_card_or_none(card: str) -> None:
    """log-format.md: the engine accepts any card in a penalised raise (one the raiser does not
    hold, one outside the deck) or none; the raising team loses all the same."""
    event = '{"event": "raise", "seat": 3, "value": 3' + card + "}"
    result = verify_bytes(_mao_de_dez_log(event), "penalised.jsonl")
    assert result.valid, [str(p) for p in result.problems]
    assert result.games == [1, 0] and result.score == [0, 0]
