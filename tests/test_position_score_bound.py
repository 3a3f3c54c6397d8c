"""A position's scores are bounded by what the rules allow (docs/positions.md, "Scores a position
may hold"): at ``match_over`` a score past the target less 1 plus the most one hand gives, or
more games than end the match, is refused (``score_out_of_reach``), from Python and from every
command that reads a position (exit 1, no traceback); every score real play reaches passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import doctests

import engine.matchpos.checks
from engine import Match
from engine.bots import choose_for, make_bot, next_actor, out_of_turn_raise
from engine.cli import main
from engine.errors import PositionError
from engine.matchpos.checks import score_ceiling
from engine.resources import shipped_variants

#: A settled side bet in the last hand: its points are checked against the final score too.
V = "gauderio-real-envido-twice"


def _over(variant: str, seed: int, bot: str = "random") -> Match:
    m = Match.new(variant, seed=seed)
    bots = [make_bot(bot, m.rules, seed * 7 + s) for s in range(m.players)]
    while not m.is_over:
        action = out_of_turn_raise(m, bots)
        if action is None:
            seat = next_actor(m, bots=bots)
            action = choose_for(bots[seat], m, seat)
        m.apply(action)
    return m


def _position(score: int, team: str = "winner") -> dict[str, Any]:
    p = _over(V, 3).position()
    assert p["state"] == "match_over" and any(b["settled"] for b in p["side_bets"])
    p["score"][p["winner"] if team == "winner" else 1 - p["winner"]] = score
    return p


def test_doctests() -> None:
    assert doctests(engine.matchpos.checks).failed == 0


@pytest.mark.parametrize("score", [2**63, 10**6, 88])
@pytest.mark.parametrize("team", ["winner", "loser"])
def test_a_final_score_past_the_rules_is_refused(score: int, team: str) -> None:
    p = _position(score, team)
    with pytest.raises(PositionError) as info:
        Match.from_position(V, p)
    assert info.value.code == "score_out_of_reach"
    assert info.value.path.startswith("score[") and str(score) in str(info.value)


def test_the_ceiling_itself_is_accepted_by_the_score_check() -> None:
    assert score_ceiling(Match.new(V, seed=1).rules) == 87
    p = _position(87)
    try:
        Match.from_position(V, p)
    except PositionError as err:  # another check may refuse it, never this one
        assert err.code != "score_out_of_reach", str(err)


def test_more_games_than_end_the_match_are_refused() -> None:
    p = _over("mineiro", 1).position()
    p["games"][p["winner"]] = 2**63
    with pytest.raises(PositionError) as info:
        Match.from_position("mineiro", p)
    assert (info.value.code, info.value.path) == ("score_out_of_reach", f"games[{p['winner']}]")


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_every_final_score_of_real_play_is_within_the_ceiling(variant: str) -> None:
    for seed in range(4):
        m = _over(variant, seed, "random" if seed % 2 else "heuristic")
        assert max(m.score) <= score_ceiling(m.rules), (seed, m.score)


@pytest.fixture
def bad_log(tmp_path: Path) -> tuple[Path, Path]:
    p = _position(2**63)
    log = tmp_path / "over.jsonl"
    log.write_text(json.dumps({"truco_log": 2, "variant": V, "position": p}) + "\n",
                   encoding="utf-8")
    pos = tmp_path / "over.json"
    pos.write_text(json.dumps(p), encoding="utf-8")
    return log, pos


@pytest.mark.parametrize("command", ["verify", "position", "replay", "play"])
def test_every_command_refuses_it_with_exit_1(bad_log: tuple[Path, Path], tmp_path: Path,
                                              command: str) -> None:
    log, pos = bad_log
    args = {"verify": ["verify", str(log)],
            "position": ["position", str(log)],
            "replay": ["replay", str(log), "--html", str(tmp_path / "page.html")],
            "play": ["play", "--variant", V, "--position", str(pos), "--seat", "0",
                     "--seed", "1"]}[command]
    result = CliRunner().invoke(main, args, input="")
    assert result.exit_code == 1, (result.output, result.exception)
    assert "score_out_of_reach" in result.output
    assert "Traceback" not in result.output
