"""``truco bot check CMD``: a compliance run of a bot program (docs/bot-protocol.md).

The handshake (its ``id`` checked against its schema, and shown: name, author, options); a
few hundred decisions in each shipped family (Paulista, Mineiro, Gaudério: their special
hands and side bets), the bot on one team against the built-in ``heuristic``;
a match abandoned half-way and the next one on the same process; a message of a type it does
not know (it must ignore it and go on, on the same process); every answer legal and in time;
``quit``. Each check is a line,
``ok`` or ``FAILED`` with why, in the language spoken (:mod:`engine.i18n`; what the bot or
the protocol's schema said is quoted as it is).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from engine.actions import Action
from engine.bots import make_bot, notify
from engine.game import Match
from engine.i18n import _, ngettext
from engine.observation import Observation
from engine.protocol.external import Channel, ExternalBot, end_all
from engine.protocol.process import BotError, split_command
from engine.resources import schema_path
from engine.simulate import bot_seed, match_seed, play_match
from engine.state import Phase
from engine.variant import load_variant, root_variants


@dataclass
class Result:
    """One check: its name, whether it passed, and what it found."""

    name: str
    passed: bool
    detail: str


@dataclass
class Report:
    """Every check of a run, in order."""

    results: list[Result] = field(default_factory=list)

    def add(self, name: str, passed: bool, detail: str) -> None:
        self.results.append(Result(name, passed, detail))

    @property
    def passed(self) -> bool:
        """Whether every check passed."""
        return all(r.passed for r in self.results)

    def lines(self) -> list[str]:
        """``ok      name: detail`` / ``FAILED  name: detail``, one per check."""
        ok, failed = _("ok"), _("FAILED")
        return [f"{ok if r.passed else failed:7} {r.name}: {r.detail}" for r in self.results]


def _family(command: str, variant: str, decisions: int, move_ms: int,
            faults: list[str]) -> tuple[int, int, float]:
    """Play matches of ``variant``, the bot on team 0 (then 1), until it has made
    ``decisions``; returns (matches, decisions, slowest answer in ms)."""
    rules = load_variant(variant)
    made = matches = 0
    slowest = 0.0
    while made < decisions:
        seed = match_seed(1, matches)
        team = matches % 2
        match = Match(rules, seed=seed, dealer=matches % rules.players)
        bots: list[Any] = []
        for seat in range(rules.players):
            if rules.team_of[seat] == team:
                bots.append(ExternalBot(rules, bot_seed(seed, seat), command, move_ms=move_ms,
                                        report=faults.append, match=matches))
            else:
                bots.append(make_bot("heuristic", rules, bot_seed(seed, seat)))
        timed = [_Timed(b) if isinstance(b, ExternalBot) else b for b in bots]
        play_match(match, timed)
        matches += 1
        for b in timed:
            if isinstance(b, _Timed):
                made += b.bot.decisions
                slowest = max(slowest, b.slowest)
    return matches, made, slowest


class _Timed:
    """An external bot whose answers are timed (for the report only)."""

    def __init__(self, bot: ExternalBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.slowest = 0.0

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        start = time.monotonic()
        try:
            return self.bot.choose(observation, legal)
        finally:
            self.slowest = max(self.slowest, (time.monotonic() - start) * 1000)

    def observe(self, observation: Observation) -> None:
        self.bot.observe(observation)

    @property
    def judge(self) -> Callable[[Observation], float] | None:
        return self.bot.judge


def _abandoned(command: str, move_ms: int, faults: list[str]) -> str:
    """A match left half-way (``end`` with a null result), then a whole one on the same
    process."""
    rules = load_variant(root_variants()[-1])  # a four-seat family (paulista today)
    match = Match(rules, seed=11)
    bot = ExternalBot(rules, 1, command, move_ms=move_ms, report=faults.append)
    seats = {match.turn: bot}
    for _move in range(3):
        if match.is_over:
            break
        seat = match.turn if match.state == Phase.PLAY else None
        if seat is None or seat not in seats:
            break
        match.apply(bot.choose(match.observation(seat), match.legal_actions(seat)))
        notify(match, seats)
    pid = bot.pid
    bot.close()
    return _next_match(command, move_ms, faults, pid, 1, None,
                       _("after a match abandoned half-way (an 'end' with a null result)"))


#: The message of a type the bot cannot know (a later version's): it must ignore it.
UNKNOWN = {"type": "x-unknown", "note": "a later version's message"}


def _next_match(command: str, move_ms: int, faults: list[str], pid: int | None, number: int,
                before: dict[str, Any] | None, after: str) -> str:
    """A whole match (``before``: a message sent first), on the idle process ``pid`` if it
    is given; what went wrong, ``""`` if nothing."""
    rules = load_variant(root_variants()[-1])
    bot = ExternalBot(rules, 2, command, move_ms=move_ms, report=faults.append, match=number)
    match = Match(rules, seed=11 + number)
    bot.observe(match.observation(0))  # the match begins: on which process?
    again = bot.pid
    if before is not None:
        bot.send(before)
    play_match(match, [bot, *(make_bot("random", rules, s) for s in range(1, rules.players))])
    if pid is not None and again != pid:
        return _("{after}, a new process (expected the same one to go on)").format(after=after)
    if bot.faults:
        first = bot.faults[0]
        at = (_("at its decision {n}").format(n=first["decision"]) if first["decision"] else
              _("before its first decision"))
        return _("{after}, the next match failed {at}: {kind}: {detail}").format(
            after=after, at=at, kind=first["kind"], detail=first["detail"])
    if bot.dead or not bot.ended:
        return _("{after}, the next match did not reach its end").format(after=after)
    return ""


def _unknown(command: str, move_ms: int, faults: list[str]) -> str:
    """A message of a type the bot does not know, then a whole match on the same process:
    the bot must ignore the message (docs/bot-protocol.md: unknown types and fields)."""
    return _next_match(command, move_ms, faults, None, 2, UNKNOWN,
                       _("after a message of an unknown type ({message}), which a bot must "
                         "ignore").format(message=json.dumps(UNKNOWN)))


def _quit(command: str) -> str:
    """The bot exits on ``quit`` within 2 seconds."""
    ch = Channel(split_command(command))
    ch.handshake()
    try:
        ch.send({"type": "quit"}, time.monotonic() + 1)
        if ch.wait(2) is None:
            return _("still running 2 s after quit")
    except Exception as exc:  # a dead pipe: it exited before reading quit
        return f"{exc}"
    finally:
        ch.kill()
    return ""


def _id_problem(ident: dict[str, Any]) -> str:
    """Where the bot's ``id`` message breaks its schema (``schemas/bot-protocol/``), or ``""``."""
    schema = json.loads(schema_path("bot-protocol/id").read_text(encoding="utf-8"))
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(ident))
    if error is None:
        return ""
    where = "/".join(map(str, error.absolute_path)) or _("the message")
    return _("its id message does not follow the protocol at {where}: {problem}").format(
        where=where, problem=error.message)


def identity(ident: dict[str, Any]) -> str:
    """The bot's id as the report shows it: name, author, options."""
    options = []
    for o in ident.get("options", []):
        limits = ([_("default {value}").format(value=json.dumps(o["default"]))]
                  if "default" in o else [])
        if "min" in o or "max" in o:
            limits.append(_("{min} to {max}").format(min=o.get("min", ""), max=o.get("max", "")))
        if "values" in o:
            limits.append("/".join(o["values"]))
        options.append(f"{o['name']} ({', '.join([o['type'], *limits])})")
    return _("id {name} by {author}, options: {options}, protocol 1, ready").format(
        name=repr(ident.get("name", "")), author=repr(ident.get("author", "")),
        options="; ".join(options) or _("none"))


def check(command: str, *, decisions: int = 200, move_ms: int = 5000) -> Report:
    """Run every check of ``command`` (a command line) and return the report."""
    report = Report()
    try:
        ch = Channel(split_command(command))
        ch.handshake()
    except BotError as exc:
        report.add(_("handshake"), False, str(exc))
        return report
    problem = _id_problem(ch.ident)
    report.add(_("handshake"), not problem, problem or identity(ch.ident))
    ch.close()
    try:
        for variant in root_variants():  # each family of variants: its root
            faults: list[str] = []
            matches, made, slowest = _family(command, variant, decisions, move_ms, faults)
            played = ngettext("{made} decisions in {matches} match, slowest answer {ms} ms",
                              "{made} decisions in {matches} matches, slowest answer {ms} ms",
                              matches).format(made=made, matches=matches, ms=f"{slowest:.0f}")
            report.add(f"{variant}", not faults, played + (ngettext(
                "; {n} fault, the first: {fault}", "; {n} faults, the first: {fault}",
                len(faults)).format(n=len(faults), fault=faults[0]) if faults else ""))
        for name, run in ((_("abandoned match"), _abandoned), (_("unknown message"), _unknown)):
            faults = []
            problem = run(command, move_ms, faults)
            report.add(name, not problem and not faults,
                       problem or (faults[0] if faults else
                                   _("the next match goes on, on the same process")))
        problem = _quit(command)
        report.add(_("quit"), not problem, problem or _("exited"))
    except BotError as exc:
        report.add(_("restart"), False, str(exc))
    finally:
        end_all()
    return report
