"""``truco play``'s bots raise out of turn as ``truco simulate``'s do (M3, issue 10 follow-up):
before each card, the person's or a bot's, the seats that may raise are offered it in playing
order from the seat after the one to play, through the same function
(:func:`engine.bots.out_of_turn_raise`). ``--resume`` replays those offers, passes included, so
a game stopped at any move goes on exactly as if it had not stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from engine import Action, Match
from engine.cli import main
from engine.game import resolve_rules
from engine.replay import verify_file

FIRSTS = "a\n" * 3000  # the first entry of every menu: an offered raise is taken
MOVES = ("play", "raise", "accept", "fold", "decide")
SEED = ["--seed", "3", "--bots", "random,heuristic"]  # you at seat 0; bots raise out of turn


def _play(*args: str, input: str = FIRSTS) -> Result:
    return CliRunner().invoke(main, ["play", *args], input=input)


def _lines(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines(keepends=True)


def _out_of_turn(log: Path) -> list[tuple[int, int, int]]:
    """The raises made while another seat's card was awaited: (move index, raiser, seat to
    play), found by replaying the log's moves."""
    lines = [json.loads(x) for x in _lines(log)]
    m = Match(resolve_rules(lines[0]["variant"]), seed=lines[0]["seed"],
              dealer=lines[0].get("dealer", 0))
    found = []
    for i, e in enumerate(e for e in lines[1:] if e["event"] in MOVES):
        if e["event"] == "raise" and m.state == "play" and e["seat"] != m.turn:
            found.append((i, e["seat"], m.turn))
        m.apply(Action.from_event(e))
    return found


def _whole(tmp_path: Path, variant: str) -> Path:
    log = tmp_path / f"{variant}.jsonl"
    result = _play("--variant", variant, *SEED, "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "match won by" in result.output
    assert verify_file(log).valid
    return log


def test_M3_bots_in_truco_play_raise_out_of_turn(tmp_path: Path) -> None:
    raises = _out_of_turn(_whole(tmp_path, "mineiro"))
    by_bots = [(i, s, turn) for i, s, turn in raises if s != 0]
    assert by_bots, raises
    assert all(s != turn for _, s, turn in by_bots)
    assert any(turn == 0 for _, _, turn in by_bots)  # before your own card too
    assert any(turn != 0 for _, _, turn in by_bots)  # and before a bot's


def test_P4_the_same_game_in_paulista_has_no_raise_out_of_turn(tmp_path: Path) -> None:
    assert _out_of_turn(_whole(tmp_path, "paulista")) == []


def test_M3_the_bots_are_offered_before_your_card_too(tmp_path: Path) -> None:
    # seed 3, hand 2: Bot 2 is mão; Bot 3 (after it in playing order, before you) raises
    # before Bot 2's card, so you are not asked to raise before Bot 2 plays
    out = _play("--variant", "mineiro", "--seed", "3", input="\nb\n").output
    hand_2 = out.split("══ Game 1 · hand 2")[1]
    assert hand_2.splitlines()[3] == "Bot 3 (heuristic) calls TRUCO (3)"
    assert "Raise before" not in hand_2


def _move_ends(lines: list[str]) -> list[int]:
    """For each move n (1-based), the number of log lines up to it and its checkpoints."""
    starts = [i for i, x in enumerate(lines) if json.loads(x).get("event") in MOVES]
    return [*starts[1:], len(lines)]


def test_M3_resume_replays_the_bots_offers_at_any_move(tmp_path: Path) -> None:
    whole = _whole(tmp_path, "mineiro")
    raises = _out_of_turn(whole)
    lines = _lines(whole)
    ends = _move_ends(lines)
    # a game killed after move n: around every raise out of turn, and some moves elsewhere
    stops = sorted({n for i, _, _ in raises for n in (i, i + 1, i + 2)} | {1, 2, 7, 40, 90})
    stops = [n for n in stops if 0 < n < len(ends)]
    assert len(stops) >= 10
    for n in stops:
        part = tmp_path / f"part-{n}.jsonl"
        part.write_text("".join(lines[:ends[n - 1]]), encoding="utf-8")
        result = _play("--resume", str(part))
        moves = f"after {n} move{'s' * (n != 1)}\n"
        assert result.exit_code == 0 and moves in result.output, result.output
        assert part.read_bytes() == whole.read_bytes(), f"stopped after move {n}"


@pytest.mark.parametrize("answers", [1, 3, 6, 10])
def test_M3_resume_after_end_of_input_goes_on_as_if_not_stopped(tmp_path: Path,
                                                                 answers: int) -> None:
    whole = _whole(tmp_path, "mineiro")
    part = tmp_path / "part.jsonl"
    args = ["--variant", "mineiro", *SEED, "--log", str(part)]
    first = _play(*args, input="a\n" * answers)
    assert first.exit_code == 0 and "game stopped" in first.output
    second = _play("--resume", str(part))
    assert second.exit_code == 0 and "match won by" in second.output, second.output
    assert part.read_bytes() == whole.read_bytes()
