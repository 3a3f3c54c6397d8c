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

Quick listings: a state's listers (a card's and a raise's, in ``play``) as one function,
written out as Python source from each kind's ``quick_listing(rules, table, state)`` where
every lister of the state gives one (:func:`quick_listings`), which
:meth:`engine.game.Match.legal_actions` calls instead of the listers. A kind gives its lines
and the names they read (:data:`engine.view.Listing`): the lines append the kind's legal
moves to ``out`` exactly as its lister would, reading ``m`` (the match), ``seat`` (the seat
asked; ``None``: every seat), ``hand`` and ``rnd`` (``m.hand``, ``m.round``) and the names,
each the kind's name and ``_`` first (``play_face_up``); they may set other locals (the next
kind's lines set their own before reading them), and must not return. In a state whose moves
are listed seat by seat (a raise's answers), the lines run for each seat that may answer,
``seat`` that seat, after its answers. Interpreted only:
compiled, the listers are machine code, faster than the source.

>>> from engine import Match
>>> sorted(Match.new("paulista", seed=1).move_table.quick)
['accept', 'deal', 'fold', 'play', 'raise']
>>> sorted(Match.new("gauderio", seed=1).move_table.quick)  # flor: its own cards and raises
['accept', 'fold']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.moves import KINDS
from engine.moves.answers import answering_seats
from engine.ruling import EFFECTS
from engine.slots import interpreted
from engine.view import Moves

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.rules import Rules
    from engine.view import Listed, Listing, Quick

#: Whether the listers are compiled (build_native.py): then no state's listing is fused.
_COMPILED = not interpreted(Moves)


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


def quick_listings(rules: Rules, moves: Moves) -> dict[str, Listed]:
    """Each state's quick listing in the variant (see the module docstring), by state, made
    with its ``moves`` (their ``tables``, ``lister_of``, ``triggers`` and ``by_seat``): where
    every kind listed there (in the kinds' order) gives its lines. In a state listed seat by
    seat (a raise waits: ``Waiting.by_seat``), for each seat that may answer, its answers
    made once and the lines of the kinds after them, ``seat`` that seat.

    >>> from engine import Match
    >>> listed = Match.new("paulista", seed=1).move_table.listed  # compiled: {}
    >>> sorted(listed) if listed else ['answer', 'play']
    ['answer', 'play']
    """
    if _COMPILED:
        return {}
    kinds = sorted(KINDS.values(), key=lambda k: k.order)
    out: dict[str, Listed] = {}
    for state, names in moves.triggers.items():
        listed = [k for k in kinds if k.name in moves.lister_of and k.name in names]
        seated = moves.by_seat.get(state)
        if seated is not None:  # the answers lead, by seat; then the listers after them
            listed = [k for k in listed if moves.lister_of[k.name] in seated[1]]
        elif not listed:
            continue
        pieces = [(k.name, k.quick_listing(rules, moves.tables.get(k.name), state))
                  for k in listed if k.quick_listing is not None]
        if len(pieces) == len(listed) and all(lines is not None for _, lines in pieces):
            out[state] = _fused(state, pieces,  # type: ignore[arg-type]
                                seated[0] if seated is not None else None)
    return out


def _fused(state: str, pieces: list[tuple[str, Listing]],
           rows: list[tuple[Action, ...]] | None = None) -> Listed:
    """One function ``listed(match, seat)`` of the kinds' lines, in order: the legal moves;
    with ``rows``, each answering seat's answers (by seat) and then the lines, for each."""
    lines = ["def listed(m, seat):", "    out = []", "    hand = m.hand", "    rnd = m.round"]
    space: dict[str, Any] = {}
    indent = "    "
    if rows is not None:  # as Match.legal_actions lists a state by seat
        space.update(_answering=answering_seats, _rows=rows)
        lines += ["    seats = _answering(m)",
                  "    if seat is not None:",
                  "        seats = (seat,) if seat in seats else ()",
                  "    for seat in seats:",
                  "        out += _rows[seat]"]
        indent = "        "
    for kind, (body, names) in pieces:
        for name, value in names.items():
            if not name.startswith(kind + "_") or name in space:
                raise ValueError(f"the {kind} kind's quick listing reads {name!r}: its names "
                                 f"start with {kind + '_'!r}")
            space[name] = value
        lines += [indent + line for line in body]
    lines.append("    return out")
    exec(compile("\n".join(lines) + "\n", f"<engine.moves.quick listing {state}>", "exec"),
         space)
    made: Listed = space["listed"]
    return made
