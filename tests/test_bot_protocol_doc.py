"""docs/bot-protocol.md is enough to write a bot in any language: every observation key the
engine sends is in the schema and in the doc, every move's notation the bots are offered is in
the doc, ``legal`` comes in the documented order, and the doc's example bot plays well."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import jsonschema
import pytest
from conftest import REPO

from engine import Match
from engine.bots import make_bot
from engine.bots.base import seat_view
from engine.observation import Observation, SideBetView, to_json
from engine.protocol.external import ExternalBot, end_all
from engine.shuffle import SplitMix64
from engine.simulate import bot_seed, play_match
from engine.variant import load_variant

DOC = (REPO / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
SCHEMAS = REPO / "schemas" / "bot-protocol"
VARIANTS = ["paulista", "mineiro", "gauderio",
            *sorted(str(p) for p in (REPO / "variants" / "house").glob("*.yaml"))]


def _schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def _section(title: str) -> str:
    return DOC.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _shape(move: str) -> str:
    """A move's notation with its seat, cards and numbers left out: ``cut seco``, ``raise``."""
    words = move.split()
    rest = [w for w in words[2:] if not re.fullmatch(r"[A2-9TJQK][cdhs]|X\d+|#\d|\d+", w)]
    return " ".join([words[0], *rest])


def _views(variant: str, seed: int, moves: int = 120) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """Each seat's view (as JSON) and legal moves, before each of a random match's moves."""
    m = Match.new(variant, seed=seed)
    choose = SplitMix64(seed)
    for _ in range(moves):
        if m.is_over:
            return
        for seat in range(m.players):
            obs, legal = seat_view(m, seat)
            if legal:
                yield to_json(obs), [str(a) for a in legal]
        legal_now = m.legal_actions()
        m.apply(legal_now[choose.bounded(len(legal_now))])


def test_the_judge_and_decision_schemas_hold_one_observation() -> None:
    assert _schema("judge")["properties"]["observation"] == \
        _schema("decision")["properties"]["observation"]


def test_every_observation_key_is_in_the_schema_and_told_in_the_doc() -> None:
    schema = _schema("decision")["properties"]["observation"]
    bets = schema["properties"]["side_bets"]["items"]["properties"]
    table = _section("The observation")
    for key in get_type_hints(Observation):
        assert key in schema["properties"], key
        assert f"`{key}`" in table, key
    for key in get_type_hints(SideBetView):
        assert key in bets, key
        assert f"`{key}`" in table, key


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).stem)
def test_every_view_follows_the_schema_the_notation_and_the_order_the_doc_tells(
        variant: str) -> None:
    schema = _schema("decision")["properties"]["observation"]
    validator = jsonschema.Draft202012Validator(schema)
    documented = {_shape(m) for m in re.findall(r"`([a-z_]+ \d[^`]*)`", _section("Moves"))}
    for obs, legal in _views(variant, 1):
        validator.validate(obs)
        assert {_shape(m) for m in legal} <= documented, legal
        kinds = [m.split()[0] + (" covered" if m.endswith(" covered") else "") for m in legal]
        runs = [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]
        assert len(runs) == len(set(runs)), legal  # each kind's moves together
        faces = [m.split()[2] for m in legal if kinds[legal.index(m)] == "play"]
        if obs["hand"] is not None and faces:
            assert faces == [c for c in obs["hand"] if c in faces]


def _doc_bot(tmp_path: Path) -> str:
    code = _section("Playing well").split("```python\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "docbot.py"
    path.write_text(code, encoding="utf-8")
    return f"{sys.executable} {path}"


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio"])
def test_the_docs_example_bot_beats_random(tmp_path: Path, variant: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUCO_BOT_STDERR", str(tmp_path / "stderr"))
    command = _doc_bot(tmp_path)
    rules = load_variant(variant)
    won = 0
    try:
        for seed in range(20):
            bots = [ExternalBot(rules, bot_seed(seed, s), command) if s % 2 == 0
                    else make_bot("random", rules, bot_seed(seed, s)) for s in range(4)]
            m = Match(rules, seed=seed)
            play_match(m, bots)  # type: ignore[arg-type]
            assert not any(b.faults for b in bots if isinstance(b, ExternalBot))
            won += m.winner == 0
    finally:
        end_all()
    assert won >= 15  # 75%: it wins 17 to 19 of these 20 seeded matches
