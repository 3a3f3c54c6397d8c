"""The ``truco`` command line. Each command lives in its own module and registers itself here.

Exit codes everywhere: 0 ok, 1 the input (a log or a variant) is invalid, 2 usage errors.
"""

from __future__ import annotations

import inspect
import sys

import click

from engine.errors import TrucoError


class _Group(click.Group):
    """Any :class:`TrucoError` that escapes a command is reported as ``truco: message``, exit 1,
    never as a traceback; so is a file that cannot be read or written (a full disk, a folder
    without permission: the target of an atomic write is then left as it was)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except TrucoError as exc:
            click.echo(f"truco: {exc}", err=True)
            sys.exit(1)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"truco: {where}{exc.strerror or exc}", err=True)
            sys.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="truco-engine")
def main() -> None:
    """truco: a rules-as-data engine for Brazilian Truco."""


def _register() -> None:
    from engine.cli import play_cmd, record_cmd, replay_cmd, simulate_cmd, variants_cmd, verify_cmd
    from engine.cli.compare_cmd import compare
    from engine.cli.position_cmd import position
    from engine.cli.tournament_cmd import tournament

    main.add_command(variants_cmd.variants)
    main.add_command(verify_cmd.verify)
    main.add_command(replay_cmd.replay_)
    main.add_command(record_cmd.record)
    main.add_command(simulate_cmd.simulate)
    main.add_command(play_cmd.play)
    main.add_command(compare)
    main.add_command(position)
    main.add_command(tournament)
    _whole_summaries(main)


def _whole_summaries(group: click.Group) -> None:
    """``truco --help`` (and ``truco variants --help``) list each command with the whole first
    paragraph of its help, never cut short with '...'."""
    for command in group.commands.values():
        if command.short_help is None and command.help:
            first = inspect.cleandoc(command.help).split("\n\n")[0]
            command.short_help = " ".join(first.split())
        if isinstance(command, click.Group):
            _whole_summaries(command)


_register()
