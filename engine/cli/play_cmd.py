"""``truco play``: a person against bots in the terminal, logged as it goes.

The table is shown before each of your moves; you answer with the move's number or its name
(``2``, ``4c``, ``4c coberta``, ``truco``, ``aceito``/``accept``, ``corro``/``fold``,
``jogo``/``play``, ``#1`` in a blind hand). A bad answer gets a hint and the question again.
With ``--log`` every move is written and flushed at once; ``--resume LOG`` replays a log's moves
and goes on writing to it. End of input stops the game cleanly (exit 0), the log kept.

Exit codes: 0 ok (also when stopped), 1 an invalid variant or log, 2 usage errors.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import click

from engine.actions import Action
from engine.bots import Bot, bot_names, make_bot, next_actor
from engine.cards import CardError, card_pretty, parse_card
from engine.cli.options import U64, bots_option, parse_bots
from engine.errors import LogError
from engine.game import Checkpoint, Match, resolve_rules
from engine.logformat import Recorder
from engine.logread import MAX_FILE_BYTES, LogItem, read_log
from engine.replay import Visitor, replay
from engine.rules import Rules
from engine.simulate import bot_seed, header_variant
from engine.tui import render_table, seat_label

HUMAN = "human"
ACCEPT_WORDS = {"aceito", "accept", "aceitar", "aceita", "quero", "sim", "yes", "ok"}
FOLD_WORDS = {"corro", "fold", "correr", "corre", "nao", "não", "no"}
PLAY_WORDS = {"jogo", "play", "jogar", "joga"}
RAISE_WORDS = {"raise", "trucar", "truco", "pede"}
COVER_WORDS = {"covered", "coberta", "coberto", "cover", "down", "encoberta"}
QUIT_WORDS = {"quit", "exit", "sair", "q"}


class _Stop(Exception):
    """The person ended the input (EOF or a quit word)."""


# -- describing moves ----------------------------------------------------------------------------
def describe(action: Action, rules: Rules, me: int, blind_text: str | None = None) -> str:
    """A move in words, as seen from seat ``me`` (``blind_text`` is the move's blind form,
    ``play 0 #2``, when the cards are hidden)."""
    who = seat_label(action.seat, me)
    if action.kind == "play":
        verb = f"{who} play{'s' * (who != 'you')}"
        if action.covered and action.seat != me:
            return f"{verb} a card face down"  # P7: nobody else sees it
        card = card_pretty(action.card)  # type: ignore[arg-type]
        if blind_text is not None:  # P6: chosen by position, seen once played
            card = f"card {blind_text.split()[2]}" + ("" if action.covered else f": {card}")
        return f"{verb} {card}" + (" face down" if action.covered else "")
    if action.kind == "raise":
        name = rules.step_name(action.value or 0).upper()
        with_card = ""  # M4: the named card is shown to the others only once accepted
        if action.card is not None and action.seat == me:
            with_card = f" with {card_pretty(action.card)}"
        return f"{who} call{'s' * (who != 'you')} {name} ({action.value}){with_card}"
    if action.kind == "accept":
        return f"{who} accept{'s' * (who != 'you')}"
    if action.kind == "fold":
        return f"{who} fold{'s' * (who != 'you')}"
    verb = "play the hand" if action.play_on else "fold the hand"
    return f"{who} decide{'s' * (who != 'you')} to {verb}"


def menu_entry(action: Action, rules: Rules, blind_text: str | None) -> str:
    """One line of the move menu: what the move is and a name to type for it."""
    if action.kind == "play":
        if blind_text is not None:
            pos = blind_text.split()[2]
            return f"play card {pos}" + (" face down" if action.covered else "")
        card = card_pretty(action.card)  # type: ignore[arg-type]
        return f"play {card}" + (" face down (coberta)" if action.covered else "")
    if action.kind == "raise":
        name = rules.step_name(action.value or 0)
        with_card = f" with {card_pretty(action.card)}" if action.card is not None else ""
        return f"{name} (raise to {action.value}){with_card}"
    if action.kind == "accept":
        return "aceito (accept)"
    if action.kind == "fold":
        return "corro (fold)"
    return "jogo (play the hand)" if action.play_on else "corro (fold the hand)"


def describe_checkpoint(cp: Checkpoint, me: int) -> str:
    """A checkpoint in words, as seen from seat ``me``'s team."""
    team = me % 2

    def side(t: int | None) -> str:
        return "nobody" if t is None else ("us" if t == team else "them")

    ev = cp["event"]
    if ev == "round":
        return f"  → round won by {side(cp['winner'])}" if cp["winner"] is not None \
            else "  → round tied"
    if ev == "hand":
        s = cp["score"]
        won = (f"hand won by {side(cp['winner'])} for {cp['points']}" if cp["winner"] is not None
               else "hand tied: nobody scores")
        return f"  → {won} · score us {s[team]}, them {s[1 - team]}"
    if ev == "game":
        s, g = cp["score"], cp["games"]
        return (f"  ★ game won by {side(cp['winner'])}, {s[team]}-{s[1 - team]} · games us "
                f"{g[team]}, them {g[1 - team]}")
    return f"  ★★ match won by {side(cp['winner'])}: " + (
        "you win!" if cp["winner"] == team else "you lose.")


# -- reading a move ------------------------------------------------------------------------------
def _card_token(word: str) -> str | None:
    """``4c``, ``4C``, ``kd``, ``10h`` as a card name, or ``None``."""
    w = word.strip()
    if w.startswith("10"):
        w = "T" + w[2:]
    if len(w) != 2:
        return None
    name = w[0].upper() + w[1].lower()
    try:
        parse_card(name)
    except CardError:
        return None
    return name


def parse_move(text: str, legal: Sequence[Action], legal_text: Sequence[str],
               rules: Rules) -> Action | str:
    """The legal move that ``text`` names, or a hint saying what to type instead.

    >>> from engine import Match
    >>> m = Match.new("paulista", seed=7)
    >>> legal = m.legal_actions(1)
    >>> parse_move("1", legal, [str(a) for a in legal], m.rules) == legal[0]
    True
    >>> parse_move("truco", legal, [str(a) for a in legal], m.rules)
    Action.raise_to(1, 3)
    """
    words = text.strip().lower().split()
    if not words:
        return _hint(legal, rules)
    if len(words) == 1 and words[0].isdigit():
        k = int(words[0])
        if 1 <= k <= len(legal):
            return legal[k - 1]
        return f"there is no move {k}: choose 1 to {len(legal)}"
    covered = any(w in COVER_WORDS for w in words)
    words = [w for w in words if w not in COVER_WORDS]
    blind = any("#" in t for t in legal_text)
    if blind:
        pos = next((w for w in words if w.startswith("#")), None)
        if pos is not None:
            for a, t in zip(legal, legal_text, strict=True):
                if a.kind == "play" and t.split()[2] == pos and a.covered == covered:
                    return a
            return f"no card {pos} to play now" + (" face down" if covered else "")
    card = next((c for c in map(_card_token, words) if c is not None), None)
    names = {s.name.lower() for s in rules.ladder}
    if any(w in RAISE_WORDS or w in names for w in words):
        raises = [a for a in legal if a.kind == "raise"]
        if not raises:
            return "no raise is possible now"
        if card is not None:
            raises = [a for a in raises if a.card is not None and card_pretty(a.card) ==
                      card_pretty(parse_card(card))]
            if not raises:
                return f"you cannot raise with {card} now"
        if len(raises) > 1:
            return ("name the card you raise with, e.g. '"
                    + f"{rules.step_name(raises[0].value or 0)} "
                    + f"{_short(raises[0])}' (M4)")
        return raises[0]
    kinds = {a.kind for a in legal}
    if any(w in ACCEPT_WORDS for w in words) and "accept" in kinds:
        return next(a for a in legal if a.kind == "accept")
    if any(w in FOLD_WORDS for w in words):
        if "fold" in kinds:
            return next(a for a in legal if a.kind == "fold")
        if "decide" in kinds:
            return next(a for a in legal if a.kind == "decide" and not a.play_on)
    if any(w in PLAY_WORDS for w in words) and "decide" in kinds:
        return next(a for a in legal if a.kind == "decide" and a.play_on)
    if card is not None and not blind:
        for a in legal:
            if a.kind == "play" and a.card == parse_card(card) and a.covered == covered:
                return a
        if any(a.kind == "play" and a.card == parse_card(card) for a in legal):
            return f"{card} cannot be played face down now"
        return f"you cannot play {card} now"
    return _hint(legal, rules)


def _short(action: Action) -> str:
    from engine.cards import card_name

    return card_name(action.card) if action.card is not None else ""


def _hint(legal: Sequence[Action], rules: Rules) -> str:
    kinds = {a.kind for a in legal}
    say = [f"a number from 1 to {len(legal)}"]
    if "play" in kinds:
        say.append("a card like 4c (add 'coberta' to play it face down)")
    if "raise" in kinds:
        step = next(a for a in legal if a.kind == "raise")
        say.append(rules.step_name(step.value or 0))
    if "accept" in kinds:
        say.append("aceito/accept, corro/fold")
    if "decide" in kinds:
        say.append("jogo/play, corro/fold")
    return "type " + ", ".join(say) + " (or 'quit')"


# -- the game ------------------------------------------------------------------------------------
class _Game:
    """The match, its bots and the optional recorder, with the person at ``seat``."""

    def __init__(self, match: Match, seat: int, bots: dict[int, Bot], title: str,
                 recorder: Recorder | None, stdin: IO[str]) -> None:
        self.match = match
        self.seat = seat
        self.bots = bots
        self.title = title
        self.recorder = recorder
        self.stdin = stdin

    def run(self) -> None:
        m = self.match
        while not m.is_over:
            actor = next_actor(m, prefer=self.seat)
            obs = m.observation(actor)
            legal = m.legal_actions(actor)
            if actor == self.seat:
                action = self.ask(obs, legal)
            else:
                action = self.bots[actor].choose(obs, legal)
            blind = None
            if obs["blind"] and action.kind == "play" and actor == self.seat:
                blind = obs["legal"][legal.index(action)]
            cps = self.recorder.apply(action) if self.recorder is not None else m.apply(action)
            click.echo(describe(action, m.rules, self.seat, blind))
            for cp in cps:
                click.echo(describe_checkpoint(cp, self.seat))

    def ask(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        rules = self.match.rules
        click.echo("")
        click.echo(render_table(obs, title=self.title, target=rules.target))
        texts = obs["legal"]
        blind = obs["blind"]
        for i, (a, t) in enumerate(zip(legal, texts, strict=True), 1):
            click.echo(f"  {i}) {menu_entry(a, rules, t if blind else None)}")
        while True:
            click.echo("Your move: ", nl=False)
            line = self.stdin.readline()
            if not line:
                raise _Stop
            if line.strip().lower() in QUIT_WORDS:
                raise _Stop
            if line.strip() in ("?", "help", "h", "ajuda"):
                click.echo(_hint(legal, rules))
                continue
            got = parse_move(line, legal, texts, rules)
            if isinstance(got, Action):
                return got
            click.echo(f"'{line.strip()}': {got}")


def _bots_by_seat(text: str, seat: int, players: int) -> list[str]:
    """Every seat's player: ``--bots`` read as everywhere (:func:`parse_bots`), with the
    human at ``seat``."""
    names = parse_bots(text, players)
    return [HUMAN if s == seat else name for s, name in enumerate(names)]


class _ResumeVisitor(Visitor):
    """A strict replay (the first problem is raised) that keeps the log's moves."""

    def __init__(self) -> None:
        self.moves: list[LogItem] = []

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self.moves.append(item)


def _resume(path: str) -> tuple[dict[str, Any], Match, list[Action], bytes]:
    """Verify the log strictly; return its header, the match rebuilt from it, its moves."""
    p = Path(path)
    try:
        with p.open("rb") as f:  # bounded: the reader reports a log over the limit
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise LogError(f"cannot read the log: {exc.strerror}", file=path, line=1) from None
    visitor = _ResumeVisitor()
    replayer = replay(data, path, visitor, p.resolve().parent)
    first = next(iter(read_log(data, path)))
    if not isinstance(first, LogItem):
        raise first
    header = first.data
    if header.get("seed") is None:
        raise LogError("only a seeded log can be resumed (its header has no seed)",
                       file=path, line=1)
    assert replayer.rules is not None
    match = Match(replayer.rules, seed=header["seed"], dealer=header.get("dealer", 0))
    moves = [Action.from_event(item.data) for item in visitor.moves]
    return header, match, moves, data


@click.command()
@click.option("--variant", "-v", metavar="NAME|FILE",
              help="A shipped variant name or a path to a variant YAML file.")
@click.option("--seat", type=click.IntRange(0), default=None,
              help="Your seat, from 0 (seat 0 deals the first hand; partners sit in "
                   "alternate seats). Default 0.")
@bots_option("heuristic", note="Your own seat is yours, whatever the list gives it.")
@click.option("--seed", "-s", type=U64, default=None,
              help="Seeds the deals and the bots; a new one is chosen and shown if left out.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write the game's log to FILE as it is played (it must not exist).")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True),
              help="Replay LOG (a seeded log written by truco play) and go on, writing to it.")
def play(variant: str | None, seat: int | None, bots: str, seed: int | None,
         log_path: str | None, resume: str | None) -> None:
    """Play a match against bots in the terminal.

    \b
    Examples:
      truco play --variant paulista --seat 0 --bots heuristic --seed 7 --log game.jsonl
      truco play --resume game.jsonl
    """
    stdin: IO[str] = sys.stdin  # CliRunner and scripted runs swap sys.stdin
    moves: list[Action] = []
    if resume is not None:
        if log_path is not None:
            raise click.UsageError("--resume goes on writing to its own log; leave out --log")
        header, match, moves, data = _resume(resume)
        meta = header.get("meta") or {}
        rules = match.rules
        seat = seat if seat is not None else int(meta.get("human", 0))
        bots_given = (click.get_current_context().get_parameter_source("bots")
                      is not click.core.ParameterSource.DEFAULT)
        names = None if bots_given else list(meta.get("bots", []))
        if names is not None and not all(n in (HUMAN, *bot_names()) for n in names):
            names = None  # not written by truco play: the --bots default
        seed = header["seed"]
        label = header["variant"]
    else:
        if variant is None:
            raise click.UsageError("--variant is required (or --resume LOG)")
        rules = resolve_rules(variant)
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
            click.echo(f"seed {seed} (play this deal again with --seed {seed})")
        match = Match(rules, seed=seed)
        names = None
        label = variant if log_path is None else header_variant(variant, Path(log_path).parent
                                                                 or ".")
        data = b""
    seat = 0 if seat is None else seat
    if seat >= rules.players:
        raise click.BadParameter(f"seat {seat} is not a seat of {rules.name} "
                                 f"(0..{rules.players - 1})", param_hint="--seat")
    if names is None or len(names) != rules.players or names[seat] != HUMAN:
        names = _bots_by_seat(bots, seat, rules.players)
    players = {s: make_bot(n, rules, bot_seed(seed, s)) for s, n in enumerate(names)
               if s != seat}
    # Replaying a log: each bot sees the positions it moved in, as when they were played.
    for action in moves:
        if action.seat != seat and next_actor(match, prefer=seat) == action.seat:
            players[action.seat].choose(match.observation(action.seat),
                                        match.legal_actions(action.seat))
        match.apply(action)
    out: IO[str] | None = None
    recorder = None
    target = resume or log_path
    if target is not None:
        if resume is None and Path(target).exists():
            raise click.BadParameter(f"{target} exists: continue it with --resume {target}, or "
                                     "choose another file", param_hint="--log")
        out = open(target, "a" if resume else "x", encoding="utf-8", newline="\n")  # noqa: SIM115
        if resume and data and not data.endswith(b"\n"):
            out.write("\n")
        recorder = Recorder(match, out, variant=label, players=names,
                            meta={"tool": "truco play", "human": seat, "bots": names},
                            write_header=resume is None)
    title = rules.title or rules.name
    if moves:
        click.echo(f"resumed {resume} after {len(moves)} moves")
    try:
        if match.is_over:
            click.echo(f"the match in {resume} is over: team {match.winner} won")
            return
        click.echo(f"{title}: you are seat {seat}, team {seat % 2} (partners sit in alternate "
                   "seats). Type a move's number or name; 'quit' or end of input stops.")
        _Game(match, seat, players, title, recorder, stdin).run()
    except _Stop:
        kept = f"; the log is kept: continue with --resume {target}" if target else ""
        click.echo(f"\ngame stopped{kept}")
    except KeyboardInterrupt:
        kept = f"; the log is kept: continue with --resume {target}" if target else ""
        click.echo(f"\ngame interrupted{kept}", err=True)
        sys.exit(130)
    finally:
        if out is not None:
            out.close()
