"""A position's shape: its JSON Schema (built from ``engine/schemabase/position.json`` and the
phases the move kinds declare; ``python -m engine.generate`` writes it to
``schemas/position.schema.json``), checked strictly (a JSON integer is never ``1.0`` or
``true``), and the refusal naming the field."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from engine.errors import PositionError, Why
from engine.moves import KINDS, PHASES
from engine.schemas import base_schema, strict_validator
from engine.state import DEAL

#: The version of the position format (the ``position`` key).
POSITION_FORMAT = 1

#: A position: JSON-ready data (docs/positions.md).
Position = dict[str, Any]


def refuse(why: Why, path: str) -> PositionError:
    """The refusal of a position, at the field ``path`` (a key path, :func:`key_path`)."""
    return PositionError(why, path=path)


#: The machine's own phases (no kind declares them), first and last, and what each waits for.
_OWN_PHASES = ((DEAL, "the next hand's cards are awaited"),)
_LAST_PHASE = "match_over"
#: The base key before which the kinds' own state (:class:`engine.moves.KindState`) stands.
_KINDS_BEFORE = "side_bets"


@cache
def position_schema() -> dict[str, Any]:
    """The JSON Schema of a position: the base, the phases (``state``: ``deal``, those the
    kinds declare in their order, :data:`engine.moves.PHASES`, then ``match_over``) and the
    kinds' own state (before ``side_bets``)."""
    schema = base_schema("position")
    phases = [*_OWN_PHASES, *((name, w.about) for name, w in PHASES.items())]
    told = ", ".join(f"{name} ({about})" if about else name for name, about in phases)
    props = schema["properties"]
    props["state"] = {
        "enum": [*(name for name, _ in phases), _LAST_PHASE],
        "description": f"The phase of the match: {told}, {_LAST_PHASE}."}
    states = {k.state.key: k.state.schema for k in sorted(KINDS.values(), key=lambda k: k.order)
              if k.state is not None}
    schema["properties"] = {}
    for key, value in props.items():  # the kinds' own state before the side bets
        if key == _KINDS_BEFORE:
            schema["properties"].update(states)
        schema["properties"][key] = value
    return schema


@cache
def _validator() -> Any:
    return strict_validator(position_schema())  # JSON integers only, never 1.0 or true


def between_hands(state: str) -> bool:
    """Whether nothing of the hand is dealt in ``state``: ``deal``, or a phase that opens the
    hand before its deal (a cut, :class:`engine.moves.Phase`)."""
    phase = PHASES.get(state)
    return state == DEAL or (phase is not None and phase.opens)


def key_path(parts: Sequence[str | int]) -> str:
    """A key path as the errors write it: ``hands[2][1]``, ``round.turn``."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def schema_check(position: object) -> None:
    """Refuse (``position_schema``) what is not a position by the JSON Schema, naming the
    first field in error (a missing key by its name)."""
    errors = sorted(_validator().iter_errors(position),
                    key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        e = errors[0]
        where: list[str | int] = list(e.absolute_path)
        if e.validator == "required" and isinstance(e.instance, dict):  # name the missing key
            where += [k for k in e.validator_value if k not in e.instance][:1]
        raise refuse(Why("position_schema", f"not a position: {e.message}"), key_path(where))
