"""``schemas/log.schema.json`` is built from the move kinds (issue 27): each kind's event schema
accepts exactly the events its Action writes (the committed file is the one
:func:`engine.logschema.render` gives: tests/test_generate.py)."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest

from engine import Action, Match
from engine.logschema import MOVES, NEWER, build, render
from engine.moves import KINDS


def test_every_kind_with_a_log_event_is_in_the_schema_and_only_those() -> None:
    defs = build()["$defs"]
    logged = {name for name, k in KINDS.items() if k.log is not None}
    assert set(MOVES) == logged
    assert set(MOVES) <= set(defs["event"]["properties"]["event"]["enum"])
    for name in MOVES:
        assert defs[name]["properties"]["event"] == {
            "const": name, "description": f"The event type, \"{name}\"."}
    assert NEWER["concede"] == (2, "a concede move")
    assert {"envido", "flor", "quero", "nao_quero", "side_show"} <= set(NEWER)
    assert not {"deal", "play", "raise", "accept", "fold", "decide", "round"} & set(NEWER)


@pytest.mark.parametrize("variant", ["gauderio", "mineiro", "concede", "capixaba-jokers",
                                     "raiser-must-kill", "gauderio-flor-argentina"])
def test_every_move_event_an_action_writes_fits_its_kinds_schema(variant: str) -> None:
    schema = json.loads(render())
    validator = jsonschema.Draft202012Validator(schema)
    rng = random.Random(7)
    for seed in range(3):
        m = Match.new(variant, seed=seed)
        while not m.is_over:
            legal = m.legal_actions()
            for a in legal:
                ev = a.to_event()
                validator.validate(ev)
                assert Action.from_event(ev) == a
            m.apply(rng.choice(legal))
    bad = {"event": "play", "seat": 0, "card": "4c", "covered": False, "call": "x"}
    assert not validator.is_valid(bad)
