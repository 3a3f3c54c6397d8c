"""The ``truco`` command line. Each command lives in its own module and registers itself here.

Exit codes everywhere: 0 ok, 1 the input (a log or a variant) is invalid, 2 usage errors.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

import click

from engine import BUILD, i18n
from engine.cli import usage
from engine.errors import TrucoError
from engine.i18n import _


class _Group(click.Group):
    """Any :class:`TrucoError` that escapes a command is reported as ``truco: message``, exit 1,
    never as a traceback; so is a file that cannot be read or written (a full disk, a folder
    without permission: the target of an atomic write is then left as it was). Output to a
    pipe that its reader closed (``truco variants list | head -1``) ends the command quietly,
    exit 0."""

    context_class = usage.Context

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # said in the reader's language (engine.cli.usage)
            raise usage.spoken(exc) from None
        except Terminated as exc:
            name = signal.Signals(exc.signum).name
            click.echo(_("truco: stopped by {signal}").format(signal=name), err=True)
            sys.exit(128 + exc.signum)
        except BrokenPipeError:  # the reader went away (| head): stop quietly, all is well
            _silence_stdout()
            sys.exit(0)
        except TrucoError as exc:
            click.echo(f"truco: {exc}", err=True)
            sys.exit(1)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"truco: {where}{exc.strerror or exc}", err=True)
            sys.exit(1)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that Python's last flush of what is
    buffered does not fail again on the closed pipe."""
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError):  # no file descriptor (a test runner's stream)
        return
    os.dup2(devnull, fd)
    os.close(devnull)


#: Each command, by name: the module that defines it and the command's name there. A command's
#: module is imported when the command is run or listed, not before: ``truco verify`` does not
#: import the terminal game, the tournaments or NumPy, and a ``--dask local`` cluster's workers
#: start sooner (their fork server imports this package first, see engine.cluster).
COMMANDS = {
    "bot": ("engine.cli.bot_cmd", "bot"),
    "variants": ("engine.cli.variants_cmd", "variants"),
    "verify": ("engine.cli.verify_cmd", "verify"),
    "replay": ("engine.cli.replay_cmd", "replay_"),
    "record": ("engine.cli.record_cmd", "record"),
    "simulate": ("engine.cli.simulate_cmd", "simulate"),
    "play": ("engine.cli.play_cmd", "play"),
    "compare": ("engine.cli.compare_cmd", "compare"),
    "position": ("engine.cli.position_cmd", "position"),
    "tournament": ("engine.cli.tournament_cmd", "tournament"),
    "serve": ("engine.cli.serve_cmd", "serve_"),
    "analyze": ("engine.cli.analyze_cmd", "analyze"),
    "championship": ("engine.cli.championship_cmd", "championship"),
}


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (``timeout``, a closed terminal) stops a command as Ctrl-C does:
    ``finally`` blocks run, a pool of ``--jobs`` is terminated, bots are ended; then exit
    128 + the signal's number (``truco: stopped by SIGTERM``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _ending_signals() -> Iterator[None]:
    """While a command runs (in the main thread): SIGTERM and SIGHUP kill its bots at once
    and raise :class:`Terminated`; SIGINT stays Ctrl-C's ``KeyboardInterrupt``. While a bot
    is being started, any of them waits until the bot is registered, so that none escapes
    (:func:`engine.protocol.process.held`). In a process forked by the command (a ``--jobs``
    worker) they keep their default meaning, bots ended first. A signal ignored when the
    command starts stays ignored. The handlers are restored at the end."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()
    stopping: list[int] = []

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        # engine.protocol.process is loaded once a bot program is named: not before (import
        # time), and without it there is no bot to end
        bots = sys.modules.get("engine.protocol.process")
        if bots is not None and bots.held(signum):
            return
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        if bots is not None:
            bots.kill_all()
        if os.getpid() != owner or stopping:  # a worker, or a second signal: die of it now
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        stopping.append(signum)
        raise Terminated(signum)

    old: dict[int, Any] = {}
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        default = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
        if signal.getsignal(signum) is default:
            old[signum] = signal.signal(signum, on_signal)
    try:
        yield
    finally:
        for number, handler in old.items():
            signal.signal(number, handler)


class _Commands(_Group):
    """The ``truco`` group: its commands imported on demand (click's lazily loaded subcommands
    pattern, through ``list_commands`` and ``get_command``), run with :func:`_ending_signals`."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with _ending_signals():
            return super().main(*args, **kwargs)

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        usage.early_language(args)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise usage.spoken(exc) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module), name)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module}.{name} is not a click command")
        _whole_summaries(command)
        return command


#: ``truco --version``: the version and the build running (engine.BUILD, docs/performance.md).
VERSION = "%(prog)s, version %(version)s, " + {"pure": "pure Python",
                                               "compiled": "compiled (mypyc)"}[BUILD]


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="truco-engine", message=VERSION)
@click.option("--lang", metavar="LANG", default=None,
              help="The language people read: en or pt-BR (else TRUCO_LANG, else the locale's "
                   "LANG; English by default). --json output, logs, error codes and the bot "
                   "protocol are the same in every language.")
def main(lang: str | None) -> None:
    """truco: a rules-as-data engine for Brazilian Truco."""
    try:
        i18n.use(i18n.choose(lang))
        i18n.use_team_seats(2)  # a team's word (engine.i18n.team_context) until a variant says
    except i18n.LanguageError as exc:  # said in the language the environment asks for
        i18n.use(i18n.fallback())
        raise click.UsageError(exc.said()) from None


def _whole_summaries(command: click.Command) -> None:
    """``truco --help`` (and ``truco variants --help``) list each command with the whole first
    paragraph of its help, never cut short with '...'; and its help in the reader's language
    (:class:`engine.cli.usage.Context`)."""
    command.context_class = usage.Context
    if command.short_help is None and command.help:
        first = inspect.cleandoc(command.help).split("\n\n")[0]
        command.short_help = " ".join(first.split())
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _whole_summaries(sub)
