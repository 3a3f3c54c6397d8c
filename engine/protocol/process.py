"""A bot program's process (docs/bot-protocol.md#processes): how it is started, what is kept
of its standard error, and how it is ended with everything it started.

- **Started** in a session of its own (so its process group is its own), with
  ``TRUCO_BOT=<mark>`` added to its environment: a mark of this process, inherited by the
  bot's children. A termination signal that arrives while a bot is being started waits until
  the bot is registered, so no bot starts unseen (:func:`hold_signals`).
- **Ended** (:meth:`BotProcess.kill`): its process group is killed (SIGKILL), then, where
  ``/proc`` exists (Linux), every process still carrying its mark: a child that left the
  group with ``setsid`` is ended too. At interpreter exit, the process that imported this
  module first (a command, not its ``--jobs`` workers) ends every process left that carries
  a mark of its run (:func:`sweep_run`), whichever worker started it.
- **Its standard error** goes through a pipe that the engine drains whenever it waits on the
  bot, into a file (:func:`stderr_dir`) of at most :data:`STDERR_HEAD` + :data:`STDERR_TAIL`
  bytes: the first ones and the last ones, with a line saying how many were left out between.
  When the process ends, its file is removed if it is empty, or unless a message named it (a
  fault, a failed handshake) or ``TRUCO_BOT_STDERR`` names the folder (the user keeps them).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import secrets
import selectors
import shlex
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from engine.errors import TrucoError
from engine.i18n import gettext, mark

#: The first bytes of a bot's standard error kept in its file.
STDERR_HEAD = 256 * 1024
#: The last bytes of a bot's standard error kept in its file (after a line saying how many
#: bytes were left out between the first ones and these).
STDERR_TAIL = 256 * 1024
#: The environment variable that marks a bot process and its children.
MARK = "TRUCO_BOT"
#: The signals that end a run (a command's handler, :func:`hold_signals`).
ENDING = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class BotError(TrucoError):
    """A bot program cannot be started or fails its handshake."""


def split_command(command: str) -> list[str]:
    """A bot's command line split as a shell would (:func:`shlex.split`); ``ValueError``
    saying what is wrong for one that cannot be split or names no program.

    >>> split_command("python3 'my bot.py' --level 3")
    ['python3', 'my bot.py', '--level', '3']
    >>> split_command("./mybot 'oops")
    Traceback (most recent call last):
    ...
    ValueError: the command "./mybot 'oops" cannot be split as a shell would: a quote is not closed
    """
    why = {"No closing quotation": mark("a quote is not closed"),
           "No escaped character": mark("it ends with a backslash that escapes nothing")}
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        said = gettext(why[str(exc)]) if str(exc) in why else str(exc)
        raise ValueError(gettext("the command {command} cannot be split as a shell would: "
                                 "{why}").format(command=repr(command), why=said)) from None
    if not argv or not argv[0]:
        raise ValueError(gettext("the command {command} names no program, e.g. ./mybot").format(
            command=repr(command)))
    return argv


def command_problem(command: str) -> str | None:
    """Why ``command`` cannot be a bot's command line (:func:`split_command`), or ``None``."""
    try:
        split_command(command)
    except ValueError as exc:
        return str(exc)
    return None


def stderr_dir() -> Path:
    """Where each bot's standard error is kept: ``TRUCO_BOT_STDERR`` (every file kept), else a
    ``truco-bots`` folder in the temporary directory (a file kept only if a message names
    it)."""
    where = os.environ.get("TRUCO_BOT_STDERR")
    path = Path(where) if where else Path(tempfile.gettempdir()) / "truco-bots"
    path.mkdir(parents=True, exist_ok=True)
    return path


class StderrFile:
    """A bot's standard error in a file: the first :data:`STDERR_HEAD` bytes as they come,
    the last :data:`STDERR_TAIL` written after them when it is :meth:`flush`\\ ed."""

    def __init__(self, label: str) -> None:
        self.keep = bool(os.environ.get("TRUCO_BOT_STDERR"))
        self.fd, self.path = tempfile.mkstemp(prefix=f"{label}-{os.getpid()}-",
                                              suffix=".stderr", dir=stderr_dir())
        self.head = 0
        self.tail = bytearray()
        self.left_out = 0

    def take(self, data: bytes) -> None:
        n = min(len(data), STDERR_HEAD - self.head)
        if n:
            self._write(data[:n])
            self.head += n
        self.tail += data[n:]
        if len(self.tail) > STDERR_TAIL:
            self.left_out += len(self.tail) - STDERR_TAIL
            del self.tail[:len(self.tail) - STDERR_TAIL]

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):  # a full disk: the bot's diagnostics are lost
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]

    def flush(self) -> None:
        """Write the tail after the head (again: it replaces what the last flush wrote)."""
        if self.fd < 0 or not self.tail:
            return
        with contextlib.suppress(OSError):
            os.lseek(self.fd, self.head, os.SEEK_SET)
            os.ftruncate(self.fd, self.head)
        if self.left_out:
            self._write(f"\n[truco: {self.left_out} bytes of standard error left out]\n"
                        .encode())
        self._write(bytes(self.tail))

    def close(self) -> None:
        """Flush and close; remove the file if it is empty or not to be kept."""
        if self.fd < 0:
            return
        self.flush()
        os.close(self.fd)
        self.fd = -1
        if not self.keep or not (self.head or self.tail):
            with contextlib.suppress(OSError):
                os.unlink(self.path)


# -- the marks: each bot process's, and this run's ------------------------------------------
#: This run: the process that imported this module first (its ``--jobs`` workers, forked,
#: share it), and its mark's prefix.
_RUN_OWNER = os.getpid()
_RUN = f"{os.getpid()}-{secrets.token_hex(4)}"
_COUNT = itertools.count()


def _new_mark() -> str:
    return f"{_RUN}.{os.getpid()}.{next(_COUNT)}"


def marked(match: Callable[[str], bool]) -> list[int]:
    """The live processes (not zombies, not this one) whose environment has a ``TRUCO_BOT``
    mark that ``match`` accepts; none where there is no ``/proc``."""
    key = f"{MARK}=".encode()
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        for item in env.split(b"\0"):
            if item.startswith(key) and match(item[len(key):].decode(errors="replace")):
                found.append(int(name))
                break
    return found


def sweep(match: Callable[[str], bool]) -> None:
    """Kill (SIGKILL) every process :func:`marked` finds and wait for each to be gone (at
    most 5 s), until none is left: a child that one forked meanwhile has the mark too, and
    is found on the next pass."""
    for _ in range(20):
        pids = marked(match)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pid in pids:
            gone(pid, 5.0)


def gone(pid: int, timeout: float) -> bool:
    """Wait until the process ``pid`` has exited (a zombie counts), at most ``timeout``
    seconds; whether it has. Where a process cannot be waited on so (no ``pidfd``), ``True``."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    except (AttributeError, OSError):
        return True
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            return bool(sel.select(timeout))
    finally:
        os.close(fd)


def sweep_run() -> None:
    """At the run's end: every process left with a mark of this run (whichever process of it
    started the bot), in the run's own process only."""
    if os.getpid() == _RUN_OWNER:
        sweep(lambda mark: mark.startswith(f"{_RUN}."))


atexit.register(sweep_run)


# -- termination signals held while a bot starts ---------------------------------------------
_STARTING = [0]
_PENDING: list[int] = []
_LOCK = threading.Lock()


def held(signum: int) -> bool:
    """Whether a handler must put off ``signum`` (``True``: a bot is being started; the
    signal is sent again once it is registered, so that its handler ends it too)."""
    if _STARTING[0]:
        _PENDING.append(signum)
        return True
    return False


@contextlib.contextmanager
def hold_signals() -> Iterator[None]:
    """Around a bot's start: the handlers that end bots (this module's in a worker, the
    command's) put a signal off (:func:`held`) until the bot is registered."""
    with _LOCK:
        _STARTING[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _STARTING[0] -= 1
            pending = _PENDING[-1] if _PENDING and not _STARTING[0] else None
            if pending is not None:
                _PENDING.clear()
        if pending is not None:
            signal.raise_signal(pending)


# -- the processes -----------------------------------------------------------------------------
_LIVE: weakref.WeakSet[BotProcess] = weakref.WeakSet()
_GUARDED: list[int] = []


class BotProcess:
    """A bot program's process: pipes to its input and output (non-blocking), its standard
    error drained into a :class:`StderrFile`, its session, its mark."""

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None) -> None:
        self.argv = list(argv)
        self.owner = os.getpid()
        self.mark = _new_mark()
        label = "".join(c if c.isalnum() else "-" for c in Path(argv[0]).name)[:40]
        self.stderr = StderrFile(label)
        self.stderr_path = self.stderr.path
        with hold_signals():
            try:
                self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             cwd=cwd, start_new_session=True, bufsize=0,
                                             env={**os.environ, MARK: self.mark})
            except OSError as exc:
                self.stderr.close()
                raise BotError(f"cannot start bot {shlex.join(self.argv)}: "
                               f"{exc.strerror or exc}") from None
            _LIVE.add(self)
            assert self.proc.stdin and self.proc.stdout and self.proc.stderr
            self.stdin, self.stdout = self.proc.stdin.fileno(), self.proc.stdout.fileno()
            self.err: int | None = self.proc.stderr.fileno()
            for fd in (self.stdin, self.stdout, self.err):
                os.set_blocking(fd, False)

    @property
    def pid(self) -> int:
        """The bot's process id, which is its process group's too (it leads a new session)."""
        return self.proc.pid

    def watch_stderr(self, sel: selectors.BaseSelector) -> None:
        """Have ``sel`` wake up for the bot's standard error too (:meth:`ready`)."""
        if self.err is not None:
            sel.register(self.err, selectors.EVENT_READ)

    def ready(self, sel: selectors.BaseSelector, deadline: float) -> bool:
        """Wait until the other file ``sel`` watches is ready (``True``) or ``deadline``
        passes (``False``), draining the bot's standard error meanwhile."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            events = sel.select(left)
            other = False
            for key, _ in events:
                if key.fd == self.err:
                    if not self.drain():
                        sel.unregister(key.fd)
                else:
                    other = True
            if other:
                return True

    def drain(self) -> bool:
        """Read what the bot wrote on its standard error into its file (at most 1 MiB at a
        time); ``False`` once it is closed."""
        if self.err is None:
            return False
        for _ in range(16):
            try:
                data = os.read(self.err, 65536)
            except BlockingIOError:
                return True
            except OSError:
                data = b""
            if not data:
                self.proc.stderr.close()  # type: ignore[union-attr]
                self.err = None
                return False
            self.stderr.take(data)
        return True

    def wait(self, timeout: float) -> int | None:
        """The bot's exit code once it exits within ``timeout`` seconds, else ``None``
        (draining its standard error meanwhile)."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            self.watch_stderr(sel)
            while True:
                code = self.proc.poll()
                if code is not None:
                    self.drain()
                    return code
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                if self.err is None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        return self.proc.wait(left)
                    return None
                fd = self.err
                if sel.select(min(left, 0.05)) and not self.drain():
                    sel.unregister(fd)

    def keep_stderr(self) -> str:
        """Keep the bot's standard error file (a message names it): its path, written up to
        now."""
        self.stderr.keep = True
        self.stderr.flush()
        return self.stderr_path

    def kill(self) -> None:
        """End the bot's process group (SIGKILL) and every process with its mark, reap it,
        close the pipes, keep or remove its standard error file."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        sweep(lambda mark: mark == self.mark)
        with contextlib.suppress(ChildProcessError, subprocess.TimeoutExpired):
            self.proc.wait(5)
        self.drain()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        self.err = None
        self.stderr.close()
        _LIVE.discard(self)


def kill_all() -> None:
    """Kill every bot process this process started, at once (a termination signal)."""
    for ch in list(_LIVE):
        if ch.owner == os.getpid():
            ch.kill()


def live() -> list[BotProcess]:
    """The bot processes this process started that are not ended yet."""
    return [ch for ch in _LIVE if ch.owner == os.getpid()]


def guard_termination(end: Callable[[], None]) -> None:
    """Once in each process that starts bots, before its first: in a worker of a
    multiprocessing pool (it leaves through ``os._exit``, without atexit, on Ctrl-C too),
    multiprocessing's exit handlers ``end`` its bots, and SIGTERM (the pool being
    terminated) kills them first. The main process's handlers are its own: atexit ends its
    bots, and the command line makes SIGTERM end them as Ctrl-C does (``engine.cli``)."""
    from multiprocessing import parent_process
    from multiprocessing import util as mp_util

    if os.getpid() in _GUARDED:
        return
    _GUARDED.append(os.getpid())
    if parent_process() is None:
        return
    mp_util.Finalize(None, end, exitpriority=100)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        with contextlib.suppress(ValueError):  # not the main thread: atexit still ends them
            signal.signal(signal.SIGTERM, on_term)


def on_term(signum: int, _frame: object = None) -> None:
    """A termination signal in a process that is not a command's own (a worker): kill its
    bots (unless one is being started: then once it is registered), then die of it."""
    if held(signum):
        return
    kill_all()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
