"""``truco play``: a whole match through scripted input, bad input, end of input, the log
written as it goes, --resume, and the blind hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import deal, doctests, match, score_to

import engine.cli.play_cmd
from engine import Action, Match
from engine.cli import main
from engine.cli.play_cmd import parse_move
from engine.replay import verify_file
from engine.tui import render_table

FIRSTS = "a\n" * 3000  # always the first move offered: a card, accept, play the hand, a raise


def _play(*args: str, input: str = FIRSTS) -> Result:
    return CliRunner().invoke(main, ["play", *args], input=input)


@pytest.mark.parametrize("variant", ["paulista", "mineiro"])
def test_a_whole_match_through_scripted_input(tmp_path: Path, variant: str) -> None:
    log = tmp_path / "game.jsonl"
    result = _play("--variant", variant, "--seat", "1", "--bots",
                   "heuristic,heuristic,random,heuristic", "--seed", "7", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "match won by" in result.output
    assert "Your cards, strongest first:" in result.output and "Your move:" in result.output
    checked = verify_file(log)
    assert checked.valid and checked.incomplete is None
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["players"] == ["Bot 0 (heuristic)", "you", "Bot 2 (random)",
                                 "Bot 3 (heuristic)"]
    assert header["meta"]["human"] == 1
    assert header["meta"]["bots"] == ["heuristic", "human", "random", "heuristic"]


def test_the_table_shows_what_the_seat_may_see() -> None:
    result = _play("--variant", "paulista", "--seed", "7", input="")
    m = Match.new("paulista", seed=7)
    out = result.output.split("Your move:")[0]
    assert "vira " in out and "manilhas " in out and "Score: us 0 · them 0" in out
    assert "Hand worth" in out
    assert "Your cards, strongest first: J♠ (manilha), 3♣, 6♥" in out  # vira Q♣
    assert set(m.observation(0)["hand"]) == {"Js", "3c", "6h"}
    for seat in (1, 2, 3):  # the others' cards only once played: one each in round 1
        theirs = [_pretty(c) for c in m.observation(seat)["hand"]]
        assert sum(card in out for card in theirs) <= 1


def _pretty(name: str) -> str:
    from engine.cards import card_pretty, parse_card

    return card_pretty(parse_card(name))


def test_end_of_input_stops_cleanly_and_keeps_the_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = _play("--variant", "paulista", "--seed", "7", "--log", str(log), input="a\na\n")
    assert result.exit_code == 0
    assert f"game stopped; the log is kept: continue with --resume {log}" in result.output
    checked = verify_file(log)
    assert checked.valid and checked.incomplete is not None


@pytest.mark.parametrize("stop_after", [1, 5, 12])
def test_resume_continues_exactly_where_the_game_stopped(tmp_path: Path, stop_after: int) -> None:
    whole = tmp_path / "whole.jsonl"
    args = ["--variant", "mineiro", "--seat", "2", "--bots", "random", "--seed", "99"]
    assert _play(*args, "--log", str(whole)).exit_code == 0
    part = tmp_path / "part.jsonl"
    first = _play(*args, "--log", str(part), input="a\n" * stop_after)
    assert first.exit_code == 0 and "game stopped" in first.output
    second = _play("--resume", str(part))
    assert second.exit_code == 0 and "resumed" in second.output, second.output
    assert "match won by" in second.output
    assert part.read_bytes() == whole.read_bytes()


def test_bad_input_gets_a_hint_and_the_question_again() -> None:
    result = _play("--variant", "paulista", "--seed", "7", input="banana\n99\n" + FIRSTS)
    assert result.exit_code == 0
    assert "'banana': type a letter from a to" in result.output
    assert "'99' is no move: choose a letter from a to" in result.output
    assert "match won by" in result.output


def test_quit_stops_the_game() -> None:
    result = _play("--variant", "paulista", "--seed", "7", input="quit\n")
    assert result.exit_code == 0 and "game stopped" in result.output


def test_moves_by_name() -> None:
    m = match("paulista", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", vira="Qs"))
    legal = m.legal_actions(1)
    texts = [str(a) for a in legal]
    assert parse_move("3d", legal, texts, m.rules) == Action.play(1, "3d")
    assert parse_move("2D", legal, texts, m.rules) == Action.play(1, "2d")
    assert parse_move("truco", legal, texts, m.rules) == Action.raise_to(1, 3)
    assert "cannot play 4♣" in str(parse_move("4c", legal, texts, m.rules))
    assert str(parse_move("3d coberta", legal, texts, m.rules)) == (  # P7: round 1
        "3♦ cannot be played coberta now")
    m.apply(Action.raise_to(1, 3))
    legal = m.legal_actions(2)
    texts = [str(a) for a in legal]
    assert parse_move("aceito", legal, texts, m.rules) == Action.accept(2)
    assert parse_move("accept", legal, texts, m.rules) == Action.accept(2)
    assert parse_move("corro", legal, texts, m.rules) == Action.fold(2)
    assert parse_move("seis", legal, texts, m.rules) == Action.raise_to(2, 6)
    assert "no raise" not in str(parse_move("seis", legal, texts, m.rules))


def test_mineiro_raises_name_their_card_and_decisions_by_name() -> None:
    m = match("mineiro", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h"))
    legal = m.legal_actions(1)
    texts = [str(a) for a in legal]
    assert "name the card" in str(parse_move("truco", legal, texts, m.rules))
    assert parse_move("truco 2d", legal, texts, m.rules) == Action.raise_to(1, 3, "2d")
    m = match("mineiro")
    score_to(m, [10, 0])
    m.deal(deal(m.dealer, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h"))
    legal = m.legal_actions(0)
    texts = [str(a) for a in legal]
    assert parse_move("jogo", legal, texts, m.rules) == Action.decide(0, True)
    assert parse_move("corro", legal, texts, m.rules) == Action.decide(0, False)


def test_the_blind_hand_hides_your_cards() -> None:
    m = match("paulista")
    score_to(m, [11, 11])
    hands = ["4c 7h As", "3d 2d Kd", "5c 5d 5h", "6c 6d 6h"]
    m.deal(deal(m.dealer, " | ".join(hands), vira="Qs"))
    seat = m.mao
    obs = m.observation(seat)
    text = render_table(obs, title="Paulista", target=12)
    assert "mão de ferro" in text and "[#1] [#2] [#3]" in text
    for move in m.observation(seat)["legal"]:
        assert "#" in str(move)
    own = [_pretty(c) for c in hands[seat].split()]
    assert not any(card in text for card in own)
    legal = m.legal_actions(seat)
    texts = [str(a) for a in obs["legal"]]
    pick = parse_move("#2", legal, texts, m.rules)
    assert pick == m.play_by_position(seat, 1)
    assert isinstance(parse_move("4c", legal, texts, m.rules), str)  # no peeking by name


def test_usage_errors(tmp_path: Path) -> None:
    assert _play(input="").exit_code == 2  # no variant
    assert _play("--variant", "paulista", "--seat", "4", input="").exit_code == 2
    assert _play("--variant", "paulista", "--bots", "genius", input="").exit_code == 2
    log = tmp_path / "taken.jsonl"
    log.write_text("x\n")
    taken = _play("--variant", "paulista", "--seed", "1", "--log", str(log), input="")
    assert taken.exit_code == 2 and "exists" in taken.output


def test_resume_needs_a_valid_seeded_log(tmp_path: Path) -> None:
    unseeded = tmp_path / "a.jsonl"
    meta = ('"meta": {"tool": "truco play", "human": 0, '
            '"bots": ["human", "heuristic", "heuristic", "heuristic"]}')
    unseeded.write_text('{"truco_log": 1, "variant": "paulista", ' + meta + '}\n',
                        encoding="utf-8")
    result = _play("--resume", str(unseeded), input="")
    assert result.exit_code == 1 and "only a seeded log" in result.output
    bad = tmp_path / "b.jsonl"
    bad.write_text('{"truco_log": 1, "variant": "paulista", "seed": 7, ' + meta + '}\n'
                   '{"event": "fold", "seat": 1}\n', encoding="utf-8")
    result = _play("--resume", str(bad), input="")
    assert result.exit_code == 1 and f"{bad}:2: illegal move" in result.output
    assert "Traceback" not in result.output


def test_docstring_examples_run() -> None:
    result = doctests(engine.cli.play_cmd)
    assert result.attempted >= 1 and result.failed == 0


def test_a_raise_does_not_tell_the_others_its_card() -> None:
    from engine.cli.play_cmd import describe

    rules = Match.new("mineiro", seed=1).rules
    assert describe(Action.raise_to(1, 3, "7h"), rules, 0) == "seat 1 calls TRUCO (3)"
    assert describe(Action.raise_to(0, 3, "7h"), rules, 0) == "you call TRUCO (3) with 7♥ (copas)"
    assert describe(Action.play(1, "7h", True), rules, 0) == "seat 1 plays a card coberta"
    assert describe(Action.play(0, "7h", True), rules, 0) == "you play 7♥ (copas) coberta"


def test_a_joker_is_typed_by_its_name_up_to_x16() -> None:
    """Extra cards (deck.extra) are X1 .. X16: truco play reads x10 as X10 (it read only the
    two-character names, X1 .. X9)."""
    from engine.cards import parse_card
    from engine.cli.play_cmd import _card_token, parse_move

    assert [_card_token(w) for w in ("x1", "X10", "x16", "x17", "x0")] == [
        "X1", "X10", "X16", None, None]
    rules = Match.new("capixaba-jokers", seed=1).rules
    legal = [Action.play(0, parse_card("X1")), Action.play(0, parse_card("X10"))]
    assert parse_move("x10", legal, [str(a) for a in legal], rules) == legal[1]
