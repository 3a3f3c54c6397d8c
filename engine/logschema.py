"""``schemas/log.schema.json``, built from the move kinds: each kind gives its log event (its
place, description, format version, and its fields from its payload, :mod:`engine.payload`);
the format's own parts (the header, the shared definitions, the checkpoints) are below. The
engine checks logs against :func:`build` (:func:`engine.logcheck.log_schema`), never the file;
``python -m engine.generate`` rewrites the file, and a test fails when it differs.

>>> MOVES[:3], NEWER["concede"]
(('deal', 'play', 'raise'), (2, 'a concede move'))
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.moves import MoveKind, load_kinds
from engine.payload import LogEvent

# -- the format's own parts ----------------------------------------------------------------
_TOP: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://truco-engine.example/schemas/log.schema.json",
    "title": "Truco game log line",
    "description": (
        "One line of a game log (docs/log-format.md, versions 1 and 2; version 2 is a superset "
        "of version 1): line 1 is the header, every later line an event. Integers must be JSON "
        "integers (1.0 and true are not); duplicate keys, NaN and Infinity are invalid JSON for "
        "a log."),
}

_BASE: dict[str, Any] = {
    "seat": {
        "type": "integer",
        "minimum": 0,
        "description": "A seat, 0-based; partners sit in alternate seats (team = seat % 2).",
    },
    "team": {
        "type": "integer",
        "minimum": 0,
        "maximum": 5,
        "description": (
            "A team: 0 (seats 0 and 2) or 1 (seats 1 and 3); in version 2 only, a variant of "
            "more than two teams numbers them in the order it lists them (teams), from 0."),
    },
    "winner": {
        "type": ["integer", "null"],
        "minimum": 0,
        "maximum": 5,
        "description": "The winning team, or null for nobody (a tie).",
    },
    "points": {
        "type": "integer",
        "minimum": 0,
        "description": "A count of points or games, never negative.",
    },
    "pair": {
        "type": "array",
        "items": {"$ref": "#/$defs/points"},
        "minItems": 2,
        "maxItems": 6,
        "description": (
            "One entry per team, in the variant's order: [team 0, team 1]; in version 2 only, "
            "more for a variant of more than two teams (teams)."),
    },
    "card": {
        "type": "string",
        "pattern": "^([A2-9TJQK][cdhs]|X([1-9]|1[0-6]))$",
        "description": (
            "A card: rank (A 2 3 4 5 6 7 8 9 T J Q K) then suit (c d h s), like \"4c\" or "
            "\"Kd\"; or, in version 2 only, an extra card outside the 52 (a joker), X1 to X16."),
    },
    "t": {
        "type": ["string", "number"],
        "description": "A timestamp, any JSON string or number; ignored by the engine.",
    },
    "meta": {
        "type": "object",
        "description": "Anything (date, table, source); ignored by the engine.",
    },
    "header": {
        "type": "object",
        "description": "Line 1 of every log.",
        "additionalProperties": False,
        "required": ["truco_log", "variant"],
        "properties": {
            "truco_log": {
                "type": "integer",
                "description": (
                    "The format version: 1, or 2 for a log that needs what version 2 added "
                    "(extra cards, X1...; the concede move; a header with a position). Every "
                    "version-1 log is also a valid version-2 log."),
                "enum": [1, 2],
            },
            "variant": {
                "type": "string",
                "minLength": 1,
                "description": (
                    "A shipped variant's name (as truco variants list shows them) or a path "
                    "to a variant YAML file, relative to the log's folder."),
            },
            "seed": {
                "type": "integer",
                "minimum": 0,
                "maximum": 18446744073709551615,
                "description": (
                    "Unsigned 64-bit seed of the deals (docs/log-format.md, Seeded deals). "
                    "Without one, every hand needs a deal event."),
            },
            "seed_commitment": {
                "type": "string",
                "pattern": "^[0-9a-f]{64}$",
                "description": (
                    "Version 2 only: SHA-256, lowercase hex, of \"<seed>:<nonce>\" (docs/"
                    "log-format.md, Committed seeds): a secret seed the table committed to "
                    "before the first card, revealed by the last line's reveal event. A header "
                    "with a commitment has no seed and no position; every hand has a deal "
                    "event."),
            },
            "dealer": {
                "$ref": "#/$defs/seat",
                "description": "Seat of the first hand's dealer, default 0.",
            },
            "draw": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "array", "minItems": 1,
                          "items": {"anyOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]}},
                "description": (
                    "Version 2 only, variants with match.first_dealer: drawn: the draw of the "
                    "first dealer (docs/log-format.md, The first dealer drawn), one list a "
                    "round, by seat, the card drawn or null; its highest card's seat is the "
                    "dealer. With a seed it must be the seed's draw."),
            },
            "position": {
                "type": "object",
                "description": (
                    "Version 2 only: the match starts at this position (docs/positions.md), an "
                    "object checked by the engine against schemas/position.schema.json and the "
                    "rules; a header with a position has no seed (the position's rng is the "
                    "generator's state) and no dealer."),
            },
            "players": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 1,
                "description": "Display names by seat.",
            },
            "variant_sha256": {
                "type": "string",
                "pattern": "^[0-9a-f]{64}$",
                "description": (
                    "Fingerprint of the resolved variant the log was played under; a mismatch "
                    "is reported."),
            },
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
}

_CHECKPOINTS: dict[str, Any] = {
    "round": {
        "type": "object",
        "description": "Checkpoint: a round's winner.",
        "additionalProperties": False,
        "required": ["event", "winner"],
        "properties": {
            "event": {"const": "round", "description": "The event type, \"round\"."},
            "winner": {"$ref": "#/$defs/winner"},
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
    "hand": {
        "type": "object",
        "description": "Checkpoint: a hand's result.",
        "additionalProperties": False,
        "required": ["event", "winner", "points", "score"],
        "properties": {
            "event": {"const": "hand", "description": "The event type, \"hand\"."},
            "winner": {"$ref": "#/$defs/winner"},
            "points": {
                "$ref": "#/$defs/points",
                "description": "Points scored by the winner (0 when nobody scores).",
            },
            "score": {"$ref": "#/$defs/pair", "description": "The game's score after the hand."},
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
    "game": {
        "type": "object",
        "description": "Checkpoint: a game's result.",
        "additionalProperties": False,
        "required": ["event", "winner", "score", "games"],
        "properties": {
            "event": {"const": "game", "description": "The event type, \"game\"."},
            "winner": {"$ref": "#/$defs/team"},
            "score": {"$ref": "#/$defs/pair", "description": "The final score of the game."},
            "games": {"$ref": "#/$defs/pair", "description": "Games won so far in the match."},
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
    "match": {
        "type": "object",
        "description": "Checkpoint: the match's result.",
        "additionalProperties": False,
        "required": ["event", "winner", "games"],
        "properties": {
            "event": {"const": "match", "description": "The event type, \"match\"."},
            "winner": {"$ref": "#/$defs/team"},
            "games": {"$ref": "#/$defs/pair", "description": "Games won in the match."},
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
    "side_declare": {
        "type": "object",
        "description": (
            "Checkpoint (version 2): what a player says when a side bet is accepted (G30), in "
            "order: his points, or null for \"são boas\" (his points stay hidden)."),
        "additionalProperties": False,
        "required": ["event", "seat", "points"],
        "properties": {
            "event": {"const": "side_declare", "description": "The event type, \"side_declare\"."},
            "seat": {"$ref": "#/$defs/seat"},
            "points": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": (
                    "The declared points (computed by the engine, G22), or null: \"são boas\"."),
            },
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
    "side_bet": {
        "type": "object",
        "description": (
            "Checkpoint (version 2): a side bet's points credited (G28-G31): at its settlement, "
            "or at the end of the hand before the hand checkpoint where the variant credits "
            "them then (GH6)."),
        "additionalProperties": False,
        "required": ["event", "bet", "calls", "accepted", "winner", "points", "score"],
        "properties": {
            "event": {"const": "side_bet", "description": "The event type, \"side_bet\"."},
            "bet": {
                "type": "string",
                "minLength": 1,
                "description": "The bet's name in the variant (side_bets).",
            },
            "calls": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 40,
                    "description": (
                        "A call of a side bet, as the variant names it (G27: envido, real "
                        "envido, falta envido)."),
                },
                "description": "The chain of calls, in the order made (G27).",
            },
            "accepted": {
                "type": "boolean",
                "description": (
                    "Whether the last call was accepted (the points compared) or refused."),
            },
            "winner": {
                "$ref": "#/$defs/team",
                "description": (
                    "The team that scores: the best points' team, or the last caller's on a "
                    "refusal."),
            },
            "points": {"$ref": "#/$defs/points", "description": "Points scored by the winner."},
            "score": {
                "$ref": "#/$defs/pair",
                "description": "The game's score after the crediting.",
            },
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
    "side_show": {
        "type": "object",
        "description": (
            "Checkpoint (version 2): at the end of the hand, the cards of a winning declaration "
            "still in hand become public (G32, G50)."),
        "additionalProperties": False,
        "required": ["event", "seat", "cards"],
        "properties": {
            "event": {"const": "side_show", "description": "The event type, \"side_show\"."},
            "seat": {"$ref": "#/$defs/seat"},
            "cards": {
                "type": "array",
                "minItems": 1,
                "items": {"$ref": "#/$defs/card"},
                "description": "The cards shown.",
            },
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
}

#: The reveal of a committed seed (docs/log-format.md, Committed seeds): neither a move nor a
#: checkpoint, the last line of a log whose header has a ``seed_commitment``.
_REVEAL: dict[str, Any] = {
    "reveal": {
        "type": "object",
        "description": (
            "Reveal (version 2): the last line of a log whose header has a seed_commitment, "
            "written once the match is over: the committed seed, its nonce and the seats' "
            "entropy, from which every deal of the log follows."),
        "additionalProperties": False,
        "required": ["event", "seed", "nonce", "entropy"],
        "properties": {
            "event": {"const": "reveal", "description": "The event type, \"reveal\"."},
            "seed": {
                "type": "integer",
                "minimum": 0,
                "maximum": 18446744073709551615,
                "description": "The server's secret seed, committed to in the header.",
            },
            "nonce": {
                "type": "string",
                "pattern": "^[0-9a-f]{32}$",
                "description": "The commitment's nonce: 32 lowercase hex digits.",
            },
            "entropy": {
                "type": "array",
                "items": {"type": "string", "pattern": "^[0-9a-f]{0,64}$"},
                "minItems": 1,
                "description": (
                    "Each seat's contribution, in seat order: up to 64 lowercase hex digits, "
                    "\"\" for a seat that gave none."),
            },
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    },
}

#: The checkpoints' format versions, where above 1 (side bets, G28-G32), and how an error
#: names them.
_CHECKPOINT_VERSIONS = {name: (2, f"a side bet's {name} event")
                        for name in ("side_declare", "side_bet", "side_show")}


# -- from the kinds ------------------------------------------------------------------------
def _logged() -> list[tuple[MoveKind, LogEvent]]:
    """The kinds whose moves stand in a log, in their events' order."""
    found = [(k, k.log) for k in load_kinds().values() if k.log is not None]
    return sorted(found, key=lambda kl: kl[1].place)


def _event_schema(kind: MoveKind, log: LogEvent) -> dict[str, Any]:
    """The JSON Schema of one kind's log event."""
    if log.schema is not None:
        required, properties = list(log.schema["required"]), dict(log.schema["properties"])
    else:
        assert kind.payload is not None, f"{kind.name} has a log event but no payload"
        fields = kind.payload.fields
        required = ["seat", *(f.key for f in fields if f.needed)]
        properties = {"seat": {"$ref": "#/$defs/seat"}, **{f.key: f.schema() for f in fields}}
    return {
        "type": "object",
        "description": log.about,
        "additionalProperties": False,
        "required": ["event", *required],
        "properties": {
            "event": {"const": kind.name, "description": f"The event type, \"{kind.name}\"."},
            **properties,
            "t": {"$ref": "#/$defs/t"},
            "meta": {"$ref": "#/$defs/meta"},
        },
    }


#: The move events, in the format's order (its tables; an unknown event's message).
MOVES: tuple[str, ...] = tuple(k.name for k, _ in _logged())
#: The checkpoint events, in the format's order.
CHECKPOINTS: tuple[str, ...] = tuple(_CHECKPOINTS)
#: The events that are neither moves nor checkpoints: the reveal of a committed seed.
OTHERS: tuple[str, ...] = tuple(_REVEAL)
#: The events version 1 has not: the version that has each, and how an error names it.
NEWER: dict[str, tuple[int, str]] = {
    **{k.name: (log.version, log.named or f"a {k.name} move")
       for k, log in _logged() if log.version > 1},
    **_CHECKPOINT_VERSIONS,
    "reveal": (2, "a reveal event"),
}


def _listed(names: Sequence[str]) -> str:
    old = [n for n in names if n not in NEWER]
    new = [n for n in names if n in NEWER]
    return ", ".join(old) + (f"; version 2: {', '.join(new)}" if new else "")


def build() -> dict[str, Any]:
    """The log schema, as data."""
    events = {k.name: _event_schema(k, log) for k, log in _logged()} | _CHECKPOINTS | _REVEAL
    names = list(events)
    any_event = {
        "type": "object",
        "description": (f"Any line after the header: a move ({_listed(MOVES)}), a checkpoint "
                        f"({_listed(CHECKPOINTS)}) or, last, a reveal (version 2)."),
        "required": ["event"],
        "properties": {"event": {"enum": names, "description": "The event type."}},
        "allOf": [{"if": {"properties": {"event": {"const": name}}, "required": ["event"]},
                   "then": {"$ref": f"#/$defs/{name}"}} for name in names],
    }
    return {**_TOP, "oneOf": [{"$ref": "#/$defs/header"}, {"$ref": "#/$defs/event"}],
            "$defs": {**_BASE, **events, "event": any_event}}


def render() -> str:
    """The text of ``schemas/log.schema.json``."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"
