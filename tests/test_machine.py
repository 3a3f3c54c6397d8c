"""The machine decides: built from the variant, checked when built, one per variant; its
triggers are the moves, its conditions the rules, its callbacks the effects, and the legal
moves are what its conditions accept."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, match

from engine import Action, IllegalMoveError, Match, find_variant, load_variant
from engine import machine as machine_module
from engine.game import move_table
from engine.machine import (
    LeanEvent,
    LeanMachine,
    MachineBuildError,
    build_machine,
    machine_spec,
    triggers_from,
)
from engine.moves.concede import concedes
from engine.moves.cut import CHOICES
from engine.moves.envido import calls_of
from engine.moves.nao_quero import nao_queros
from engine.moves.play import plays
from engine.moves.quero import queros
from engine.moves.raising import raises
from engine.resources import shipped_variants
from engine.ruling import CONDITIONS, EFFECTS
from engine.shuffle import SplitMix64

#: Every shipped variant: the machine against every listed move (issue 41: the list was
#: hand-picked and held none of the newer kinds).
VARIANTS = tuple(shipped_variants())


def _states(variant: Any) -> set[str]:
    return set(build_machine(variant).states)


def _events(variant: Any) -> set[str]:
    return set(build_machine(variant).events)


def test_states_and_triggers_come_from_the_variant() -> None:
    paulista, mineiro = find_variant("paulista"), find_variant("mineiro")
    common = {"deal", "play", "answer", "match_over"}
    assert _states(paulista) == common  # P5 has no decision
    assert _states(mineiro) == common | {"decide"}  # M5 has one
    assert _states(find_variant("paulista-mao-de-11-decision")) == common | {"decide"}
    moves = {"deal", "play", "raise", "accept", "fold"}
    assert _events(paulista) == moves  # the triggers are the moves, and the deal
    assert _events(mineiro) == moves | {"decide"}
    m = build_machine(paulista)
    assert m.auto_transitions is False
    assert triggers_from(m, "play") == ("play", "raise")
    assert set(triggers_from(m, "answer")) == {"raise", "accept", "fold"}
    assert triggers_from(m, "deal") == ("deal",)
    assert triggers_from(m, "match_over") == ()
    assert m.get_state("match_over").final
    # P5/P6: a raise in a special hand may end the hand, or the game, from play
    assert {t.dest for t in m.events["raise"].transitions["play"]} == {
        "answer", "match_over", "deal"}
    # one-on-one refuses those raises: a raise from play only ever waits for its answer
    one = build_machine(find_variant("one-on-one"))
    assert {t.dest for t in one.events["raise"].transitions["play"]} == {"answer"}


def test_no_ladder_no_answer_state(write: WriteFile) -> None:
    path = write("no-raises.yaml", "extends: paulista\nbetting:\n  ladder: []\n")
    rules = load_variant(path)
    assert "answer" not in _states(rules)
    assert not {"accept", "fold"} & _events(rules)
    m = match(rules, deal(0, "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s", "7c"))
    assert legal(m, 1) == ["play 1 4d", "play 1 5d", "play 1 6d"]
    assert_illegal(m, "raise 1 3", "the ladder stops at 1")  # judged by the raise's condition
    assert_illegal(m, "accept 2", "no raise is waiting for an answer")  # no such trigger
    assert act(m, "play 1 4d") == []


def test_no_decision_hand_no_decide_state(write: WriteFile) -> None:
    path = write("no-mao-de-dez.yaml",
                 "extends: mineiro\nspecial_hands:\n  one_team:\n    decision: false\n")
    rules = load_variant(path)
    assert "decide" not in _states(rules)
    assert "decide" in _states(find_variant("mineiro"))
    off = write("no-special.yaml", "extends: mineiro\nspecial_hands:\n  one_team:\n"
                "    enabled: false\n  both_teams:\n    enabled: false\n")
    machine = build_machine(load_variant(off))
    assert "decide" not in machine.states
    assert {t.dest for t in machine.events["raise"].transitions["play"]} == {"answer"}


def _bad_spec(kind: str) -> Any:
    def spec(rules: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        states, transitions = machine_spec(rules)
        if kind == "condition":
            transitions[0] = {**transitions[0], "conditions": ["os.system"]}
        elif kind == "effect":
            transitions[0] = {**transitions[0], "before": ["os.system"]}
        else:
            transitions[0] = {**transitions[0], "dest": "limbo"}
        return states, transitions

    return spec


@pytest.mark.parametrize(("kind", "message"), [
    ("condition", "unknown condition 'os.system'"),
    ("effect", "unknown effect 'os.system'"),
    ("state", "unknown state 'limbo'"),
])
def test_unknown_names_are_rejected_when_the_machine_is_built(kind: str, message: str) -> None:
    """What build_machine resolves its spec with (machine._resolve; called itself, since a
    compiled build_machine calls it directly, past a patched module name)."""
    with pytest.raises(MachineBuildError, match=message):
        machine_module._resolve(*_bad_spec(kind)(find_variant("paulista")))
    assert "os.system" not in CONDITIONS and "os.system" not in EFFECTS


def test_one_machine_serves_every_match_of_a_variant() -> None:
    a = Match.new("paulista", seed=1)
    b = Match.new("paulista", seed=2)
    c = match("paulista")
    assert a.machine is b.machine is c.machine
    assert a.machine is build_machine(load_variant("paulista"))  # loaded again: equal rules
    assert Match.new("mineiro", seed=1).machine is not a.machine
    assert a not in a.machine.models  # matches are not added as models


def _every_move(m: Match) -> list[Action]:
    """Every move of the variant's move table: what a seat could ever try."""
    table = plays(m)
    out = [a for row in (*table.face_up, *table.covered) for a in row]
    n = range(m.players)
    out += [*raises(m).moves.values(), *(Action.accept(s) for s in n),
            *(Action.fold(s) for s in n), *(Action.decide(s, p) for s in n for p in (True, False))]
    if m.rules.side_bets:  # the side bets' calls and answers (G27)
        out += [*calls_of(m.rules).values(), *queros(m.players), *nao_queros(m.players)]
    out += [Action("cut", s, call=c) for s in range(m.players) for c in CHOICES]
    out += [Action("redeal", s) for s in range(m.players)]
    return out + list(concedes(m.players))


def _accepted(m: Match, action: Action) -> bool:
    twin = m.clone()
    try:
        twin.apply(action)
    except IllegalMoveError:
        return False
    return True


#: Who acts for a team and conceding, every option at once (the house variants have one each).
ANSWERS = ("betting:\n  answered_by: next_seat\n  refusal: whole_team\nconcede:\n"
           "  allowed: true\n  instead_of_answer: true\n  in_special_hands: true\n")


@pytest.mark.parametrize("parent", ["paulista", "mineiro"])
def test_the_legal_moves_are_what_the_machine_accepts_with_every_answer_rule(
        write: WriteFile, parent: str) -> None:
    test_the_legal_moves_are_what_the_machine_accepts(
        write(f"answers-{parent}.yaml", f"extends: {parent}\n{ANSWERS}"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_legal_moves_are_what_the_machine_accepts(variant: str | Path) -> None:
    """legal_actions lists exactly the moves whose trigger the machine takes (raises that a
    special hand penalises are accepted but never offered), in every state of seeded matches."""
    checked = 0
    for seed in range(3):
        m = Match.new(variant, seed=seed)
        everything = _every_move(m)
        choose = SplitMix64(seed)
        n = 0
        while not m.is_over:
            offered = set(m.legal_actions())
            if n % 3 == 0:  # every third state: the whole move table against a clone
                for action in everything:
                    ok = _accepted(m, action)
                    penalised = action.kind == "raise" and m.special != 0
                    assert ok == (action in offered) or (ok and penalised), (
                        variant, seed, n, str(action), m.state)
                checked += 1
            for seat in range(m.players):  # per seat: the same moves, in the same order
                assert m.legal_actions(seat) == [a for a in m.legal_actions() if a.seat == seat]
            # a resignation ends the match at once: played last, so the states come by
            legal_now = ([a for a in m.legal_actions() if a.kind != "resign"]
                         or m.legal_actions())
            m.apply(legal_now[choose.bounded(len(legal_now))])
            n += 1
    assert checked > 10


def _stock_machine(rules: Any) -> Any:
    """The same spec built as a stock ``transitions.Machine`` (the library's own Transition
    and State classes)."""
    from transitions import Machine

    states, transitions = machine_module._resolve(*machine_spec(rules))
    return Machine(model=None, states=states, transitions=transitions, initial="deal",
                   auto_transitions=False, send_event=False)


class _Stock:
    """A stock ``Event`` as ``Match`` calls its machine's events (engine.machine.Trigger):
    ``trigger_move(model, move, ruling)`` is the library's own ``Event.trigger(model, move,
    ruling)``, and it makes no plans (``Match.apply`` runs a plan it finds made itself)."""

    def __init__(self, event: Any) -> None:
        self.event = event
        self.plans: dict[str, Any] = {}
        self.fire: dict[str, Any] = {}

    def trigger_move(self, model: Any, move: Any, ruling: Any) -> bool:
        return bool(self.event.trigger(model, move, ruling))


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "one-on-one"])
def test_lean_classes_decide_as_the_library_does(variant: str) -> None:
    """A match driven by the stock classes takes the same transitions, states and checkpoints
    as one driven by the lean ones."""
    rules = find_variant(variant)
    stock = _stock_machine(rules)
    assert all(isinstance(ev, LeanEvent) for ev in build_machine(rules).events.values())
    for seed in range(4):
        a = Match.new(rules, seed=seed)
        b = Match.new(rules, seed=None)  # the same match, the stock machine's events
        b.rng = SplitMix64(seed)
        b._events = {name: _Stock(event) for name, event in stock.events.items()}
        b.deal_next()
        choose = SplitMix64(seed + 100)
        while not a.is_over:
            assert (a.state, a.legal_actions()) == (b.state, b.legal_actions())
            moves = a.legal_actions()
            move = moves[choose.bounded(len(moves))]
            assert a.apply(move) == b.apply(move)
        assert b.is_over and a.score == b.score and a.games == b.games


def test_the_plans_are_checked_against_the_installed_release_of_transitions() -> None:
    """The version guard: the installed transitions is one the plans follow (the pin in
    pyproject.toml admits only such releases), so the tests above compare the plans with
    the library's own Event.trigger; another release would leave every event to it."""
    import transitions

    assert transitions.__version__.startswith(machine_module.PLANNED_VERSIONS)
    assert machine_module.PLANS_CHECKED


def test_without_the_plans_every_event_is_the_library_s_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the guard off (an unchecked release), a match plays exactly as with the plans:
    every event goes through the library's Event.trigger, and no plan is made."""
    def play(seed: int) -> list[Any]:
        m = Match.new("gauderio", seed=seed)
        choose, out = SplitMix64(seed), []
        while not m.is_over:
            moves = m.legal_actions()
            out.append(m.apply(moves[choose.bounded(len(moves))]))
        return [*out, m.score, m.games]

    planned = [play(seed) for seed in range(3)]
    monkeypatch.setattr(machine_module, "PLANS_CHECKED", False)
    build_machine.cache_clear()
    move_table.cache_clear()  # it holds the variant's machine
    try:
        assert [play(seed) for seed in range(3)] == planned
        machine = move_table(find_variant("gauderio")).machine
        assert machine.events["play"].plans and all(
            plan is None for ev in machine.events.values() for plan in ev.plans.values())
    finally:
        build_machine.cache_clear()
        move_table.cache_clear()


def test_lean_event_leaves_what_it_does_not_do_to_the_library() -> None:
    """A machine with prepare_event / finalize_event callbacks, or a queue, is triggered by the
    library's own Event.trigger (LeanEvent only skips what such a machine does not have); a
    trigger the state has no transition for is the library's MachineError either way."""
    from transitions import Machine, MachineError

    class Model:
        state = "a"

    def run(cls: type[Machine], **extra: Any) -> list[str]:
        calls: list[str] = []
        note = {k: [lambda ev, k=k: calls.append(f"{k}:{ev.model.state}")] for k in extra}
        machine = cls(model=None, states=["a", "b"], initial="a", auto_transitions=False,
                      send_event=True, **note,
                      transitions=[{"trigger": "go", "source": "a", "dest": "b",
                                    "before": [lambda ev: calls.append("before")]}])
        model = Model()
        assert machine.events["go"].trigger(model)
        with pytest.raises(MachineError, match="Can't trigger event go from state b"):
            machine.events["go"].trigger(model)
        return calls

    hooks = {"prepare_event": 1, "finalize_event": 1}
    assert run(LeanMachine, **hooks) == run(Machine, **hooks) == [
        "prepare_event:a", "before", "finalize_event:b", "finalize_event:b"]
    assert run(LeanMachine) == run(Machine) == ["before"]
    assert all(isinstance(ev, LeanEvent) for ev in build_machine(find_variant("paulista"))
               .events.values())


def test_lean_machine_sees_callbacks_added_after_it_was_built() -> None:
    """LeanMachine leaves a machine with machine-wide callbacks to the library: a callback
    appended to one of the library's lists, or a list set through its property, is still
    called, as by the library."""
    from transitions import Machine

    class Model:
        state = "a"

    def run(cls: type[Machine]) -> list[str]:
        calls: list[str] = []
        machine = cls(model=None, states=["a", "b"], initial="a", auto_transitions=False,
                      send_event=True,
                      transitions=[{"trigger": "go", "source": "a", "dest": "b"},
                                   {"trigger": "back", "source": "b", "dest": "a"}])
        machine.prepare_event.append(lambda ev: calls.append("prepare"))
        machine.before_state_change = [lambda ev: calls.append("before")]
        machine.after_state_change.append(lambda ev: calls.append("after"))
        model = Model()
        assert machine.events["go"].trigger(model)
        machine.prepare_event = []
        assert machine.events["back"].trigger(model)
        return calls

    assert run(LeanMachine) == run(Machine) == ["prepare", "before", "after", "before",
                                                "after"]


def test_an_illegal_move_fails_every_transition_and_changes_nothing() -> None:
    m = Match.new("mineiro", seed=3)
    for action in itertools.islice(_every_move(m), 0, None, 7):
        if action not in m.legal_actions():
            snapshot = (m.state, [m.observation(s) for s in range(m.players)])
            with pytest.raises(IllegalMoveError):
                m.apply(action)
            assert (m.state, [m.observation(s) for s in range(m.players)]) == snapshot


def test_a_seat_that_is_not_at_the_table_has_no_moves_in_any_state() -> None:
    for variant in ("paulista", "mineiro"):
        m = Match.new(variant, seed=5)
        choose = SplitMix64(5)
        states = set()
        while not m.is_over:
            states.add(m.state)
            assert m.legal_actions(m.players) == [] and m.legal_actions(-1) == []
            moves = m.legal_actions()
            m.apply(moves[choose.bounded(len(moves))])
        assert {"play", "answer"} <= states


def test_lean_event_plans_call_as_the_library_does_and_see_later_changes() -> None:
    """With send_event=False (this engine's machines) a LeanEvent runs each source state's
    plan: the same callbacks, with the trigger's two arguments, in the library's order; a
    plan is dropped when the event gets a transition or the machine a machine-wide callback
    (set through its property), so both are seen, as by the library."""
    from transitions import Machine

    class Model:
        state = "a"

    def run(cls: type[Machine]) -> list[str]:
        calls: list[str] = []

        def note(what: str) -> Any:
            return lambda move, ruling: calls.append(f"{what}:{move}")

        def cond(ok: bool) -> Any:
            def check(move: str, ruling: Any) -> bool:
                calls.append(f"cond:{move}")
                return ok
            return check

        machine = cls(model=None, auto_transitions=False, send_event=False, initial="a",
                      states=[{"name": "a", "on_exit": [note("exit-a")]},
                              {"name": "b", "on_enter": [note("enter-b")]}],
                      transitions=[
                          {"trigger": "go", "source": "a", "dest": "b",
                           "conditions": [cond(False)], "before": [note("never")]},
                          {"trigger": "go", "source": "a", "dest": "b",
                           "conditions": [cond(True)], "unless": [cond(False)],
                           "before": [note("before")]},
                          {"trigger": "stay", "source": "b", "dest": None,
                           "before": [note("stay")]}])
        model = Model()
        assert machine.events["go"].trigger(model, "m1", None)
        assert machine.events["stay"].trigger(model, "m2", None)
        machine.add_transition("stay", "b", "a", before=[note("back")], prepare=[])
        machine.before_state_change = [note("machine-before")]
        assert machine.events["stay"].trigger(model, "m3", None)  # still the first: internal
        assert model.state == "b"
        machine.before_state_change = []  # a LeanEvent's plans again
        assert machine.events["stay"].trigger(model, "m4", None)
        calls.append(model.state)
        return calls

    lean, stock = run(LeanMachine), run(Machine)
    assert lean == stock
    assert lean[:6] == ["cond:m1", "cond:m1", "cond:m1", "before:m1", "exit-a:m1", "enter-b:m1"]


def test_a_plan_asks_the_kind_s_judge_once_before_its_steps(monkeypatch: Any) -> None:
    """Every transition of ``play`` from ``play`` asks ``legal_play`` first: the plan calls the
    play kind's judge itself, once, and its steps ask only what comes after (``ends_hand``,
    ``ends_match``); a condition that is no kind's check stays in its steps."""
    from engine.moves import KINDS

    m = Match.new("paulista", seed=7)
    monkeypatch.setattr(m.move_table, "quick", {})  # the card through the machine: its plan
    m.apply(m.legal_actions()[0])
    judge, steps = m.machine.events["play"].plans["play"]
    own = KINDS["play"].judge  # compiled, the variant's judge made over its table in its place
    assert judge is getattr(m.machine, "judges", {}).get(own, own)
    asked = [func.__name__ for conds, *_ in steps for func, _ in conds]
    assert asked == ["_ends_hand", "_ends_match", "_ends_hand"]
    assert all(getattr(CONDITIONS[name], "judge", None) is None
               for name in ("ends_hand", "ends_match"))


def test_the_phase_strings_are_the_phases_values() -> None:
    """engine.state's phase strings (what the hot paths compare ``Match.state`` with, spelt
    out as ``Final`` literals) are the values of :class:`engine.state.Phase`, each under its
    member's name, and there is no other."""
    from engine import state

    for phase in state.Phase:
        assert getattr(state, phase.name) == phase.value, phase
    strings = {name for name, value in vars(state).items()
               if name.isupper() and isinstance(value, str) and not name.startswith("_")}
    assert strings == {phase.name for phase in state.Phase}
