"""Teams come from the rules (C1, ``teams``), never from the seats' parity (issue 25): three
players each for himself have no partner in ``truco play``, its table or ``--bots``."""

from __future__ import annotations

from click.testing import CliRunner

from engine import Match
from engine.cli import main
from engine.cli.play_cmd import describe_checkpoint
from engine.simulate import seat_bots
from engine.tui import render_table, seat_label


def test_C1_three_players_each_for_himself_have_no_partner() -> None:
    out = CliRunner().invoke(main, ["play", "--variant", "three-players", "--seed", "2"],
                             input="").output
    assert ("you are seat 0; us: you; team 1: Bot 1 (heuristic); team 2: Bot 2 (heuristic)."
            in out)


def test_C1_seat_labels_follow_the_variants_teams() -> None:
    m = Match.new("three-players", seed=2)
    assert seat_label(2, 0, team_of=m.rules.team_of) == "seat 2"
    assert seat_label(2, 0) == "partner (seat 2)"  # four seats in two teams: the default
    table = render_table(m.observation(0), title="three", target=12, rules=m.rules)
    assert "partner" not in table
    declared = {"event": "side_declare", "seat": 2, "points": 20}
    assert "partner" not in describe_checkpoint(declared, 0, m.rules.team_of)  # type: ignore[arg-type]


def test_C1_bots_one_per_team_by_the_variants_teams() -> None:
    assert seat_bots(["a", "b", "c"], 3, team_of=[0, 1, 2]) == ["a", "b", "c"]
    assert seat_bots(["a", "b"], 4, team_of=[0, 0, 1, 1]) == ["a", "a", "b", "b"]
    # two names on a table of three teams: team 0 the first, the other teams the second
    assert seat_bots(["a", "b"], 3, team_of=[0, 1, 2]) == ["a", "b", "b"]
    result = CliRunner().invoke(main, ["simulate", "--variant", "three-players", "--bots",
                                       "heuristic,random,random,heuristic", "-n", "1"])
    assert result.exit_code == 2 and ("give 1 bot, 2 (team 0, the other teams) or 3 (one per "
                                      "seat), not 4") in result.output
