"""Bots raise out of turn where the variant lets them (issue 10, item 5): M3, any player may
raise at any moment while a card is awaited. The simulation offers the other seats a raise
before each card, and its statistics count the raises made out of turn."""

from __future__ import annotations

import pytest

from engine import Action, Match
from engine.bots import make_bot, out_of_turn_raise
from engine.simulate import run_simulation


@pytest.fixture(scope="module")
def on_turn_only(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("variants") / "mineiro-on-turn.yaml"
    path.write_text("extends: mineiro\nbetting:\n  raise_timing: own_turn\n", encoding="utf-8")
    return str(path)


def _stats(variant: str, bots: list[str], jobs: int = 1) -> dict:
    return run_simulation(variant, games=12, seed=5, bots=bots, jobs=jobs)


@pytest.mark.parametrize("bots", [["heuristic", "random"], ["heuristic"], ["random"]])
def test_M3_bots_raise_out_of_turn_only_where_the_variant_allows_it(
        on_turn_only: str, bots: list[str]) -> None:
    any_time = _stats("mineiro", bots)
    own_turn = _stats(on_turn_only, bots)
    assert any_time["out_of_turn_raises"]["raises"] > 0
    assert own_turn["out_of_turn_raises"] == {"raises": 0, "per_hand": 0.0}
    strip = ("variant", "variant_sha256")
    assert {k: v for k, v in any_time.items() if k not in strip} != \
        {k: v for k, v in own_turn.items() if k not in strip}


def test_M3_out_of_turn_statistics_are_deterministic_for_any_jobs() -> None:
    one = run_simulation("mineiro", games=16, seed=9, bots=["heuristic", "random"], jobs=1)
    two = run_simulation("mineiro", games=16, seed=9, bots=["heuristic", "random"], jobs=2)
    assert one == two
    assert one["out_of_turn_raises"]["raises"] > 0


def test_M3_the_offer_goes_to_the_other_seats_in_playing_order_and_a_pass_declines() -> None:
    m = Match.new("mineiro", seed=3)
    asked: list[tuple[int, list[str]]] = []

    class Pass:
        name = "pass"

        def __init__(self, seat: int) -> None:
            self.seat = seat

        def choose(self, observation: dict, legal_actions: list[Action]) -> Action:
            asked.append((observation["seat"], [str(a) for a in legal_actions]))
            assert legal_actions[-1] == Action.pass_(self.seat)
            return legal_actions[-1]

    bots = [Pass(s) for s in range(4)]
    assert out_of_turn_raise(m, bots) is None
    turn = m.turn
    assert [s for s, _ in asked] == [(turn + k) % 4 for k in (1, 2, 3)]
    assert all(moves[-1] == f"pass {s}" and all(t.startswith(f"raise {s} 3 ")
                                                for t in moves[:-1]) for s, moves in asked)
    with pytest.raises(ValueError, match="not a move"):
        m.apply(Action.pass_(turn))


def test_M3_an_out_of_turn_raise_is_a_legal_move_of_another_seat() -> None:
    m = Match.new("mineiro", seed=3)
    raiser = (m.turn + 1) % 4

    class Raise:
        name = "raise"

        def choose(self, observation: dict, legal_actions: list[Action]) -> Action:
            return legal_actions[0]

    bots = {raiser: Raise()}  # the other seats have no bot here (a person): not asked
    action = out_of_turn_raise(m, bots)
    assert action is not None and action.kind == "raise" and action.seat == raiser
    assert action in m.legal_actions(raiser)
    m.apply(action)
    assert m.state == "answer"
    assert out_of_turn_raise(m, bots) is None  # a raise waits for its answer: no offer


def test_M3_no_offer_in_a_variant_raising_on_turn_only(on_turn_only: str) -> None:
    m = Match.new(on_turn_only, seed=3)
    bots = [make_bot("random", m.rules, s) for s in range(4)]
    assert out_of_turn_raise(m, bots) is None


def test_M3_simulate_prints_the_raises_out_of_turn() -> None:
    from click.testing import CliRunner

    from engine.cli import main

    out = CliRunner().invoke(main, ["simulate", "-v", "mineiro", "-n", "4", "-s", "1"])
    assert out.exit_code == 0, out.output
    line = next(x for x in out.output.splitlines() if x.startswith("raises out of turn (M3)"))
    assert int(line.split()[5]) > 0
