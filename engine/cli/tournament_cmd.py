"""``truco tournament``: a round robin between bots, a results table and a rating for each.

Exit codes: 0 ok, 1 the variant is invalid, 2 usage errors (an unknown bot, fewer than two,
a variant without exactly two teams).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import click

from engine.cli.faults import describe_faults
from engine.cli.options import U64, bot_list, config_option
from engine.cli.scale import dask_option, executor_for
from engine.cli.simulate_cmd import _progress_bar
from engine.i18n import _, ngettext, number
from engine.tournament import run_tournament
from engine.tui import columns


def _pct(x: float) -> str:
    return number(100 * x, ".1f") + "%"


def format_tournament(result: dict[str, Any]) -> str:
    """The results of :func:`engine.tournament.run_tournament` as plain-text tables, in the
    language asked for (:mod:`engine.i18n`)."""
    out = [ngettext("{variant}: round robin, {games} deal per pairing, played both ways round, "
                    "seed {seed}",
                    "{variant}: round robin, {games} deals per pairing, each played both ways "
                    "round, seed {seed}", result["games"]).format(
        variant=result["variant"], games=result["games"], seed=result["seed"]), ""]
    rows: list[list[object]] = [[_("pairing"), _("matches"), _("won by the first"),
                                 _("95% interval")]]
    for p in result["pairings"]:
        rows.append([_("{a} vs {b}").format(a=p["a"], b=p["b"]), p["matches"],
                     f"{p['a_won']} ({_pct(p['a_rate'])})", "-".join(map(_pct, p["a_ci95"]))])
    out += [columns(rows), ""]
    table: list[list[object]] = [[_("bot"), _("matches"), _("won"), _("rating"),
                                  _("95% interval")]]
    for b in result["bots"]:
        lo, hi = b["rating_ci95"]
        table.append([b["name"], b["matches"], f"{b['won']} ({_pct(b['rate'])})",
                      number(b["rating"], ".0f"),
                      _("{low} to {high}").format(low=number(lo, ".0f"), high=number(hi, ".0f"))])
    out += [columns(table), "",
            _("ratings: a Bradley-Terry fit on the Elo scale (400 points: 10 to 1 odds), "
              "centred on 1500")]
    if "bot_faults" in result:
        out.append(_("bot faults (each told on standard error): {faults}").format(
            faults=describe_faults(result["bot_faults"])))
    return "\n".join(out) + "\n"


@click.command()
@click.option("--variant", "-v", required=True, metavar="NAME|FILE",
              help="A shipped variant name or a path to a variant YAML file (two teams).")
@click.option("--bots", "-b", required=True, metavar="NAME,NAME[,NAME...]",
              help="The bots, each once (search:N: search with a budget of N iterations; "
                   "cmd:COMMAND: a bot program; a name from --config).")
@config_option
@click.option("--games", "-n", default=50, show_default=True, type=click.IntRange(1),
              help="Deals per pairing; each is played twice, the teams swapped.")
@click.option("--seed", "-s", default=1, show_default=True, type=U64,
              help="The run seed: deal k is the match seeded with its k-th SplitMix64 draw.")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(1),
              help="Processes to use; the results are the same for any value.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@dask_option("matches")
def tournament(variant: str, bots: str, games: int, seed: int, jobs: int,
               as_json: bool, dask: str | None) -> None:
    """Round robin between bots: every pair plays the same deals both ways round; a table
    of results and a rating for each bot with its 95% interval.

    \b
    Examples:
      truco tournament --variant paulista --bots random,heuristic,search:24,search --games 50
      truco tournament -v paulista --config bots.toml --bots mine,heuristic
    """
    names = bot_list(bots)
    if len(names) < 2 or len(set(names)) != len(names):
        raise click.BadParameter(_("give two bots or more, each once"), param_hint="--bots")
    from engine.game import resolve_rules

    rules = resolve_rules(variant)
    if rules.teams != 2:
        raise click.BadParameter(_("a tournament pits two teams against each other; "
                                   "{variant} has {teams}").format(variant=rules.name,
                                                                   teams=rules.teams),
                                 param_hint="--variant")
    total = len(names) * (len(names) - 1) * games
    progress, stop = _progress_bar(total, _("tournament"))
    try:
        with contextlib.ExitStack() as stack:
            executor = None if dask is None else stack.enter_context(
                executor_for(jobs, dask, total))  # a cluster (the same table)
            result = run_tournament(rules, names, games=games, seed=seed, jobs=jobs,
                                    progress=progress, executor=executor)
    finally:
        stop()
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(format_tournament(result), nl=False)
