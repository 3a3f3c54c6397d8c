"""``truco verify PATH...``: verify game logs (files, folders searched recursively for
``.jsonl`` and ``.jsonl.gz``, or ``-`` for standard input; gzip data is read decompressed).

One line per problem, ``file:line: message``, incomplete logs listed the same way, then a summary
that adds up: ``3 logs: 1 valid (1 of them incomplete), 2 invalid``. An incomplete log (it ends
before its match is over) is valid: it is counted among the valid ones, never twice.
Exit codes: 0 every log valid (incomplete logs are valid), 1 any log invalid, 2 usage errors.

The logs are verified in chunks (:mod:`engine.cluster`): in this process, in ``--jobs``
processes or on a Dask cluster (``--dask``); the report comes out in input order as the chunks
finish, the same wherever they ran. ``--jsonl`` streams one JSON object per log (then the
summary); ``--skip-verified REPORT`` goes on from such a report without verifying again the logs
it holds.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
from collections.abc import Callable, Collection, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from engine.cli.scale import dask_option, executor_for, warm_up
from engine.cli.simulate_cmd import _progress_bar
from engine.cluster import ClusterLost, Executor, chunk_size, ordered, spans
from engine.i18n import _
from engine.logread import MAX_FILE_BYTES, decompressed
from engine.reading import NotARegularFile, logs_under, open_regular
from engine.replay import MAX_PROBLEMS, ReplayResult, verify_bytes, verify_file
from engine.variant import trusted_variants_only

#: One log's result as plain data (it crosses processes) and its report lines.
Outcome = tuple[dict[str, Any], list[str]]
#: One log to verify: its name in the report, its absolute path (or None for standard input's
#: bytes, then given with the folder a variant path in its header is relative to).
Item = tuple[str, str | None, bytes | None, str | None]
#: Logs per chunk, at most.
CHUNK = 64


def log_paths(paths: tuple[str, ...]) -> list[str]:
    """The logs that ``paths`` name: files as given, folders searched recursively for
    ``.jsonl`` and ``.jsonl.gz`` files (sorted), ``-`` for standard input. Raises
    :class:`click.BadParameter`."""
    found: list[str] = []
    for given in paths:
        p = Path(given)
        if given == "-":
            found.append(given)
        elif p.is_dir():
            logs = logs_under(str(p))
            if not logs:
                raise click.BadParameter(
                    _("no .jsonl logs in folder {path} (nor .jsonl.gz)").format(path=given),
                    param_hint="PATH")
            found.extend(logs)
        elif p.suffix in (".yaml", ".yml") and p.is_file():  # a variant, given by mistake
            raise click.BadParameter(_("{path} is a variant file, not a log: truco variants "
                                       "validate {path} checks it").format(path=given),
                                     param_hint="PATH")
        elif p.exists():
            found.append(given)
        else:
            raise click.BadParameter(_("no such file or folder: {path}").format(path=given),
                                     param_hint="PATH")
    return found


def summary(results: list[dict[str, Any]]) -> dict[str, int]:
    """Counts of logs (results as :meth:`ReplayResult.as_dict` gives them) that add up:
    ``valid + invalid == logs`` and ``complete + incomplete == valid`` (an incomplete log is
    valid).

    >>> summary([{"valid": True, "incomplete": True}, {"valid": False, "incomplete": False}])
    {'logs': 2, 'valid': 1, 'complete': 0, 'incomplete': 1, 'invalid': 1}
    """
    valid = sum(bool(r["valid"]) for r in results)
    incomplete = sum(bool(r["valid"] and r["incomplete"]) for r in results)
    return {"logs": len(results), "valid": valid, "complete": valid - incomplete,
            "incomplete": incomplete, "invalid": len(results) - valid}


def summary_line(counts: dict[str, int]) -> str:
    """The last line of the report: ``3 logs: 1 valid (1 of them incomplete), 2 invalid``
    (the part in brackets only when some valid log is incomplete).

    >>> summary_line({"logs": 1, "valid": 1, "complete": 1, "incomplete": 0, "invalid": 0})
    '1 log: 1 valid, 0 invalid'
    """
    n = counts["logs"]
    some = f" ({counts['incomplete']} of them incomplete)" if counts["incomplete"] else ""
    return f"{n} log{'s' * (n != 1)}: {counts['valid']} valid{some}, {counts['invalid']} invalid"


def _outcome(result: ReplayResult) -> Outcome:
    """A result as plain data (it crosses processes), and its report lines."""
    lines = [str(p) for p in result.problems]
    if result.more:
        lines.append(f"{result.file}: {result.more:,} more problems, not listed (the first "
                     f"{MAX_PROBLEMS} of a log are)")
    if result.valid and result.incomplete is not None:
        lines.append(str(result.incomplete))
    return result.as_dict(), lines


def _verify_one(item: Item) -> Outcome:
    """Verify one log: a file by its absolute path, named as given; or standard input's bytes."""
    name, path, data, base = item
    if path is not None:
        return _outcome(verify_file(path, name=name))
    assert data is not None and base is not None
    return _outcome(verify_bytes(decompressed(data), name, base=Path(base)))


def verify_chunk(chunk: list[Item]) -> list[Outcome]:
    """Verify a chunk of logs (in a worker process, or on a Dask worker: a variant is loaded
    once per process, see :func:`engine.replay.header_rules`)."""
    return [_verify_one(item) for item in chunk]


def _chunks(files: list[str], ranges: Iterable[tuple[int, int]]) -> Iterator[list[Item]]:
    """The logs to verify, a chunk for each ``(start, stop)`` range of ``files``, made as they
    are sent (a million names need not be a million items at once): files by their absolute
    paths (a worker's working folder may be another), standard input read when its turn comes
    (bounded: the reader reports a log over the limit)."""
    for start, stop in ranges:
        chunk: list[Item] = []
        for name in files[start:stop]:
            if name == "-":
                data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
                chunk.append(("<stdin>", None, data, os.getcwd()))
            else:
                chunk.append((name, os.path.abspath(name), None, None))
        yield chunk


#: The largest ``--skip-verified`` report read, in bytes (a ``--jsonl`` report is read a line
#: at a time, keeping only the logs asked for; some 400 bytes a log).
MAX_REPORT_BYTES = 1 << 30
#: The longest line of a ``--jsonl`` report (a log's object: its problems are bounded,
#: :data:`engine.replay.MAX_PROBLEMS`).
MAX_REPORT_LINE_BYTES = 1 << 20
#: The largest ``--json`` report (one object, parsed whole): larger runs report with --jsonl.
MAX_JSON_REPORT_BYTES = MAX_FILE_BYTES


def verified_in(report: str, wanted: Collection[str] | None = None
                ) -> dict[str, dict[str, Any]]:
    """The logs a report of ``truco verify`` holds, by file name, each as its ``file``,
    ``valid`` and ``incomplete`` (``--jsonl`` lines, the last one possibly cut short by an
    interruption; or one ``--json`` object); with ``wanted``, only those logs. Read in bounded
    memory: a regular file only (:mod:`engine.reading`), within :data:`MAX_REPORT_BYTES`, lines
    within :data:`MAX_REPORT_LINE_BYTES`, a ``--json`` report within
    :data:`MAX_JSON_REPORT_BYTES`. Raises :class:`click.BadParameter` for a file that is no
    such report."""
    def bad(why: str) -> click.BadParameter:
        return click.BadParameter(f"{report}: {why}", param_hint="--skip-verified")

    done: dict[str, dict[str, Any]] = {}

    def add(entry: Any) -> None:
        if isinstance(entry, dict) and "summary" in entry:
            return
        if not (isinstance(entry, dict) and isinstance(entry.get("file"), str)
                and isinstance(entry.get("valid"), bool)
                and isinstance(entry.get("incomplete"), bool)):
            raise bad(_("not a report of truco verify --jsonl or --json (each log an object "
                        "with file, valid, incomplete)"))
        if wanted is None or entry["file"] in wanted:
            done[entry["file"]] = {k: entry[k] for k in ("file", "valid", "incomplete")}

    try:
        with open_regular(report) as f:
            size = 0
            number = 0
            while True:
                raw = f.readline(MAX_REPORT_LINE_BYTES + 1)
                if not raw:
                    return done
                number += 1
                size += len(raw)
                if size > MAX_REPORT_BYTES:
                    raise bad(_("larger than {gib} GiB, the limit of --skip-verified").format(
                        gib=MAX_REPORT_BYTES >> 30))
                if len(raw.rstrip(b"\r\n")) > MAX_REPORT_LINE_BYTES:
                    raise bad(_("line {line} is longer than {mib} MiB: not a report of truco "
                                "verify --jsonl").format(line=number,
                                                         mib=MAX_REPORT_LINE_BYTES >> 20))
                try:
                    text = raw.decode("utf-8")
                    entry = json.loads(text)
                except ValueError:
                    if number == 1 and raw.strip() == b"{":  # a --json report: one object
                        rest = f.read(MAX_JSON_REPORT_BYTES + 1 - len(raw))
                        if len(raw) + len(rest) > MAX_JSON_REPORT_BYTES:
                            raise bad(_("a --json report larger than {mib} MiB: give a --jsonl "
                                        "one").format(mib=MAX_JSON_REPORT_BYTES >> 20)) from None
                        _add_whole(raw + rest, add, bad)
                        return done
                    if not raw.endswith(b"\n"):
                        return done  # the last line, cut short: its log is verified again
                    raise bad(_("line {line} is not JSON: not a report of truco verify "
                                "--jsonl").format(line=number)) from None
                if isinstance(entry, dict) and isinstance(entry.get("logs"), list):
                    for each in entry["logs"]:  # a --json report written on one line
                        add(each)
                else:
                    add(entry)
    except NotARegularFile:
        raise  # invalid input, exit 1 (engine.cli): a FIFO or a device is never waited on
    except OSError as exc:
        raise bad(_("cannot read it: {problem}").format(problem=exc.strerror or exc)) from None


def _add_whole(data: bytes, add: Callable[[Any], None],
               bad: Callable[[str], click.BadParameter]) -> None:
    """The logs of a ``--json`` report's bytes, each given to ``add``."""
    try:
        whole = json.loads(data.decode("utf-8"))
    except ValueError:
        raise bad(_("not JSON: not a report of truco verify --json")) from None
    if not (isinstance(whole, dict) and isinstance(whole.get("logs"), list)):
        raise bad(_("not a report of truco verify --json (an object with logs)"))
    for entry in whole["logs"]:
        add(entry)


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="Print one JSON object per log as each is verified (in input order), then "
                   "{\"summary\": ...}: a report to pipe, and to go on from.")
@click.option("--first", is_flag=True,
              help="Report only the first problem of each log (by default every problem; "
                   "past 100 in a log, a count of the others).")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes; the output is the same for any value.")
@dask_option("verification")
@click.option("--skip-verified", "report", metavar="REPORT", type=click.Path(dir_okay=False),
              help="Go on after an interruption: the logs in REPORT (an earlier --jsonl or "
                   "--json output) are not verified again; the summary counts them.")
@click.option("--trusted-variants-only", "trusted_only", is_flag=True,
              help="For logs from others: read only the variants they name by a shipped "
                   "name, or files (and the files they extend) inside a --trust folder, links "
                   "resolved; a log naming any other file is invalid, and the file is not "
                   "read.")
@click.option("--trust", "trust", metavar="DIR", multiple=True,
              type=click.Path(exists=True, file_okay=False),
              help="With --trusted-variants-only: a folder whose variant files may be read "
                   "(repeatable).")
def verify(paths: tuple[str, ...], as_json: bool, as_jsonl: bool, first: bool, jobs: int,
           dask: str | None, report: str | None, trusted_only: bool,
           trust: tuple[str, ...]) -> None:
    """Verify game logs: replay each through the engine and check every line.

    Prints one line per problem (file:line: message), a note for each incomplete log (it ends
    before its match is over: valid, but unfinished), then a summary that adds up:
    "3 logs: 1 valid (1 of them incomplete), 2 invalid". --json prints the same as
    {"summary": {"logs", "valid", "complete", "incomplete", "invalid"}, "logs": [...]}, where
    valid + invalid = logs and complete + incomplete = valid. --jsonl prints the same objects
    one a line as they come, then {"summary": ...}. Gzipped logs (.jsonl.gz) are read as they
    are; folders are searched for .jsonl and .jsonl.gz.

    \b
    Examples:
      truco verify replays/
      truco verify game.jsonl other.jsonl --json
      truco verify logs/ --jobs 2
      truco verify archive/ --dask tcp://scheduler:8786 --jsonl > report.jsonl
      truco verify archive/ --jsonl --skip-verified report.jsonl > rest.jsonl
      truco verify day-01.jsonl.gz
      cat game.jsonl | truco verify -
    """
    if as_json and as_jsonl:
        raise click.UsageError(_("--json and --jsonl: give one of them"))
    if trust and not trusted_only:
        raise click.UsageError(_("--trust DIR goes with --trusted-variants-only"))
    folders = tuple(os.path.realpath(t) for t in trust) if trusted_only else None
    warm_up(dask)  # a LocalCluster's workers get ready while the logs are listed
    files = log_paths(paths)
    done = verified_in(report, set(files)) if report is not None else {}
    skipped = [done[f] for f in files if f in done]
    todo = [f for f in files if f not in done]
    counts = summary(skipped)
    logs: list[dict[str, Any]] = []
    update, stop = _progress_bar(len(todo), _("verifying"))
    verified = 0

    def finished(chunk: list[Item], _outcomes: list[Outcome]) -> None:
        nonlocal verified
        verified += len(chunk)
        if update is not None:
            update(verified, len(todo))

    reported = 0
    try:
        with contextlib.closing(_outcomes(todo, jobs, dask, finished, folders)) as outcomes:
            for data, lines in outcomes:
                reported += 1
                _report(data, lines, first, as_json, as_jsonl, counts, logs)
    except ClusterLost as exc:  # what was reported stands: --jsonl can go on from it
        went_on = (_(" (go on from that --jsonl report with --skip-verified REPORT)")
                   if as_jsonl else "")
        click.echo(_("truco: {problem}; {reported} of {total} logs were verified and reported "
                     "before it stopped{went_on}").format(problem=exc, reported=reported,
                                                         total=len(todo), went_on=went_on),
                   err=True)
        sys.exit(1)
    finally:
        stop()
    _report_summary(counts, logs, skipped, report, as_json, as_jsonl)
    sys.exit(1 if counts["invalid"] else 0)


def _report(data: dict[str, Any], lines: list[str], first: bool, as_json: bool,
            as_jsonl: bool, counts: dict[str, int], logs: list[dict[str, Any]]) -> None:
    """One log's outcome: added to ``counts``, then printed (a JSON line with ``--jsonl``, its
    problem lines by default) or kept in ``logs`` for ``--json``; with ``--first``, its first
    problem only."""
    if first:
        data["more_problems"] += len(data["problems"][1:])
        data["problems"] = data["problems"][:1]
        if not data["valid"]:
            del lines[1:]
    for key, value in summary([data]).items():
        counts[key] += value
    if as_json:
        logs.append(data)
    elif as_jsonl:
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        for line in lines:
            click.echo(line)


def _report_summary(counts: dict[str, int], logs: list[dict[str, Any]],
                    skipped: list[dict[str, Any]], report: str | None, as_json: bool,
                    as_jsonl: bool) -> None:
    """The end of the output: the summary (with ``--json``, the whole report)."""
    if skipped:
        counts["skipped"] = len(skipped)
    if as_json:
        click.echo(json.dumps({"summary": counts, "logs": logs}, ensure_ascii=False, indent=2))
    elif as_jsonl:
        click.echo(json.dumps({"summary": counts}, ensure_ascii=False))
    else:
        more = f"; {len(skipped)} of them verified before, in {report}" if skipped else ""
        click.echo(summary_line(counts) + more)


def _outcomes(files: list[str], jobs: int, dask: str | None,
              finished: Callable[[list[Item], list[Outcome]], None],
              trusted: tuple[str, ...] | None = None) -> Generator[Outcome, None, None]:
    """The outcome of every log, in order, verified in chunks where ``--jobs``/``--dask``
    say."""
    if not files:
        return
    local = chunk_size(len(files), jobs, CHUNK)
    with executor_for(jobs, dask, -(-len(files) // local)) as executor:
        yield from verify_on(executor, files, finished, trusted)


def verify_trusted_chunk(trusted: tuple[str, ...], chunk: list[Item]) -> list[Outcome]:
    """:func:`verify_chunk` reading only shipped variants and files under the folders
    ``trusted`` (absolute paths: a worker's working folder may be another), see
    :func:`engine.variant.trusted_variants_only`."""
    with trusted_variants_only(trusted):
        return verify_chunk(chunk)


def verify_on(executor: Executor, files: list[str],
              finished: Callable[[list[Item], list[Outcome]], None] | None = None,
              trusted: tuple[str, ...] | None = None) -> Iterator[Outcome]:
    """The outcome of every log of ``files``, in order, verified in chunks on ``executor``
    (chunks sized for its workers, :func:`engine.cluster.spans`); with ``trusted``, their
    variants only from there (:func:`verify_trusted_chunk`: the policy travels with each
    chunk to the worker that verifies it)."""
    work = _chunks(files, spans(len(files), executor.workers, CHUNK,
                                scale=executor.chunk_scale))
    fn: Callable[[list[Item]], list[Outcome]] = (
        verify_chunk if trusted is None else functools.partial(verify_trusted_chunk, trusted))
    for outcomes in ordered(fn, work, executor, finished):
        yield from outcomes
