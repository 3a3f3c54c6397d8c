"""The game as a ``transitions`` state machine, built once per variant from its rules: the
machine decides what may happen next.

States are the phases a match rests in between moves, ``deal``, those the variant's kinds
declare (:data:`engine.moves.PHASES`, each kind's ``Waiting``) and ``match_over``: strings
(:class:`engine.state.Phase`, a ``str`` enum, has those code outside their kind names; the
library is given, and sets on the match, the phases' strings). The base game's:

``deal``        a new hand is awaited (the chance step: the seeded shuffle, or a recorded deal)
``decide``      a mão de dez / mão de 11 decision (only in variants that have one, M5)
``play``        a card is awaited (raises may come in, C8-C10, P4, M3)
``answer``      a raise waits for its answer (only in variants with a ladder, C9)
``bet_answer``  a side bet's call waits for its answer (only in variants with side bets, G27)
``sing``        a flor must be sung (only in variants with flor, G35, G36)
``match_over``  the match is decided

and the house kinds' own (``cut``, ``confirm``, ``take``: docs/machine.md).

Triggers are the moves, named as the log names them: ``play``, ``raise``, ``accept``, ``fold``,
``decide``, and ``deal`` for the chance step. A move is one trigger, fired with the move
(an :class:`~engine.actions.Action`, or a :class:`~engine.actions.Deal`) and a fresh
:class:`~engine.ruling.Ruling` as its arguments (``Machine(model=None)``: the events are
triggered with the match as the model, ``machine.events[kind].trigger(match, move, ruling)``).
The machine is built with ``send_event=False``: its conditions and callbacks are called with
those two arguments, ``(move, ruling)``, and the ruling names the match
(:attr:`~engine.ruling.Ruling.model`):

1. A trigger that has no transition from the current state is not a move now: the library
   raises ``MachineError`` before anything runs, and the match says why in the game's words.
2. The transitions of the trigger from that state are tried in order; their **conditions** are
   the rules: ``legal_<kind>`` judges the move by the variant's data and, when it is legal,
   writes on the ruling what it would do (the round it ends, the hand's winner and points, the
   game and the match it wins), all computed from the state before anything changes;
   ``ends_hand``, ``ends_match`` and ``needs_decision`` read that ruling to pick the
   destination. An illegal move fails every transition, so nothing has changed: the ruling
   says why, and the match raises :class:`~engine.errors.IllegalMoveError`.
3. The chosen transition's ``before`` callback, the **effect** of the move kind, applies the
   ruling to the match (and writes its checkpoints on the ruling); then the state changes.
   A hand that ends goes to ``deal``, whose ``on_enter`` callback makes the next seeded (or
   queued) deal at once, as a ``deal`` trigger of its own; a match that ends goes to
   ``match_over``, which has no trigger.

The legal moves of a state are the moves of the triggers it has (:func:`triggers_from`),
each listed by its kind's lister (:mod:`engine.moves`), which offers exactly the moves its
condition accepts (tested). Conditions and effects are registered by name in
:data:`~engine.ruling.CONDITIONS` and :data:`~engine.ruling.EFFECTS` (by the move kinds of
:mod:`engine.moves`, which sit below the machine: it is built from a spec the kinds give, and
imports them; they never import it); every name the spec uses is checked when the machine is
built, since ``transitions`` itself resolves names (even dotted import paths) only when an
event fires. :func:`machine_spec` is the
machine as data, and :func:`diagram` draws it (``truco variants diagram``).

One machine serves every match of its variant. It is a :class:`LeanMachine`:
``transitions.Machine`` with the library's own states and transitions, and events of one
small class, :class:`LeanEvent`, plugged in through the ``event_cls`` extension point. A
``LeanEvent`` runs each source state's transitions as a plan read once from their public
attributes, without the library's partial, queue check and logging calls (``Match.apply``
runs a plan the event has made itself, :func:`run_plan`, without the call through the
event); anything a plan does not cover goes to the library's own ``Event.trigger``, and so
does every event under a release of ``transitions`` the plans have not been checked against
(:data:`PLANNED_VERSIONS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, Final, Protocol

import transitions
from mypy_extensions import mypyc_attr
from transitions import Machine, State, Transition
from transitions.core import Event

from engine.moves import (
    KINDS,
    PHASES,
    Lister,
    fresh_own,
    hand_end_hooks,
    kind_tables,
    load_kinds,
    seeing_hooks,
)
from engine.moves.answers import by_seat_states, seat_listing
from engine.moves.quick import quick_listings, quick_moves
from engine.rules import Rules
from engine.ruling import CONDITIONS, EFFECTS, Callback, Ruling
from engine.slots import interpreted
from engine.state import Phase
from engine.view import Moves


@mypyc_attr(native_class=False)  # of a built-in exception, for build_native.py's mypyc
class MachineBuildError(RuntimeError):
    """A transition names a state, condition or effect the engine does not have (a bug)."""


def machine_spec(rules: Rules) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The states and transitions this variant needs (as data, before building): what a
    reader of the variant's game sees, and what ``truco variants diagram`` draws. Each move
    kind the variant has (:mod:`engine.moves`) adds its transitions; a state is there when
    some transition uses it."""
    transitions: list[dict[str, Any]] = []
    for kind in load_kinds().values():
        if kind.enabled(rules):
            transitions += kind.transitions(rules)
    for kind in KINDS.values():  # flor (G35): the moments that go to ``sing``
        if kind.adjust is not None and kind.enabled(rules):
            transitions = kind.adjust(rules, transitions)
    transitions = [{**t, "source": _named(t["source"]), "dest": _named(t["dest"])}
                   for t in transitions]
    used = {t["source"] for t in transitions} | {t["dest"] for t in transitions}
    # The first state is the machine's initial one: a phase that opens the hand (a cut,
    # before the deal), else ``deal``.
    phases = [name for name in PHASES if name in used]
    states: list[dict[str, Any]] = [_state(name) for name in phases if PHASES[name].opens]
    states.append({"name": Phase.DEAL.value, "on_enter": ["deal_next"]})
    states += [_state(name) for name in phases if not PHASES[name].opens]
    states.append({"name": Phase.MATCH_OVER.value, "final": True,
                   "on_enter": ["match_decided"]})
    return states, transitions


def _state(name: str) -> dict[str, Any]:
    """A kind's state for the library: its name, and its enter effects where it has some."""
    enter = PHASES[name].enter
    return {"name": _named(name), "on_enter": list(enter)} if enter else {"name": _named(name)}


def _named(state: Any) -> Any:
    """A transition's source or destination as the library is given it: a :class:`Phase` by
    its string. ``transitions`` names an ``Enum`` state by its member's name (``PLAY``), and
    reads a model's state that is an ``Enum`` the same way; so the library's states, and the
    model's state it sets (:attr:`engine.game.Match.state`), are the phases' strings, which
    compare equal to the members (``"play" == Phase.PLAY``)."""
    if isinstance(state, list):
        return [_named(s) for s in state]
    return state.value if isinstance(state, Phase) else state


def _resolve(states: list[dict[str, Any]],
             transitions: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                         list[dict[str, Any]]]:
    """Check every state, condition and effect reference, and replace names by callables."""
    names = {s["name"] for s in states}

    def effects(where: str, refs: list[str]) -> list[Callback]:
        for ref in refs:
            if ref not in EFFECTS:
                raise MachineBuildError(f"{where} names unknown effect {ref!r}")
        return [EFFECTS[ref] for ref in refs]

    out_states = [{**s, "on_enter": effects(f"state {s['name']!r}", s.get("on_enter", []))}
                  for s in states]
    out = []
    for tr in transitions:
        sources = tr["source"] if isinstance(tr["source"], list) else [tr["source"]]
        for state in [*sources, tr["dest"]]:
            if state is not None and state not in names:  # None: an internal transition
                raise MachineBuildError(
                    f"transition {tr['trigger']!r} names unknown state {state!r}")
        conds: dict[str, list[Callback]] = {}
        for key in ("conditions", "unless"):
            conds[key] = []
            for name in tr.get(key, []):
                if name not in CONDITIONS:
                    raise MachineBuildError(
                        f"transition {tr['trigger']!r} names unknown condition {name!r}")
                conds[key].append(CONDITIONS[name])
        out.append({**tr, **conds,
                    "before": effects(f"transition {tr['trigger']!r}", tr.get("before", []))})
    return out_states, out


#: The releases of ``transitions`` whose ``Event.trigger`` and ``Transition.execute`` the plans
#: of :class:`LeanEvent` follow step by step (the conditions, ``before``, the source's exit,
#: the state attribute set, the destination's enter; an internal transition is one whose
#: ``dest`` is ``None``). tests/test_machine.py checks them against the installed library's
#: own classes. With any other release every event takes the library's own ``Event.trigger``.
PLANNED_VERSIONS = ("0.9.",)
PLANS_CHECKED = transitions.__version__.startswith(PLANNED_VERSIONS)


class _Probe:
    __slots__ = ()


#: Whether this module is compiled (``build_native.py``; engine.slots): then
#: :func:`run_plan`'s loops are machine code, and ``Match.apply`` and ``trigger_move`` call
#: it with the plan, natively; interpreted, they call the plan's runner (:func:`runner`),
#: which only the interpreted build makes.
COMPILED: Final = not interpreted(_Probe)


class Trigger(Protocol):
    """What a match asks of its machine's events (a :class:`LeanEvent` is one): the plans
    made so far, by source state, and the firing with this engine's two arguments."""

    plans: dict[str, Plan | None]
    #: Each made plan's runner (:func:`runner`; interpreted only), by source state.
    fire: dict[str, Fire]

    def trigger_move(self, model: Any, move: Any, ruling: Any) -> bool: ...


@mypyc_attr(native_class=False)  # compiled (build_native.py), a subclass of the library's
class LeanEvent(Event):
    """The library's ``Event.trigger`` for a machine that processes events at once (not
    queued), calls its callbacks with the trigger's arguments (``send_event=False``), and has
    no machine-wide callbacks, as this engine's machines: the transitions of the trigger from
    the model's state are tried in order until
    one passes (``Event._process``'s loop and ``Transition.execute``: the conditions, the
    ``before`` callbacks, the source's exit, the model's state attribute set as
    ``Machine.set_state`` sets it, the destination's enter), without the library's partial,
    queue check and logging calls.

    The loop runs a **plan** per source state: the transitions' conditions (function and
    target), ``before`` callbacks and the states' exit and enter callbacks, read once through
    their public attributes (``Event.transitions``, ``Transition.conditions`` / ``before``,
    ``State.on_enter`` / ``on_exit``) the first time the trigger fires from that state (a move
    kind's judge that every transition asks first is called once, before the steps). A plan
    is dropped when the event gets a transition (``add_transition``) or the machine a
    machine-wide callback (:class:`LeanMachine`'s setters); callbacks added to a built
    machine's transitions or states afterwards are not seen (this engine's machines are
    complete when built, :func:`build_machine`). Everything a plan does not cover (a trigger
    the state has no transition for, which the library refuses with ``MachineError``; a
    ``prepare`` or ``after`` callback, a condition or callback given by name, a state class
    other than the library's own ``State``, any machine configured otherwise) is left to the
    library's own ``Event.trigger``. Plugged in through ``Machine.event_cls``."""

    def __init__(self, name: str, machine: Machine) -> None:
        super().__init__(name, machine)
        #: The plan of each source state (``None``: the library's path), made when first fired.
        self.plans: dict[str, Plan | None] = {}
        #: The runner of each plan made (:func:`runner`), by source state.
        self.fire: dict[str, Fire] = {}

    def add_transition(self, transition: Transition) -> None:
        self.plans.clear()
        self.fire.clear()
        super().add_transition(transition)

    def trigger(self, model: Any, *args: Any, **kwargs: Any) -> bool:
        if len(args) == 2 and not kwargs:  # this engine's move and ruling
            return self.trigger_move(model, *args)
        return bool(super().trigger(model, *args, **kwargs))

    def trigger_move(self, model: Any, move: Any, ruling: Any) -> bool:
        """:meth:`trigger` with this engine's two arguments, the move and its ruling, given
        as such (``Match.apply`` calls it: a call with ``*args`` and ``**kwargs`` packs a
        tuple and a dict per move). The callbacks are called with the move and the ruling
        (``send_event=False``), so the library's ``EventData`` would be read by nobody: none
        is made."""
        attr = self.machine.model_attribute
        name = getattr(model, attr)
        try:
            plan = self.plans[name]
        except KeyError:
            plan = self.plans[name] = _plan(self, name) if PLANS_CHECKED else None
            if plan is not None and not COMPILED:  # compiled, run_plan itself is called
                self.fire[name] = runner(plan, attr)
        if plan is None:
            return bool(super().trigger(model, move, ruling))
        if COMPILED:  # run_plan called natively (it has no runner)
            return run_plan(plan, model, attr, move, ruling)
        return self.fire[name](model, move, ruling)


def run_plan(plan: Plan, model: Any, attr: str, move: Any, ruling: Any) -> bool:
    """Fire a trigger by its plan from the model's current state (:meth:`LeanEvent.trigger_move`
    once it has the plan; ``Match.apply`` calls it itself with a plan it finds made, in
    ``LeanEvent.plans``): the judge once, then the first step whose conditions pass, its
    ``before`` callbacks, and the state change to its destination (``attr``, the machine's
    model attribute) between the exit and enter callbacks. Whether a step was taken.

    Any machine's plan runs here, with whatever arguments its trigger was given; only a plan
    with a judge (a move kind's, so a machine of this engine) reads the ruling, a
    :class:`~engine.ruling.Ruling`."""
    judge, steps = plan
    if judge is not None:  # the kind's judge, which every transition asks first: once
        r: Ruling = ruling
        if r.judged:
            if r.why is not None:
                return False
        else:
            r.judged = True
            r.why = why = judge(r.model, move, r)
            if why is not None:
                return False
    for conds, before, exits, dest, enters in steps:
        for func, target in conds:
            said = func(move, ruling)
            if said is not target and said != target:  # (the library compares with ==)
                break
        else:
            for func in before:
                func(move, ruling)
            if dest is not None:  # None: an internal transition, no state change
                for func in exits:
                    func(move, ruling)
                setattr(model, attr, dest)
                for func in enters:
                    func(move, ruling)
            return True
    return False


#: A plan made runnable (:func:`runner`): ``fire(model, move, ruling)``, whether a step was
#: taken.
Fire = Callable[[Any, Any, Any], bool]


def runner(plan: Plan, attr: str) -> Fire:
    """``plan`` as one function ``fire(model, move, ruling)`` doing what :func:`run_plan`
    does with it, for the interpreted build (compiled, ``run_plan``'s loops are machine code
    and it is called itself): the plan's steps written out as Python source once per plan,
    without its loops and unpacking. Each callable and target is a global name of the
    function (``f0``, ``f1``, ...), each step's conditions nested ``if`` tests (passed when the
    result is, or equals, the target, as the library compares), then its callbacks, the
    state set, and ``return True``; ``return False`` when no step passes.

    >>> class R: judged = False; why = None; model = None
    >>> class M: state = "a"
    >>> fire = runner((lambda m, move, r: None if move else "no", (((), (), (), "b", ()),)),
    ...               "state")
    >>> m = M(); fire(m, "x", R()), m.state, fire(M(), "", R())
    (True, 'b', False)
    """
    if not attr.isidentifier():
        return lambda model, move, ruling: run_plan(plan, model, attr, move, ruling)
    space: dict[str, Any] = {}

    def named(value: Any) -> str:
        key = f"f{len(space)}"
        space[key] = value
        return key

    judge, steps = plan
    lines = ["def fire(model, move, ruling):"]
    if judge is not None:  # the kind's judge, once per ruling (run_plan's head)
        lines += ["    if ruling.judged:", "        if ruling.why is not None:",
                  "            return False", "    else:", "        ruling.judged = True",
                  f"        why = ruling.why = {named(judge)}(ruling.model, move, ruling)",
                  "        if why is not None:", "            return False"]
    for conds, before, exits, dest, enters in steps:
        pad = "    "
        for func, target in conds:
            want = repr(target) if type(target) is bool else named(target)
            lines += [f"{pad}said = {named(func)}(move, ruling)",
                      f"{pad}if said is {want} or said == {want}:"]
            pad += "    "
        lines += [f"{pad}{named(func)}(move, ruling)" for func in before]
        if dest is not None:  # None: an internal transition, no state change
            lines += [f"{pad}{named(func)}(move, ruling)" for func in exits]
            lines.append(f"{pad}model.{attr} = {named(dest)}")
            lines += [f"{pad}{named(func)}(move, ruling)" for func in enters]
        lines.append(f"{pad}return True")
    lines.append("    return False")
    exec(compile("\n".join(lines) + "\n", "<engine.machine plan>", "exec"), space)
    fire: Fire = space["fire"]
    return fire


#: One transition of a plan: its conditions as (function, target), its ``before`` callbacks,
#: the source's exit callbacks, the destination's name (``None``: an internal transition) and
#: its enter callbacks.
Step = tuple[tuple[tuple[Callback, bool], ...], tuple[Callback, ...], tuple[Callback, ...],
             "str | None", tuple[Callback, ...]]
#: The judge that every transition of the trigger from one state asks first, hoisted (a move
#: kind's, :func:`engine.moves.register`: judged once per ruling however many ask; ``None``:
#: none), and the steps of the transitions, in order, without it.
Plan = tuple["Callback | None", tuple[Step, ...]]


def _callables(refs: Iterable[Any]) -> tuple[Callback, ...] | None:
    """The callbacks as a tuple, or ``None`` if one is not a callable (a name)."""
    out = tuple(refs)
    return out if all(callable(f) for f in out) else None


def _plan(event: Event, name: str) -> Plan | None:
    """The plan of ``event`` from state ``name`` (see :class:`LeanEvent`), or ``None`` where
    the library's own ``Event.trigger`` must run."""
    machine = event.machine
    transitions = event.transitions.get(name)
    if transitions is None or machine.send_event or machine.has_queue:
        return None
    if (machine.prepare_event or machine.finalize_event or machine.on_exception
            or machine.before_state_change or machine.after_state_change or machine.on_final):
        return None
    states = machine.states
    source = states[name]
    if type(source) is not State:
        return None
    steps: list[Step] = []
    for t in transitions:
        if t.prepare or t.after:
            return None
        dest = states[t.dest] if t.dest is not None else None
        if dest is not None and type(dest) is not State:
            return None
        conds = _callables(c.func for c in t.conditions)
        before = _callables(t.before)
        exits = _callables(source.on_exit if dest is not None else ())
        enters = _callables(dest.on_enter if dest is not None else ())
        if conds is None or before is None or exits is None or enters is None:
            return None  # a callback given by name: the library resolves it
        steps.append((tuple(zip(conds, (c.target for c in t.conditions), strict=True)),
                      before, exits, t.dest, enters))
    return _hoisted(steps, getattr(machine, "judges", None) or {})


def _hoisted(steps: list[Step], judges: dict[Any, Callback] | None = None) -> Plan:
    """The steps with the judge they all ask first taken out (:data:`Plan`): a condition that
    carries its kind's judge (``judge``, set by :func:`engine.moves.register`) rules a move once
    and answers every later ask from the ruling, so asking it once before the steps is the same;
    it costs a call less a move (the condition's own), and two for a move that ends a hand.
    The judge is the variant's where ``judges`` has one for it (:func:`build_machine`)."""
    first = {step[0][0] if step[0] else None for step in steps}
    head = first.pop() if len(first) == 1 else None
    judge = getattr(head[0], "judge", None) if head is not None and head[1] is True else None
    if judge is None:
        return None, tuple(steps)
    if judges:
        judge = judges.get(judge, judge)
    return judge, tuple((conds[1:], before, exits, dest, enters)
                        for conds, before, exits, dest, enters in steps)


def _setter(name: str) -> Any:
    """The library's callback property ``name``, with a setter that also drops every event's
    plans (a plan holds no machine-wide callback: :func:`_plan` leaves such a machine to the
    library)."""
    prop = getattr(Machine, name)

    def fset(self: LeanMachine, value: Any) -> None:
        prop.fset(self, value)
        for event in getattr(self, "events", {}).values():
            for made in (getattr(event, "plans", None), getattr(event, "fire", None)):
                if made is not None:
                    made.clear()

    return prop.setter(fset)


@mypyc_attr(native_class=False)  # compiled (build_native.py), a subclass of the library's
class LeanMachine(Machine):
    """``transitions.Machine`` whose events are :class:`LeanEvent`, plugged in through the
    library's ``event_cls`` extension point; states and transitions are the library's own."""

    event_cls = LeanEvent
    #: The variant's judges by each kind's own (:func:`variant_judges`), which
    #: its plans call (compiled only: :func:`build_machine`); unset: the kinds' own.
    judges: dict[Any, Callback]
    prepare_event = _setter("prepare_event")
    finalize_event = _setter("finalize_event")
    on_exception = _setter("on_exception")
    before_state_change = _setter("before_state_change")
    after_state_change = _setter("after_state_change")
    on_final = _setter("on_final")


#: The attribute of the model (the match) that holds its state: the library's default name.
MODEL_ATTRIBUTE: Final = "state"


def variant_judges(rules: Rules) -> dict[Callback, Callback]:
    """Each kind's judge in the variant (``MoveKind.judging``, made with its table), by the
    kind's own ``judge``, for the kinds that have one."""
    tables = kind_tables(rules)[0]
    return {k.judge: k.judging(rules, tables.get(k.name)) for k in KINDS.values()
            if k.judging is not None and k.judge is not None}


@cache
def build_machine(rules: Rules) -> Machine:
    """The one machine of this variant (cached: rules are hashable and immutable)."""
    states, transitions = _resolve(*machine_spec(rules))
    machine = LeanMachine(model=None, states=states, transitions=transitions,
                          initial=states[0]["name"], auto_transitions=False, send_event=False,
                          model_attribute=MODEL_ATTRIBUTE)
    if COMPILED:  # the kinds' judges made with their tables (MoveKind.judging), for its plans:
        # compiled, a lookup of the table a move costs more than the closure's call
        machine.judges = variant_judges(rules)
    return machine


@cache
def _triggers(machine: Machine) -> dict[str, tuple[str, ...]]:
    return {name: tuple(machine.get_triggers(name)) for name in machine.states}


def triggers_from(machine: Machine, state: str) -> tuple[str, ...]:
    """The triggers of ``state`` (``Machine.get_triggers``, once per machine and state), in
    the order the machine's transitions were added."""
    return _triggers(machine)[state]


class MoveTable(Moves):
    """Every move of a variant, made once: :meth:`Match.legal_actions` hands out these shared,
    immutable values instead of building new ones on every call. The kinds make theirs, and
    what they read of the rules precomputed, in their own tables (``MoveKind.table``); here
    are those, the listers of each state of the machine and what general code reads."""

    __slots__ = ()  # its attributes are declared by :class:`engine.view.Moves`

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        self.players = n
        machine = build_machine(rules)
        #: The variant's machine (one per variant: :func:`engine.machine.build_machine`).
        self.machine = machine
        #: The triggers of each state, as the machine has them.
        self.triggers = {s: frozenset(triggers_from(machine, s)) for s in machine.states}
        #: Each kind's own table, and each listed kind's lister in this variant, by name
        #: (made once the machine has loaded every kind).
        self.tables, self.lister_of = kind_tables(rules)
        kinds = sorted(KINDS.values(), key=lambda k: k.order)
        #: The listers of each state's triggers (moves), in the kinds' order.
        self.listers: dict[str, tuple[Lister, ...]] = {
            s: tuple(self.lister_of[k.name] for k in kinds
                     if k.name in self.lister_of and k.name in self.triggers[s])
            for s in machine.states}
        self.hand_ends = hand_end_hooks(rules)  # of its kinds, in the order they run
        self.sees, self.held = seeing_hooks(rules)  # what its kinds may show a seat
        self.own = fresh_own(rules)  # a new hand's kinds' state (shared)
        #: States listed seat by seat (who answers a raise), their listers by seat_listing
        self.by_seat = {s: seat_listing(self.listers[s], n) for s in by_seat_states(self.listers)}
        team_of = rules.team_of
        #: The seats of the other teams, by team: who may answer that team's raise.
        self.opponents = [tuple(s for s in range(n) if team_of[s] != t)
                          for t in range(rules.teams)]
        #: The special hand (and team) dealt at each score seen so far (engine.moves.deal).
        self.special_at: dict[tuple[int, ...], tuple[int, int | None]] = {}
        # What a new match reads of the rules, read once (compiled, each read is a call into
        # Python): whether its first dealer is drawn (``match.first_dealer``), its first game's
        # score (``match.start_score``), the effects run on entering each state.
        self.drawn_dealer = rules.match.first_dealer == "drawn"
        self.start_score = tuple(rules.match.start(1, rules.teams))
        self.enters = {name: tuple(EFFECTS[ref] for ref in phase.enter)
                       for name, phase in PHASES.items() if phase.enter}
        self.quick = quick_moves(rules, self.tables, *machine_spec(rules))  # moves/quick.py
        self.listed = quick_listings(rules, self)  # moves/quick.py: each state's listers fused


@cache
def move_table(rules: Rules) -> MoveTable:
    """The :class:`MoveTable` of a variant, made once per process."""
    return MoveTable(rules)


@mypyc_attr(native_class=False)  # of a built-in exception, for build_native.py's mypyc
class DiagramUnavailable(RuntimeError):
    """A diagram format needs software that is not installed."""


@mypyc_attr(native_class=False)  # compiled (build_native.py): transitions adds its methods
class _Drawn:
    """The model a diagram machine draws: ``Machine(model=None)`` has no graph of its own
    (transitions draws a model's graph), so one plain object is added as its model."""


def diagram(rules: Rules, fmt: str = "mermaid") -> str:
    """The variant's machine as a diagram, drawn by ``transitions.extensions.diagrams`` from
    the same spec the game's machine is built from: ``mermaid`` (a ``stateDiagram-v2``,
    nothing to install) or ``svg`` (needs the ``graphviz`` Python package and Graphviz's
    ``dot`` program; :class:`DiagramUnavailable` otherwise). Transitions are labelled with
    their trigger and conditions (``!`` for ``unless``)."""
    from transitions.extensions.diagrams import GraphMachine

    states, transitions = machine_spec(rules)
    if fmt != "mermaid":
        # transitions falls back to mermaid, with a warning, when graphviz cannot be imported
        from importlib.util import find_spec
        if find_spec("graphviz") is None:
            raise DiagramUnavailable(
                f"--format {fmt} needs the graphviz Python package and Graphviz's dot program "
                "(pip install graphviz; apt-get install graphviz); the default mermaid format "
                "needs neither")
    machine = GraphMachine(model=None, states=states, transitions=transitions,
                           initial=states[0]["name"],
                           auto_transitions=False, send_event=True,
                           graph_engine="mermaid" if fmt == "mermaid" else "graphviz",
                           show_conditions=True,
                           # mermaid's front matter is YAML: the library writes the title there
                           title=(f"title: {rules.title} ({rules.name})" if fmt == "mermaid"
                                  else f"{rules.title} ({rules.name})"))
    drawn = _Drawn()
    machine.add_model(drawn)
    graph = drawn.get_graph()  # type: ignore[attr-defined]
    if fmt == "mermaid":
        return str(graph.draw(None))
    try:
        svg = graph.draw(None, format="svg", prog="dot")
    except Exception as exc:  # graphviz's ExecutableNotFound and the like: no dot to run
        raise DiagramUnavailable(
            f"--format svg needs Graphviz's dot program (apt-get install graphviz): "
            f"{exc}") from None
    return svg.decode("utf-8") if isinstance(svg, bytes) else str(svg)
