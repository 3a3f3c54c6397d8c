"""``truco analyze LOG``: every decision of a log valued from its seat's observation, the
played move ranked among the legal ones, mistakes marked (docs/analysis.md); ``--json`` for the
data (what ``truco replay LOG --html FILE --analysis A.json`` draws).

Exit codes: 0 ok, 1 the log is invalid (``truco: file:line: message``, as ``truco verify`` words
it), 2 usage.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from engine.analysis.evaluate import DEFAULT_PLAYOUTS
from engine.analysis.report import json_chunks, text_chunks
from engine.analysis.run import analyse_each
from engine.cli.options import U64, force_option, refuse_existing, wrote
from engine.cli.replay_cmd import _read
from engine.cli.scale import dask_option, executor_for, warm_up
from engine.cli.simulate_cmd import _progress_bar
from engine.errors import TrucoError
from engine.fileio import atomic_text_file
from engine.game import resolve_rules
from engine.i18n import _, use_team_seats
from engine.logread import LogProblem
from engine.rules import Rules


@click.command("analyze")
@click.argument("log", metavar="LOG")
@click.option("--seat", "-s", "seats", type=click.IntRange(0), multiple=True, metavar="S",
              help="Analyse this seat's decisions only (repeat for more); by default every "
                   "seat's.")
@click.option("--hindsight", is_flag=True,
              help="Also value every move knowing every card (the best move in hindsight), "
                   "beside the fair evaluation, never mixed into it.")
@click.option("--playouts", "-p", type=click.IntRange(1, 100000), default=DEFAULT_PLAYOUTS,
              show_default=True,
              help="Guesses of the hidden cards per decision, each playing every legal move "
                   "out: more is more precise and slower (the error shrinks as 1/sqrt(N)).")
@click.option("--seed", type=U64, default=0, show_default=True,
              help="Seeds the guesses and playouts (with the log's seed and each move's line).")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--out", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Write to FILE (atomically) instead of standard output.")
@force_option("the --out file")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes to use; the analysis is the same for any value.")
@dask_option("positions")
def analyze(log: str, seats: tuple[int, ...], hindsight: bool, playouts: int, seed: int,
            as_json: bool, out: str | None, force: bool, jobs: int, dask: str | None) -> None:
    """Analyse a game log: each decision's moves valued from what the seat knew.

    For every decision (cards, raises, answers, side bets, special hands), each legal move's
    chance to win the match and expected points of the hand, with standard errors; the move
    played ranked among them; inaccuracies, mistakes and blunders marked with their loss.

    \b
    Examples:
      truco analyze replays/paulista-seed1.jsonl
      truco analyze game.jsonl --seat 0 --hindsight
      truco analyze game.jsonl --json -o game.analysis.json --jobs 2
      truco replay game.jsonl --html game.html --analysis game.analysis.json
    """
    if out is not None:
        refuse_existing(out, force, "--out")
    warm_up(dask)
    data, file, base = _read(log)
    bar = _Bar()
    with tempfile.TemporaryFile() as spool:  # the results, one line each, read back in order

        def keep(result: dict[str, Any]) -> None:
            spool.write(json.dumps(result, ensure_ascii=False).encode("utf-8") + b"\n")

        try:
            with executor_for(jobs, dask, 1 << 20) as executor:
                report, summary = analyse_each(
                    data, file, keep, base=base, seats=frozenset(seats) if seats else None,
                    playouts=playouts, seed=seed, hindsight=hindsight, executor=executor,
                    progress=bar.update if sys.stderr.isatty() else None)
        except LogProblem as exc:
            click.echo(f"truco: {exc}", err=True)
            sys.exit(1)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--seat") from None
        finally:
            bar.stop()
        spool.seek(0)
        results = (json.loads(line) for line in spool)
        rules = None if as_json else _rules_of(report["variant"], base)
        if rules is not None:  # a team's word: jogador, dupla, equipe
            use_team_seats(rules.players // rules.teams)
        chunks = (json_chunks(report, results) if as_json
                  else text_chunks(report, results, summary.decisions, summary.worst, rules))
        if out is None:
            for chunk in chunks:
                click.echo(chunk, nl=False)
        else:
            with atomic_text_file(out) as f:
                f.writelines(chunks)
            wrote(out, _("the analysis"))


def _rules_of(variant: str, base: Path | None) -> Rules | None:
    """The rules of the log's ``variant`` (a shipped name, or a file beside the log), to name
    the report's moves in the table's words; ``None`` where they cannot be read (the moves
    are then written in the log's notation)."""
    for name in (variant, str(base / variant) if base is not None else None):
        if name is None:
            continue
        try:
            return resolve_rules(name)
        except (TrucoError, OSError):
            continue
    return None


class _Bar:
    """A progress bar on standard error when it is a terminal (:func:`_progress_bar`), made at
    the first decision valued, when their number is known."""

    def __init__(self) -> None:
        self._update: Callable[[int, int | None], None] | None = None
        self._stop: Callable[[], None] | None = None

    def update(self, done: int, total: int | None) -> None:
        if self._stop is None:
            self._update, self._stop = _progress_bar(total, _("analysing"))
        if self._update is not None:
            self._update(done, total)

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()
