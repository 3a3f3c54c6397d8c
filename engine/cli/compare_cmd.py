"""``truco compare A B``: the impact of a rule change, on recorded games (``--logs DIR``) and on
simulated ones (``--matches N``); both when both are given.

Exit codes: 0 nothing changed, 1 something did (a log of A rejected or with another outcome
under B, or a statistic that differs significantly) or a variant is invalid, 2 usage errors.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from engine.cli.options import (
    bot_list,
    force_option,
    matches,
    matches_option,
    parse_bots,
    refuse_existing,
)
from engine.cli.simulate_cmd import _progress_bar, html_option, simulate, write_html
from engine.compare import (
    CORRECTIONS,
    compare_logs,
    compare_simulations,
    format_logs,
    format_simulations,
    labels,
)
from engine.game import resolve_rules
from engine.i18n import _, use_team_seats
from engine.variant import variant_files


def _check_bots(text: str, variants: tuple[str, str]) -> list[str]:
    """Every bot known, and as many as each variant can seat; else a usage error. The names as
    given (each variant seats them by its own number of players)."""
    for variant in variants:
        rules = resolve_rules(variant)
        parse_bots(text, rules.players, team_of=rules.team_of, param_hint=f"--bots ({variant})")
    return bot_list(text)


def _check_alpha(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``--alpha`` strictly between 0 and 1 (FloatRange lets ``nan`` through)."""
    if not 0 < value < 1:
        raise click.BadParameter(f"{value} is not in the range 0<x<1.", ctx, param)
    return value


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--logs", "logs", type=click.Path(exists=True), metavar="DIR",
              help="Replay every log of variant A under DIR (searched recursively for .jsonl "
                   "and .jsonl.gz) with variant B.")
@matches_option(default=None,
                help="Let bots play N matches of each variant, with the same seeds.")
@click.option("--alpha", default=0.05, show_default=True, callback=_check_alpha,
              type=click.FloatRange(0, 1, min_open=True, max_open=True),
              help="The significance level of the tests of --matches; the intervals are at "
                   "1 - alpha.")
@click.option("--correction", type=click.Choice(CORRECTIONS), default="holm", show_default=True,
              help="For the many statistics tested at once: Holm's step-down correction "
                   "(at most alpha chance of any false difference), or none (alpha each).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@html_option("the simulated statistics of A and B side by side (with --matches)")
@force_option("the --html file")
def compare(a: str, b: str, logs: str | None, n_matches: int | None, games_alias: int | None,
            seed: int, bots: str, jobs: int, alpha: float, correction: str,
            as_json: bool, html: str | None, force: bool) -> None:
    """Compare variant A with variant B (shipped names or variant files): which recorded
    games of A the change rejects or decides otherwise (--logs), and what it does to the
    statistics of simulated matches (--matches), each difference tested (two proportions,
    Welch's t-test) and marked * when significant at --alpha. Exit 0 when nothing changed, 1
    when something did (a log, or a statistic significantly).

    \b
    Examples:
      truco compare mineiro mineiro-12 --logs replays/
      truco compare paulista variants/house/no-covered-cards.yaml --matches 2000 --seed 1
      truco compare paulista house.yaml --logs games/ --matches 200 --json
      truco compare paulista variants/house/concede.yaml --matches 500 --html compare.html
    """
    games = matches(n_matches, games_alias)
    if logs is None and games is None:
        raise click.UsageError(_("give --logs DIR, --matches N, or both"))
    if html is not None:
        if games is None:
            raise click.UsageError(_("--html draws the statistics of --matches: give --matches N"))
        refuse_existing(html, force, "--html",
                        reads=[*variant_files(a), *variant_files(b)])
    seats = {r.players // r.teams for r in map(resolve_rules, (a, b))}  # invalid: exit 1 now
    if len(seats) == 1:  # a team's word (jogador, dupla, equipe), where both variants share it
        use_team_seats(seats.pop())
    out: dict[str, Any] = {}
    text: list[str] = []
    changed = False
    if logs is not None:
        report = compare_logs(a, b, [logs])
        changed |= report.changed
        out["logs"] = report.as_dict()
        text.append(format_logs(report))
    if games is not None:
        names = _check_bots(bots, (a, b))
        update, stop = _progress_bar(2 * games, _("simulating"))
        try:
            result = compare_simulations(a, b, games=games, seed=seed, bots=names, jobs=jobs,
                                         progress=update, alpha=alpha, correction=correction)
        finally:
            stop()
        changed |= result["changed"]
        out["simulation"] = result
        ra, rb = result["a"], result["b"]
        la, lb = labels({"variant": a, "name": ra["variant"]},
                        {"variant": b, "name": rb["variant"]})
        text.append(format_simulations(result, la, lb))
        if html is not None:
            from engine.viewer import compare_page

            write_html(html, compare_page(result, la, lb))
    if as_json:
        click.echo(json.dumps({"changed": changed, **out}, ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(text), nl=False)
    sys.exit(1 if changed else 0)


# --seed, --bots (with --config) and --jobs are truco simulate's own options (the same objects),
# after --matches.
compare.params[5:5] = [p for p in simulate.params
                       if p.name in ("seed", "bots", "config", "jobs")]
