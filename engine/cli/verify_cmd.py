"""``truco verify PATH...``: verify game logs (files, folders searched recursively for
``.jsonl``, or ``-`` for standard input).

One line per problem, ``file:line: message``, incomplete logs listed the same way, then a summary
that adds up: ``3 logs: 1 valid (1 of them incomplete), 2 invalid``. An incomplete log (it ends
before its match is over) is valid: it is counted among the valid ones, never twice.
Exit codes: 0 every log valid (incomplete logs are valid), 1 any log invalid, 2 usage errors.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path
from typing import Any

import click

from engine.replay import ReplayResult, verify_bytes, verify_file


def log_paths(paths: tuple[str, ...]) -> list[str]:
    """The logs that ``paths`` name: files as given, folders searched recursively for
    ``.jsonl`` files (sorted), ``-`` for standard input. Raises :class:`click.BadParameter`."""
    found: list[str] = []
    for given in paths:
        p = Path(given)
        if given == "-":
            found.append(given)
        elif p.is_dir():
            logs = sorted(p.rglob("*.jsonl"))
            if not logs:
                raise click.BadParameter(f"no .jsonl logs in folder {given}",
                                         param_hint="PATH")
            found.extend(str(x) for x in logs)
        elif p.exists():
            found.append(given)
        else:
            raise click.BadParameter(f"no such file or folder: {given}", param_hint="PATH")
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


def _outcome(result: ReplayResult) -> tuple[dict[str, Any], list[str]]:
    """A result as plain data (it crosses processes), and its report lines."""
    lines = [str(p) for p in result.problems]
    if result.valid and result.incomplete is not None:
        lines.append(str(result.incomplete))
    return result.as_dict(), lines


def _verify_one(path: str) -> tuple[dict[str, Any], list[str]]:
    """Verify one log (in a worker, with --jobs)."""
    return _outcome(verify_file(path))


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@click.option("--first", is_flag=True,
              help="Report only the first problem of each log (by default every problem).")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes; the output is the same for any value.")
def verify(paths: tuple[str, ...], as_json: bool, first: bool, jobs: int) -> None:
    """Verify game logs: replay each through the engine and check every line.

    Prints one line per problem (file:line: message), a note for each incomplete log (it ends
    before its match is over: valid, but unfinished), then a summary that adds up:
    "3 logs: 1 valid (1 of them incomplete), 2 invalid". --json prints the same as
    {"summary": {"logs", "valid", "complete", "incomplete", "invalid"}, "logs": [...]}, where
    valid + invalid = logs and complete + incomplete = valid.

    \b
    Examples:
      truco verify replays/
      truco verify game.jsonl other.jsonl --json
      truco verify logs/ --jobs 2
      cat game.jsonl | truco verify -
    """
    files = log_paths(paths)
    outcomes: list[tuple[dict[str, Any], list[str]]] = []
    on_disk = [f for f in files if f != "-"]
    by_path: dict[str, tuple[dict[str, Any], list[str]]] = {}
    if jobs > 1 and len(on_disk) > 1:
        # Results come back in input order (imap), so the report does not depend on --jobs.
        chunk = max(1, min(64, len(on_disk) // (jobs * 4)))
        with multiprocessing.get_context().Pool(jobs) as pool:  # fork on Linux: no re-import
            by_path = dict(zip(on_disk, pool.imap(_verify_one, on_disk, chunksize=chunk),
                               strict=True))
    for path in files:
        if path == "-":
            outcomes.append(_outcome(verify_bytes(sys.stdin.buffer, "<stdin>",
                                                  base=Path.cwd())))
        else:
            outcomes.append(by_path.get(path) or _verify_one(path))
    if first:
        for data, lines in outcomes:
            data["problems"] = data["problems"][:1]
            if not data["valid"]:
                del lines[1:]
    counts = summary([data for data, _ in outcomes])
    if as_json:
        click.echo(json.dumps({"summary": counts, "logs": [data for data, _ in outcomes]},
                              ensure_ascii=False, indent=2))
    else:
        for _, lines in outcomes:
            for line in lines:
                click.echo(line)
        click.echo(summary_line(counts))
    sys.exit(1 if counts["invalid"] else 0)
