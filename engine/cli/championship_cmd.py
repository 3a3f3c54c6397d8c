"""``truco championship``: play a championship of bot teams offline into an archive
(``run``), and check any championship's archive at home (``verify``); docs/championship.md.

Exit codes: 0 ok (the archive agrees), 1 invalid input (an archive that does not agree, a
variant that fails), 2 usage errors.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from engine.bots import bot_problem
from engine.championship import Championship, ChampionshipError, write_archive
from engine.championship.archive import check_archive, write_zip
from engine.championship.model import FORMATS, MAX_TEAMS, MAX_TITLE, SEEDINGS, clean_name
from engine.championship.offline import play_all
from engine.i18n import _


@click.group()
def championship() -> None:
    """Run championships of bot teams and verify championship archives."""


@championship.command()
@click.argument("archive", type=click.Path())
@click.option("--variant", "-v", required=True, metavar="NAME|FILE",
              help="A shipped variant's name or a house variant file (embedded in the "
                   "archive).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="swiss", show_default=True)
@click.option("--rounds", type=click.IntRange(1, 64), default=None,
              help="Rounds of a Swiss (the other formats derive theirs).")
@click.option("--best-of", type=click.IntRange(1, 9), default=1, show_default=True,
              help="Games (tables) a pairing is played over: odd.")
@click.option("--teams", "count", type=click.IntRange(2, MAX_TEAMS), default=None,
              help="How many teams, named Team 1, Team 2... (or give --team).")
@click.option("--team", "names", multiple=True, metavar="NAME",
              help="A team's name, in seeding order for --seeding given (repeatable).")
@click.option("--bot", default="random", show_default=True,
              help="The bot that plays every team's seats.")
@click.option("--seeding", type=click.Choice(SEEDINGS), default="draw", show_default=True,
              help="draw: an order drawn from --seed; given: the order of the teams.")
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=0, show_default=True,
              help="The draw's seed, and the tables' deals and bots.")
@click.option("--title", default="Championship", show_default=True)
def run(archive: str, variant: str, fmt: str, rounds: int | None, best_of: int,
        count: int | None, names: tuple[str, ...], bot: str, seeding: str, seed: int,
        title: str) -> None:
    """Play a whole championship of bot teams and write its ARCHIVE (a new folder, or a new
    zip file for a name ending in .zip).

    Every table is played by bots from the seed, logged as a table of `truco serve` with a
    committed seed logs it, and recorded only once its log verifies; the same options give a
    byte-identical archive. The standings are printed at the end.

    \b
    Examples:
      truco championship run copa -v paulista --format swiss --rounds 5 --teams 32 --seed 7
      truco championship run taça -v mineiro --format knockout --best-of 3 --teams 16
      truco championship run liga -v house.yaml --format round-robin --team Zaps --team Copas
      truco championship run copa.zip -v paulista --format swiss --rounds 3 --teams 8
    """
    zipped = archive.lower().endswith(".zip")
    if os.path.lexists(archive) and (zipped or not os.path.isdir(archive)
                                     or os.listdir(archive)):
        raise click.BadParameter(_("{path} exists (and is not an empty folder)").format(
            path=archive), param_hint="ARCHIVE")
    if (count is None) == (not names):
        raise click.UsageError(_("give --teams N or --team NAME (several), one of them"))
    if fmt == "swiss" and rounds is None:
        raise click.UsageError(_("a Swiss needs --rounds N"))
    if (why := bot_problem(bot)) is not None:
        raise click.BadParameter(why, param_hint="--bot")
    teams = names or tuple(f"Team {i}" for i in range(1, (count or 0) + 1))
    try:
        c = Championship.create(variant, fmt=fmt, rounds=rounds or 0, best_of=best_of,
                                seeding=seeding, seed=seed, title=_usage(title, "--title"))
        for name in teams:
            c.register({"name": name, "players": [], "bot": bot})
        c.close()
    except ChampionshipError as exc:
        raise click.UsageError(str(exc)) from None
    play_all(c)
    if zipped:
        write_zip(c, archive)
    else:
        write_archive(c, archive)
    _print_standings(c.standings(), c.knockout)
    click.echo(f"{len(c.logs)} tables over {len(c.rounds)} rounds; archive: {archive}")


def _usage(value: str, hint: str) -> str:
    try:
        return clean_name(value, hint, MAX_TITLE)
    except ChampionshipError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def _print_standings(rows: list[dict[str, Any]], knockout: bool) -> None:
    """The standings as a text table (names are free of control characters: refused at
    registration). A knockout's: the round each team went out in; the others': points,
    Buchholz and games won."""
    width = max(len(r["team"]) for r in rows)
    if knockout:
        click.echo(f"{'#':>3}  {'team':{width}}  {'W-L':>5}  out in")
    else:
        click.echo(f"{'#':>3}  {'team':{width}}  {'pts':>4}  {'W-D-L':>7}  {'buch':>5}  games")
    for r in rows:
        if knockout:
            out = f"round {r['out_in_round']}" if r["out_in_round"] else "-"
            click.echo(f"{r['rank']:>3}  {r['team']:{width}}  {r['won']:>3}-{r['lost']}  {out}")
            continue
        wdl = f"{r['won']}-{r['drawn']}-{r['lost']}"
        click.echo(f"{r['rank']:>3}  {r['team']:{width}}  {r['points']:>4g}  {wdl:>7}  "
                   f"{r['buchholz']:>5g}  {r['games_won']}")


@championship.command()
@click.argument("archive", type=click.Path(exists=True))
def verify(archive: str) -> None:
    """Check a championship's ARCHIVE (a folder, or a zip of one): every file against
    manifest.json, every log replayed (the fair deal's reveal included), every pairing and
    standing recomputed from the logs and the definition. One line per difference, naming
    its file; exit 1 if any, 0 when everything agrees.

    \b
    Examples:
      truco championship verify copa
      truco championship verify copa.zip
    """
    problems, c = check_archive(archive)
    for line in problems:
        click.echo(line)
    if problems:
        n = len(problems)
        click.echo(f"{archive}: {n} problem{'s' * (n != 1)}: the archive does not agree")
        sys.exit(1)
    assert c is not None  # no problem: the championship was played again
    click.echo(f"{archive}: ok, {len(c.rounds)} rounds, {len(c.logs)} logs verified; the "
               "pairings and standings agree")
