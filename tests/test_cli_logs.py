"""``truco verify``, ``truco replay`` and ``truco record``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from engine.cli import main
from tests.conftest import CONFORMANCE, REPO

REPLAYS = REPO / "replays"
EXAMPLES = CONFORMANCE


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_verify_folders_and_files() -> None:
    code, out, _ = run("verify", str(EXAMPLES))
    assert code == 0
    assert out == "7 logs: 7 valid, 0 invalid\n"
    good = sorted(str(p) for p in REPLAYS.glob("*.jsonl"))
    code, out, _ = run("verify", *good)
    assert (code, out.splitlines()[-1].split(":")[0]) == (0, f"{len(good)} logs")


def test_verify_reports_one_line_per_problem_and_exit_1() -> None:
    code, out, _ = run("verify", str(REPLAYS / "invalid"))
    lines = out.splitlines()
    assert code == 1
    invalid = sorted((REPLAYS / "invalid").glob("*.jsonl"))
    # The summary adds up: the incomplete log is one of the valid ones, counted once.
    assert lines[-1] == (f"{len(invalid)} logs: 1 valid (1 of them incomplete), "
                         f"{len(invalid) - 1} invalid")
    for path in invalid:
        expected = path.with_suffix(".expected").read_text(encoding="utf-8").rstrip("\n")
        shown = expected.removesuffix(" ...")
        assert any(line.startswith(f"{REPLAYS / 'invalid'}/{shown}") for line in lines), expected


def test_verify_incomplete_is_listed_and_valid(tmp_path: Path) -> None:
    lines = (REPLAYS / "mineiro-seed1.jsonl").read_text(encoding="utf-8").splitlines()
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[:7]) + "\n", encoding="utf-8")
    code, out, _ = run("verify", str(part), str(REPLAYS / "mineiro-seed1.jsonl"))
    assert code == 0
    assert out.splitlines() == [
        f"{part}:7: incomplete: the log ends before the match is over (hand 2, score [0, 3], "
        "games [0, 0])",
        "2 logs: 2 valid (1 of them incomplete), 0 invalid"]
    code, out, _ = run("verify", "--json", str(part), str(REPLAYS / "mineiro-seed1.jsonl"))
    assert json.loads(out)["summary"] == {"logs": 2, "valid": 2, "complete": 1,
                                          "incomplete": 1, "invalid": 0}


def test_verify_json_and_stdin() -> None:
    data = (REPLAYS / "invalid" / "illegal-move.jsonl").read_bytes()
    code, out, _ = run("verify", "--json", "-", str(REPLAYS / "paulista-seed1.jsonl"),
                       stdin=data)
    assert code == 1
    report = json.loads(out)
    assert report["summary"] == {"logs": 2, "valid": 1, "complete": 1, "incomplete": 0,
                                 "invalid": 1}
    bad, good = report["logs"]
    assert bad["file"] == "<stdin>" and bad["status"] == "invalid"
    assert bad["problems"][0]["kind"] == "illegal" and bad["problems"][0]["line"] == 3
    assert good["status"] == "valid" and good["winner"] in (0, 1)


def test_verify_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("verify")[0] == 2
    code, _, err = run("verify", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "no such file or folder" in err
    code, _, err = run("verify", str(tmp_path))
    assert code == 2 and "no .jsonl logs" in err


def test_replay_transcript() -> None:
    code, out, _ = run("replay", str(REPLAYS / "paulista-special.jsonl"))
    assert code == 0
    assert out.startswith("Truco Paulista (paulista) · seed ")
    for text in ("Hand 1 · dealer ", "vira ", "manilhas ", "round 1: ", "raises: doze (12)",
                 "mão de onze for team", "mão de ferro: worth 3, played blind", "hand: team",
                 "· score ", "Match: team", "♣", "♥"):
        assert text in out, text
    code, out, _ = run("replay", str(REPLAYS / "mineiro-special.jsonl"))
    assert "decides to fold" in out and "decides to play" in out and "with " in out


def test_replay_invalid_log_exits_1_with_its_line() -> None:
    code, out, err = run("replay", str(REPLAYS / "invalid" / "illegal-move.jsonl"))
    assert code == 1
    assert "Hand 1" in out
    assert err.startswith(f"truco: {REPLAYS / 'invalid' / 'illegal-move.jsonl'}:3: illegal move")
    code, _, err = run("replay", "--checkpoints", str(REPLAYS / "invalid" / "blank-line.jsonl"))
    assert code == 1 and ":6: blank line" in err


def test_replay_checkpoints(tmp_path: Path) -> None:
    moves_only = EXAMPLES / "paulista-seed303-moves-only.jsonl"
    code, out, _ = run("replay", "--checkpoints", str(moves_only))
    assert code == 0
    assert '{"event": "match", "winner": ' in out.splitlines()[-1]
    target = tmp_path / "annotated.jsonl"
    code, written, _ = run("replay", "--checkpoints", str(moves_only), "-o", str(target))
    assert code == 0 and written == "" and target.read_text(encoding="utf-8") == out
    code, again, _ = run("replay", "--checkpoints", str(target))
    assert (code, again) == (0, out)
    mismatch = REPLAYS / "invalid" / "checkpoint-mismatch.jsonl"
    code, fixed, err = run("replay", "--checkpoints", str(mismatch))
    assert code == 0 and "(replaced by the engine's)" in err
    assert fixed == (REPLAYS / "paulista-seed1.jsonl").read_text(encoding="utf-8")


def test_record_writes_verifiable_logs(tmp_path: Path) -> None:
    target = tmp_path / "game.jsonl"
    code, out, _ = run("record", "--variant", "mineiro", "--seed", "9", "--out", str(target))
    assert (code, out) == (0, "")
    text = target.read_text(encoding="utf-8")
    assert json.loads(text.splitlines()[0])["seed"] == 9
    assert run("record", "-v", "mineiro", "-s", "9")[1] == text
    assert run("verify", str(target))[0] == 0
    code, out, _ = run("record", "-v", "paulista", "-s", "9", "--unseeded", "--dealer", "2")
    header = json.loads(out.splitlines()[0])
    assert code == 0 and "seed" not in header and header["dealer"] == 2
    assert json.loads(out.splitlines()[1])["event"] == "deal"
    assert run("verify", "-", stdin=out.encode())[0] == 0
    assert run("record", "-v", "paulista", "-s", "-1")[0] == 2
    assert run("record", "-v", "paulista", "-s", "1", "-d", "4")[0] == 2
    code, _, err = run("record", "-v", "nope", "-s", "1")
    assert code == 1 and "unknown variant 'nope'" in err
