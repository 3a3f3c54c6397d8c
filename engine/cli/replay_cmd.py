"""``truco replay LOG``: a log as a transcript for people, or with ``--checkpoints`` the log
again as JSONL with every checkpoint filled in (a variant file in its header named relative to
the ``--out`` file's folder, or to the current folder on standard output); with ``--html FILE`` a
page that shows the game at the table, step by step (:mod:`engine.viewer`). ``--out`` and
``--html`` refuse an existing file unless ``--force`` is given.

Exit codes: 0 ok, 1 the log is invalid (``file:line: message`` on standard error), 2 usage.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO

import click

from engine.cli.options import force_option, refuse_existing, wrote
from engine.fileio import atomic_write_text
from engine.i18n import _
from engine.logread import LogProblem, read_log_file, read_log_stream
from engine.reading import NotARegularFile, read_regular
from engine.replay import annotate, replay
from engine.strictjson import loads_strict
from engine.transcript import Transcript


def _read(log: str) -> tuple[bytes | IO[bytes], str, Path]:
    """The log ``log`` names (``-``: standard input) as :func:`engine.logread.read_log_file`
    opens it for ``truco verify`` too (gzip data decompressed), its name and its folder."""
    if log == "-":
        return read_log_stream(sys.stdin.buffer), "<stdin>", Path.cwd()
    path = Path(log)
    try:  # a regular file only, bounded: the reader reports a log over the limit
        return read_log_file(path), log, path.resolve().parent
    except NotARegularFile:
        raise  # invalid input, exit 1 (engine.cli): a FIFO or a device is never waited on
    except OSError as exc:
        raise click.BadParameter(_("cannot read {path}: {problem}").format(
            path=log, problem=exc.strerror), param_hint="LOG") from None


@click.command("replay")
@click.argument("log", metavar="LOG")
@click.option("--checkpoints", is_flag=True,
              help="Print the log as JSONL with every checkpoint filled in by the engine "
                   "(header, moves and deals as they were, but a variant file named from "
                   "the new log's folder).")
@click.option("--out", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Write to FILE (atomically) instead of standard output.")
@click.option("--html", "html", metavar="FILE", type=click.Path(dir_okay=False, writable=True),
              help="Write the game as one self-contained HTML page (the table step by step, "
                   "all cards or one seat's view; no network) to FILE. An invalid log is shown "
                   "up to its first bad line, the error there (exit 1).")
@click.option("--analysis", "analysis", metavar="A.json",
              type=click.Path(dir_okay=False),
              help="With --html: draw the evaluation bar along the game and mark each mistake "
                   "in the move list with the better move, from A.json (truco analyze LOG "
                   "--json).")
@force_option("the --out or --html file")
def replay_(log: str, checkpoints: bool, out: str | None, html: str | None,
            analysis: str | None, force: bool) -> None:
    """Replay a game log (a file, or - for standard input).

    With --checkpoints, a variant file in the header is named relative to the folder of the
    --out file (or to the current folder on standard output), so the new log verifies there.

    \b
    Examples:
      truco replay replays/paulista-seed1.jsonl
      truco replay moves-only.jsonl --checkpoints -o annotated.jsonl
      truco replay replays/paulista-special.jsonl --html game.html
      truco replay game.jsonl --html game.html --analysis game.analysis.json
    """
    if analysis is not None and html is None:
        raise click.UsageError(_("--analysis annotates the --html page: give --html FILE too"))
    if html is not None:
        if checkpoints or out is not None:
            raise click.UsageError(_("--html writes a page: give it without --checkpoints and "
                                   "--out"))
        refuse_existing(html, force, "--html")
        _html(log, html, None if analysis is None else _analysis(analysis), analysis)
        return
    if out is not None:
        refuse_existing(out, force, "--out")
    data, file, base = _read(log)
    if checkpoints:
        out_dir = Path.cwd() if out is None else Path(out).absolute().parent
        try:
            text, replaced = annotate(data, file, base=base, out_dir=out_dir)
        except LogProblem as exc:
            click.echo(f"truco: {exc}", err=True)
            sys.exit(1)
        for problem in replaced:
            click.echo(_("truco: {problem} (replaced by the engine's)").format(problem=problem),
                       err=True)
    else:
        visitor = Transcript()
        failure: LogProblem | None = None
        try:
            replay(data, file, visitor, base)
        except LogProblem as exc:
            failure = exc
        text = "\n".join(visitor.lines) + "\n"
        if failure is not None:
            click.echo(text, nl=False)
            click.echo(f"truco: {failure}", err=True)
            sys.exit(1)
    if out is None:
        click.echo(text, nl=False)
    else:
        atomic_write_text(out, text)
        wrote(out, _("the transcript"))


def _analysis(path: str) -> object:
    """The JSON data of the ``--analysis`` file, read as a log's lines are (a regular file
    only, never waited on; strict JSON: no NaN, no duplicate key, nesting bounded); exit 1
    where it cannot be read or is not JSON."""
    try:
        text = read_regular(path, MAX_ANALYSIS_BYTES)
        if len(text) > MAX_ANALYSIS_BYTES:
            click.echo(_("truco: {path}: over {mib} MiB, not an analysis").format(
                path=path, mib=MAX_ANALYSIS_BYTES >> 20),
                       err=True)
        else:
            return loads_strict(text.decode("utf-8"))
    except OSError as exc:
        click.echo(_("truco: cannot read {path}: {problem}").format(
            path=path, problem=exc.strerror), err=True)
    except UnicodeDecodeError as exc:
        click.echo(_("truco: {path}: not JSON (not UTF-8 at byte {byte})").format(
            path=path, byte=exc.start), err=True)
    except ValueError as exc:
        click.echo(_("truco: {path}: not JSON ({problem})").format(path=path, problem=exc),
                   err=True)
    sys.exit(1)


#: The largest ``--analysis`` file read (a whole match's is a few hundred kilobytes).
MAX_ANALYSIS_BYTES = 64 << 20


def _html(log: str, target: str, analysis: object = None, source: str | None = None) -> None:
    """``--html``: the viewer page of the log, written atomically; exit 1 for an invalid log
    (the page shows it up to its first problem), an analysis (read from ``source``) that is
    not one of this log, or a page that cannot be written."""
    from engine.viewer import AnalysisMismatch, replay_page

    data, file, base = _read(log)
    try:
        page, problem = replay_page(data, file, base=base, analysis=analysis)
    except AnalysisMismatch as exc:
        click.echo(f"truco: {source}: {exc}", err=True)
        sys.exit(1)
    try:
        atomic_write_text(target, page)
    except OSError as exc:
        click.echo(_("truco: cannot write {path}: {problem}").format(
            path=target, problem=exc.strerror), err=True)
        sys.exit(1)
    wrote(target, _("the page"))
    if problem is not None:
        click.echo(_("truco: {problem} (the page shows the log up to this line)").format(
            problem=problem), err=True)
        sys.exit(1)
