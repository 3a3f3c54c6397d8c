"""Every shipped variant (the house ones included) plays through ``truco simulate`` with the
default bots and with random bots; and the driver asks only seats that have a legal move (a
rule may let only one of the teams that could answer do so: G39's contra-flor)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import act, deal, legal, match

from engine.bots import make_bot, movers, next_actor
from engine.cli import main
from engine.resources import shipped_variants


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_every_shipped_variant_simulates_with_the_default_and_random_bots(variant: str) -> None:
    for bots in ([], ["--bots", "random"]):
        result = CliRunner().invoke(main, ["simulate", "-v", variant, "-n", "5", "--seed", "1",
                                           "--json", *bots])
        assert result.exit_code == 0, (bots, result.output)
        assert '"matches": 5' in result.output


def test_G39_only_the_team_the_contra_flor_names_is_asked_to_answer() -> None:
    """Three teams: seat 1 calls real envido, seat 2 sings flor, seat 0 answers contra-flor
    al resto; only seat 2's team may answer it, so seat 1 is never asked."""
    m = match("gauderio-carancho", deal(0, "7c 5c 6c | 7d As Ac | 5d Jd Kd"), dealer=0)
    act(m, "envido 1 real envido", "flor 2 flor", "flor 0 contra-flor ao resto")
    assert {a.split()[-1] for a in legal(m)} == {"2"}
    assert movers(m) == [2] and m.to_move == 2 and m.to_act() == [2]
    bots = [make_bot("random", m.rules, s) for s in range(3)]
    assert next_actor(m) == next_actor(m, bots=bots) == next_actor(m, prefer=1) == 2


def test_seed_1_of_carancho_plays_through_with_random_bots() -> None:
    """The run that asked a seat with no legal move in its 18th match."""
    result = CliRunner().invoke(main, ["simulate", "-v", "gauderio-carancho", "-n", "20",
                                       "--bots", "random", "--json"])
    assert result.exit_code == 0, result.output
