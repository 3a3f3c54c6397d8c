"""``truco serve``: a live table in the browser, for friends and bots (docs/serve.md).

The server (Starlette on uvicorn, websockets for the live part) holds the tables, runs each
match, takes only legal moves from the seat whose token sent them, and writes each game's log
under ``--data`` as it goes; a restarted server picks its tables up from those logs.

Exit codes: 0 stopped (Ctrl-C), 1 the data folder cannot be used, 2 usage errors.
"""

from __future__ import annotations

from pathlib import Path

import click

from engine import i18n
from engine.bots import bot_problem
from engine.i18n import _
from engine.serve import Limits, serve


def _commands(values: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        name, sep, command = value.partition("=")
        if not sep or not name.strip() or not command.strip():
            raise click.BadParameter(_("{value}: expected NAME=COMMAND").format(value=repr(value)),
                                     param_hint="--bot")
        problem = bot_problem(f"cmd:{command.strip()}")
        if problem is not None:
            raise click.BadParameter(f"{name.strip()}: {problem}", param_hint="--bot")
        out[name.strip()] = f"cmd:{command.strip()}"
    return out


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: 0.0.0.0 opens the server to the local network "
                   "(anyone who reaches it may create tables; see docs/serve.md).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="The port to listen on.")
@click.option("--data", default="truco-tables", show_default=True,
              type=click.Path(file_okay=False),
              help="The folder of the tables: each game's log, written as it goes.")
@click.option("--seat-timeout", default=120.0, show_default=True, type=click.FloatRange(0),
              help="Seconds a person's seat, once joined, may be empty while the game waits "
                   "for it before a bot (heuristic) plays it, until the person is back; 0: "
                   "wait forever.")
@click.option("--rate", default=10.0, show_default=True, type=click.FloatRange(0.1),
              help="Messages a second a connection may send (twice that in a burst); past "
                   "it a message is refused unread.")
@click.option("--linger", default=300.0, show_default=True, type=click.FloatRange(0),
              help="Seconds a finished table stays in memory, its page live; then it closes "
                   "and its log and replay are given from --data; 0: within a second of the end.")
@click.option("--client-tables", default=20, show_default=True, type=click.IntRange(1),
              help="Tables in play one client address may have created (behind a reverse "
                   "proxy every client is the proxy's address).")
@click.option("--client-creations", default=60, show_default=True, type=click.IntRange(1),
              help="Tables one client address may create in an hour (a table of bots only "
                   "counts too: it plays its whole match at once).")
@click.option("--client-connections", default=200, show_default=True,
              type=click.IntRange(1),
              help="Connections one client address may hold open at once (the server takes "
                   "800 in all).")
@click.option("--bot", "bots", multiple=True, metavar="NAME=COMMAND",
              help="A bot program (docs/bot-protocol.md) the seats may be given, as NAME "
                   "(repeatable). Only the server's operator names commands.")
@click.option("--fixed-seeds", is_flag=True,
              help="For tests: let a table with a person seat be created with a fixed seed "
                   "(whoever chose it knows every hand; its page says so). Without it only a "
                   "table of bots takes one; every other table deals from a secret seed it "
                   "commits to and reveals at the end.")
def serve_(host: str, port: int, data: str, seat_timeout: float, rate: float,
           linger: float, client_tables: int, client_creations: int, client_connections: int,
           bots: tuple[str, ...], fixed_seeds: bool) -> None:
    """Serve live tables in the browser: friends and bots, every game a verifiable log.

    \b
    Examples:
      truco serve                       # then open http://127.0.0.1:8000/
      truco serve --host 0.0.0.0 --port 8080 --data ~/truco-tables
      truco serve --bot mine='python3 examples/bots/first.py'
    """
    # Each page and connection speaks its own language (engine.serve.language: its switch,
    # else Accept-Language); whatever the server says outside them is English.
    i18n.use(i18n.ENGLISH)
    limits = Limits(seat_timeout=seat_timeout or None, rate=rate, burst=max(1, int(2 * rate)),
                    linger=linger, client_tables=client_tables,
                    client_creations=client_creations,
                    client_connections=client_connections, fixed_seeds=fixed_seeds)
    serve(Path(data), host=host, port=port, limits=limits, bot_commands=_commands(bots))
