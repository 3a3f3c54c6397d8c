"""``truco play``: a person against bots in the terminal, logged as it goes.

Every hand opens with a banner (dealer, mão, score, a special hand, your cards strongest first);
the table is shown before each of your moves. You answer with the move's letter in the menu or
its name (``b``, ``4c``, ``4♣``, ``4c coberta``, a bare rank such as ``3`` when exactly one card
of your hand has it, ``truco``, ``aceito``/``accept``, ``corro``/``fold``, ``jogo``/``play``,
``#1`` in a blind hand; ``corro``/``concede`` gives up the hand where the variant allows it;
Gaudério's words too: ``quero``, ``não quero``, ``retruco``, ``vale quatro``, ``baralho``).
A lower-case letter is a menu entry; a capital rank letter (``A``, ``K``) is a card. Where any
player may raise at any moment (M3), you are asked before each bot card at which you may raise:
Enter lets the bot play, ``no`` stops asking until the next hand. The bots are offered it too,
before every card, as in ``truco simulate``; ``--resume`` replays those offers, so a resumed
game goes on exactly as if it had not stopped.
A bad answer gets a hint (for a move the rules refuse, the engine's reason) and the question
again.
With ``--log`` every move is written and flushed at once; ``--resume LOG`` replays the moves of
a log that truco play wrote (its header's ``meta``: ``"tool": "truco play"``) and goes on
writing to it; the options its log decides are refused beside it. ``--position FILE`` starts
the game at a position (docs/positions.md), and its log (``--log``) starts from it. End of
input stops the game cleanly (exit 0), the log kept.

Exit codes: 0 ok (also when stopped), 1 an invalid variant or log, 2 usage errors.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import click

from engine.actions import Action
from engine.bots import Bot, choose_for, make_bot, next_actor, out_of_turn_raise
from engine.bots.search import DEFAULT_BUDGET
from engine.cli.options import U64, bots_option, force_option, parse_bots
from engine.cli.play_input import _card_token, parse_move
from engine.cli.play_loop import _Game, _Stop
from engine.cli.play_resume import _resume, position_match
from engine.game import Match, resolve_rules
from engine.i18n import _, ngettext, use_team_seats
from engine.logformat import Recorder, header_variant
from engine.reading import NotARegularFile, open_regular
from engine.rules import Rules
from engine.simulate import bot_seed
from engine.telling import (
    HUMAN,
    describe,
    describe_checkpoint,
    menu_entry,
    menu_order,
    seat_names,
    shown_names,
)
from engine.tui import side_text

__all__ = ["HUMAN", "LEVELS", "_Game", "_Stop", "_card_token", "describe", "describe_checkpoint",
           "menu_entry", "menu_order", "parse_move", "play", "seat_names", "sides_text"]

#: ``--level``: the bots a player understands, weakest first.
LEVELS = {"easy": "random", "medium": "heuristic", "hard": f"search:{DEFAULT_BUDGET}"}


#: What ``--resume`` takes from its log: a different value would change the game mid-match.
_FROM_THE_LOG = (("variant", "--variant"), ("seat", "--seat"), ("bots", "--bots"),
                 ("seed", "--seed"))


def _refuse_with_resume(level: str | None) -> None:
    """A usage error naming the first option given with ``--resume`` that the log decides
    (the variant, the seed, your seat, the bots): the game goes on exactly as it was."""
    ctx = click.get_current_context()
    given = [flag for param, flag in _FROM_THE_LOG
             if ctx.get_parameter_source(param) not in (None, click.core.ParameterSource.DEFAULT)]
    if level is not None:
        given.append("--level")
    if given:
        raise click.UsageError(_("--resume goes on with its log's variant, seed, seat and "
                                 "bots: leave out {option}").format(option=given[0]))


def sides_text(names: Sequence[str], team_of: Sequence[int], seat: int) -> str:
    """Who "us" and "them" are on the screen (the variant's teams, C1), from ``seat``'s side:
    ``us: you and Bot 2; them: Bot 1 and Bot 3`` (``team N`` for each team with more).

    >>> sides_text(["you", "Bot 1", "Bot 2", "Bot 3"], [0, 1, 0, 1], 0)
    'us: you and Bot 2; them: Bot 1 and Bot 3'
    >>> sides_text(["you", "Bot 1", "Bot 2"], [0, 1, 2], 0)
    'us: you; team 1: Bot 1; team 2: Bot 2'
    """
    teams = sorted(set(team_of), key=lambda t: (t != team_of[seat], t))
    parts = []
    for t in teams:
        label = side_text(t, team_of[seat], len(teams))
        parts.append(f"{label}: " + _(" and ").join(n for s, n in enumerate(names)
                                                     if team_of[s] == t))
    return "; ".join(parts)


def _bots_by_seat(text: str, seat: int, rules: Rules) -> list[str]:
    """Every seat's player: ``--bots`` read as everywhere (:func:`parse_bots`), with the
    human at ``seat``."""
    players = rules.players
    names = parse_bots(text, players, team_of=rules.team_of)
    return [HUMAN if s == seat else name for s, name in enumerate(names)]


def _readable(path: str | None, hint: str) -> None:
    """A usage error (exit 2) naming the option for a file given that cannot be read."""
    if path is None:
        return
    try:
        with open_regular(path):  # never waits on a FIFO
            pass
    except NotARegularFile:
        raise  # invalid input, exit 1 (engine.cli), as every reader says it
    except OSError as exc:
        raise click.BadParameter(_("cannot read {path}: {problem}").format(
            path=path, problem=exc.strerror), param_hint=hint) from None



@dataclass
class _Start:
    """Where a game starts: its match, the moves a resumed log replays, the bots' seed, the
    person's seat and every seat's player (from the log; ``None``: from the options), the
    header's ``variant`` and the log's data (``b""``: a new log)."""

    match: Match
    seed: int
    label: str
    moves: list[Action] = field(default_factory=list)
    seat: int | None = None
    names: list[str] | None = None
    data: bytes = b""


def _resumed(path: str) -> _Start:
    """The game of the log ``path`` (``--resume``), checked by :func:`_resume`."""
    header, match, moves, data, seed = _resume(path)
    meta = header["meta"]  # checked by _resume: written by truco play
    return _Start(match, seed, header["variant"], moves, meta["human"], list(meta["bots"]), data)


def _new_game(variant: str, seed: int | None, log_path: str | None,
              position_file: str | None) -> _Start:
    """A new game of ``variant``, dealt from ``seed`` (drawn and printed when ``None``), or
    at the position of ``position_file``."""
    rules = resolve_rules(variant)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
        click.echo(_("seed {seed} (play this position again with --seed {seed})").format(seed=seed)
                   if position_file is not None else
                   _("seed {seed} (play this deal again with --seed {seed})").format(seed=seed))
    if position_file is not None:
        match = position_match(rules, position_file, seed)
    else:
        match = Match(rules, seed=seed)
    label = variant if log_path is None else header_variant(variant, Path(log_path).parent
                                                             or ".")
    return _Start(match, seed, label)


def _catch_up(match: Match, moves: Sequence[Action], players: dict[int, Bot],
              seat: int) -> int | None:
    """Replay a log's ``moves``: each bot sees the positions it moved in, as when they were
    played, and the out-of-turn offers made before each move (M3), passes included (they
    leave no trace in the log but advance the bots' random state): up to the seat that
    raised. The match's number of the current game's first hand (``None``: not known, from a
    position)."""
    first: int | None = 1 if not any(match.games) else None
    for action in moves:
        out_of_turn_raise(match, players, until=action.seat)
        if action.seat != seat and next_actor(match, prefer=seat, bots=players) == action.seat:
            choose_for(players[action.seat], match, action.seat)
        if any(cp["event"] == "game" for cp in match.apply(action)):
            first = match.hand_number
    return first


def _open_log(start: _Start, target: str | None, resume: bool, force: bool, seat: int,
              names: list[str], from_position: bool) -> tuple[IO[str] | None, Recorder | None]:
    """The log file ``target`` opened (appended to on ``--resume``) and the recorder writing
    to it, or ``(None, None)`` without a log."""
    if target is None:
        return None, None
    if not resume and not force and Path(target).exists():
        raise click.BadParameter(_("{file} exists: continue it with --resume {file}, replace "
                                   "it with --force, or choose another file").format(file=target),
                                 param_hint="--log")
    out = open(target, "a" if resume else "w" if force else "x",  # noqa: SIM115
               encoding="utf-8", newline="\n")
    if resume and start.data and not start.data.endswith(b"\n"):
        out.write("\n")
    log_meta: dict[str, Any] = {"tool": "truco play", "human": seat, "bots": names}
    if from_position:  # the header has no seed: --resume needs the bots'
        log_meta["bots_seed"] = start.seed
    recorder = Recorder(start.match, out, variant=start.label, players=seat_names(names),
                        meta=log_meta, write_header=not resume)
    click.echo(_("truco: the game's log is written to {file} as it goes").format(file=target),
               err=True)
    return out, recorder


def _interrupted(target: str | None, signum: int | None) -> str:
    """What a game stopped by Ctrl-C (``signum`` None) or by a signal says, in whole sentences."""
    if signum is None:
        said = (_("game interrupted; the log is kept: continue with --resume {file}") if target
                else _("game interrupted"))
    else:
        said = (_("game interrupted by {signal}; the log is kept: continue with --resume {file}")
                if target else _("game interrupted by {signal}"))
    return said.format(file=target, signal=None if signum is None
                       else signal.Signals(signum).name)


@click.command()
@click.option("--variant", "-v", metavar="NAME|FILE",
              help="A shipped variant name or a path to a variant YAML file.  "
                   "[required unless --resume]")
@click.option("--seat", type=click.IntRange(0), default=0, show_default=True,
              help="Your seat, from 0 (seat 0 deals the first hand; your partners are "
                   "the variant's teams, alternate seats unless it says otherwise).")
@bots_option("heuristic", note="Your own seat is yours, whatever the list gives it.")
@click.option("--level", type=click.Choice(list(LEVELS)), default=None,
              help="How strong the bots play, instead of --bots: easy (random moves), medium "
                   f"(heuristic), hard (search, {DEFAULT_BUDGET} hands played out per move).")
@click.option("--seed", "-s", type=U64, default=None,
              help="Seeds the deals and the bots; left out, a new seed is drawn and printed.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write the game's log to FILE as it is played (an existing FILE is "
                   "refused unless --force is given).")
@force_option("the --log file")
@click.option("--resume", metavar="LOG", type=click.Path(dir_okay=False),
              help="Go on with the game of LOG (a seeded log written by truco play, or one "
                   "it started from a position; any other log is refused), writing to it: its "
                   "variant, seed, seat and bots are used, and giving any of them is a usage "
                   "error.")
@click.option("--position", "position_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Start the game at the position in FILE (a JSON position, as truco "
                   "position prints it; docs/positions.md), of --variant. The deals go on "
                   "from the position's rng (from --seed where it has none); --seed seeds "
                   "the bots.")
def play(variant: str | None, seat: int, bots: str, level: str | None, seed: int | None,
         log_path: str | None, resume: str | None, force: bool,
         position_file: str | None) -> None:
    """Play a match against bots in the terminal.

    \b
    Examples:
      truco play --variant paulista --seat 0 --bots heuristic --seed 7 --log game.jsonl
      truco play --variant mineiro --level hard
      truco play --resume game.jsonl
      truco play --variant paulista --position puzzle.json --log puzzle.jsonl
    """
    stdin: IO[str] = sys.stdin  # CliRunner and scripted runs swap sys.stdin
    _readable(resume, "--resume")  # a missing file is a usage error, as in verify and replay
    _readable(position_file, "--position")
    bots_source = click.get_current_context().get_parameter_source("bots")
    if level is not None:
        if bots_source is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError(_("--level chooses the bots: leave out --bots (or --level)"))
        bots = LEVELS[level]
    if resume is not None:
        if log_path is not None:
            raise click.UsageError(_("--resume goes on writing to its own log; leave out --log"))
        if position_file is not None:
            raise click.UsageError(_("--resume goes on from its log; leave out --position"))
        _refuse_with_resume(level)
        start = _resumed(resume)
    else:
        if variant is None:
            raise click.UsageError(_("--variant is required (or --resume LOG)"))
        start = _new_game(variant, seed, log_path, position_file)
    match, rules, seed = start.match, start.match.rules, start.seed
    use_team_seats(rules.players // rules.teams)  # a team's word: jogador, dupla, equipe
    seat = start.seat if start.seat is not None else seat
    if seat >= rules.players:
        raise click.BadParameter(_("seat {seat} is not a seat of {variant} (0..{last})").format(
            seat=seat, variant=rules.name, last=rules.players - 1), param_hint="--seat")
    names = start.names
    if names is None or len(names) != rules.players or names[seat] != HUMAN:
        names = _bots_by_seat(bots, seat, rules)
    players = {s: make_bot(n, rules, bot_seed(seed, s)) for s, n in enumerate(names)
               if s != seat}
    first = _catch_up(match, start.moves, players, seat)
    target = resume or log_path
    out, recorder = _open_log(start, target, resume is not None, force, seat, names,
                              position_file is not None)
    if start.moves:
        click.echo(ngettext("resumed {file} after {n} move", "resumed {file} after {n} moves",
                            len(start.moves)).format(file=resume, n=len(start.moves)))
    try:
        if match.is_over:
            click.echo(_("the match in {file} is over: team {team} won").format(
                file=resume or position_file, team=match.winner))
            return
        shown = shown_names(names)
        title = rules.title or rules.name
        click.echo(_("{title}: you are seat {seat}; {sides}. Type a move's letter or name; "
                     "'quit' or end of input stops.").format(
                         title=title, seat=seat, sides=sides_text(shown, rules.team_of, seat)))
        _Game(match, seat, players, title, recorder, stdin, shown, first).run()
    except _Stop:
        click.echo("\n" + (_("game stopped; the log is kept: continue with --resume {file}")
                           if target else _("game stopped")).format(file=target))
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (engine.cli.Terminated)
        signum = getattr(exc, "signum", None)
        click.echo("\n" + _interrupted(target, signum), err=True)
        sys.exit(130 if signum is None else 128 + signum)
    finally:
        if out is not None:
            out.close()
