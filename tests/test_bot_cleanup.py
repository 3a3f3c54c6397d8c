"""No bot outlives its run (docs/bot-protocol.md#processes), and its standard error is kept
within bounds: SIGTERM as Ctrl-C, a failed handshake beside a starting bot, a child that
leaves the bot's session, the stderr files (issue 39).

Every wait is on an event: a bot tells its pid (and its escaped child's) on a named pipe
(:class:`helpers.Tell`), a process's exit is waited on through its pidfd
(:func:`helpers.wait_gone`); each timeout is a guard far above what the work needs.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from helpers import Tell, wait_gone
from test_bot_protocol import HOSTILE, PY, guard, hostile  # noqa: F401  (guard: autouse)

from engine import Match
from engine.bots import make_bot
from engine.cli import main
from engine.protocol import process
from engine.protocol.external import Channel, ExternalBot, end_all
from engine.simulate import play_match
from engine.variant import load_variant

GUARD = 300.0


@pytest.fixture
def tell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Tell]:
    """The pipe the test's bots tell their pids on (and every pid told must be gone at the
    end)."""
    t = Tell(tmp_path / "tell")
    monkeypatch.setenv("HOSTILE_TELL", str(t.path))
    try:
        yield t
    finally:
        pids = t.pids()
        t.close()
        left = [p for p in pids if not wait_gone(p, GUARD)]
        for pid in left:  # (not to leave them to the rest of the suite)
            os.kill(pid, signal.SIGKILL)
        assert left == [], f"processes left behind: {left}"


def _truco(*args: str) -> subprocess.Popen[bytes]:
    """``truco ARGS`` with SIGINT at its default action, as in a terminal's foreground job. A
    shell's background job (``cmd &`` without job control: how CI may run the suite) starts
    with SIGINT ignored, an exec keeps it ignored, and a command that starts with a signal
    ignored leaves it so (engine.cli): Ctrl-C would then rightly do nothing. A Python handler
    in this process is reset to the default in the child at its exec."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen([PY, "-m", "engine", *args], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO,
                                start_new_session=True,
                                env={**os.environ, "TRUCO_BOT_MOVE_MS": "600000"})
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- SIGTERM ends the bots as Ctrl-C does --------------------------------------------------------

HANG = f"cmd:{hostile('hangescape')}"


@pytest.mark.parametrize("args", [
    ["simulate", "-v", "paulista", "-n", "5", "--bots", f"{HANG},random"],
    ["simulate", "-v", "paulista", "-n", "5", "--bots", f"{HANG},random", "--jobs", "2"],
    ["tournament", "-v", "paulista", "--bots", f"{HANG},random", "-n", "1"],
    ["bot", "check", hostile("hangescape"), "--move-ms", "600000"],
    ["play", "-v", "paulista", "--bots", HANG],
    ["compare", "paulista", "mineiro", "-n", "2", "--bots", f"{HANG},random"],
], ids=["simulate", "simulate-jobs", "tournament", "bot-check", "play", "compare"])
def test_sigterm_ends_every_bot_and_its_escaped_children(args: list[str], tell: Tell) -> None:
    """A bot hangs in a decision after starting a child that left its session (setsid);
    SIGTERM to truco alone (as ``kill`` sends it): truco says so and exits 143, and neither
    the bot, nor its child, nor any other bot of the run is left (the fixture waits for
    each pid told)."""
    run = _truco(*args)
    assert run.stdin is not None and run.stderr is not None
    run.stdin.write(b"a\n" * 200)  # (play: your moves, the first offered each time)
    run.stdin.close()
    tell.wait(lambda lines: any(len(line.split()) == 2 for line in lines), GUARD)
    run.send_signal(signal.SIGTERM)
    assert run.wait(GUARD) == 128 + signal.SIGTERM
    told = run.stderr.read()
    assert (b"game interrupted by SIGTERM" if args[0] == "play"
            else b"truco: stopped by SIGTERM") in told
    assert len(tell.pids()) >= 2


def test_ctrl_c_on_a_run_with_jobs_leaves_no_bot_behind(tmp_path: Path, tell: Tell) -> None:
    """Ctrl-C (SIGINT to the terminal's process group) on truco simulate --jobs 2 whose bots
    ignore quit, SIGTERM and the end of their input, once a bot of each worker has told it
    started: none is left."""
    config = tmp_path / "bots.toml"
    config.write_text(f'[bots]\nstubborn = "cmd:{hostile("stubborn")}"\n', encoding="utf-8")
    run = _truco("simulate", "-v", "paulista", "-n", "400", "--jobs", "2", "--config",
                 str(config), "--bots", "stubborn,random")
    tell.wait(lambda lines: len(lines) >= 4, GUARD)  # two seats in each of the two workers
    os.killpg(run.pid, signal.SIGINT)
    assert run.wait(GUARD) != 0
    assert b"Aborted!" in run.communicate()[1]


def test_a_failed_handshake_with_jobs_leaves_no_bot_behind(tell: Tell) -> None:
    good, bad = f"cmd:{hostile('good')}", f"cmd:{hostile('badhello')}"
    run = _truco("simulate", "-v", "paulista", "-n", "8", "--jobs", "2", "--bots",
                 f"{good},{bad}")
    assert run.wait(GUARD) == 1
    assert b"failed its handshake" in run.communicate()[1]
    assert tell.pids()  # each waited for by the fixture


def _terminate_as_a_bot_starts(where: str) -> None:
    """From now on in this process, a started program's pid is written to ``where`` and
    SIGTERM arrives just as it started (before the caller has registered it)."""
    real = subprocess.Popen

    def popen(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        started = real(*args, **kwargs)  # type: ignore[call-overload]
        Path(where).write_text(str(started.pid), encoding="utf-8")
        os.kill(os.getpid(), signal.SIGTERM)
        return started  # type: ignore[no-any-return]

    subprocess.Popen = popen  # type: ignore[assignment,misc]


def _start_as_the_pool_is_terminated(argv: list[str], where: str) -> None:
    """In a worker: start a bot, and SIGTERM arrives just as it started (before the worker
    has registered it)."""
    _terminate_as_a_bot_starts(where)
    Channel(argv)
    os._exit(0)  # (not reached: the worker ends on SIGTERM)


def _command_terminated_as_a_bot_starts(where: str) -> None:
    """A command (``truco simulate``, its own signal handlers) that gets SIGTERM just as its
    first bot started."""
    _terminate_as_a_bot_starts(where)
    main(["simulate", "-v", "paulista", "-n", "1", "--bots",
          f"cmd:{hostile('stubborn')},random"])


@pytest.mark.parametrize("target", [_start_as_the_pool_is_terminated,
                                    _command_terminated_as_a_bot_starts],
                         ids=["worker", "command"])
def test_sigterm_while_a_bot_starts_ends_it(tmp_path: Path, target: object) -> None:
    where = tmp_path / "pid"
    args = (([PY, str(HOSTILE), "stubborn"], str(where))  # it outlives its input
            if target is _start_as_the_pool_is_terminated else (str(where),))
    # spawn, not fork: a fork of this many-threaded test process may inherit a lock another
    # thread held, and the child then waits on it for ever (seen on CI: a futex, not a failure)
    worker = multiprocessing.get_context("spawn").Process(target=target, args=args)
    worker.start()
    worker.join(GUARD)
    assert worker.exitcode == (-signal.SIGTERM if target is _start_as_the_pool_is_terminated
                               else 128 + signal.SIGTERM)
    pid = int(where.read_text(encoding="utf-8"))
    gone = wait_gone(pid, GUARD)
    if not gone:
        os.kill(pid, signal.SIGKILL)
    assert gone, "the bot started as the worker was terminated is left"


# -- a child that leaves the bot's session ------------------------------------------------------

def test_a_child_that_leaves_the_session_ends_with_the_bot(tmp_path: Path) -> None:
    rules = load_variant("paulista")
    where = tmp_path / "pids"
    bot = ExternalBot(rules, 1, hostile("escape", str(where)), report=lambda _t: None)
    m = Match(rules, seed=21)
    play_match(m, [bot, *(make_bot("random", rules, s) for s in range(1, rules.players))])
    assert bot.faults == [] and m.is_over
    parent, child = map(int, where.read_text(encoding="utf-8").split())
    assert not wait_gone(child, 0)  # it outlived nothing yet: the bot is idle in its pool
    end_all()
    assert wait_gone(child, GUARD) and wait_gone(parent, GUARD)


def test_a_child_that_leaves_the_session_ends_with_a_bot_killed_for_a_timeout(
        tell: Tell) -> None:
    rules = load_variant("paulista")
    bot = ExternalBot(rules, 1, hostile("hangescape"), move_ms=1000, report=lambda _t: None)
    m = Match(rules, seed=21)
    play_match(m, [bot, *(make_bot("random", rules, s) for s in range(1, rules.players))])
    assert [f["kind"] for f in bot.faults] == ["timeout"]
    parent, child = map(int, next(x for x in tell.told() if " " in x).split())
    assert wait_gone(child, GUARD) and wait_gone(parent, GUARD)


# -- standard error: capped, removed unless kept -------------------------------------------------

def _one_match(command: str) -> ExternalBot:
    rules = load_variant("paulista")
    bot = ExternalBot(rules, 1, command, report=lambda _t: None)
    play_match(Match(rules, seed=21),
               [bot, *(make_bot("random", rules, s) for s in range(1, rules.players))])
    return bot


def test_a_bots_stderr_keeps_its_head_and_tail_within_the_cap(tmp_path: Path) -> None:
    head, tail = process.STDERR_HEAD, process.STDERR_TAIL
    size = 3 * (head + tail)  # more than a pipe holds: drained as the engine waits on the bot
    bot = _one_match(hostile("noisy", str(size)))
    assert bot.faults == []
    end_all()
    (kept,) = (tmp_path / "stderr").iterdir()  # $TRUCO_BOT_STDERR: kept
    third = size // 3
    note = f"\n[truco: {size - head - tail} bytes of standard error left out]\n".encode()
    assert kept.read_bytes() == b"a" * head + note + b"c" * tail
    assert third >= head and third >= tail


def test_stderr_files_are_removed_unless_a_message_names_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUCO_BOT_STDERR")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    folder = tmp_path / "tmp" / "truco-bots"
    quiet = _one_match(hostile("good"))
    noisy = _one_match(hostile("noisy", "3000"))
    crash = _one_match(hostile("crash"))
    assert (quiet.faults, noisy.faults) == ([], [])
    named = Path(crash.faults[0]["detail"].rsplit("its stderr: ", 1)[1])
    end_all()
    assert list(folder.iterdir()) == [named]  # the one a fault names, and only it
    assert named.read_text(encoding="utf-8") == "hostile: crashing on decision 3\n"


def test_a_failed_handshake_names_a_kept_stderr_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUCO_BOT_STDERR")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(main, ["simulate", "-v", "paulista", "-n", "1", "--bots",
                                       f"cmd:{hostile('strict')} x,random",
                                       "--json"])
    assert result.exit_code == 0, result.output  # (a good bot: nothing kept)
    end_all()  # (the run's end in a command: its idle bots are ended at exit)
    assert not list((tmp_path / "truco-bots").iterdir())
    code = "import sys; sys.stderr.write('no protocol here'); sys.exit(1)"
    result = CliRunner().invoke(main, ["simulate", "-v", "paulista", "-n", "1", "--bots",
                                       f"cmd:{PY} -c \"{code}\",random"])
    assert result.exit_code == 1
    where = Path(result.stderr.rsplit("(its stderr: ", 1)[1].rstrip().rstrip(")"))
    assert where.read_text(encoding="utf-8") == "no protocol here"
    assert list((tmp_path / "truco-bots").iterdir()) == [where]


# -- the simulation on jobs: deterministic cleanup ----------------------------------------------

def test_cmd_bots_play_a_simulation_on_jobs(tell: Tell) -> None:
    runner = CliRunner()
    bots = f"cmd:{hostile('stubborn')},random"  # outlives its input: it must be killed
    one = runner.invoke(main, ["simulate", "-v", "mineiro", "-n", "6", "--bots", bots,
                               "--json"])
    two = runner.invoke(main, ["simulate", "-v", "mineiro", "-n", "6", "--bots", bots,
                               "--json", "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert json.loads(one.stdout)["bots"][0] == bots.split(",")[0]
    end_all()  # this process's own (of the first run, idle in its pool)
    assert len(tell.pids()) >= 3  # the fixture waits for each: the workers' ended with them


def test_the_process_modules_examples_run() -> None:
    from helpers import doctests

    result = doctests("engine.protocol.process")
    assert result.attempted >= 2 and result.failed == 0
