"""``truco bot``: bots in any language over the protocol (docs/bot-protocol.md).

``truco bot serve NAME`` serves a built-in bot over the protocol on standard input and output;
``truco bot check CMD`` runs a compliance check of a bot program. Exit codes: 0 ok (every check
passed), 1 a check failed, 2 usage errors.
"""

from __future__ import annotations

import sys

import click

from engine.bots import bot_problem
from engine.i18n import _


@click.group()
def bot() -> None:
    """Bots in any language over the protocol: serve a built-in one, check a program."""


@bot.command()
@click.argument("name")
def serve(name: str) -> None:
    """Serve the built-in bot NAME (random, heuristic, search[:N]) over the protocol on
    standard input and output."""
    problem = bot_problem(name)
    if problem is not None or name.startswith("cmd:"):
        raise click.BadParameter(problem or _("serve a built-in bot, not a command"),
                                 param_hint="NAME")
    from engine.protocol.serve import serve as run

    sys.exit(run(name))


@bot.command()
@click.argument("command")
@click.option("--decisions", "-d", default=200, show_default=True, type=click.IntRange(1),
              help="Decisions of the bot in each family (Paulista, Mineiro, Gaudério).")
@click.option("--move-ms", default=5000, show_default=True, type=click.IntRange(1),
              help="The per-move limit, in milliseconds.")
def check(command: str, decisions: int, move_ms: int) -> None:
    """Run a compliance check of the bot program COMMAND (a command line, split as a shell
    would): the handshake, DECISIONS decisions in each shipped family with its side bets and
    special hands, a match abandoned half-way, a message of an unknown kind, timing, quit.
    Prints each check, ok or FAILED; exits 0 if all passed, 1 otherwise.

    \b
    Example:
      truco bot check 'python3 examples/bots/first.py'
    """
    from engine.protocol.check import check as run
    from engine.protocol.process import command_problem

    problem = command_problem(command)
    if problem is not None:
        raise click.BadParameter(problem, param_hint="COMMAND")
    report = run(command, decisions=decisions, move_ms=move_ms)
    for line in report.lines():
        click.echo(line)
    verdict = _("passed") if report.passed else _("FAILED")
    click.echo(f"{command}: {verdict}")
    if not report.passed:
        sys.exit(1)
