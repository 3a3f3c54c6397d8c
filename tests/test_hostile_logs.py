"""Hostile and broken game logs (issue 7, item 2): ``truco verify`` answers each with
``file:line: message`` and exit 1 (CRLF line ends and a log cut at a line end are accepted:
exit 0), in bounded time and memory, never a traceback.

The cases are rows of the table in docs/hostile-input.md (checked by a test); print the rows
again with ``python -m tests.test_hostile_logs``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.logread import MAX_FILE_BYTES, MAX_JSON_DEPTH, MAX_LINE_BYTES, LogProblem
from engine.replay import ReplayResult, annotate, verify_bytes, verify_file
from tests.conftest import CONFORMANCE
from tests.test_hostile_variants import (
    DOC,
    Case,
    check_output,
    peak_memory,
    setup_case,
    table_rows,
)

EXAMPLE = (CONFORMANCE / "paulista-seed101.jsonl").read_text(encoding="utf-8")
H = EXAMPLE.splitlines(keepends=True)[0]  # paulista, seed 101, dealer 1
assert H == '{"truco_log": 1, "variant": "paulista", "seed": 101, "dealer": 1}\n'
P = '{"event": "play", "seat": 2, "card": "Kd"}\n'  # the first move of that log
assert EXAMPLE.splitlines(keepends=True)[1] == P
U = '{"truco_log": 1, "variant": "paulista"}\n'  # no seed: every hand needs a deal event
HANDS = '[["Ac", "3d", "2c"], ["3c", "4c", "5c"], ["6c", "7c", "Qc"], ["Jc", "Kc", "Ad"]]'
BIG = "1" + "0" * 400  # 10**400


def _deal(hands: str = HANDS, dealer: int = 0) -> str:
    return f'{{"event": "deal", "dealer": {dealer}, "hands": {hands}, "vira": "2d"}}\n'


def _play(seat: str, card: str = '"Kd"') -> str:
    return f'{{"event": "play", "seat": {seat}, "card": {card}}}\n'


def _header(**fields: str) -> str:
    body = {"truco_log": "1", "variant": '"paulista"', "seed": "101", **fields}
    return "{" + ", ".join(f'"{k}": {v}' for k, v in body.items()) + "}\n"


# The size limit: a log of more than 64 MiB. Line 2 stops the replay (an illegal fold), then
# lines of 60,000 bytes follow until the limit is passed.
_FILL = '{"event": "accept", "seat": 0, "t": "' + "x" * 59_960 + '"}\n'
_FOLD = '{"event": "fold", "seat": 1}\n'
_SIZE_LINE = 3 + (MAX_FILE_BYTES - len(H) - len(_FOLD)) // len(_FILL)


_BAD_ROUND = EXAMPLE.replace('{"event": "round", "winner": 1}', '{"event": "round", "winner": "x"}',
                             1).replace('"score": [3, 13]}\n{"event": "game"',
                                        '"score": [13, 3]}\n{"event": "game"')


# Gaudério, seed 1, written as version 1: three plays, then seat 0 sings his flor (G35), a move
# of version 2 only, however its bytes spell it (issue 26).
_V1_FLOR = ('{"truco_log": 1, "variant": "gauderio", "seed": 1}\n'
            + "".join(_play(seat, f'"{card}"') for seat, card in
                      (("1", "2d"), ("2", "7h"), ("3", "5h")))
            + '{"event": "flor", "seat": 0, "call": "flor"}\n')
_FLOR_NEEDS_2 = ("a side bet's flor event needs log format version 2, but the header says "
                 "version 1")


def _too_large() -> bytes:
    return (H + _FOLD + _FILL * (_SIZE_LINE - 2)).encode()


def log(what: str, content: str | bytes, line: int | None, says: str, *, code: int = 1,
        id: str, files: dict[str, str | bytes] | None = None) -> Case:
    """A case of ``truco verify a.jsonl`` whose first line is ``a.jsonl:<line>: ...``."""
    return Case(id, what, {"a.jsonl": content, **(files or {})}, target="a.jsonl",
                where=None if line is None else f"a.jsonl:{line}", says=says, code=code,
                command=("verify",))


CASES = [
    log(f"a line over {MAX_LINE_BYTES // 1024} KiB",
        H + '{"event": "play", "seat": 2, "card": "Kd", "t": "' + "x" * MAX_LINE_BYTES + '"}\n',
        2, "line longer than 64 KiB, the limit of this reader", id="line-limit"),
    Case("size-limit", f"a log over {MAX_FILE_BYTES // 2**20} MiB", {"a.jsonl": _too_large},
         target="a.jsonl", where=f"a.jsonl:{_SIZE_LINE}", command=("verify",),
         says="the log is larger than 64 MiB, the limit of this reader"),
    Case("device", "`/dev/zero` as the log (a device, not a regular file; `-` reads standard "
         "input)", {}, target="/dev/zero", where="/dev/zero:1", command=("verify",),
         says="cannot read the log: not a regular file: a character device"),
    log("invalid UTF-8", H.encode() + b'{"event": "play", "seat": 2, "card": "K\xff"}\n', 2,
        "invalid UTF-8 at byte 40 of the line (0xff)", id="utf-8"),
    log("a byte order mark", "\ufeff" + H + P, 1, "starts with a byte order mark", id="bom"),
    log("a line that is a JSON list", H + "[1, 2]\n", 2,
        "expected an event (a JSON object), found a list", id="list"),
    log("a header that is a JSON string", '"paulista"\n', 1,
        "expected the header (a JSON object), found a string", id="string-header"),
    log("`NaN`", H + _play("NaN"), 2, "invalid JSON: NaN is not valid JSON", id="nan"),
    log("`Infinity`", H + _play("Infinity"), 2, "Infinity is not valid JSON", id="infinity"),
    log("`-Infinity`", H + _play("-Infinity"), 2, "-Infinity is not valid JSON", id="-infinity"),
    log("`1e999` (a number that overflows to infinity)",
        H + P.replace("}", ', "t": 1e999}'), 2, "the number 1e999 is too large", id="1e999"),
    log("an integer of 5,000 digits", H + _play("1" + "0" * 5000), 2,
        "an integer with more than 4300 digits", id="digits"),
    log("seat 10**400", H + _play(BIG), 2, "there is no seat 1000", id="seat-huge"),
    log("seat 2**64", H + _play(str(2**64)), 2, f"there is no seat {2**64}", id="seat-2-64"),
    log("seat -1", H + _play("-1"), 2, "seat: expected at least 0, found -1", id="seat-negative"),
    log("seat 4 (four players: seats 0..3)", H + _play("4"), 2, "there is no seat 4",
        id="seat-4"),
    log("seat `1.0`", H + _play("1.0"), 2, "seat: expected an integer, found 1.0",
        id="seat-float"),
    log("seat `true`", H + _play("true"), 2, "seat: expected an integer, found true",
        id="seat-bool"),
    log("seed -1", _header(seed="-1"), 1, "seed: expected at least 0, found -1",
        id="seed-negative"),
    log("seed 2**64", _header(seed=str(2**64)), 1,
        f"seed: expected at most {2**64 - 1}, found {2**64}", id="seed-2-64"),
    log("seed 10**400", _header(seed=BIG), 1, f"seed: expected at most {2**64 - 1}",
        id="seed-huge"),
    log("seed `1e3`", _header(seed="1e3"), 1, "seed: expected an integer, found 1000.0",
        id="seed-float"),
    log("seed `\"7\"`", _header(seed='"7"'), 1, 'seed: expected an integer, found "7"',
        id="seed-string"),
    log("dealer 4", _header(dealer="4"), 1, "dealer 4 is not a seat of this variant (0..3)",
        id="dealer"),
    log("two player names for four seats", _header(players='["Ana", "Bia"]'), 1,
        "players names 2 players, the variant seats 4", id="players"),
    log("format version 3", _header(truco_log="3"), 1, "unsupported format version 3",
        id="version"),
    log("a card that does not exist (`Zz`)", H + _play("2", '"Zz"'), 2,
        'card: expected a card like "4c" or "Kd", found "Zz"', id="card-bad"),
    log("a card not in the deck (`8d`: no 8s in Paulista)", H + _play("2", '"8d"'), 2,
        "seat 2 does not hold 8d", id="card-not-in-deck"),
    log("a card not in the hand", H + _play("2", '"Ad"'), 2, "seat 2 does not hold Ad",
        id="card-not-held"),
    log("a deal with a card not in the deck", U + _deal(HANDS.replace("Ac", "8c")), 2,
        "deal mismatch: 8c is not in this variant's deck", id="deal-not-in-deck"),
    log("a deal with a card twice", U + _deal(HANDS.replace("3d", "Ac")), 2,
        "deal mismatch: Ac is dealt twice", id="deal-twice"),
    log("a deal of 3 hands for 4 seats", U + _deal(HANDS.rsplit(", [", 1)[0] + "]"), 2,
        "deal mismatch", id="deal-3-hands"),
    log("a deal by a dealer out of turn", U + _deal(dealer=9), 2, "deal mismatch",
        id="deal-dealer"),
    log("a duplicate key in an event", H + '{"event": "play", "seat": 2, "seat": 2, '
        '"card": "Kd"}\n', 2, 'invalid JSON: duplicate key "seat"', id="duplicate-key"),
    log("a duplicate key in the header",
        '{"truco_log": 1, "variant": "paulista", "variant": "mineiro"}\n', 1,
        'duplicate key "variant"', id="duplicate-key-header"),
    log("an unknown variant", _header(variant='"paulistaa"'), 1,
        "unknown variant 'paulistaa'", id="variant-unknown"),
    log("variant `/etc/passwd`", _header(variant='"/etc/passwd"'), 1,
        "/etc/passwd is not a variant file", id="variant-passwd"),
    log("variant: a missing .yaml file", _header(variant='"gone.yaml"'), 1,
        "no variant file at", id="variant-missing"),
    log("variant: a directory", _header(variant='"sub/"'), 1,
        "is a directory, not a variant file", id="variant-directory",
        files={"sub/x.yaml": "x: 1\n"}),
    log("variant: an invalid variant file", _header(variant='"house.yaml"'), 1,
        "variant 'house.yaml' is invalid: ", id="variant-invalid",
        files={"house.yaml": "extends: paulista\nplayers: 5\n"}),
    log("a flor move in a version-1 log", _V1_FLOR, 5, _FLOR_NEEDS_2, id="v1-flor"),
    log("the same flor written `\\u0066lor`", _V1_FLOR.replace('"flor", "seat"',
                                                             '"\\u0066lor", "seat"'),
        5, _FLOR_NEEDS_2, id="v1-flor-escaped"),
    log("an unknown event type", H + '{"event": "shuffle", "seat": 1}\n', 2,
        'unknown event type "shuffle"', id="event-unknown"),
    log("an unknown field", H + P.replace("}", ', "covered_by": 3}'), 2,
        'unknown field "covered_by"', id="field-unknown"),
    log("JSON nested 10,000 deep", H + P.replace("}", ', "meta": {"a": ' + "[" * 10_000
                                                 + "]" * 10_000 + "}}"), 2,
        f"nested deeper than {MAX_JSON_DEPTH} levels", id="nesting"),
    log("no header: an event on line 1", P + H, 1, "line 1 must be the header", id="no-header"),
    log("a second header", H + P + H, 3, "a header is allowed on line 1 only",
        id="second-header"),
    log("an empty file", "", 1, "the log is empty", id="empty"),
    log("a blank line", H + "\n" + P, 2, "blank line", id="blank"),
    log("the last line cut in the middle", H + P + P[:-10], 3, "invalid JSON", id="cut"),
    log("a move after the match ended", EXAMPLE + P, 97, "after the match ended",
        id="after-end"),
    log("a checkpoint that does not match",
        EXAMPLE.replace('"score": [3, 13]}\n{"event": "game"', '"score": [13, 3]}\n'
                        '{"event": "game"'), 94, "checkpoint mismatch", id="tampered"),
    log("a log cut at a line end (accepted: incomplete)",
        "".join(EXAMPLE.splitlines(keepends=True)[:10]), 10,
        "incomplete: the log ends before the match is over", code=0, id="incomplete"),
    log("CRLF line ends (accepted)", EXAMPLE.replace("\n", "\r\n"), None,
        "1 log: 1 valid, 0 invalid", code=0, id="crlf"),
    log("no final newline (accepted)", EXAMPLE.rstrip("\n"), None,
        "1 log: 1 valid, 0 invalid", code=0, id="no-final-newline"),
    log("a move of bad JSON with good moves after it (reported once: the moves after it are "
        "not judged)", EXAMPLE.replace(P, P[:-10] + "\n", 1), 2, "invalid JSON",
        id="bad-move-then-good"),
    log("a move that fails the schema with good moves after it (reported once)",
        EXAMPLE.replace(P, _play("-1"), 1), 2, "schema violation", id="bad-schema-then-good"),
    log("a checkpoint that fails the schema (no move lost: the replay goes on, and finds the "
        "mismatch at line 94 too)", _BAD_ROUND, 6, "schema violation", id="bad-checkpoint"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_verify_answers_file_line_message_and_exit_1(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    setup_case(case, tmp_path)
    code, output = check_output(case)
    lines = output.splitlines()
    assert code == case.code, output
    assert lines[-1].startswith("1 log: "), output
    if case.where is None:
        assert lines == [lines[-1]] and case.says in lines[-1], output
        return
    shown = next((x for x in lines if case.says in x), None)
    assert shown is not None, output
    assert shown.startswith(case.where + ": "), output
    if code and case.id != "size-limit":  # the first problem is the one the case is about
        assert lines[0].startswith(case.where + ": "), output
    assert "1 invalid" in lines[-1] if code else "0 invalid" in lines[-1]


#: The whole report of a bad line among good ones: no knock-on error after it.
KNOCK_ON = {
    "bad-move-then-good": ["a.jsonl:2: invalid JSON: Unterminated string starting at column 30"],
    "bad-schema-then-good": ["a.jsonl:2: schema violation: a play event: seat: expected at "
                             "least 0, found -1"],
    "bad-checkpoint": ['a.jsonl:6: schema violation: a round event: winner: expected an integer '
                       'or null, found "x"', "a.jsonl:94: checkpoint mismatch: expected "],
}


@pytest.mark.parametrize("case_id", sorted(KNOCK_ON))
def test_a_bad_line_is_reported_once_without_a_knock_on_error(
    case_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = next(c for c in CASES if c.id == case_id)
    monkeypatch.chdir(tmp_path)
    setup_case(case, tmp_path)
    code, output = check_output(case)
    lines = output.splitlines()
    assert code == 1
    assert len(lines) == len(KNOCK_ON[case_id]) + 1, output
    for line, expected in zip(lines, KNOCK_ON[case_id], strict=False):
        assert line.startswith(expected), output
    assert lines[-1] == "1 log: 0 valid, 1 invalid"
    result = verify_file("a.jsonl")
    assert [p.line for p in result.problems] == [int(x.split(":")[1]) for x in KNOCK_ON[case_id]]
    assert result.incomplete is None  # the replay stopped: not called incomplete either


def _cases_for_the_api() -> list[Case]:
    return [c for c in CASES if c.target == "a.jsonl" and c.id != "size-limit"]


@pytest.mark.parametrize("case", _cases_for_the_api(), ids=[c.id for c in _cases_for_the_api()])
def test_every_api_entry_point_answers_with_a_log_problem(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    setup_case(case, tmp_path)
    result = verify_file("a.jsonl")
    assert result.valid == (case.code == 0)
    data = (tmp_path / "a.jsonl").read_bytes()
    if not case.code:
        verify_bytes(data, "a.jsonl", base=tmp_path, strict=True)
        annotate(data, "a.jsonl", base=tmp_path)
        return
    with pytest.raises(LogProblem) as info:
        verify_bytes(data, "a.jsonl", base=tmp_path, strict=True)
    assert str(info.value).startswith(f"{case.where}: ")
    try:  # truco replay --checkpoints: replaces a checkpoint that disagrees, raises the rest
        _, replaced = annotate(data, "a.jsonl", base=tmp_path)
    except LogProblem as exc:
        assert str(exc).startswith(f"{case.where}: ")
    else:
        assert [p.kind for p in replaced] == ["checkpoint"]
        assert str(replaced[0]).startswith(f"{case.where}: ")


def test_a_huge_log_is_read_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(_too_large())
    result, peak = peak_memory(lambda: verify_file(path))
    assert isinstance(result, ReplayResult)
    assert [p.kind for p in result.problems] == ["illegal", "limit"]
    assert peak < MAX_FILE_BYTES + 8 * 2**20, peak  # the file once, and little more


def test_standard_input_is_read_no_further_than_the_limits() -> None:
    from click.testing import CliRunner

    from engine.cli import main

    result = CliRunner().invoke(main, ["verify", "-"], input=b"\0" * (4 * MAX_LINE_BYTES))
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == "<stdin>:1: line longer than 64 KiB, the limit of " \
        "this reader"


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_GH26_a_first_line_over_the_limit_is_one_problem(
        where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The long line is the log's problem: the log is not also called empty."""
    from click.testing import CliRunner

    from engine.cli import main

    monkeypatch.chdir(tmp_path)
    data = b"\0" * (MAX_LINE_BYTES + 10)  # as /dev/zero gives
    (tmp_path / "a.jsonl").write_bytes(data)
    args = ["verify", "a.jsonl"] if where == "file" else ["verify", "-"]
    result = CliRunner().invoke(main, args, input=data if where == "stdin" else None)
    name = "a.jsonl" if where == "file" else "<stdin>"
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{name}:1: line longer than 64 KiB, the limit of this reader",
        "1 log: 0 valid, 1 invalid"]
    problems = verify_bytes(data, name).problems
    assert [(p.line, p.kind) for p in problems] == [(1, "limit")]


def test_docs_table_shows_the_real_output_of_every_case() -> None:
    doc = DOC.read_text(encoding="utf-8")
    missing = [row for row in table_rows(CASES) if row not in doc]
    assert not missing, "rows to paste (python -m tests.test_hostile_logs):\n" + "\n".join(missing)


if __name__ == "__main__":
    print("\n".join(table_rows(CASES)))
