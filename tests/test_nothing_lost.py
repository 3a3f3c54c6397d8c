"""Nothing lost (issue 7, item 4): every file the tools write is written to a temporary file
and renamed over its target, so a write that fails leaves the old file as it was; ``truco play``
writes and flushes its log after every move, so a game killed between moves leaves a log that
``truco verify`` calls incomplete (not invalid) and ``truco play --resume`` finishes.

(Snapshot files are written by pytest-snapshot itself, with ``--snapshot-update`` only.)
"""

from __future__ import annotations

import os
import re
import select
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.fileio import atomic_write_text
from engine.replay import verify_file
from tests.conftest import REPO

OLD = "the user's file, which must survive\n"


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    """``truco ARGS`` in this process: exit code and output; never a traceback."""
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def leftovers(folder: Path) -> list[str]:
    """Temporary files of atomic writes left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- a failing write leaves the target as it was ---------------------------------------------------
def _fail_replace(src: Any, dst: Any) -> None:
    raise OSError(28, "No space left on device", str(dst))


def _fail_fsync(fd: int) -> None:
    raise OSError(5, "Input/output error")


class _HalfWriter:
    """A file that writes half of what it is given, then fails (the disk filled up)."""

    def __init__(self, f: IO[str]) -> None:
        self.f = f

    def __enter__(self) -> _HalfWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.f.close()

    def write(self, text: str) -> int:
        self.f.write(text[: len(text) // 2])
        self.f.flush()
        raise OSError(28, "No space left on device")


_FDOPEN = os.fdopen


def _half_fdopen(fd: int, *args: Any, **kw: Any) -> _HalfWriter:
    return _HalfWriter(_FDOPEN(fd, *args, **kw))


FAILURES: dict[str, tuple[str, Callable[..., Any]]] = {
    "rename": ("replace", _fail_replace),
    "fsync": ("fsync", _fail_fsync),
    "half-written": ("fdopen", _half_fdopen),
}


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_atomic_write_that_fails_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text(OLD, encoding="utf-8")
    name, fake = FAILURES[failure]
    monkeypatch.setattr(os, name, fake)
    with pytest.raises(OSError):
        atomic_write_text(target, "new content\n" * 1000)
    assert target.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


def test_atomic_write_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text(OLD * 100, encoding="utf-8")
    atomic_write_text(target, "short\n")
    assert target.read_bytes() == b"short\n"
    assert leftovers(tmp_path) == []


# Each command given the file it writes: simulate --logs writes that file's folder.
COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "record --out": lambda target: ["record", "-v", "paulista", "-s", "7", "-o", str(target)],
    "replay --out": lambda target: ["replay", str(REPO / "replays" / "paulista-seed1.jsonl"),
                                    "--checkpoints", "-o", str(target)],
    "simulate --logs": lambda target: ["simulate", "-v", "paulista", "-n", "3", "-s", "1",
                                       "--logs", str(target.parent)],
}


def _old_target(tmp_path: Path) -> Path:
    """``out/match-000001.jsonl`` holding the user's file (the first log simulate writes)."""
    target = tmp_path / "out" / "match-000001.jsonl"
    target.parent.mkdir()
    target.write_text(OLD, encoding="utf-8")
    return target


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_a_command_whose_write_fails_keeps_the_old_file_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, failure: str
) -> None:
    target = _old_target(tmp_path)
    name, fake = FAILURES[failure]
    monkeypatch.setattr(os, name, fake)
    code, output = run(*COMMANDS[command](target), "--force")
    assert code == 1
    assert output.startswith("truco: ") and ("No space left" in output or "Input/output" in output)
    assert target.read_text(encoding="utf-8") == OLD
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]
    assert leftovers(target.parent) == leftovers(tmp_path) == []  # no temporary file or folder


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_that_succeeds_with_force_replaces_the_file(tmp_path: Path,
                                                              command: str) -> None:
    target = _old_target(tmp_path)
    code, output = run(*COMMANDS[command](target), "--force")
    assert code == 0, output
    checked = verify_file(target)
    assert checked.valid and checked.incomplete is None
    assert leftovers(target.parent) == leftovers(tmp_path) == []


@pytest.mark.parametrize("command", [*sorted(COMMANDS), "play --log"])
def test_an_existing_target_is_refused_without_force_and_left_as_it_was(
    tmp_path: Path, command: str
) -> None:
    target = _old_target(tmp_path)
    args = (COMMANDS[command](target) if command in COMMANDS
            else ["play", "-v", "paulista", "-s", "7", "--log", str(target)])
    code, output = run(*args, input="1\n")
    assert code == 2, output
    assert "exists" in output and "--force" in output
    assert target.read_text(encoding="utf-8") == OLD
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["match-000001.jsonl", "out"]


def test_play_log_with_force_replaces_the_file(tmp_path: Path) -> None:
    target = _old_target(tmp_path)
    code, output = run("play", "-v", "paulista", "-s", "7", "--log", str(target), "--force",
                       input="quit\n")
    assert code == 0, output
    assert target.read_text(encoding="utf-8").startswith('{"truco_log": 1, ')
    assert verify_file(target).valid


# -- simulate --logs: a folder of new logs, never old and new mixed ------------------------------
def _folder(tmp_path: Path, note: bool = False) -> tuple[Path, dict[str, bytes]]:
    """``out/`` with older logs, more of them than the new run writes (and with ``note``, a
    file of the user's)."""
    out = tmp_path / "out"
    out.mkdir()
    for i in range(1, 6):
        (out / f"match-{i:06d}.jsonl").write_text(OLD, encoding="utf-8")
    if note:
        (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    return out, {p.name: p.read_bytes() for p in out.iterdir()}


def test_simulate_logs_refuses_a_folder_with_files_in_it(tmp_path: Path) -> None:
    out, before = _folder(tmp_path)
    code, output = run("simulate", "-v", "paulista", "-n", "3", "-s", "1", "--logs", str(out))
    assert code == 2 and f"{out} exists; give --force to replace it" in output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_simulate_logs_with_force_replaces_the_whole_folder(tmp_path: Path) -> None:
    out, _ = _folder(tmp_path)
    code, output = run("simulate", "-v", "paulista", "-n", "3", "-s", "1", "--logs", str(out),
                       "--force")
    assert code == 0, output
    assert sorted(p.name for p in out.iterdir()) == [f"match-00000{i}.jsonl" for i in (1, 2, 3)]
    assert all(verify_file(p).valid for p in out.iterdir())
    assert leftovers(tmp_path) == []


def test_simulate_logs_into_a_new_or_empty_folder_needs_no_force(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "empty", tmp_path / "new" / "deeper"):
        code, output = run("simulate", "-v", "paulista", "-n", "2", "-s", "1", "--logs",
                           str(folder))
        assert code == 0, output
        assert sorted(p.name for p in folder.iterdir()) == ["match-000001.jsonl",
                                                            "match-000002.jsonl"]
    assert leftovers(tmp_path) == leftovers(tmp_path / "new") == []


def test_simulate_logs_that_fails_midway_leaves_the_old_folder_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.simulate

    out, before = _folder(tmp_path)
    written = []

    def crash_at_the_third(path: Any, text: str) -> None:
        if len(written) == 2:
            raise OSError(28, "No space left on device", str(path))
        written.append(path)
        atomic_write_text(path, text)

    monkeypatch.setattr(engine.simulate, "atomic_write_text", crash_at_the_third)
    code, output = run("simulate", "-v", "paulista", "-n", "4", "-s", "1", "--logs", str(out),
                       "--force")
    assert code == 1 and "No space left on device" in output
    assert len(written) == 2  # two new logs were made, beside the folder, then thrown away
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert leftovers(tmp_path) == []


def test_simulate_logs_refuses_to_replace_a_folder_holding_its_variant(tmp_path: Path) -> None:
    out, before = _folder(tmp_path, note=True)
    (out / "house.yaml").write_text("extends: paulista\n", encoding="utf-8")
    code, output = run("simulate", "-v", str(out / "house.yaml"), "-n", "2", "--logs", str(out),
                       "--force")
    assert code == 2 and "inside" in output
    assert (out / "house.yaml").exists() and (out / "notes.txt").exists()


def test_simulate_logs_force_never_deletes_a_parent_the_variant_extends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: ``simulate -v house/mine.yaml --logs shared --force`` deleted
    ``shared/base.yaml``, which ``mine.yaml`` extends (and wrote logs that no longer verify)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shared").mkdir()
    (tmp_path / "house").mkdir()
    (tmp_path / "shared" / "base.yaml").write_text("extends: paulista\n", encoding="utf-8")
    (tmp_path / "house" / "mine.yaml").write_text("extends: ../shared/base.yaml\n",
                                                  encoding="utf-8")
    code, output = run("simulate", "-v", "house/mine.yaml", "-n", "3", "--logs", "shared",
                       "--force")
    assert code == 2, output
    assert "base.yaml (which mine.yaml extends) is inside shared" in output
    assert sorted(p.name for p in (tmp_path / "shared").iterdir()) == ["base.yaml"]
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("extra", ["notes.txt", "sub/", "link.jsonl ->"])
def test_simulate_logs_force_replaces_only_a_folder_of_its_own_logs(
    tmp_path: Path, extra: str
) -> None:
    """``--logs DIR --force`` deleted whatever DIR held; now it replaces a folder of the logs
    a run writes (match-NNNNNN.jsonl) and refuses any other file, folder or link, with or
    without --force (exit 2, nothing touched)."""
    out, _ = _folder(tmp_path)
    name = extra.rstrip("/ ->")
    if extra.endswith("/"):
        (out / name).mkdir()
    elif extra.endswith("->"):
        (tmp_path / "elsewhere.jsonl").write_text(OLD, encoding="utf-8")
        (out / name).symlink_to(tmp_path / "elsewhere.jsonl")
    else:
        (out / name).write_text("mine\n", encoding="utf-8")
    before = sorted(p.name for p in out.iterdir())
    for force in ([], ["--force"]):
        code, output = run("simulate", "-v", "paulista", "-n", "2", "--logs", str(out), *force)
        assert code == 2, output
        assert f"{out} holds {name}, which no run of truco simulate writes" in output
        assert sorted(p.name for p in out.iterdir()) == before
    assert (tmp_path / "elsewhere.jsonl").exists() or not extra.endswith("->")
    assert leftovers(tmp_path) == []


def test_simulate_logs_force_keeps_a_file_that_came_during_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file put into DIR while the matches are played stops the swap (exit 1): it is not
    deleted with the old logs."""
    import engine.simulate

    out, before = _folder(tmp_path)

    def write_and_add_a_note(path: Any, text: str) -> None:
        atomic_write_text(path, text)
        (out / "notes.txt").write_text("mine\n", encoding="utf-8")

    monkeypatch.setattr(engine.simulate, "atomic_write_text", write_and_add_a_note)
    code, output = run("simulate", "-v", "paulista", "-n", "2", "--logs", str(out), "--force")
    assert code == 1 and "notes.txt" in output and "left as it is" in output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == {**before, "notes.txt": b"mine\n"}
    assert leftovers(tmp_path) == []


# -- --force replaces a regular file and nothing else ---------------------------------------------
def _paulista_log() -> str:
    return str(REPO / "replays" / "paulista-seed1.jsonl")


WRITERS: dict[str, Callable[[Path], list[str]]] = {
    "record --out": lambda t: ["record", "-v", "paulista", "-s", "7", "--out", str(t)],
    "replay --out": lambda t: ["replay", _paulista_log(), "--checkpoints", "--out", str(t)],
    "replay --html": lambda t: ["replay", _paulista_log(), "--html", str(t)],
    "simulate --html": lambda t: ["simulate", "-v", "paulista", "-n", "2", "--html", str(t)],
    "compare --html": lambda t: ["compare", "paulista", "mineiro", "-n", "2", "--html", str(t)],
}


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_force_never_replaces_a_pipe_or_a_link(tmp_path: Path, command: str,
                                                       kind: str) -> None:
    """Issue 26: ``--out /dev/null --force`` as root turned the device into a regular file,
    and ``--html`` a FIFO. Only a regular file is replaced; anything else is a usage error
    (exit 2) and is left as it is (a link, and the file it names). (A folder is refused by
    the options themselves.)"""
    target = tmp_path / "target"
    named = tmp_path / "named.txt"
    named.write_text(OLD, encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(named)
    code, output = run(*WRITERS[command](target), "--force")
    assert code == 2, output
    words = {"fifo": "a named pipe (FIFO)", "symlink": "a symbolic link"}
    assert f"{target}: it is {words[kind]}, not a regular file" in output
    assert "--force replaces only a regular file" in output
    mode = os.lstat(target).st_mode
    assert (stat.S_ISFIFO if kind == "fifo" else stat.S_ISLNK)(mode)
    assert named.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_atomic_write_never_replaces_what_is_not_a_regular_file(tmp_path: Path,
                                                                kind: str) -> None:
    target = tmp_path / "target"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(tmp_path / "named.txt")
    with pytest.raises(OSError, match="not a regular file") as caught:
        atomic_write_text(target, "new\n")
    assert caught.value.filename == str(target)
    assert not stat.S_ISREG(os.lstat(target).st_mode)
    assert not (tmp_path / "named.txt").exists()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("command", ["record --out", "simulate --html", "compare --html"])
def test_force_never_replaces_a_file_the_variant_is_read_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A run never overwrites its variant file, nor a parent it extends."""
    monkeypatch.chdir(tmp_path)
    base = tmp_path / "base.yaml"
    base.write_text("extends: paulista\n", encoding="utf-8")
    (tmp_path / "mine.yaml").write_text("extends: base.yaml\n", encoding="utf-8")
    args = {"record --out": ["record", "-v", "mine.yaml", "-s", "7", "--out", "base.yaml"],
            "simulate --html": ["simulate", "-v", "mine.yaml", "-n", "2", "--html",
                                "base.yaml"],
            "compare --html": ["compare", "paulista", "mine.yaml", "-n", "2", "--html",
                               "base.yaml"]}[command]
    code, output = run(*args, "--force")
    assert code == 2, output
    assert f"base.yaml is the variant file {base} that this command reads" in output
    assert base.read_text(encoding="utf-8") == "extends: paulista\n"


# -- file modes: the usual ones, not the temporary file's 0600 ------------------------------------
@pytest.fixture
def umask() -> Any:
    """Set the process's umask for a test, and restore it after."""
    saved = os.umask(0o022)

    def set_to(mask: int) -> None:
        os.umask(mask)

    yield set_to
    os.umask(saved)


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_new_files_get_the_usual_mode_under_the_umask(
    tmp_path: Path, umask: Any, command: str, mask: int
) -> None:
    umask(mask)
    target = tmp_path / "out" / "match-000001.jsonl"
    target.parent.mkdir()
    code, output = run(*COMMANDS[command](target))
    assert code == 0, output
    assert _mode(target) == 0o666 & ~mask  # 0644 under umask 022, as play --log gives it
    play_log = tmp_path / "play.jsonl"
    assert run("play", "-v", "paulista", "-s", "7", "--log", str(play_log),
               input="quit\n")[0] == 0
    assert _mode(play_log) == _mode(target)


def test_a_new_logs_folder_gets_the_usual_mode(tmp_path: Path, umask: Any) -> None:
    umask(0o022)
    out = tmp_path / "logs"
    assert run("simulate", "-v", "paulista", "-n", "2", "--logs", str(out))[0] == 0
    assert _mode(out) == 0o755
    assert all(_mode(p) == 0o644 for p in out.iterdir())


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask: Any, command: str) -> None:
    umask(0o022)
    target = _old_target(tmp_path)
    target.chmod(0o640)
    target.parent.chmod(0o750)
    code, output = run(*COMMANDS[command](target), "--force")
    assert code == 0, output
    assert target.read_text(encoding="utf-8") != OLD
    assert _mode(target) == (0o640 if command != "simulate --logs" else 0o644)
    assert _mode(target.parent) == 0o750  # simulate --logs: the replaced folder keeps its mode


def test_an_unwritable_target_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    code, output = run("record", "-v", "paulista", "-s", "7", "-o",
                       str(tmp_path / "no" / "such" / "folder" / "a.jsonl"))
    assert code == 1
    assert output == f"truco: {tmp_path}/no/such/folder/a.jsonl: No such file or directory\n"


def test_every_file_the_engine_writes_goes_through_atomic_write_text() -> None:
    # The one exception: the log of a game in progress, written and flushed move by move.
    writes = re.compile(r"""\bopen\([^)]*["'][wax]b?\+?["']|\.write_(text|bytes)\(""")
    found = []
    for path in sorted((REPO / "engine").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if writes.search(line):
                found.append(f"{path.relative_to(REPO).as_posix()}:{number}")
    assert [f.split(":")[0] for f in found] == ["engine/cli/play_cmd.py"], found


# -- truco play killed between moves ---------------------------------------------------------------
PROMPT = b"Your move: "
PLAY = ["play", "-v", "paulista", "--seat", "0", "--bots", "heuristic", "-s", "11"]


def _read_until_prompt(proc: subprocess.Popen[bytes], seen: bytearray) -> None:
    """Read the game's output until one more move prompt has appeared (or fail after 60 s,
    a guard against a hang, not a timing assertion)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    wanted = seen.count(PROMPT) + 1
    deadline = time.monotonic() + 60
    while seen.count(PROMPT) < wanted:
        assert time.monotonic() < deadline, seen.decode(errors="replace")[-500:]
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, "the game ended early:\n" + seen.decode(errors="replace")[-500:]
            seen.extend(chunk)


@pytest.mark.parametrize("moves", [1, 5])
def test_play_killed_between_moves_leaves_an_incomplete_log_that_resume_finishes(
    tmp_path: Path, moves: int
) -> None:
    log = tmp_path / "game.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from engine.cli import main; main()", *PLAY, "--log", str(log)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=REPO)
    assert proc.stdin is not None
    seen = bytearray()
    try:
        _read_until_prompt(proc, seen)
        for _ in range(moves):
            proc.stdin.write(b"a\n")  # the first entry of the menu
            proc.stdin.flush()
            _read_until_prompt(proc, seen)
        before = log.read_bytes()  # everything played so far is on disk already
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    killed = log.read_bytes()
    assert killed == before and killed.endswith(b"\n")
    assert len(re.findall(rb'"seat": 0[,}]', killed)) == moves  # each of our moves is there

    code, output = run("verify", str(log))
    assert code == 0, output
    lines = killed.count(b"\n")
    assert output.splitlines()[0].startswith(f"{log}:{lines}: incomplete: ")
    assert output.splitlines()[-1] == "1 log: 1 valid (1 of them incomplete), 0 invalid"

    code, output = run("play", "--resume", str(log), input="a\n" * 3000)
    assert code == 0, output
    assert f"resumed {log} after " in output and "match won by" in output
    finished = log.read_bytes()
    assert finished.startswith(killed)  # appended to, never rewritten
    checked = verify_file(log)
    assert checked.valid and checked.incomplete is None and checked.winner is not None

    # And it is the very game an uninterrupted run with the same answers plays.
    whole = tmp_path / "whole.jsonl"
    code, output = run(*PLAY, "--log", str(whole), input="a\n" * 3000)
    assert code == 0, output
    assert whole.read_bytes() == finished


@pytest.mark.parametrize("command", ["record", "replay", "simulate", "play"])
def test_every_command_that_writes_offers_force_in_its_help(command: str) -> None:
    code, output = run(command, "--help")
    assert code == 0
    assert "-f, --force" in output and "refused" in output
