"""``truco record``: play a match with uniformly random legal moves and write its log, so
there is always a way to make logs (bots come later).

A variant file is named in the header by its path relative to the log's folder (``--out``), or
to the current folder when the log goes to standard output, so the log verifies from anywhere.
``--out`` refuses an existing file unless ``--force`` is given (and even then anything but a
regular file, or a file the variant is read from).

Exit codes: 0 ok, 1 the variant is invalid, 2 usage errors.
"""

from __future__ import annotations

import os

import click

from engine.cli.options import U64, force_option, refuse_existing, wrote
from engine.fileio import atomic_write_text
from engine.i18n import _
from engine.logformat import record_random
from engine.variant import variant_files


@click.command()
@click.option("--variant", "-v", required=True, metavar="NAME|FILE",
              help="A shipped variant name or a path to a variant YAML file.")
@click.option("--seed", "-s", type=U64, default=None,
              help="Seeds the deals and the choice of moves; with --unseeded it is 0 when left "
                   "out, so the same command writes the same log.  [required unless --unseeded]")
@click.option("--dealer", "-d", default=0, show_default=True, type=click.IntRange(0),
              help="Seat of the first dealer.")
@click.option("--deals", is_flag=True, help="Write a deal event for every hand.")
@click.option("--unseeded", is_flag=True,
              help="Write no seed in the header, a deal event for every hand instead.")
@click.option("--out", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Write the log to FILE (atomically) instead of standard output.")
@force_option("the --out file")
def record(variant: str, seed: int | None, dealer: int, deals: bool, unseeded: bool,
           out: str | None, force: bool) -> None:
    """Play a match with random legal moves and write its log.

    A variant file is named in the log's header by its path relative to the log's folder
    (--out FILE), or to the current folder when the log goes to standard output: save that
    log in the current folder, or give --out.

    \b
    Examples:
      truco record --variant paulista --seed 7 --out game.jsonl
      truco record --variant house/mine.yaml --seed 7 --out logs/game.jsonl
      truco record --variant mineiro --unseeded
    """
    from engine.game import resolve_rules

    if seed is None and not unseeded:
        raise click.UsageError(_("--seed is required (or --unseeded, which draws from seed 0)"))
    rules = resolve_rules(variant)
    if dealer >= rules.players:
        raise click.BadParameter(_("{dealer} is not a seat (0..{last})").format(
                                 dealer=dealer, last=rules.players - 1),
                                 param_hint="--dealer")
    if out is not None:
        refuse_existing(out, force, "--out", reads=variant_files(variant))
    log_dir = "." if out is None else os.path.dirname(out) or "."
    text = record_random(variant, seed or 0, dealer=dealer, deals=deals, unseeded=unseeded,
                         log_dir=log_dir)
    if out is None:
        click.echo(text, nl=False)
    else:
        atomic_write_text(out, text)
        wrote(out, _("the log"))
