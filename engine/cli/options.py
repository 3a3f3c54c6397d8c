"""Options that several commands share, defined once so that they mean the same everywhere.

- ``--bots NAME[,NAME...]``: one name for every seat, one per team (two: teams 0 and 1; with
  more teams, two names are team 0's and every other team's) or one name per seat, in
  ``truco simulate``, ``truco compare`` and ``truco play`` alike (in ``truco play`` your own
  seat is yours, whatever the list gives it). ``--config FILE`` (beside it, and in
  ``truco tournament``) reads a TOML file whose ``[bots]`` table names bots, for long command
  lines: ``mine = "cmd:./mybot --level 3"``, then ``--bots mine,heuristic``
  (:func:`read_bots_config`).
- ``--matches N`` (``-n``): how many matches; ``--games`` is still read, with a note, as its old
  name (it always counted matches).
- ``--force``: every command that writes a file refuses an existing target unless it is given;
  even with it, only a regular file is replaced (never a link, a pipe, a device or a folder),
  and never a file the command reads its variant from (:func:`refuse_existing`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from engine.bots import bot_names, bot_problem, is_unknown
from engine.fileio import not_replaceable
from engine.i18n import _, grouped
from engine.reading import read_regular
from engine.simulate import seat_bots

F = TypeVar("F", bound=Callable[..., Any])

U64 = click.IntRange(0, 2**64 - 1)

BOTS_HELP = ("One bot for every seat, one per team (two: teams 0 and 1; with more teams, team "
             "0's and every other team's) or one per seat, by seat: "
             + ", ".join(bot_names()) + " (search:N: search with a budget of N iterations; "
             "search:N:heuristic: its playouts answer raises as the heuristic bot does, the "
             "sound player by default), or cmd:COMMAND, a bot program.")


def bots_option(default: str, *, note: str = "") -> Callable[[F], F]:
    """The ``--bots``/``-b`` option with its one meaning (``note`` adds a sentence), and
    ``--config`` (:func:`config_option`) for the names it may use."""

    def decorate(f: F) -> F:
        f = config_option(f)
        return click.option("--bots", "-b", default=default, show_default=True,
                            metavar="NAME[,NAME...]",
                            help=BOTS_HELP + (f" {note}" if note else ""))(f)

    return decorate


#: Where ``--config`` keeps the bots its file names (``ctx.meta``), for :func:`bot_list`.
_CONFIG_KEY = "truco.bots_config"
#: What a name in a ``[bots]`` table may be made of.
_ALIAS = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


#: The largest ``--config`` file read (bytes): a [bots] table is a few lines.
MAX_CONFIG_BYTES = 1 << 20


def read_bots_config(path: str | os.PathLike[str]) -> dict[str, str]:
    """The ``[bots]`` table of a TOML file: each name (letters, digits, ``_``, ``-``, ``.``;
    not a built-in bot's) and the bot it stands for (anything ``--bots`` takes, not another
    name of the table). Only a regular file of at most :data:`MAX_CONFIG_BYTES` is read
    (never a pipe or a device: :func:`engine.reading.read_regular`). Raises ``ValueError``
    saying what is wrong."""
    try:
        raw = read_regular(path, MAX_CONFIG_BYTES)
    except OSError as exc:
        raise ValueError(_("cannot read {path}: {why}").format(
            path=path, why=exc.strerror or exc)) from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ValueError(_("{path} is larger than {limit} bytes, the limit of a config file (a "
                           "[bots] table is a few lines)").format(
                               path=path, limit=grouped(MAX_CONFIG_BYTES)))
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(_("{path} is not UTF-8 text (byte {byte}): a config file is "
                           "TOML").format(path=path, byte=exc.start)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(_("{path} is not TOML: {why}").format(path=path, why=exc)) from None
    except RecursionError:
        raise ValueError(_("{path}: values nested too deep for a config file").format(
            path=path)) from None
    unknown = sorted(set(data) - {"bots"})
    if unknown:
        raise ValueError(_("{path}: unknown key {key}; a config file has a [bots] table").format(
            path=path, key=repr(unknown[0])))
    table = data.get("bots", {})
    if not isinstance(table, dict):
        raise ValueError(_("{path}: bots must be a table: [bots] then name = \"BOT\" "
                           "lines").format(path=path))
    for name, bot in table.items():
        where = f"{path}: [bots] {name}"
        if not _ALIAS.fullmatch(name):
            raise ValueError(_("{where}: a name is letters, digits, '_', '-' and '.'").format(
                where=where))
        if name in bot_names():
            raise ValueError(_("{where}: {name} is a built-in bot; choose another name").format(
                where=where, name=repr(name)))
        if not isinstance(bot, str):
            raise ValueError(_("{where}: give the bot as a string, e.g. \"cmd:./mybot\"").format(
                where=where))
        problem = bot_problem(bot.strip())
        if problem is not None:
            raise ValueError(f"{where}: {problem}")
    return {name: bot.strip() for name, bot in table.items()}


def _keep_config(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    try:
        ctx.meta[_CONFIG_KEY] = read_bots_config(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--config") from None


def config_option(f: F) -> F:
    """``--config FILE``: a TOML file whose ``[bots]`` table names bots for ``--bots``
    (read first, whatever the order on the command line: :func:`bot_list`)."""
    return click.option(
        "--config", metavar="FILE", default=None, is_eager=True, expose_value=False,
        callback=_keep_config,
        help='A TOML file whose [bots] table names bots, for long command lines: '
             'mine = "cmd:./mybot --level 3", then --bots mine,heuristic.')(f)


def bot_list(text: str, param_hint: str = "--bots") -> list[str]:
    """The bots of ``--bots``, split at its commas, each name of ``--config``'s ``[bots]``
    replaced by the bot it stands for (so a command line in the file may hold commas); a
    usage error names an unknown bot.

    >>> bot_list("heuristic, search:24")
    ['heuristic', 'search:24']
    """
    ctx = click.get_current_context(silent=True)
    config: dict[str, str] = {} if ctx is None else ctx.meta.get(_CONFIG_KEY, {})
    names = [config.get(name.strip(), name.strip()) for name in text.split(",")]
    bad = [(name, p) for name in names if (p := bot_problem(name)) is not None]
    if bad:
        more = "" if not is_unknown(bad[0][0]) else (
            _(", or a name of --config's [bots]: {names}").format(
                names=", ".join(sorted(config))) if config
            else _(", or a name of the [bots] table of a --config FILE"))
        raise click.BadParameter(bad[0][1] + more, param_hint=param_hint)
    return names


def parse_bots(text: str, players: int, *, team_of: Sequence[int] | None = None,
               param_hint: str = "--bots") -> list[str]:
    """Bot names by seat from ``--bots`` (see :func:`engine.simulate.seat_bots`; ``team_of``:
    each seat's team, the rules' ``team_of``; the names of ``--config``: :func:`bot_list`); a
    usage error names an unknown bot or a wrong count.

    >>> parse_bots("heuristic, random", 4)
    ['heuristic', 'random', 'heuristic', 'random']
    """
    names = bot_list(text, param_hint)
    try:
        return seat_bots(names, players, team_of)
    except ValueError as exc:
        raise click.BadParameter(_("{players} seats: {problem}").format(
            players=players, problem=exc), param_hint=param_hint) from None


def matches_option(*, default: int | None, help: str) -> Callable[[F], F]:
    """``--matches``/``-n`` and the hidden ``--games`` it replaces (read with :func:`matches`)."""

    def decorate(f: F) -> F:
        f = click.option("--games", "games_alias", type=click.IntRange(1), hidden=True,
                         help="The old name of --matches.")(f)
        return click.option("--matches", "-n", "n_matches", default=default,
                            show_default=default is not None, type=click.IntRange(1),
                            help=help)(f)

    return decorate


def matches(value: int | None, games_alias: int | None) -> int | None:
    """The number of matches from ``--matches`` or its old name ``--games`` (a note on
    standard error); both at once is a usage error."""
    if games_alias is None:
        return value
    ctx = click.get_current_context()
    source = ctx.get_parameter_source("n_matches")
    if source is not None and source is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError(_("give --matches or its old name --games, not both"))
    click.echo(_("truco: --games is now called --matches (it counts matches)"), err=True)
    return games_alias


def force_option(what: str = "the output file") -> Callable[[F], F]:
    """``--force``: overwrite ``what`` if it exists (it is refused otherwise)."""
    return click.option("--force", "-f", is_flag=True,
                        help=f"Replace {what} if it exists (without it, an existing one is "
                             "refused and left as it is).")


def wrote(path: str | Path, what: str) -> None:
    """Say on standard error where a command wrote ``what`` (its standard output stays the
    command's own): ``truco: wrote the log to game.jsonl``. ``what`` is said in the reader's
    language (a message of :mod:`engine.i18n`, already translated)."""
    click.echo("truco: " + _("wrote {what} to {path}").format(what=what, path=path), err=True)


def refuse_existing(path: str | Path, force: bool, param_hint: str, *,
                    reads: Iterable[Path] = ()) -> None:
    """A usage error (exit 2, nothing touched) when ``path`` may not be written: it exists and
    ``--force`` was not given (nothing is overwritten by accident, by any command); it is not
    a regular file (a link, a named pipe, a device, a folder: ``--force`` does not replace
    those); or it is one of the files the command ``reads`` (its variant and the files that
    extends: see :func:`engine.variant.variant_files`)."""
    problem = not_replaceable(path)
    if problem is not None:
        raise click.BadParameter(_("{path}: {problem}; --force replaces only a regular file, "
                                   "so it is left as it is: choose another file").format(
                                       path=path, problem=problem), param_hint=param_hint)
    if not os.path.lexists(path):
        return
    real = Path(path).resolve()
    for source in reads:
        if real == Path(source).resolve():
            raise click.BadParameter(_("{path} is the variant file {source} that this command "
                                       "reads: it is never replaced; choose another file").format(
                                           path=path, source=source), param_hint=param_hint)
    if not force:
        raise click.BadParameter(_("{path} exists; give --force to replace it").format(
            path=path), param_hint=param_hint)
