"""Logs that start from a position (docs/log-format.md, header ``position``; docs/positions.md):
written by the Recorder, verified by the replayer, refused with the position's code when the
position is impossible, and made from any position of the shipped logs (round trip through
``truco position --at``)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine import Deal, Match
from engine.cards import card_name
from engine.cli import main
from engine.cli.position_cmd import CHECKPOINTS, position_at
from engine.logformat import Recorder
from engine.replay import verify_bytes, verify_file
from engine.shuffle import SplitMix64
from engine.shuffle import deal as seeded_deal
from tests.conftest import CONFORMANCE, REPO

LOGS = sorted([*(REPO / "replays").glob("*.jsonl"), *CONFORMANCE.glob("*.jsonl")])


def _mid_hand(seed: int = 7, moves: int = 5) -> Match:
    """A real seeded paulista match in the middle of its first hand."""
    m = Match.new("paulista", seed=seed)
    for _ in range(moves):
        m.apply(m.legal_actions()[0])
    assert m.hand.played and not m.is_over
    return m


def _log_from(m: Match, *, moves: int | None = None) -> str:
    """The log the Recorder writes for ``m`` played on to its end (last legal move each time)."""
    out = io.StringIO()
    rec = Recorder(m, out, variant="paulista")
    dealer_rng = SplitMix64(99)  # deals an unseeded match's hands
    r = m.rules
    n = 0
    while not m.is_over and (moves is None or n < moves):
        if m.awaiting_deal:
            hands, vira = seeded_deal(r.deck, dealer_rng, r.players, r.cards_per_player,
                                      m.dealer, r.has_vira)
            rec.deal(Deal(m.dealer, tuple(tuple(h) for h in hands), vira))
            continue
        rec.apply(m.legal_actions()[-1])
        n += 1
    return out.getvalue()


def _header(text: str) -> dict[str, Any]:
    header: dict[str, Any] = json.loads(text.splitlines()[0])
    return header


def _with_header(text: str, header: dict[str, Any]) -> bytes:
    return (json.dumps(header) + "\n" + "".join(text.splitlines(keepends=True)[1:])).encode()


def test_recorder_writes_a_position_header_for_a_match_built_from_a_position() -> None:
    m = Match.from_position("paulista", _mid_hand().position())
    start = m.position()
    header = _header(_log_from(m, moves=1))
    assert header["truco_log"] == 2
    assert header["position"] == start
    assert "seed" not in header and "dealer" not in header
    assert list(header)[:3] == ["truco_log", "variant", "position"]


def test_recorder_of_a_new_match_writes_no_position() -> None:
    header = _header(_log_from(Match.new("paulista", seed=7), moves=1))
    assert header["truco_log"] == 1 and "position" not in header and header["seed"] == 7


def test_a_log_from_the_position_of_a_real_match_in_the_middle_of_a_hand_verifies() -> None:
    m = _mid_hand()
    text = _log_from(Match.from_position("paulista", m.position()))
    result = verify_bytes(text.encode(), "pos.jsonl", strict=True)
    assert result.valid and result.incomplete is None and result.winner is not None
    # the seeded position keeps dealing from its rng: the original match played with the
    # same moves ends the same way
    text2 = _log_from(m)
    assert text2.splitlines()[1:] == text.splitlines()[1:]


def test_a_log_from_an_unseeded_position_deals_with_deal_lines() -> None:
    m = Match.from_position("paulista", {**_mid_hand().position(), "rng": None})
    text = _log_from(m)
    assert any(json.loads(line)["event"] == "deal" for line in text.splitlines()[1:])
    result = verify_bytes(text.encode(), "pos.jsonl", strict=True)
    assert result.valid and result.incomplete is None


def test_a_log_whose_position_has_a_card_twice_fails_with_the_code() -> None:
    text = _log_from(Match.from_position("paulista", _mid_hand().position()))
    header = _header(text)
    hands = header["position"]["hands"]
    hands[0][0] = hands[1][0]
    result = verify_bytes(_with_header(text, header), "bad.jsonl")
    assert len(result.problems) == 1
    problem = result.problems[0]
    assert problem.line == 1 and problem.code == "card_twice"
    assert str(problem) == (f"bad.jsonl:1: bad header: card_twice: position.hands[1][0]: "
                            f"{hands[1][0]} is also at hands[0][0]")
    assert problem.as_dict()["code"] == "card_twice"


def test_truco_verify_shows_the_position_code_and_exits_1(tmp_path: Path) -> None:
    text = _log_from(Match.from_position("paulista", _mid_hand().position()), moves=2)
    header = _header(text)
    header["position"]["value"] = 2
    runner = CliRunner()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(_with_header(text, header))
    result = runner.invoke(main, ["verify", str(bad)])
    assert result.exit_code == 1
    assert "bad.jsonl:1: bad header: value_not_on_ladder: position.value: " in result.output
    result = runner.invoke(main, ["verify", "--json", str(bad)])
    assert result.exit_code == 1
    assert '"code": "value_not_on_ladder"' in result.stdout


def test_a_version_1_header_with_a_position_fails() -> None:
    text = _log_from(Match.from_position("paulista", _mid_hand().position()), moves=2)
    header = _header(text)
    header["truco_log"] = 1
    result = verify_bytes(_with_header(text, header), "v1.jsonl")
    assert [str(p) for p in result.problems] == [
        'v1.jsonl:1: bad header: a header with a position needs log format version 2, but the '
        'header says version 1: write "truco_log": 2 in the header']


@pytest.mark.parametrize("key", ["seed", "dealer"])
def test_a_position_header_with_a_seed_or_dealer_fails(key: str) -> None:
    text = _log_from(Match.from_position("paulista", _mid_hand().position()), moves=2)
    header = {**_header(text), key: 0}
    result = verify_bytes(_with_header(text, header), "s.jsonl")
    assert len(result.problems) == 1
    assert f"a header with a position has no {key}" in str(result.problems[0])


def test_a_position_header_that_is_not_an_object_fails_the_schema() -> None:
    result = verify_bytes(b'{"truco_log": 2, "variant": "paulista", "position": 3}\n', "n.jsonl")
    assert result.problems and result.problems[0].kind == "header"


def test_a_deal_line_after_a_position_mid_hand_is_refused() -> None:
    m = _mid_hand()
    text = _log_from(Match.from_position("paulista", m.position()), moves=1)
    lines = text.splitlines(keepends=True)
    deal = json.dumps({"event": "deal", "dealer": m.dealer,
                       "hands": m.position()["dealt"], "vira": m.position()["vira"]}) + "\n"
    result = verify_bytes("".join([lines[0], deal, *lines[1:]]).encode(), "d.jsonl")
    assert [p.line for p in result.problems] == [2]


def _stops(path: Path) -> list[int]:
    """The lines after which the log has a position: not before a checkpoint."""
    lines = path.read_bytes().splitlines()
    return [k for k in range(1, len(lines) + 1)
            if k == len(lines) or json.loads(lines[k]).get("event") not in CHECKPOINTS]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_round_trip_position_at_a_line_then_the_rest_of_the_log_verifies(path: Path) -> None:
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    original = json.loads(lines[0])
    stops = _stops(path)
    for at in stops[::max(1, len(stops) // 6)] + [stops[-1]]:
        p = position_at(data, str(path), path.parent, at)
        header = {"truco_log": 2, "variant": original["variant"], "position": p}
        log = (json.dumps(header) + "\n").encode() + b"".join(lines[at:])
        result = verify_bytes(log, path.name, base=path.parent, strict=True)
        assert result.valid and result.incomplete is None, (path.name, at)
        assert result.winner == verify_bytes(data, path.name, base=path.parent).winner


# -- truco play --position ------------------------------------------------------------------------
FIRSTS = "a\n" * 3000  # always the first move offered


def _play(*args: str, input: str = FIRSTS) -> Any:
    return CliRunner().invoke(main, ["play", *args], input=input)


def _position_file(tmp_path: Path, position: dict[str, Any], name: str = "p.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(position), encoding="utf-8")
    return path


@pytest.mark.parametrize("seat", [0, 1])
def test_play_position_starts_there_and_its_log_starts_from_it(tmp_path: Path, seat: int
                                                                ) -> None:
    start = _mid_hand().position()
    pos = _position_file(tmp_path, start)
    log = tmp_path / "game.jsonl"
    result = _play("--variant", "paulista", "--position", str(pos), "--seat", str(seat),
                   "--seed", "3", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "match won by" in result.output and "Traceback" not in result.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["truco_log"] == 2 and header["position"] == start
    assert "seed" not in header and header["meta"]["human"] == seat
    checked = verify_file(log)
    assert checked.valid and checked.incomplete is None


def test_play_position_without_rng_deals_later_hands_from_the_seed(tmp_path: Path) -> None:
    pos = _position_file(tmp_path, {**_mid_hand().position(), "rng": None})
    log = tmp_path / "game.jsonl"
    result = _play("--variant", "paulista", "--position", str(pos), "--seed", "3",
                   "--log", str(log))
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["position"]["rng"] is not None
    assert verify_file(log).valid


def test_play_position_a_bad_file_is_a_clear_error_naming_it(tmp_path: Path) -> None:
    p = _mid_hand().position()
    p["hands"][0][0] = p["hands"][1][0]
    twice = _position_file(tmp_path, p, "twice.json")
    result = _play("--variant", "paulista", "--position", str(twice), "--seed", "3", input="")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{twice}: bad position: card_twice: hands[1][0]: " in result.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    result = _play("--variant", "paulista", "--position", str(junk), "--seed", "3", input="")
    assert result.exit_code == 1 and f"{junk}:1:2: bad position: invalid JSON" in result.output
    result = _play("--variant", "paulista", "--position", str(tmp_path / "none.json"),
                   input="")
    assert result.exit_code == 2 and "none.json: No such file" in result.output  # as --resume
    assert "Traceback" not in result.output


def test_play_position_with_resume_is_a_usage_error(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    log.write_text('{"truco_log": 1, "variant": "paulista", "seed": 7}\n', encoding="utf-8")
    pos = _position_file(tmp_path, _mid_hand().position())
    assert _play("--resume", str(log), "--position", str(pos), input="").exit_code == 2


@pytest.mark.parametrize("stop_after", [1, 6])
def test_play_position_resume_continues_exactly_where_the_game_stopped(tmp_path: Path,
                                                                        stop_after: int) -> None:
    pos = _position_file(tmp_path, _mid_hand().position())
    args = ["--variant", "paulista", "--position", str(pos), "--seat", "2", "--bots", "random",
            "--seed", "99"]
    whole = tmp_path / "whole.jsonl"
    assert _play(*args, "--log", str(whole)).exit_code == 0
    part = tmp_path / "part.jsonl"
    first = _play(*args, "--log", str(part), input="a\n" * stop_after)
    assert first.exit_code == 0 and "game stopped" in first.output
    second = _play("--resume", str(part))
    assert second.exit_code == 0 and "resumed" in second.output, second.output
    assert part.read_bytes() == whole.read_bytes()


def test_resume_of_a_position_log_without_the_bots_seed_is_refused(tmp_path: Path) -> None:
    text = _log_from(Match.from_position("paulista", _mid_hand().position()), moves=2)
    head, rest = text.split("\n", 1)
    header = json.loads(head)  # as truco play writes it, but without the bots' seed
    header["meta"] = {"tool": "truco play", "human": 0,
                      "bots": ["human", "heuristic", "heuristic", "heuristic"]}
    log = tmp_path / "a.jsonl"
    log.write_text(json.dumps(header) + "\n" + rest, encoding="utf-8")
    result = _play("--resume", str(log), input="")
    assert result.exit_code == 1 and "bots_seed" in result.output
    assert "Traceback" not in result.output


def test_the_transcript_of_a_log_from_a_position_says_what_was_before_it() -> None:
    """truco replay of a log that starts mid-hand: the header says it starts from a position,
    the hand says which cards were played before the log's first line, and the rounds go on
    being numbered from there (the position's second round is "round 2")."""
    from engine.transcript import transcript

    m = _mid_hand()
    out = io.StringIO()
    rec = Recorder(m, out, variant="paulista")
    while m.round.number == 1:  # the rest of round 2, card by card
        rec.apply(next(a for a in m.legal_actions() if a.kind == "play"))
    lines = transcript(out.getvalue().encode(), "p.jsonl").splitlines()
    assert "from a position: hand 1, games 0-0" in lines[0]
    before = next(line for line in lines if "(before the log:" in line)
    assert "played: round 1: seat 1 2♥, seat 2 3♥, seat 3 K♥, seat 0 J♠; round 2: seat 0 3♣" \
        in before and "rounds won: team 0" in before
    rounds = [line.strip() for line in lines if line.strip().startswith("round ")]
    assert rounds and rounds[0].startswith("round 2: ")


def test_a_deal_line_after_a_settled_envido_in_a_position_log_is_refused() -> None:
    """Issue 26: a position whose hand has had an envido called and accepted (no card played)
    is in the middle of its hand: a deal line for it is refused, as in a seeded log."""
    m = Match.new("gauderio", seed=3)
    for text in ("envido 1 envido", "quero 2"):
        m.apply(next(a for a in m.legal_actions() if str(a) == text))
    assert m.state == "play" and not m.hand.played
    hands = [[card_name(c) for c in h] for h in m.hand.dealt]
    header = {"truco_log": 2, "variant": "gauderio", "position": m.position()}
    deal_line = {"event": "deal", "dealer": m.dealer, "hands": hands}
    text = json.dumps(header) + "\n" + json.dumps(deal_line) + "\n"
    result = verify_bytes(text.encode(), "pos.jsonl")
    assert [(p.kind, p.line) for p in result.problems] == [("deal", 2)], result.problems
    assert "this hand has events already" in result.problems[0].message
