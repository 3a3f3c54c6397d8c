"""``truco bot``: bots in any language over the protocol (docs/bot-protocol.md).

``truco bot serve NAME`` serves a built-in bot over the protocol on standard input and output;
``truco bot check CMD`` runs a compliance check of a bot program. Exit codes: 0 ok (every check
passed), 1 a check failed, 2 usage errors.
"""

from __future__ import annotations

import sys

import click

from engine.bots import bot_problem


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
        raise click.BadParameter(problem or "serve a built-in bot, not a command",
                                 param_hint="NAME")
    from engine.protocol.serve import serve as run

    sys.exit(run(name))

