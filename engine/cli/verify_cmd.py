"""``truco verify PATH...``: verify game logs (files, folders searched recursively for
``.jsonl``, or ``-`` for standard input).

One line per problem, ``file:line: message``, incomplete logs listed the same way, then a summary.
Exit codes: 0 every log valid (incomplete logs are valid), 1 any log invalid, 2 usage errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

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


def summary(results: list[ReplayResult]) -> dict[str, int]:
    """Counts of logs: valid (incomplete ones included), invalid, incomplete."""
    valid = sum(r.valid for r in results)
    return {"logs": len(results), "valid": valid, "invalid": len(results) - valid,
            "incomplete": sum(r.valid and r.incomplete is not None for r in results)}


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@click.option("--first", is_flag=True,
              help="Report only the first problem of each log (by default every problem).")
def verify(paths: tuple[str, ...], as_json: bool, first: bool) -> None:
    """Verify game logs: replay each through the engine and check every line.

    \b
    Examples:
      truco verify replays/
      truco verify game.jsonl other.jsonl --json
      cat game.jsonl | truco verify -
    """
    results: list[ReplayResult] = []
    for path in log_paths(paths):
        if path == "-":
            result = verify_bytes(sys.stdin.buffer.read(), "<stdin>", base=Path.cwd())
        else:
            result = verify_file(path)
        if first:
            result.problems = result.problems[:1]
        results.append(result)
    counts = summary(results)
    if as_json:
        click.echo(json.dumps({"summary": counts, "logs": [r.as_dict() for r in results]},
                              ensure_ascii=False, indent=2))
    else:
        for r in results:
            for problem in r.problems:
                click.echo(str(problem))
            if r.valid and r.incomplete is not None:
                click.echo(str(r.incomplete))
        click.echo(f"{counts['logs']} log{'s' * (counts['logs'] != 1)}: {counts['valid']} "
                   f"valid, {counts['invalid']} invalid, {counts['incomplete']} incomplete "
                   "(incomplete logs are valid)")
    sys.exit(1 if counts["invalid"] else 0)
