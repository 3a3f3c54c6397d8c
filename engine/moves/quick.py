"""Quick moves: a kind's commonest move made whole by one function of the kind's module
(``MoveKind.quick``), where the variant's machine would make it by the kind's own
transitions alone.

A move through the machine is a ruling, the plan of its state, the kind's judge, the
conditions and the effect: for a card that cannot end the hand, five calls and an object
for a few list operations. A kind may offer ``quick(rules, table, enters)``: a function
``(match, move)`` that makes such a move exactly as the machine would (its judge's checks and
its effect, for that case only) and returns its checkpoints (a new list, empty but where the
move ends a round), or changes nothing and returns ``None`` (anything else: the machine rules
the move, and says why it is illegal).
:meth:`engine.game.Match.apply` asks it first. It is used only where the variant's machine has
the kind's transitions as the kind gives them (no other kind rewrote them, as the flor kind
rewrites a card's where a flor may be due, G35): then nothing but the kind's judge and effect
would run, the state the move goes to, and what runs on entering it. A quick move that changes
the state sets ``Match.state`` to it as the machine's plan does, and then runs the effects of
entering it, ``enters`` (by state: the machine's ``on_enter`` callbacks, called with the move
and a ruling, as the plan calls them), or offers no quick move where the state it goes to has
some it does not run; nothing runs on leaving a state.

The chance step has one too: the ``deal`` kind's (:mod:`engine.moves.deal`), the next hand of
a seeded match dealt whole, which the ``deal`` state's ``deal_next`` asks first; its move is
not read (the seed deals).

>>> from engine import Match
>>> sorted(Match.new("paulista", seed=1).move_table.quick)
['accept', 'deal', 'fold', 'play', 'raise']
>>> sorted(Match.new("gauderio", seed=1).move_table.quick)  # flor: its own cards and raises
['accept', 'fold']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.moves import KINDS
from engine.ruling import EFFECTS

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import Quick


def quick_moves(rules: Rules, tables: dict[str, Any], states: list[dict[str, Any]],
                transitions: list[dict[str, Any]]) -> dict[str, Quick]:
    """The kinds' quick moves in the variant, by kind (made with the kinds' ``tables`` and
    the effects of entering each of the machine's ``states``): each kind's that offers one,
    where the machine's ``transitions`` for the kind's moves are the kind's own (a state as a
    :class:`~engine.state.Phase` or its name: they compare equal)."""
    enters = {s["name"]: tuple(EFFECTS[ref] for ref in s.get("on_enter", ())) for s in states}
    out: dict[str, Quick] = {}
    for kind in KINDS.values():
        if kind.quick is None or not kind.enabled(rules):
            continue
        if [t for t in transitions if t["trigger"] == kind.name] != kind.transitions(rules):
            continue
        made = kind.quick(rules, tables.get(kind.name), enters)
        if made is not None:
            out[kind.name] = made
    return out
