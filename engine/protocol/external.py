"""A bot program as an :class:`engine.bots.Bot`: ``cmd:./mybot --level 3`` (docs/bot-protocol.md).

Each bot runs as a subprocess in its own process group (its own session), spoken to in JSON
lines; its standard error goes to a capped file of its own (:mod:`engine.protocol.process`:
how a bot process is started, ended with everything it started, and its stderr kept).
Every read is non-blocking (a selector, with a deadline), every write too, so no bot can hang
the engine. A bot process serves match
after match: :class:`ExternalBot` takes an idle one of its command from this process's pool
when its match starts and gives it back at the end (a worker of ``--jobs`` has its own pool;
on a Dask worker, each chunk has its own, ended with it: :mod:`engine.protocol.chunk`;
``truco serve`` ends a table's with its match: :meth:`ExternalBot.end`).
Every bot process is ended with its whole process group: when its match fails, at interpreter
exit (also after Ctrl-C, and SIGTERM to a command), and when a worker is terminated.

What a failure costs (the default move: ``pass`` where it is offered, else the first legal
move):

- a line that is not UTF-8 JSON, not a ``move`` message, or a move not offered: that move is
  the default move;
- a crash (its output closed), a timeout (no answer within the time given), a flood (more
  than :data:`MAX_LINE` bytes in a line or :data:`MAX_BYTES` in a decision), a bot that does
  not read its input: the process group is killed, and the seat's every remaining move of
  the match is the default move (the next match starts a new process).

Each failure is reported as it happens on standard error and kept in :attr:`ExternalBot.faults`.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import shlex
import sys
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.observation import Observation, to_json
from engine.protocol import (
    VERSION,
    decision,
    dumps,
    events,
    hello,
    match_end,
    match_start,
    quit_,
    seat_events,
)
from engine.protocol.chunk import current
from engine.protocol.process import BotError as BotError  # where callers have found it
from engine.protocol.process import BotProcess, guard_termination, live, split_command
from engine.rules import Rules
from engine.state import Phase

#: The longest line a bot may write (bytes); longer is a flood.
MAX_LINE = 1 << 20
#: The most a bot may write while one answer is awaited (bytes); more is a flood.
MAX_BYTES = 4 << 20
#: How long a bot has for its handshake (``id`` and ``ready``), in milliseconds.
HANDSHAKE_MS = 10_000
#: How long a bot has to exit after ``quit`` before its process group is killed (seconds).
QUIT_GRACE = 0.5


class Dead(Exception):
    """The bot process failed for good (crash, timeout, flood): ``kind`` and ``detail``."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def default_time() -> dict[str, int | None]:
    """The time limits: ``TRUCO_BOT_MOVE_MS`` (per move, default 10000) and
    ``TRUCO_BOT_CLOCK_MS`` (a clock per match, default none); on a Dask worker, the command's
    (:mod:`engine.protocol.chunk`)."""
    chunk = current()
    environ = os.environ if chunk is None else chunk.settings.environ
    move = int(environ.get("TRUCO_BOT_MOVE_MS", "10000"))
    clock = environ.get("TRUCO_BOT_CLOCK_MS")
    return {"move_ms": move, "clock_ms": int(clock) if clock else None}


class Channel(BotProcess):
    """One bot process (:class:`engine.protocol.process.BotProcess`) spoken to: a line
    reader, its handshake, ``quit``."""

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None) -> None:
        guard_termination(end_all)
        super().__init__(argv, cwd=cwd)
        self.buffer = bytearray()
        self.eof = False
        self.name = ""
        self.judges = False
        #: The bot's ``id`` message, once it has made its handshake.
        self.ident: dict[str, Any] = {}
        #: The idle pool this process goes back to between matches.
        self.pool = _IDLE

    def send(self, message: Mapping[str, Any], deadline: float) -> None:
        """Write one message, waiting at most until ``deadline`` for the pipe to take it."""
        if self.proc.stdin is None or self.proc.stdin.closed:
            raise Dead("crash", "the bot's process was ended")
        data = memoryview(dumps(message))
        with selectors.DefaultSelector() as sel:
            sel.register(self.stdin, selectors.EVENT_WRITE)
            self.watch_stderr(sel)
            while data:
                try:
                    n = os.write(self.stdin, data)
                except BlockingIOError:
                    n = 0
                except (BrokenPipeError, ConnectionResetError):
                    raise Dead("crash", "the bot closed its input (it exited?)") from None
                data = data[n:]
                if data and not self.ready(sel, deadline):
                    raise Dead("timeout", "the bot does not read its input")

    def read_line(self, deadline: float, budget: list[int]) -> bytes | None:
        """The next line the bot wrote (without its newline), or ``None`` when ``deadline``
        passes first; ``budget`` (one int: bytes still allowed) is spent as bytes come.
        Raises :class:`Dead` on end of output or a flood."""
        with selectors.DefaultSelector() as sel:
            sel.register(self.stdout, selectors.EVENT_READ)
            self.watch_stderr(sel)
            while True:
                end = self.buffer.find(b"\n")
                if end >= 0:
                    line = bytes(self.buffer[:end])
                    del self.buffer[:end + 1]
                    return line
                if len(self.buffer) > MAX_LINE:
                    raise Dead("flood", f"a line longer than {MAX_LINE} bytes")
                if self.eof:
                    raise Dead("crash", f"the bot's output ended{self._exit_note()}")
                if not self.ready(sel, deadline):
                    return None
                try:
                    chunk = os.read(self.stdout, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    self.eof = True
                    continue
                budget[0] -= len(chunk)
                if budget[0] < 0:
                    raise Dead("flood", f"more than {MAX_BYTES} bytes for one answer")
                self.buffer += chunk

    def _exit_note(self) -> str:
        code = self.wait(0.2)
        return "" if code is None else f" (exit code {code})"

    def handshake(self) -> None:
        """``hello``, then the bot's ``id`` and ``ready`` (:data:`HANDSHAKE_MS`)."""
        deadline = time.monotonic() + HANDSHAKE_MS / 1000
        budget = [MAX_BYTES]
        try:
            self.send(hello(), deadline)
            ident: dict[str, Any] | None = None
            while True:
                line = self.read_line(deadline, budget)
                if line is None:
                    raise Dead("timeout", f"no 'id' and 'ready' within {HANDSHAKE_MS} ms")
                msg = _message(line)
                kind = msg.get("type") if msg is not None else None
                if kind == "id" and msg is not None:
                    if msg.get("protocol") != VERSION:
                        raise Dead("garbage", f"the bot speaks protocol "
                                              f"{msg.get('protocol')!r}; this engine speaks "
                                              f"{VERSION}")
                    ident = msg
                elif kind == "ready" and ident is not None:
                    break
                elif kind != "info":
                    raise Dead("garbage", f"expected an 'id' message, then 'ready'; found "
                                          f"{_shown(line)}")
        except Dead as exc:
            where = self.keep_stderr()
            self.kill()
            raise BotError(f"bot {shlex.join(self.argv)} failed its handshake: {exc.detail} "
                           f"(its stderr: {where})") from None
        self.name = str(ident.get("name", ""))
        self.judges = ident.get("judge") is True
        self.ident = ident

    def close(self) -> None:
        """Say ``quit``, give the bot :data:`QUIT_GRACE` to exit, then end its group."""
        with contextlib.suppress(Dead, OSError):
            self.send(quit_(), time.monotonic() + QUIT_GRACE)
        self.wait(QUIT_GRACE)
        self.kill()


def _message(line: bytes) -> dict[str, Any] | None:
    """A line as a JSON object, or ``None`` (not UTF-8, not JSON, not an object)."""
    try:
        msg = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return msg if isinstance(msg, dict) else None


def _shown(line: bytes) -> str:
    text = line[:80].decode("utf-8", "backslashreplace")
    return repr(text) + ("..." if len(line) > 80 else "")


# -- the processes of this interpreter: an idle pool per command, all ended at exit ----------
_IDLE: dict[tuple[str, ...], list[Channel]] = {}


def end_all() -> None:
    """End every bot process this process started (idle or in a match)."""
    for ch in live():
        if isinstance(ch, Channel) and ch.proc.poll() is None:
            ch.close()
        else:
            ch.kill()
    _IDLE.clear()


atexit.register(end_all)


def _take(argv: tuple[str, ...]) -> Channel:
    """An idle process of ``argv``, else a new one; on a Dask worker, of the chunk's own pool,
    started from the command's folder (:mod:`engine.protocol.chunk`)."""
    chunk = current()
    pool = _IDLE if chunk is None else chunk.idle
    idle = pool.setdefault(argv, [])
    while idle:
        ch = idle.pop()
        if ch.owner == os.getpid() and ch.proc.poll() is None:
            return ch
    ch = Channel(argv, cwd=None if chunk is None else chunk.cwd)
    ch.pool = pool
    if chunk is not None:
        chunk.started.append(ch)
    ch.handshake()
    return ch


Report = Callable[[str], None]


def _to_stderr(text: str) -> None:
    """A fault on standard error; on a Dask worker, sent back with the chunk's result."""
    chunk = current()
    if chunk is not None:
        chunk.notes.append(f"truco: {text}")
    else:
        print(f"truco: {text}", file=sys.stderr, flush=True)


class _Session:
    """One bot's match on one process (what a finaliser may end without the bot)."""

    def __init__(self, channel: Channel) -> None:
        self.channel: Channel | None = channel
        self.last: dict[str, Any] | None = None
        self.begun = False
        #: The process given back to its pool at the match's end (:meth:`end` takes it out).
        self.idle: Channel | None = None

    def release(self) -> None:
        ch, self.channel = self.channel, None
        if ch is None:
            return
        if ch.proc.stdin is None or ch.proc.stdin.closed:  # ended already (end_all)
            return
        if self.begun:
            try:
                ch.send(match_end(self.last), time.monotonic() + 1.0)
            except Dead:
                ch.kill()
                return
        ch.pool.setdefault(tuple(ch.argv), []).append(ch)
        self.idle = ch

    def end(self) -> None:
        """Release the process, then end it, unless another match took it up meanwhile."""
        self.release()
        ch, self.idle = self.idle, None
        if ch is None:
            return
        try:  # another thread's match may take it from the pool first: then it is theirs
            ch.pool.get(tuple(ch.argv), []).remove(ch)
        except ValueError:
            return
        ch.close()


class ExternalBot:
    """A bot program over the protocol (``cmd:COMMAND``): the command is split as a shell
    would (:func:`shlex.split`) and run without a shell."""

    def __init__(self, rules: Rules, seed: int, command: str | Sequence[str], *,
                 move_ms: int | None = None, clock_ms: int | None = None,
                 report: Report | None = None, match: int = 0) -> None:
        try:
            self.argv = tuple(split_command(command) if isinstance(command, str) else command)
        except ValueError as exc:
            raise BotError(f"cmd: {exc}") from None
        if not self.argv:
            raise BotError("cmd: needs a command, e.g. cmd:./mybot")
        self.name = "cmd:" + shlex.join(self.argv)
        self.rules = rules
        self.seed = seed
        limits = default_time()
        self.move_ms = move_ms if move_ms is not None else int(limits["move_ms"] or 10000)
        self.clock_ms = clock_ms if clock_ms is not None else limits["clock_ms"]
        self.report = report or _to_stderr
        self.match = match
        self.faults: list[dict[str, Any]] = []
        self.decisions = 0
        self.seat: int | None = None
        self.dead = False
        self.ended = False
        self._session: _Session | None = None
        self._left_ms = self.clock_ms

    # -- the match's course ---------------------------------------------------------------
    def _acquire(self) -> _Session | None:
        """This bot's process (an idle one of its command, else a new one, handshaken)."""
        if self.dead or self.ended:
            return None
        if self._session is None:
            session = _Session(_take(self.argv))
            weakref.finalize(self, session.release)
            self._session = session
        return self._session

    def _start(self, observation: Observation) -> _Session | None:
        session = self._acquire()
        if session is None or session.begun:
            return session
        session.begun = True
        self.seat = int(observation["seat"])
        if not self._send(match_start(self.rules, self.seat, match=self.match,
                                      seed=self.seed, time=self._time())):
            return None
        return session

    def _time(self) -> dict[str, int | None]:
        move = self.move_ms if self._left_ms is None else min(self.move_ms, self._left_ms)
        return {"move_ms": max(0, move), "clock_ms": self._left_ms}

    def send(self, message: Mapping[str, Any]) -> bool:
        """Send ``message`` to the bot's process (started if need be); ``False`` if it
        failed (and the bot is dead for the match)."""
        if self._acquire() is None:
            return False
        return self._send(message)

    def _send(self, message: Mapping[str, Any]) -> bool:
        session = self._session
        if session is None or session.channel is None:
            return False
        try:
            session.channel.send(message, time.monotonic() + self.move_ms / 1000)
        except Dead as exc:
            self._die(exc)
            return False
        return True

    def _die(self, exc: Dead) -> None:
        session = self._session
        where = ""
        if session is not None and session.channel is not None:
            where = f"; its stderr: {session.channel.keep_stderr()}"
            session.channel.kill()
            session.channel = None
        self.dead = True
        self._fault(exc.kind, f"{exc.detail}; the rest of its match is played by the default "
                              f"rule{where}")

    def _fault(self, kind: str, detail: str) -> None:
        fault = {"kind": kind, "match": self.match, "seat": self.seat,
                 "decision": self.decisions, "detail": detail}
        self.faults.append(fault)
        self.report(f"bot {self.name} (seat {self.seat}, decision {self.decisions}): "
                    f"{kind}: {detail}")

    def _catch_up(self, observation: Observation) -> None:
        session = self._session
        if session is None:
            return
        seen = seat_events(session.last, observation)
        session.last = dict(observation)
        if seen:
            self._send(events(seen))

    def observe(self, observation: Observation) -> None:
        """After each move: the events the seat saw (:func:`engine.protocol.seat_events`);
        at the match's end, ``end`` (and the process goes back to the pool)."""
        if self._start(observation) is None:
            return
        self._catch_up(observation)
        if observation.get("phase") == Phase.MATCH_OVER:
            self.ended = True
            if self._session is not None:
                self._session.release()

    # -- decisions --------------------------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The bot's answer, one of ``legal_actions``; the default move (``pass`` where
        offered, else the first) on a failure, as the module docstring says."""
        if not legal_actions:
            raise ValueError("no legal move to choose from")
        fallback = legal_actions[-1] if legal_actions[-1].kind == "pass" else legal_actions[0]
        self.decisions += 1
        if self._start(observation) is None:
            return fallback
        self._catch_up(observation)
        number = self.decisions
        answer = self._ask(decision(number, observation, legal_actions, self._time()),
                           "move", number)
        if answer is None:
            return fallback
        move = answer.get("move")
        for a in legal_actions:
            if str(a) == move:
                return a
        self._fault("illegal", f"answered {move!r}, which is not one of its legal moves "
                               f"({', '.join(map(str, legal_actions))}); played "
                               f"{fallback} instead")
        return fallback

    @property
    def judge(self) -> Callable[[Observation], float] | None:
        """Where the bot said it judges (``"judge": true`` in its ``id``): its strength for
        the answer or decision awaited (a ``judge`` message; 0 on a failure), as
        :class:`engine.bots.Judge`; else ``None``, as for a bot without a judge."""
        session = self._acquire()
        if session is None or session.channel is None or not session.channel.judges:
            return None
        return self._judge

    def _judge(self, observation: Observation) -> float:
        if self._start(observation) is None:
            return 0.0
        self._catch_up(observation)
        self.decisions += 1
        number = self.decisions
        answer = self._ask({"type": "judge", "id": number, "observation": to_json(observation),
                            "time": self._time()}, "strength", number)
        value = answer.get("value") if answer is not None else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) \
                and value == value and abs(value) != float("inf"):
            return float(value)
        if answer is not None:
            self._fault("garbage", f"a strength that is not a number: {value!r}; taken as 0")
        return 0.0

    def _ask(self, message: Mapping[str, Any], want: str, number: int) -> dict[str, Any] | None:
        """Send ``message`` and wait for the ``want`` answer with its ``id``; ``None`` on a
        failure (reported)."""
        if not self._send(message):
            return None
        session = self._session
        assert session is not None and session.channel is not None
        limit = int(message["time"]["move_ms"])
        started = time.monotonic()
        deadline = started + limit / 1000
        budget = [MAX_BYTES]
        try:
            while True:
                line = session.channel.read_line(deadline, budget)
                if line is None:
                    what = "clock" if self._left_ms is not None and limit >= self._left_ms \
                        else "per-move limit"
                    raise Dead("timeout", f"no answer within {limit} ms (its {what})")
                msg = _message(line)
                if msg is None:
                    self._fault("garbage", f"not a JSON object in UTF-8: {_shown(line)}; "
                                           "the move is the default one")
                    return None
                if msg.get("type") == "info":
                    continue
                if msg.get("type") == want and msg.get("id") != number \
                        and isinstance(msg.get("id"), int) and msg["id"] < number:
                    continue  # a late answer to an earlier question
                if msg.get("type") != want or msg.get("id") != number:
                    self._fault("garbage", f"expected a {want!r} message with id {number}; "
                                           f"found {_shown(line)}; the move is the default one")
                    return None
                return msg
        except Dead as exc:
            self._die(exc)
            return None
        finally:
            if self._left_ms is not None:
                self._left_ms -= int((time.monotonic() - started) * 1000)

    @property
    def pid(self) -> int | None:
        """The process (and process group) id of the bot's process, while it has one."""
        session = self._session
        return session.channel.pid if session is not None and session.channel else None

    def close(self) -> None:
        """End this bot's match now (its process goes back to the pool)."""
        if self._session is not None:
            self._session.release()

    def end(self) -> None:
        """End this bot's match and its process too (``quit``, then its process group), as a
        server does when a table is over: no process is kept idle for a match that will not
        come. A process another match has taken up from the pool since is left to it."""
        self.ended = True
        if self._session is not None:
            self._session.end()
