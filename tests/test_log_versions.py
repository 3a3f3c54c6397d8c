"""Which version of the log format an event needs (engine.logversion, issue 26): one list of the
event types, the schema naming the same, and one rule whatever the bytes of a line."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import logread
from engine.logread import LogItem, LogProblem, log_schema, read_line
from engine.logversion import EVENTS, NEWER_EVENTS, event_needs

#: A line of each event type but the kinds' moves, good against the schema.
EVENT_LINES = {
    "deal": {"event": "deal", "dealer": 0, "hands": [["4c", "5c", "6c"], ["7c", "Qc", "Jc"]]},
    "round": {"event": "round", "winner": 1},
    "hand": {"event": "hand", "winner": 1, "points": 1, "score": [0, 1]},
    "game": {"event": "game", "winner": 1, "score": [3, 12], "games": [0, 1]},
    "match": {"event": "match", "winner": 1, "games": [0, 1]},
    "side_declare": {"event": "side_declare", "seat": 1, "points": None},
    "side_bet": {"event": "side_bet", "bet": "envido", "calls": ["envido"], "accepted": True,
                 "winner": 1, "points": 2, "score": [0, 2]},
    "side_show": {"event": "side_show", "seat": 1, "cards": ["4c", "5c"]},
    "reveal": {"event": "reveal", "seed": 7, "nonce": "0" * 32, "entropy": ["", "ab"]},
}


def _sample(node: dict[str, Any]) -> Any:
    """A value of a move's field, from its schema (a reference: a seat, a card)."""
    ref = node.get("$ref", "")
    if ref:
        return {"#/$defs/seat": 1, "#/$defs/card": "4c"}[ref]
    if "enum" in node:
        return node["enum"][0]
    return {"boolean": False, "integer": node.get("minimum", 1), "string": "a"}[
        node["type"]]


def _move_line(event: str) -> dict[str, Any]:
    """A line of a kind's move (its required fields) from the log schema, which the kinds'
    declarations generate: a new kind's event needs no line here."""
    node = log_schema()["$defs"][event]
    return {"event": event, **{k: _sample(node["properties"][k]) for k in node["required"]
                               if k != "event"}}


#: A line of each event type, good against the schema.
LINES = {**EVENT_LINES, **{e: _move_line(e) for e in EVENTS if e not in EVENT_LINES}}


def test_GH26_the_schema_names_the_event_types_of_logversion() -> None:
    schema = log_schema()["$defs"]
    assert schema["event"]["properties"]["event"]["enum"] == list(EVENTS)
    for event, (kind, version) in EVENTS.items():
        words = schema[event]["description"]
        assert words.startswith({"checkpoint": "Checkpoint", "reveal": "Reveal"}.get(
            kind, "Move")), event
        assert ("(version 2" in words) == (version == 2), event
    assert set(logread.EVENT_TYPES) == set(EVENTS) == set(LINES)
    assert set(logread.VERSION_2_EVENTS) == NEWER_EVENTS
    assert set(logread.CHECKPOINTS) == {e for e, (k, _) in EVENTS.items() if k == "checkpoint"}


def _escaped(text: str, which: list[bool]) -> str:
    """``text`` as a JSON string, the characters where ``which`` holds written ``\\uXXXX``."""
    return '"' + "".join(f"\\u{ord(c):04x}" if w else c
                         for c, w in zip(text, which + [False] * len(text), strict=False)) + '"'


@given(st.sampled_from(sorted(EVENTS)), st.lists(st.booleans(), max_size=12))
def test_GH26_an_event_needs_the_same_version_whatever_its_bytes(
        event: str, which: list[bool]) -> None:
    line = json.dumps(LINES[event])
    plain = line.encode()
    written = line.replace(f'"{event}"', _escaped(event, which), 1).encode()
    for version in (1, 2):
        answers = [read_line(b, 3, "a.jsonl", version) for b in (plain, written)]
        if version >= EVENTS[event][1]:
            assert all(isinstance(a, LogItem) and a.data == LINES[event] for a in answers)
        else:
            assert all(isinstance(a, LogProblem) for a in answers)
            assert str(answers[0]) == str(answers[1])
            assert "needs log format version 2" in str(answers[0])
    assert event_needs(LINES[event])[0] == EVENTS[event][1]
