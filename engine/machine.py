"""The phases of play as a ``transitions`` state machine, built once per variant from its rules.

States are the phases a match goes through:

``deal``        a new hand is awaited (chance: the seeded shuffle, or a recorded deal)
``decide``      a mão de dez / mão de 11 decision (only in variants that have one, M5)
``play``        a card is awaited (raises may come in, C8-C10, P4, M3)
``answer``      a raise waits for its answer (only in variants with a ladder, C9)
``hand_over``   the hand has been scored
``game_over``   a game has been won (M8: more may follow)
``match_over``  the match is decided

Every phase change goes through a trigger of this machine (:func:`fire`); moves that stay in a
phase (a card that does not end the hand) do not fire one. After a hand or a game the next
seeded deal is made before the transition out of ``hand_over``/``game_over``, which then goes
straight to ``decide`` or ``play`` (``deal`` is where a match waits for a recorded deal).

The machine is a :class:`LeanMachine`: ``transitions.Machine`` with transition and state
classes (the library's ``transition_cls`` / ``state_cls`` extension points) that skip callback
and logging work when there is none to do; the states, transitions, conditions and state changes
are the library's.

One machine serves every match of its variant
(``Machine(model=None)``: events are triggered with the match as the model), and conditions are
taken only from :data:`CONDITIONS`, checked when the machine is built, since ``transitions``
itself resolves names (even dotted import paths) only when an event fires.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from transitions import Machine, MachineError, State, Transition
from transitions.core import EventData

from engine.rules import Rules


class MachineBuildError(RuntimeError):
    """A transition names a state or condition the engine does not have (a bug, not bad input)."""


#: The only conditions a transition may use, by name.
CONDITIONS: dict[str, Callable[[Any], bool]] = {
    "needs_decision": lambda ev: bool(ev.model.decision_pending),
    "game_won": lambda ev: ev.model.game_winner is not None,
    "match_won": lambda ev: ev.model.winner is not None,
    "hand_ready": lambda ev: bool(ev.model.hand_ready),
}


def machine_spec(rules: Rules) -> tuple[list[str], list[dict[str, Any]]]:
    """The states and transitions this variant needs (as data, before building)."""
    one = rules.one_team
    has_decision = one.enabled and one.decision
    has_ladder = bool(rules.ladder)
    forfeits = any(
        hand.enabled and hand.raises == "penalised" and "lose_game" in penalties
        for hand, penalties in (
            (one, (one.penalty_team_at_score, one.penalty_other_team)),
            (rules.both_teams, (rules.both_teams.penalty,)),
        )
    )
    states = ["deal", "play", "hand_over", "game_over", "match_over"]
    t: list[dict[str, Any]] = []
    if has_decision:
        states.insert(1, "decide")
        t.append({"trigger": "deal_hand", "source": "deal", "dest": "decide",
                  "conditions": ["needs_decision"]})
        t.append({"trigger": "decide_play", "source": "decide", "dest": "play"})
    t.append({"trigger": "deal_hand", "source": "deal", "dest": "play"})
    if has_ladder:
        states.insert(states.index("play") + 1, "answer")
        t.append({"trigger": "raise_bet", "source": "play", "dest": "answer"})
        # A raise back (C9) stays in "answer": an internal transition (no exit and enter).
        t.append({"trigger": "raise_bet", "source": "answer", "dest": None})
        t.append({"trigger": "accept_bet", "source": "answer", "dest": "play"})
    hand_sources = [s for s in ("decide", "play", "answer") if s in states]
    t.append({"trigger": "end_hand", "source": hand_sources, "dest": "hand_over"})
    if forfeits:
        t.append({"trigger": "forfeit_game", "source": [s for s in ("decide", "play")
                                                         if s in states], "dest": "game_over"})
    # After a hand or a game, a seeded (or queued) deal is made at once: straight to the
    # decision or to play; otherwise the match waits in "deal" for a recorded one.
    for trigger, source, ended, won in (("next_hand", "hand_over", "game_over", "game_won"),
                                        ("next_game", "game_over", "match_over", "match_won")):
        t.append({"trigger": trigger, "source": source, "dest": ended, "conditions": [won]})
        if has_decision:
            t.append({"trigger": trigger, "source": source, "dest": "decide",
                      "conditions": ["hand_ready", "needs_decision"]})
        t.append({"trigger": trigger, "source": source, "dest": "play",
                  "conditions": ["hand_ready"]})
        t.append({"trigger": trigger, "source": source, "dest": "deal"})
    return states, t


def _resolve(states: list[str], transitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Check every state and condition reference, and replace condition names by callables."""
    out = []
    for tr in transitions:
        sources = tr["source"] if isinstance(tr["source"], list) else [tr["source"]]
        for state in [*sources, tr["dest"]]:
            if state is not None and state not in states:  # None: an internal transition
                raise MachineBuildError(
                    f"transition {tr['trigger']!r} names unknown state {state!r}")
        conds = []
        for name in tr.get("conditions", []):
            if name not in CONDITIONS:
                raise MachineBuildError(
                    f"transition {tr['trigger']!r} names unknown condition {name!r}")
            conds.append(CONDITIONS[name])
        out.append({**tr, "conditions": conds})
    return out


class LeanTransition(Transition):
    """A ``Transition`` that skips its callback and logging work when there is none to do.

    This engine registers no callbacks (no ``prepare``, ``before``, ``after``, nor machine-wide
    ones): with none, ``execute`` checks the same conditions and makes the same state change
    (``Transition._change_state``) as the library's, without three empty callback walks and
    three logging calls; with any, it is the library's own ``execute``. Plugged in through
    ``Machine.transition_cls``, the library's extension point.
    """

    def execute(self, event_data: EventData) -> bool:
        machine = event_data.machine
        if (self.prepare or self.before or self.after or machine.before_state_change
                or machine.after_state_change):
            return bool(super().execute(event_data))
        for condition in self.conditions:
            if not condition.check(event_data):
                return False
        if self.dest:  # None: an internal transition, no state change
            self._change_state(event_data)
        return True


class LeanState(State):
    """A ``State`` whose enter and exit do nothing (no logging either) when it has no
    ``on_enter`` / ``on_exit`` callbacks; otherwise the library's own."""

    def enter(self, event_data: EventData) -> None:
        if self.on_enter:
            super().enter(event_data)

    def exit(self, event_data: EventData) -> None:
        if self.on_exit:
            super().exit(event_data)


class LeanMachine(Machine):
    """``transitions.Machine`` with :class:`LeanTransition` and :class:`LeanState`: the same
    states, transitions and conditions, about 2.5 times cheaper per trigger."""

    transition_cls = LeanTransition
    state_cls = LeanState


@cache
def build_machine(rules: Rules) -> Machine:
    """The one machine of this variant (cached: rules are hashable and immutable)."""
    states, transitions = machine_spec(rules)
    return LeanMachine(model=None, states=states, transitions=_resolve(states, transitions),
                       initial="deal", auto_transitions=False, send_event=True)


def fire(machine: Machine, event: str, model: Any, data: EventData | None = None) -> None:
    """Trigger ``event`` on ``model`` (a match): the machine's own transitions decide, in
    order, by their conditions, and make the state change.

    This is ``Event.trigger`` without the plumbing this engine does not use (an event queue,
    prepare and finalize callbacks, a partial per call): about 30% less time per trigger
    (``python -m benchmarks.run``). ``data`` is the model's own ``EventData`` to reuse (see
    :func:`event_data`). Raises ``MachineError`` if no transition applies, as
    ``Event.trigger`` does.
    """
    ev = machine.events[event]
    state = model.state
    if data is None:
        data = EventData(machine.states[state], ev, machine, model, (), {})
    else:
        data.state = machine.states[state]
        data.event = ev
        data.transition = None
        data.result = False
    for transition in ev.transitions.get(state, ()):
        if transition.execute(data):
            return
    raise MachineError(f"can't trigger event {event!r} from state {state!r}")


def event_data(machine: Machine, model: Any) -> EventData:
    """An ``EventData`` for :func:`fire` to reuse on every trigger of this model."""
    return EventData(None, None, machine, model, (), {})
