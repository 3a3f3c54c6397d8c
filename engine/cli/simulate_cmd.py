"""``truco simulate``: bots play many matches of one variant; prints what happened.

Exit codes: 0 ok, 1 the variant is invalid, 2 usage errors (an unknown bot, a wrong count).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from engine.cli.faults import describe_faults
from engine.cli.options import (
    U64,
    bots_option,
    force_option,
    matches,
    matches_option,
    parse_bots,
    refuse_existing,
    wrote,
)
from engine.cli.scale import dask_option, executor_for
from engine.fileio import (
    atomic_folder,
    atomic_write_text,
    file_kind,
    foreign_entries,
    is_empty_folder,
)
from engine.i18n import _, ngettext, number, use_team_seats
from engine.simulate import is_log_name, run_simulation
from engine.tui import columns
from engine.variant import variant_files

F = TypeVar("F", bound=Callable[..., Any])


def _pct(x: float) -> str:
    return number(100 * x, ".1f") + "%"


def format_statistics(stats: dict[str, Any]) -> str:
    """The statistics of :func:`engine.simulate.run_simulation` as plain-text tables, in the
    language asked for (:mod:`engine.i18n`)."""
    teams = stats["teams"]
    out = [ngettext("{variant}: {matches} match, seed {seed}, bots by seat: {bots}",
                    "{variant}: {matches} matches, seed {seed}, bots by seat: {bots}",
                    stats["matches"]).format(
        variant=stats["variant"], matches=stats["matches"], seed=stats["seed"],
        bots=", ".join(stats["bots"])), ""]
    rows: list[list[object]] = [["", *(_("team {team}").format(team=t["team"]) for t in teams)]]
    rows.append([_("seats"), *(" ".join(map(str, t["seats"])) for t in teams)])
    rows.append([_("bots"), *(t["bots"] for t in teams)])
    rows.append([_("matches won"), *(f"{t['matches_won']} ({_pct(t['match_win_rate'])})"
                                     for t in teams)])
    rows.append(["  " + _("95% interval"),
                 *("-".join(map(_pct, t["match_win_ci95"])) for t in teams)])
    for key, label in (("games_won", _("games won")), ("hands_won", _("hands won")),
                       ("points", _("points")), ("points_per_hand", _("points per hand"))):
        rows.append([label, *(t[key] for t in teams)])
    out += [columns(rows), ""]
    out.append(columns(_run_rows(stats)))
    out.append("")
    ladder: list[list[object]] = [[_("ladder step"), _("reached"), _("per hand"), _("accepted"),
                                   _("accept rate"), _("folded")]]
    for s in stats["ladder"]:
        ladder.append([f"{s['name']} ({s['value']})", s["reached"], s["reached_per_hand"],
                       s["accepted"], _pct(s["accept_rate"]), s["folded"]])
    out += [columns(ladder), ""]
    special = _special_rows(stats["special_hands"])
    if len(special) > 1:
        out.append(columns(special))
    if "side_bets" in stats:  # G22-G32
        out += [*([""] if out[-1] else []), *_side_bet_tables(stats["side_bets"])]
    if "bot_faults" in stats:
        out += ["", _("bot faults (each told on standard error): {faults}").format(
            faults=describe_faults(stats["bot_faults"]))]
    return "\n".join(out).rstrip() + "\n"


def _run_rows(stats: dict[str, Any]) -> list[list[object]]:
    """The run's counts, one row each."""
    hpg = stats["hands_per_game"]
    return [
        [_("games"), stats["games"]],
        [_("hands"), stats["hands"]],
        [_("hands per game"), _("{mean} (min {min}, max {max})").format(
            mean=number(hpg["mean"]), min=hpg["min"], max=hpg["max"])],
        [_("points per hand"), stats["points_per_hand"]],
        [_("hands ended by a fold"),
         f"{stats['folds']['hands']} ({_pct(stats['folds']['rate'])})"],
        [_("all-tied hands"), f"{stats['all_tied_hands']['hands']} "
                              f"({_pct(stats['all_tied_hands']['rate'])})"],
        [_("games lost by a forbidden raise"), stats["forfeited_games"]],
        [_("raises out of turn (M3)"), _("{raises} ({per_hand} per hand)").format(
            raises=stats["out_of_turn_raises"]["raises"],
            per_hand=number(stats["out_of_turn_raises"]["per_hand"]))],
        *([[_("hands conceded (correr)"), f"{stats['concedes']['hands']} "
                                          f"({_pct(stats['concedes']['rate'])})"]]
          if "concedes" in stats else []),
    ]


def _special_rows(hands: dict[str, Any]) -> list[list[object]]:
    """The special hands' table (its heading alone where the variant has none)."""
    one, both = hands["one_team"], hands["both_teams"]
    special: list[list[object]] = [[_("special hand"), _("hands"), _("rate"), _("won by"), "",
                                    ""]]
    if one["enabled"]:
        special.append([one["name"], one["hands"], _pct(one["rate"]),
                        _("team at score {n}").format(n=one["won_by_team_at_score"]),
                        _("other team {n}").format(n=one["won_by_other_team"]),
                        _("nobody {n}").format(n=one["nobody"])])
        if one["decided_play"] or one["decided_fold"]:
            special.append(["  " + _("decisions"), "", "",
                            _("played {n}").format(n=one["decided_play"]),
                            _("folded {n}").format(n=one["decided_fold"]), ""])
    if both["enabled"]:
        special.append([both["name"], both["hands"], _pct(both["rate"]),
                        _("team {team} {n}").format(team=0, n=both["won"][0]),
                        _("team {team} {n}").format(team=1, n=both["won"][1]),
                        _("nobody {n}").format(n=both["nobody"])])
    return special


def _side_bet_tables(bets: list[dict[str, Any]]) -> list[str]:
    """The side bets' table, and the flores' (G38-G40) where there are any."""
    side: list[list[object]] = [[_("side bet"), _("called"), _("per hand"), _("accepted"),
                                 _("accept rate"), _("won by mão's team"), _("avg points")]]
    for b in bets:
        side.append([b["bet"], b["called"], b["called_per_hand"], b["accepted"],
                     _pct(b["accept_rate"]),
                     f"{b['won_by_mao_team']} ({_pct(b['mao_team_rate'])})",
                     b["average_points"]])
    flores = [[b["bet"], _("sung"), b["sung"], _("contested"),
               f"{b['contested']} ({_pct(b['contest_rate'])})", _("won by mão's team"),
               f"{b['won_by_mao_team_any']} ({_pct(b['mao_team_rate_any'])})",
               _("avg points"), b["average_points"]]
              for b in bets if "sung" in b]
    return [columns(side), *([columns(flores)] if flores else [])]


def html_option(what: str) -> Callable[[F], F]:
    """``--html FILE``: write ``what`` as a page with charts (inline SVG, no network)."""
    return click.option("--html", "html", metavar="FILE",
                        type=click.Path(dir_okay=False, writable=True),
                        help=f"Also write {what} as one self-contained HTML page with charts "
                             "(inline SVG, no network) to FILE (--force replaces it).")


def write_html(path: str, page: str) -> None:
    """Write a page atomically; a file that cannot be written: a message and exit 1."""
    try:
        atomic_write_text(path, page)
    except OSError as exc:
        click.echo(_("truco: cannot write {path}: {problem}").format(
            path=path, problem=exc.strerror), err=True)
        sys.exit(1)
    wrote(path, _("the page"))


def _progress_bar(total: int | None, label: str
                  ) -> tuple[Callable[[int, int | None], None] | None, Callable[[], None]]:
    """A progress bar on standard error when it is a terminal (of an unknown length where
    ``total`` is ``None``), ``label`` (said in the reader's language) beside it; else
    nothing."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=total)
    bar.start()

    def update(done: int, _total: int | None) -> None:
        bar.update(task, completed=done)

    return update, bar.stop


def _check_logs_folder(logs: str, force: bool, reads: list[Path]) -> None:
    """Usage errors before anything is played: DIR is not a folder; DIR holds a file the
    variant is read from (``reads``), or anything else a run does not write (a file not named
    like its logs, a subfolder, a link), which --force would delete with the rest; a folder
    with logs in it without --force."""
    folder = Path(logs)
    if os.path.lexists(folder) and not folder.is_dir():
        kind = file_kind(os.lstat(folder).st_mode)
        raise click.BadParameter(_("{path} is {kind}, not a folder").format(
            path=logs, kind=_(kind)), param_hint="--logs")
    if not folder.is_dir() or is_empty_folder(folder):
        return
    real = Path(os.path.realpath(folder))
    for i, source in enumerate(reads):
        if source.is_relative_to(real):
            which = _(" (which {name} extends)").format(name=reads[i - 1].name) if i else ""
            raise click.BadParameter(_("the variant file {source}{which} is inside {path}, "
                                       "which --force would replace: a run never replaces a "
                                       "file its variant is read from").format(
                                           source=source, which=which, path=logs),
                                     param_hint="--logs")
    foreign = foreign_entries(folder, is_log_name)
    if foreign:
        more = _(" (and {n} more)").format(n=len(foreign) - 1) if len(foreign) > 1 else ""
        raise click.BadParameter(_("{path} holds {entry}{more}, which no run of truco simulate "
                                   "writes: --force replaces only a folder of its logs "
                                   "(match-NNNNNN.jsonl), so it is left as it is; choose "
                                   "another folder").format(path=logs, entry=foreign[0],
                                                            more=more), param_hint="--logs")
    if not force:
        raise click.BadParameter(_("{path} exists; give --force to replace it").format(path=logs),
                                 param_hint="--logs")


@click.command()
@click.option("--variant", "-v", required=True, metavar="NAME|FILE",
              help="A shipped variant name or a path to a variant YAML file.")
@matches_option(default=1000, help="How many matches to play.")
@click.option("--seed", "-s", default=1, show_default=True, type=U64,
              help="The run seed: match i is seeded with its i-th SplitMix64 draw.")
@bots_option("heuristic,random")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(1),
              help="Processes to use; the results are the same for any value.")
@click.option("--logs", metavar="DIR", type=click.Path(file_okay=False),
              help="Write one log per match into DIR (match-000001.jsonl, ...), a new or empty "
                   "folder (--force replaces a folder of older logs, and nothing else: a folder "
                   "holding any other file is refused). The logs are made in a "
                   "folder beside DIR and swapped in at the end: never mixed with older ones, "
                   "and DIR is left as it was if the run fails. They name a variant file by "
                   "its path from DIR.")
@force_option("a --logs folder with files in it, or the --html file")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@html_option("the statistics")
@dask_option("matches")
def simulate(variant: str, n_matches: int, games_alias: int | None, seed: int, bots: str,
             jobs: int, logs: str | None, force: bool, as_json: bool, html: str | None,
             dask: str | None) -> None:
    """Let bots play N matches of a variant and print statistics: matches, games,
    hands and points won per team, the ladder steps reached and accepted, folds, special
    hands and who won them, hands per game, all-tied hands, raises out of turn.

    \b
    Examples:
      truco simulate --variant paulista --matches 1000 --seed 1 --jobs 2
      truco simulate -v mineiro -n 200 --bots heuristic,heuristic --json
      truco simulate -v house.yaml -n 50 --logs logs/
      truco simulate -v paulista -n 500 --html stats.html
      truco simulate -v paulista -n 1000000 --dask tcp://scheduler:8786
    """
    from engine.game import resolve_rules

    games = matches(n_matches, games_alias) or 0
    rules = resolve_rules(variant)
    use_team_seats(rules.players // rules.teams)  # a team's word: jogador, dupla, equipe
    names = parse_bots(bots, rules.players, team_of=rules.team_of)
    reads = variant_files(variant)
    if html is not None:
        refuse_existing(html, force, "--html", reads=reads)
    folder = None
    if logs is not None:
        _check_logs_folder(logs, force, reads)
        # filled beside DIR, swapped in whole (over a folder of logs only)
        folder = atomic_folder(logs, replace=force, only=is_log_name)
    update, stop = _progress_bar(games, _("simulating"))
    try:
        with contextlib.ExitStack() as stack:
            executor = None if dask is None else stack.enter_context(
                executor_for(jobs, dask, games))  # a cluster (the same statistics)
            with folder or contextlib.nullcontext() as tmp:
                # The temporary folder is DIR's sibling: a variant file's path from it is DIR's.
                stats = run_simulation(variant, games=games, seed=seed, bots=names, jobs=jobs,
                                       logs=tmp, progress=update, executor=executor)
    finally:
        stop()
    if logs is not None:
        wrote(logs, ngettext("{n} log", "{n} logs", games).format(n=games))
    if html is not None:
        from engine.viewer import simulate_page

        write_html(html, simulate_page(stats))
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        click.echo(format_statistics(stats), nl=False)
