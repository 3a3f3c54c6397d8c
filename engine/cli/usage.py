"""The command line's usage messages and help headings in the reader's language.

click's own words ("Usage:", "Error: No such option", "Missing argument", "Options") are
marked for the standard library's global gettext domain, which reads compiled files from
disk by the process's locale; the project's catalog is ``truco``, chosen by ``--lang``. So
they are said here through click's public API: a :class:`Context` whose help formatter
translates the usage prefix and the headings, and a usage error (:func:`spoken`) that tells
click's exception again from its public fields (the option, the parameter, the possibilities)
and the message templates below, each in the catalog. A message no template fits (a command's
own) is said as it is. The exit code stays 2.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

import click

from engine import i18n
from engine.i18n import _, mark, ngettext

#: click's messages, as its code writes them (a quoted ``{name!r}`` as ``{name}``, the quotes
#: taken with the value; each form of a plural its own message), found again in an English one.
TEMPLATES: tuple[str, ...] = (
    mark("No such option {name}."), mark("No such command {name}."),
    mark("Option {name} requires an argument."), mark("Option {name} requires {nargs} arguments."),
    mark("Option {name} does not take a value."), mark("Argument {name} takes {nargs} values."),
    mark("Got unexpected extra argument ({args})"),
    mark("Got unexpected extra arguments ({args})"), mark("Missing command."),
    mark("{value} is not a valid integer."), mark("{value} is not a valid integer range."),
    mark("{value} is not a valid float."), mark("{value} is not in the range {range}."),
    mark("Choose from:\n\t{choices}"), mark("File {filename} does not exist."),
    mark("Directory {filename} does not exist."), mark("Path {filename} does not exist."),
    mark("File {filename} is a directory."), mark("Directory {filename} is a file."),
    mark("File {filename} is not writable."), mark("Directory {filename} is not writable."),
    mark("{value} is not one of {choices}."), mark("{value} is not {choice}."),  # in this order
)
#: The help's headings and click's own option help.
HEADINGS = frozenset((mark("Options"), mark("Commands"), mark("Arguments"),
                      mark("Positional arguments")))
OWN_HELP = frozenset((mark("Show this message and exit."), mark("Show the version and exit.")))


def told(message: str) -> str:
    """``message`` (click's, in English) in the language spoken now, when a template fits.

    >>> with i18n.using("pt-BR"):
    ...     told("'x' is not a valid integer."), told("the seed is missing")
    ("'x' não é um número inteiro válido.", 'the seed is missing')
    """
    return i18n.retell(message, TEMPLATES) or message


def _hint(hint: Sequence[str] | str | None) -> str | None:
    if hint is None or isinstance(hint, str):
        return hint
    return " / ".join(repr(x) for x in hint)


def _param_hint(exc: click.BadParameter) -> str | None:
    if exc.param_hint is not None:
        return _hint(exc.param_hint)
    if exc.param is not None and exc.ctx is not None:
        return _hint(exc.param.get_error_hint(exc.ctx))
    return None


def _missing(exc: click.MissingParameter) -> str:
    hint = _param_hint(exc)
    kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else None)
    what = {"argument": _("Missing argument {hint}."), "option": _("Missing option {hint}.")
            }.get(kind or "", _("Missing parameter {hint}."))
    said = what.format(hint=hint) if hint else what.replace(" {hint}", "")
    extra = [told(exc.message)] if exc.message else []
    if exc.param is not None and exc.ctx is not None:
        more = exc.param.type.get_missing_message(param=exc.param, ctx=exc.ctx)
        extra += [told(more)] if more else []
    return " ".join([said, *extra])


def message(exc: click.UsageError) -> str:
    """The usage error ``exc``'s message (after "Error: ") in the language spoken now."""
    if isinstance(exc, click.MissingParameter):
        return _missing(exc)
    if isinstance(exc, click.BadParameter):
        hint = _param_hint(exc)
        if hint is None:
            return _("Invalid value: {message}").format(message=told(exc.message))
        return _("Invalid value for {param_hint}: {message}").format(
            param_hint=hint, message=told(exc.message))
    said = told(exc.message)
    possible = sorted(getattr(exc, "possibilities", None) or ())
    if possible:
        names = ", ".join(repr(p) for p in possible)
        said += " " + ngettext("Did you mean {names}?", "(Did you mean one of: {names}?)",
                               len(possible)).format(names=names)
    return said


class UsageError(click.UsageError):
    """A usage error of click said again in the reader's language (exit 2, as click's)."""

    def __init__(self, original: click.UsageError) -> None:
        super().__init__(original.message, original.ctx)
        self.original = original

    def format_message(self) -> str:
        return message(self.original)

    def show(self, file: IO[Any] | None = None) -> None:
        ctx = self.ctx
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                names = ctx.command.get_help_option_names(ctx)
                hint = _("Try '{command} {option}' for help.").format(
                    command=ctx.command_path, option=max(names, key=len)) + "\n"
            click.echo(f"{ctx.get_usage()}\n{hint}", file=file, err=file is None,
                       color=ctx.color)
        click.echo(_("Error: {message}").format(message=self.format_message()), file=file,
                   err=file is None, color=ctx.color if ctx is not None else None)


def spoken(exc: click.UsageError) -> click.UsageError:
    """``exc`` as it will be shown in the reader's language (a help shown for a missing
    command, or one already said, as it is)."""
    if isinstance(exc, (UsageError, click.exceptions.NoArgsIsHelpError)):
        return exc
    return UsageError(exc)


class Formatter(click.HelpFormatter):
    """click's help formatter, its usage prefix, headings and own option help translated."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)

    @contextlib.contextmanager
    def section(self, name: str) -> Iterator[None]:
        with super().section(_(name) if name in HEADINGS else name):
            yield

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        super().write_dl([(term, _(text) if text in OWN_HELP else text)
                          for term, text in rows], col_max, col_spacing)


class Context(click.Context):
    """The context of every ``truco`` command: its help in the reader's language."""

    formatter_class = Formatter


def early_language(args: Sequence[str]) -> None:
    """Speak the language ``args`` ask for (``--lang``) before they are parsed, so that a
    usage error found while parsing them is told in it; a bad ``--lang`` is told later."""
    asked = None
    for index, arg in enumerate(args):  # the options before the command's name
        if arg == "--lang" and index + 1 < len(args):
            asked = args[index + 1]
        elif arg.startswith("--lang="):
            asked = arg.split("=", 1)[1]
        if asked is not None or not arg.startswith("-") or arg == "--":
            break
    try:
        i18n.use(i18n.choose(asked))
    except i18n.LanguageError:
        i18n.use(i18n.fallback())
