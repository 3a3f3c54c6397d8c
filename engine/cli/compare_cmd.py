"""``truco compare A B``: the impact of a rule change, on recorded games (``--logs DIR``) and on
simulated ones (``--games N``); both when both are given.

Exit codes: 0 nothing changed, 1 something did (a log of A rejected or with another outcome
under B, or a statistic that differs) or a variant is invalid, 2 usage errors.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from engine.bots import make_bot
from engine.cli.simulate_cmd import _progress_bar, simulate
from engine.compare import (
    compare_logs,
    compare_simulations,
    format_logs,
    format_simulations,
    labels,
)
from engine.game import resolve_rules
from engine.simulate import seat_bots


def _check_bots(names: list[str], variants: tuple[str, str]) -> None:
    """Every bot known, and as many as each variant can seat; else a usage error."""
    for variant in variants:
        rules = resolve_rules(variant)
        try:
            for name in names:
                make_bot(name, rules)
        except KeyError as exc:
            raise click.BadParameter(str(exc.args[0]), param_hint="--bots") from None
        try:
            seat_bots(names, rules.players)
        except ValueError as exc:
            raise click.BadParameter(f"{variant} seats {rules.players}: {exc}",
                                     param_hint="--bots") from None


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--logs", "logs", type=click.Path(exists=True), metavar="DIR",
              help="Replay every log of variant A under DIR (searched recursively for .jsonl) "
                   "with variant B.")
@click.option("--games", "-n", type=click.IntRange(1),
              help="Let bots play N matches of each variant, with the same seeds.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def compare(a: str, b: str, logs: str | None, games: int | None, seed: int, bots: str,
            jobs: int, as_json: bool) -> None:
    """Compare variant A with variant B (shipped names or variant files): which recorded
    games of A the change rejects or decides otherwise (--logs), and what it does to the
    statistics of simulated matches (--games). Exit 0 when nothing changed, 1 when something
    did.

    \b
    Examples:
      truco compare mineiro mineiro-12 --logs replays/
      truco compare paulista variants/house/no-covered-cards.yaml --games 2000 --seed 1
      truco compare paulista house.yaml --logs games/ --games 200 --json
    """
    if logs is None and games is None:
        raise click.UsageError("give --logs DIR, --games N, or both")
    for variant in (a, b):
        resolve_rules(variant)  # an invalid variant: exit 1 before any work
    out: dict[str, Any] = {}
    text: list[str] = []
    changed = False
    if logs is not None:
        report = compare_logs(a, b, [logs])
        changed |= report.changed
        out["logs"] = report.as_dict()
        text.append(format_logs(report))
    if games is not None:
        names = [x.strip() for x in bots.split(",")]
        _check_bots(names, (a, b))
        update, stop = _progress_bar(2 * games)
        try:
            result = compare_simulations(a, b, games=games, seed=seed, bots=names, jobs=jobs,
                                         progress=update)
        finally:
            stop()
        changed |= result["changed"]
        out["simulation"] = result
        ra, rb = result["a"], result["b"]
        la, lb = labels({"variant": a, "name": ra["variant"]},
                        {"variant": b, "name": rb["variant"]})
        text.append(format_simulations(result, la, lb))
    if as_json:
        click.echo(json.dumps({"changed": changed, **out}, ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(text), nl=False)
    sys.exit(1 if changed else 0)


# --seed, --bots and --jobs are truco simulate's own options (the same objects), after --games.
compare.params[4:4] = [p for p in simulate.params if p.name in ("seed", "bots", "jobs")]
