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
from engine.simulate import describe_faults, is_log_name, run_simulation
from engine.tui import columns
from engine.variant import variant_files

F = TypeVar("F", bound=Callable[..., Any])


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_statistics(stats: dict[str, Any]) -> str:
    """The statistics of :func:`engine.simulate.run_simulation` as plain-text tables."""
    teams = stats["teams"]
    out = [f"{stats['variant']}: {stats['matches']} matches, seed {stats['seed']}, "
           f"bots by seat: {', '.join(stats['bots'])}", ""]
    rows: list[list[object]] = [["", *(f"team {t['team']}" for t in teams)]]
    rows.append(["seats", *(" ".join(map(str, t["seats"])) for t in teams)])
    rows.append(["bots", *(t["bots"] for t in teams)])
    rows.append(["matches won", *(f"{t['matches_won']} ({_pct(t['match_win_rate'])})"
                                  for t in teams)])
    rows.append(["  95% interval", *("-".join(map(_pct, t["match_win_ci95"])) for t in teams)])
    for key, label in (("games_won", "games won"), ("hands_won", "hands won"),
                       ("points", "points"), ("points_per_hand", "points per hand")):
        rows.append([label, *(t[key] for t in teams)])
    out += [columns(rows), ""]
    hpg = stats["hands_per_game"]
    out.append(columns([
        ["games", stats["games"]],
        ["hands", stats["hands"]],
        ["hands per game", f"{hpg['mean']} (min {hpg['min']}, max {hpg['max']})"],
        ["points per hand", stats["points_per_hand"]],
        ["hands ended by a fold", f"{stats['folds']['hands']} ({_pct(stats['folds']['rate'])})"],
        ["all-tied hands", f"{stats['all_tied_hands']['hands']} "
                           f"({_pct(stats['all_tied_hands']['rate'])})"],
        ["games lost by a forbidden raise", stats["forfeited_games"]],
        ["raises out of turn (M3)", f"{stats['out_of_turn_raises']['raises']} "
                                    f"({stats['out_of_turn_raises']['per_hand']} per hand)"],
        *([["hands conceded (correr)", f"{stats['concedes']['hands']} "
                                       f"({_pct(stats['concedes']['rate'])})"]]
          if "concedes" in stats else []),
    ]))
    out.append("")
    ladder: list[list[object]] = [["ladder step", "reached", "per hand", "accepted", "accept rate",
                                   "folded"]]
    for s in stats["ladder"]:
        ladder.append([f"{s['name']} ({s['value']})", s["reached"], s["reached_per_hand"],
                       s["accepted"], _pct(s["accept_rate"]), s["folded"]])
    out += [columns(ladder), ""]
    one = stats["special_hands"]["one_team"]
    both = stats["special_hands"]["both_teams"]
    special: list[list[object]] = [["special hand", "hands", "rate", "won by", "", ""]]
    if one["enabled"]:
        special.append([one["name"], one["hands"], _pct(one["rate"]),
                        f"team at score {one['won_by_team_at_score']}",
                        f"other team {one['won_by_other_team']}", f"nobody {one['nobody']}"])
        if one["decided_play"] or one["decided_fold"]:
            special.append(["  decisions", "", "", f"played {one['decided_play']}",
                            f"folded {one['decided_fold']}", ""])
    if both["enabled"]:
        special.append([both["name"], both["hands"], _pct(both["rate"]),
                        f"team 0 {both['won'][0]}", f"team 1 {both['won'][1]}",
                        f"nobody {both['nobody']}"])
    if len(special) > 1:
        out.append(columns(special))
    if "side_bets" in stats:  # G22-G32
        side: list[list[object]] = [["side bet", "called", "per hand", "accepted",
                                     "accept rate", "won by mão's team", "avg points"]]
        for b in stats["side_bets"]:
            side.append([b["bet"], b["called"], b["called_per_hand"], b["accepted"],
                         _pct(b["accept_rate"]),
                         f"{b['won_by_mao_team']} ({_pct(b['mao_team_rate'])})",
                         b["average_points"]])
        out += [*([""] if out[-1] else []), columns(side)]
        flores = [[b["bet"], "sung", b["sung"], "contested",
                   f"{b['contested']} ({_pct(b['contest_rate'])})", "won by mão's team",
                   f"{b['won_by_mao_team_any']} ({_pct(b['mao_team_rate_any'])})",
                   "avg points", b["average_points"]]
                  for b in stats["side_bets"] if "sung" in b]  # G38-G40
        if flores:
            out.append(columns(flores))
    if "bot_faults" in stats:
        out += ["", f"bot faults (each told on standard error): "
                    f"{describe_faults(stats['bot_faults'])}"]
    return "\n".join(out).rstrip() + "\n"


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
        click.echo(f"truco: cannot write {path}: {exc.strerror}", err=True)
        sys.exit(1)
    wrote(path, "the page")


def _progress_bar(total: int | None, label: str = "simulating"
                  ) -> tuple[Callable[[int, int | None], None] | None, Callable[[], None]]:
    """A progress bar on standard error when it is a terminal (of an unknown length where
    ``total`` is ``None``); else nothing."""
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
        raise click.BadParameter(f"{logs} is {kind}, not a folder", param_hint="--logs")
    if not folder.is_dir() or is_empty_folder(folder):
        return
    real = Path(os.path.realpath(folder))
    for i, source in enumerate(reads):
        if source.is_relative_to(real):
            which = f" (which {reads[i - 1].name} extends)" if i else ""
            raise click.BadParameter(f"the variant file {source}{which} is inside {logs}, "
                                     "which --force would replace: a run never replaces a "
                                     "file its variant is read from", param_hint="--logs")
    foreign = foreign_entries(folder, is_log_name)
    if foreign:
        more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
        raise click.BadParameter(f"{logs} holds {foreign[0]}{more}, which no run of truco "
                                 "simulate writes: --force replaces only a folder of its logs "
                                 "(match-NNNNNN.jsonl), so it is left as it is; choose another "
                                 "folder", param_hint="--logs")
    if not force:
        raise click.BadParameter(f"{logs} exists; give --force to replace it",
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
    names = parse_bots(bots, rules.players, team_of=rules.team_of)
    reads = variant_files(variant)
    if html is not None:
        refuse_existing(html, force, "--html", reads=reads)
    folder = None
    if logs is not None:
        _check_logs_folder(logs, force, reads)
        # filled beside DIR, swapped in whole (over a folder of logs only)
        folder = atomic_folder(logs, replace=force, only=is_log_name)
    update, stop = _progress_bar(games)
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
        wrote(logs, f"{games} logs")
    if html is not None:
        from engine.viewer import simulate_page

        write_html(html, simulate_page(stats))
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        click.echo(format_statistics(stats), nl=False)
