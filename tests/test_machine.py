"""The phases machine: built from the variant, checked when built, one per variant."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, match

from engine import Match, find_variant, load_variant
from engine import machine as machine_module
from engine.machine import CONDITIONS, MachineBuildError, build_machine, machine_spec


def _states(variant: Any) -> set[str]:
    return set(build_machine(variant).states)


def _events(variant: Any) -> set[str]:
    return set(build_machine(variant).events)


def test_states_come_from_the_variant() -> None:
    paulista, mineiro = find_variant("paulista"), find_variant("mineiro")
    common = {"deal", "play", "answer", "hand_over", "game_over", "match_over"}
    assert _states(paulista) == common  # P5 has no decision
    assert _states(mineiro) == common | {"decide"}  # M5 has one
    assert _states(find_variant("paulista-mao-de-11-decision")) == common | {"decide"}
    assert "forfeit_game" in _events(paulista)  # P5/P6: a raise loses the game
    assert "forfeit_game" not in _events(find_variant("one-on-one"))  # raises refused instead
    assert build_machine(paulista).auto_transitions is False


def test_no_ladder_no_answer_state(write: WriteFile) -> None:
    path = write("no-raises.yaml", "extends: paulista\nbetting:\n  ladder: []\n")
    rules = load_variant(path)
    assert "answer" not in _states(rules)
    assert not {"raise_bet", "accept_bet"} & _events(rules)
    m = match(rules, deal(0, "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s", "7c"))
    assert legal(m, 1) == ["play 1 4d", "play 1 5d", "play 1 6d"]
    assert_illegal(m, "raise 1 3", "the ladder stops at 1")
    assert act(m, "play 1 4d") == []


def test_no_decision_hand_no_decide_state(write: WriteFile) -> None:
    path = write("no-mao-de-dez.yaml",
                 "extends: mineiro\nspecial_hands:\n  one_team:\n    decision: false\n")
    rules = load_variant(path)
    assert "decide" not in _states(rules)
    assert "decide" in _states(find_variant("mineiro"))
    off = write("no-special.yaml", "extends: mineiro\nspecial_hands:\n  one_team:\n"
                "    enabled: false\n  both_teams:\n    enabled: false\n")
    assert "decide" not in _states(load_variant(off))
    assert "forfeit_game" not in _events(load_variant(off))


def _bad_spec(kind: str) -> Any:
    def spec(rules: Any) -> tuple[list[str], list[dict[str, Any]]]:
        states, transitions = machine_spec(rules)
        if kind == "condition":
            transitions[0] = {**transitions[0], "conditions": ["os.system"]}
        else:
            transitions[0] = {**transitions[0], "dest": "limbo"}
        return states, transitions

    return spec


@pytest.mark.parametrize(("kind", "message"), [
    ("condition", "unknown condition 'os.system'"),
    ("state", "unknown state 'limbo'"),
])
def test_unknown_names_are_rejected_when_the_machine_is_built(
        monkeypatch: pytest.MonkeyPatch, kind: str, message: str) -> None:
    monkeypatch.setattr(machine_module, "machine_spec", _bad_spec(kind))
    with pytest.raises(MachineBuildError, match=message):
        build_machine.__wrapped__(find_variant("paulista"))  # the uncached builder
    assert "os.system" not in CONDITIONS


def test_one_machine_serves_every_match_of_a_variant() -> None:
    a = Match.new("paulista", seed=1)
    b = Match.new("paulista", seed=2)
    c = match("paulista")
    assert a.machine is b.machine is c.machine
    assert a.machine is build_machine(load_variant("paulista"))  # loaded again: equal rules
    assert Match.new("mineiro", seed=1).machine is not a.machine
    assert a not in a.machine.models  # matches are not added as models


class _Model:
    """The attributes the machine's conditions read, and nothing else."""

    def __init__(self, state: str, flags: tuple[bool, bool, bool, bool]) -> None:
        self.state = state
        self.decision_pending, won_game, won_match, self.hand_ready = flags
        self.game_winner = 0 if won_game else None
        self.winner = 0 if won_match else None


def test_fire_takes_the_same_transition_as_event_trigger() -> None:
    """engine.machine.fire on the lean machine is Event.trigger on a stock transitions.Machine
    built from the same spec, minus the unused plumbing: for every event, every source state
    and every combination of the conditions, both land in the same state."""
    import itertools

    from transitions import Machine, MachineError

    from engine.machine import LeanTransition, _resolve, event_data, fire

    checked = 0
    for name in ("paulista", "mineiro", "one-on-one"):
        rules = find_variant(name)
        machine = build_machine(rules)
        assert all(isinstance(t, LeanTransition) for ev in machine.events.values()
                   for ts in ev.transitions.values() for t in ts)
        states, transitions = machine_spec(rules)
        stock = Machine(model=None, states=states, transitions=_resolve(states, transitions),
                        initial="deal", auto_transitions=False, send_event=True)
        assert set(stock.events) == set(machine.events)
        for event_name, event in stock.events.items():
            for source in machine.states:
                for flags in itertools.product((False, True), repeat=4):
                    a, b, c = (_Model(source, flags) for _ in range(3))
                    reused = event_data(machine, c)  # as a match keeps one for all triggers
                    if source == "play":  # the reused data has served another trigger
                        fire(machine, "end_hand", c, reused)
                        c.state = source
                    try:
                        event.trigger(a)
                    except MachineError:
                        with pytest.raises(MachineError):
                            fire(machine, event_name, b)
                        with pytest.raises(MachineError):
                            fire(machine, event_name, c, reused)
                        continue
                    fire(machine, event_name, b)
                    fire(machine, event_name, c, reused)
                    assert a.state == b.state == c.state, (name, event_name, source, flags)
                    checked += 1
    assert checked > 100


def test_lean_transition_runs_callbacks_when_there_are_some() -> None:
    """With a callback registered, LeanTransition is the library's own execute."""
    from engine.machine import LeanMachine

    calls: list[str] = []
    machine = LeanMachine(model=None, states=["a", "b"], initial="a", auto_transitions=False,
                          send_event=True,
                          transitions=[{"trigger": "go", "source": "a", "dest": "b",
                                        "after": lambda ev: calls.append(ev.model.state)}])
    model = _Model("a", (False, False, False, False))
    machine.events["go"].trigger(model)
    assert model.state == "b" and calls == ["b"]
