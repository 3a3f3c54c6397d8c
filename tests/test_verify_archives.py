"""`truco verify` on archives (issue 15): `.jsonl.gz` beside `.jsonl`, in folders and on
standard input, with the same line numbers; `--jsonl` streams one object per log; a run goes on
from its report with `--skip-verified`. `truco replay` and `truco position` open logs the same
way."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from engine.cli import main

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
LOGS = ["paulista-seed1.jsonl", "invalid/illegal-move.jsonl", "invalid/incomplete.jsonl",
        "invalid/checkpoint-mismatch.jsonl"]


def verify(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *args], input=stdin)
    return result.exit_code, result.output


def test_gzipped_logs_verify_as_the_plain_ones_with_the_same_lines(tmp_path: Path) -> None:
    for name in LOGS:
        data = (REPLAYS / name).read_bytes()
        (tmp_path / Path(name).name).write_bytes(data)
        (tmp_path / (Path(name).name + ".gz")).write_bytes(gzip.compress(data))
    names = [Path(n).name for n in LOGS]
    plain = verify(*(str(tmp_path / n) for n in names))
    packed = verify(*(str(tmp_path / f"{n}.gz") for n in names))
    assert packed[0] == plain[0] == 1
    assert packed[1] == plain[1].replace(".jsonl:", ".jsonl.gz:")
    assert "illegal-move.jsonl.gz:3: illegal move [not_your_turn]" in packed[1]
    assert "incomplete.jsonl.gz:43: incomplete" in packed[1]
    # A folder holds both kinds: each is found, in name order.
    code, out = verify(str(tmp_path), "--json")
    files = [log["file"] for log in json.loads(out)["logs"]]
    assert files == sorted(files) and len(files) == 2 * len(LOGS)


def test_gzip_on_standard_input() -> None:
    data = (REPLAYS / "invalid/illegal-move.jsonl").read_bytes()
    plain = verify("-", stdin=data)
    assert verify("-", stdin=gzip.compress(data)) == plain
    assert "<stdin>:3: illegal move" in plain[1]


def test_a_truncated_archive_is_reported_at_the_line_it_breaks(tmp_path: Path) -> None:
    data = (REPLAYS / "mineiro-seed1.jsonl").read_bytes()
    packed = gzip.compress(data)
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    code, out = verify(str(cut))
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{cut}:") and "damaged gzip data" in first
    line = int(first.split(":")[1])
    assert 1 < line < data.count(b"\n")  # the lines before it were read (and were good)
    assert len(out.splitlines()) == 2  # the problem, the summary: no knock-on problem


def test_jsonl_streams_one_object_per_log_then_the_summary(tmp_path: Path) -> None:
    for name in LOGS:
        shutil.copy(REPLAYS / name, tmp_path / Path(name).name)
    code, out = verify(str(tmp_path), "--jsonl")
    whole = json.loads(verify(str(tmp_path), "--json")[1])
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert lines[:-1] == whole["logs"]
    assert lines[-1] == {"summary": whole["summary"]}


def test_skip_verified_goes_on_from_an_interrupted_report(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for name in LOGS:
        shutil.copy(REPLAYS / name, logs / Path(name).name)
    full = verify(str(logs), "--jsonl")[1]
    report = tmp_path / "report.jsonl"
    lines = full.splitlines(keepends=True)
    report.write_text(lines[0] + lines[1][:20], encoding="utf-8")  # cut in its second log
    code, rest = verify(str(logs), "--jsonl", "--skip-verified", str(report))
    assert code == 1
    rest_lines = rest.splitlines(keepends=True)
    assert rest_lines[:-1] == lines[1:-1]  # the first log is not verified again
    summary = json.loads(rest_lines[-1])["summary"]
    assert summary == {**json.loads(lines[-1])["summary"], "skipped": 1}
    text = verify(str(logs), "--skip-verified", str(report))[1].splitlines()[-1]
    assert text.endswith(f"; 1 of them verified before, in {report}")
    # A whole --json report serves too; everything in it: nothing verified again.
    whole = tmp_path / "whole.json"
    whole.write_text(verify(str(logs), "--json")[1], encoding="utf-8")
    code, out = verify(str(logs), "--json", "--skip-verified", str(whole))
    assert code == 1 and json.loads(out)["logs"] == []


def test_skip_verified_refuses_a_file_that_is_no_report(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\nworld\n", encoding="utf-8")
    code, out = verify(str(REPLAYS), "--skip-verified", str(bad))
    assert code == 2 and "notes.txt: line 1 is not JSON" in out
    code, out = verify(str(REPLAYS), "--json", "--jsonl")
    assert code == 2 and "--json and --jsonl" in out


def test_a_folder_lists_its_logs_as_pathlib_would_in_one_walk(tmp_path: Path,
                                                            monkeypatch: Any) -> None:
    import os

    from engine.cli.verify_cmd import log_paths

    names = ["a/b.jsonl", "a-c.jsonl", "a/z/y.jsonl.gz", ".hidden.jsonl", "B.jsonl",
             "notes.txt", "x.jsonl.gz.bak", "deep/er/est/log.jsonl"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "other.jsonl").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")  # a link to a folder: not followed
    (tmp_path / "dir.jsonl").mkdir()  # a folder named like a log: searched, not listed
    (tmp_path / "dir.jsonl" / "in.jsonl").write_text("")

    def by_pathlib(folder: Path) -> list[str]:  # what verify did before (two rglob)
        return [str(x) for x in sorted([*folder.rglob("*.jsonl"), *folder.rglob("*.jsonl.gz")])
                if not x.is_dir()]

    assert log_paths((str(tmp_path),)) == by_pathlib(tmp_path)
    assert log_paths((str(tmp_path),)) == [str(tmp_path / n) for n in [
        ".hidden.jsonl", "B.jsonl", "a/b.jsonl", "a/z/y.jsonl.gz", "a-c.jsonl",
        "deep/er/est/log.jsonl", "dir.jsonl/in.jsonl", "elsewhere/other.jsonl"]]
    # Named as given, as pathlib names them: "./x" and "x/" are "x"; "." names nothing more.
    monkeypatch.chdir(tmp_path)
    assert log_paths(("./a/",)) == ["a/b.jsonl", "a/z/y.jsonl.gz"]
    assert log_paths((".",))[:2] == [".hidden.jsonl", "B.jsonl"]
    assert log_paths((".",)) == by_pathlib(Path("."))

    # A folder that cannot be read stops the run with its name (root reads anything: a stand-in).
    real = os.scandir

    def refused(path: Any) -> Any:
        if str(path).endswith("er"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", refused)
    code, out = verify("deep")
    assert code == 1 and out == "truco: deep/er: Permission denied\n"


# -- one opener: truco replay and truco position read logs as truco verify does ---------------
def _cli(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def test_replay_and_position_read_gzipped_logs_as_the_plain_ones(tmp_path: Path) -> None:
    for name in ("paulista-seed1.jsonl", "invalid/illegal-move.jsonl"):
        data = (REPLAYS / name).read_bytes()
        plain = tmp_path / Path(name).name
        plain.write_bytes(data)
        packed = tmp_path / (plain.name + ".gz")
        packed.write_bytes(gzip.compress(data))
        for args in (["replay"], ["replay", "--checkpoints"], ["position"],
                     ["position", "--at", "3"]):
            expected = _cli(*args, str(plain))
            assert expected[0] in (0, 1), (args, expected)
            assert _cli(*args, str(packed)) == (expected[0], expected[1].replace(
                f"{plain}:", f"{packed}:")), (args, name)
            assert _cli(*args, "-", stdin=gzip.compress(data)) == _cli(*args, "-", stdin=data)
    code, out = _cli("position", str(tmp_path / "paulista-seed1.jsonl.gz"))
    assert code == 0 and json.loads(out)["state"] == "match_over"


def test_replay_and_position_report_a_truncated_archive_where_verify_does(
        tmp_path: Path) -> None:
    packed = gzip.compress((REPLAYS / "mineiro-seed1.jsonl").read_bytes())
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    where = verify(str(cut))[1].splitlines()[0]
    assert "damaged gzip data" in where
    for args in (["replay"], ["replay", "--checkpoints"], ["position"],
                 ["position", "--at", "2"]):
        code, out = _cli(*args, str(cut))
        assert code == 1 and f"truco: {where}" in out.splitlines(), args
