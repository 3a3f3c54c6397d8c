"""What a player of ``truco play`` has seen stays on screen while it matters (issue 25): the
partners' cards of a decision, the cards played before a resume, a raise's card until it is
played; each round's winner with his card."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import deal, match, score_to

from engine import Action
from engine.bots.base import Observation
from engine.cli import main
from engine.cli.play_cmd import _Game, seat_names
from engine.tui import render_banner, render_table

NAMES = seat_names(["human", "first", "first", "first"])


class _First:
    """A bot that plays its first card and never raises out of turn."""

    name = "first"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return next((a for a in legal_actions if a.kind in ("play", "pass")), legal_actions[0])


def test_M5_the_partners_cards_of_a_mao_de_dez_stay_on_the_table_for_the_hand(
        capsys: pytest.CaptureFixture[str]) -> None:
    m = match("mineiro")
    score_to(m, [10, 0])  # our team (seats 0 and 2) decides, seeing the partner's cards
    m.deal(deal(m.dealer, "4s 5s 6s | 3d Qs Qh | 5c 6c 7c | 5d 6d Kc"))
    _Game(m, 0, {s: _First() for s in (1, 2, 3)}, "Mineiro", None,
          io.StringIO("jogo\na\na\n"), NAMES).run()
    tables = capsys.readouterr().out.split("\n── ")[1:]
    assert len(tables) == 3  # the decision, then a table before each of our two cards
    assert "Partner's cards (Bot 2 (first)): 5♣ 6♣ 7♣" in tables[0]
    assert "Partner's cards (Bot 2 (first)): 5♣ 6♣ 7♣" in tables[1]
    assert "Partner's cards (Bot 2 (first)): 7♣" in tables[2]  # less the cards he played


def test_the_banner_of_a_hand_begun_shows_the_cards_played() -> None:
    """After --resume (or from a position) the first banner comes mid-hand."""
    m = match("paulista", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", vira="Qs"))
    for card, seat in (("3d", 1), ("5c", 2)):
        m.apply(Action.play(seat, card))
    banner = render_banner(m.observation(0), rules=m.rules, names=NAMES, target=12)
    assert "   Round 1: Bot 1 (first) 3♦, Bot 2 (first) 5♣\n" in banner


def test_M4_a_raise_card_leaves_the_shown_line_once_played() -> None:
    m = match("mineiro", deal(0, "4s 5s 6s | 3d Qs Qh | 5c 6c 7c | 5d 6d Kc"))
    m.apply(Action.raise_to(1, 3, "3d"))
    m.apply(Action.accept(2))
    table = render_table(m.observation(0), title="M", target=12, rules=m.rules, names=NAMES)
    assert "Shown with a raise: Bot 1 (first) 3♦" in table
    m.apply(Action.play(1, "3d"))
    table = render_table(m.observation(0), title="M", target=12, rules=m.rules, names=NAMES)
    assert "Shown with a raise" not in table and "Round 1: Bot 1 (first) 3♦" in table


def test_C5_a_round_won_is_told_with_the_winners_card() -> None:
    m = match("paulista", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", vira="Qs"))
    for card, seat in (("3d", 1), ("5c", 2), ("6c", 3), ("As", 0)):
        m.apply(Action.play(seat, card))
    table = render_table(m.observation(0), title="P", target=12, rules=m.rules, names=NAMES)
    assert "Round 1: Bot 1 (first) 3♦, Bot 2 (first) 5♣, Bot 3 (first) 6♣, you A♠ → them " \
           "(Bot 1 (first) 3♦)" in table


def test_P6_blind_cards_keep_the_numbers_they_were_dealt_with(
        capsys: pytest.CaptureFixture[str]) -> None:
    m = match("paulista")
    score_to(m, [11, 11])  # mão de ferro: every hand blind
    hands = ["4c 7h As", "3d 2d Kd", "5c 5d 5h", "6c 6d 6h"]
    m.deal(deal(m.dealer, " | ".join(hands), vira="Qs"))
    _Game(m, 0, {s: _First() for s in (1, 2, 3)}, "Paulista", None,
          io.StringIO("#2\n#3\n"), NAMES).run()
    out = capsys.readouterr().out
    tables = out.split("\n── ")[1:]
    assert "Your cards (blind hand, hidden): [#1] [#2] [#3]" in tables[0]
    assert "Your cards (blind hand, hidden): [#1] [#3]" in tables[1]
    assert "  b) play card #3\n" in tables[1]  # the menu keeps the numbers too
    assert "you play card #2: 7♥" in out and "you play card #3: A♠" in out  # #3 as dealt


def test_hands_are_numbered_per_game_also_after_a_resume(tmp_path: Path) -> None:
    args = ["play", "--variant", "mineiro-best-of-5", "--seed", "3", "--bots", "random"]
    whole = CliRunner().invoke(main, args, input="a\n" * 3000).output
    banners = [line for line in whole.splitlines() if line.startswith("══ ")]
    assert banners[0].startswith("══ Game 1 · hand 1 · ")
    assert any(b.startswith("══ Game 2 · hand 1 · ") for b in banners)
    log = tmp_path / "p.jsonl"
    CliRunner().invoke(main, [*args, "--log", str(log)], input="a\n" * 20)
    resumed = CliRunner().invoke(main, ["play", "--resume", str(log)], input="").output
    first = next(line for line in resumed.splitlines() if line.startswith("══ "))
    assert first.startswith("══ Game 2 · hand ") and first in banners


def test_the_games_are_written_one_way_everywhere() -> None:
    from engine.cli.play_cmd import describe_checkpoint

    game = {"event": "game", "winner": 1, "score": [9, 12], "games": [1, 1]}
    assert describe_checkpoint(game, 0, [0, 1, 0, 1]) == (  # type: ignore[arg-type]
        "  ★ game won by them, us 9, them 12 · games us 1, them 1")
    m = match("paulista", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", vira="Qs"))
    obs = {**m.observation(0), "games": [1, 0]}
    assert "games us 1, them 0" in render_table(obs, title="P", target=12, rules=m.rules)
    assert "games us 1, them 0" in render_banner(obs, rules=m.rules, names=None, target=12)


def test_replay_numbers_hands_per_game_as_play_does() -> None:
    import re

    from conftest import REPO

    from engine.transcript import transcript

    log = REPO / "replays" / "mineiro-seed1.jsonl"
    games, expected = 0, 1
    for line in transcript(log.read_bytes(), str(log)).splitlines():
        if re.fullmatch(r"Game \d+", line):  # a game begins: its hands from 1
            games, expected = games + 1, 1
        elif line.startswith("Hand "):
            assert int(line.split()[1]) == expected, line
            expected += 1
    assert games >= 2
