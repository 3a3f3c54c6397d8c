"""The cross-key checks of the ``betting`` block (C8, C9, C10, house): what the schema cannot
say about the ladder and who answers a raise (``concede``'s are its kind's,
:mod:`engine.moves.concede`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.errors import VariantError
from engine.i18n import Said, mark
from engine.variant.messages import Err


def _ladder_errors(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """The bet ladder (C8, house): steps worth the game (or the match) last and only where
    their value allows, values that increase, names used once, rounds that exist."""
    bet = d["betting"]
    target = d["game"]["target"]
    previous = bet["initial_value"]
    last = len(bet["ladder"]) - 1
    for i, step in enumerate(bet["ladder"]):
        value = step["value"]
        worth = step["worth"]
        named = value in ("game", "match")
        if named and worth is not None:
            yield err(("betting", "ladder", i, "worth"), mark(
                "expected worth only on a step with a numeric value (value: {value} is worth "
                "the {value} already), found worth: {worth}"),
                (("betting", "ladder", i, "value"),), value=value, worth=worth)
        elif worth is not None and value < target:
            yield err(("betting", "ladder", i, "value"), mark(
                "a step worth the {worth} scores at least the game: expected a value of at "
                "least game.target ({target}), found {value}"),
                (("betting", "ladder", i, "worth"), ("game", "target")), worth=worth,
                target=target, value=value)
        if named or worth is not None:  # worth the game (or the match)
            what = value if named else worth
            if i != last:
                yield err(("betting", "ladder", i, "value" if named else "worth"),
                          mark("expected the step worth the {what} last in the ladder, found "
                               "it at step {step} of {steps}"), what=what, step=i + 1,
                          steps=last + 1)
        if named:
            value = target  # its value is the target
        if value <= previous:
            found: object = value
            if named:
                found = Said.of(mark(
                    "a step worth the {worth} (game.target, {target}); to follow a step of "
                    "{previous}, give it a value of its own with worth: {{value: {value}, name: "
                    "{name}, worth: {worth}}}"), worth=step["value"], target=target,
                    previous=previous, value=previous + 1, name=step["name"])
            yield err(("betting", "ladder", i, "value"), mark("the ladder must increase: "
                      "expected more than {previous}, found {found}"),
                      (("betting", "initial_value"), ("game", "target")), previous=previous,
                      found=found)
        previous = value
    names = [s["name"] for s in bet["ladder"]]
    for i, name in enumerate(names):
        if name in names[:i]:
            yield err(("betting", "ladder", i, "name"), mark("step name {name} is used twice"),
                      name=repr(name))
    for i, rnd in enumerate(bet["refused_card_shown_in_rounds"]):
        if rnd > d["cards_per_player"]:
            yield err(("betting", "refused_card_shown_in_rounds", i),
                      mark("there is no round {round}"), round=rnd)


def _designated_errors(d: dict[str, Any], err: Err, sizes: list[int]) -> Iterator[VariantError]:
    """``betting.answered_by: designated`` and ``betting.answerers``: one seat of each team,
    in the teams' order; no whole team's refusal where one seat answers."""
    bet = d["betting"]
    given = bet.get("answerers")
    by = bet["answered_by"]
    if given is not None and by != "designated":
        yield err(("betting", "answerers"), mark("expected betting.answered_by: designated "
                  "with answerers, found {by}"), (("betting", "answered_by"),), by=by)
    if by != "designated":
        return
    if bet["refusal"] != "one_player":
        yield err(("betting", "refusal"), mark(
            "expected one_player with answered_by: designated (one seat answers for his team: "
            "no partner folds with him), found whole_team"), (("betting", "answered_by"),))
    if given is None:
        return
    players = d["players"]
    teams = d["teams"] or [[s for s in range(players) if s % 2 == t] for t in range(2)]
    if len(given) != len(sizes):
        yield err(("betting", "answerers"), mark("expected one seat for each of the {teams} "
                  "teams, found {found}"), (), teams=len(sizes), found=len(given))
        return
    for t, (seat, team) in enumerate(zip(given, teams, strict=True)):
        if seat not in team:
            yield err(("betting", "answerers", t), mark("expected a seat of team {team} "
                      "({seats}), found {seat}"), (), team=t, seats=", ".join(map(str, team)),
                      seat=seat)


def _answer_errors(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """Who acts for a team (C9 house rules): keys that would have no effect."""
    bet = d["betting"]
    ladder = bool(bet["ladder"])
    players = d["players"]
    sizes = ([len(t) for t in d["teams"]] if d["teams"]
             else [players // 2, players - players // 2])
    team_size = max(sizes)  # the largest team: a whole team's refusal needs two players
    opponents = players - min(sizes)  # the most players a raise is put to
    if bet["answered_by"] != "challenged_team":
        if not ladder:
            yield err(("betting", "answered_by"), mark(
                "expected no answered_by without a ladder (no raise is ever answered), found "
                "{found}"), (("betting", "ladder"),), found=bet["answered_by"])
        elif opponents < 2:
            yield err(("betting", "answered_by"), mark(
                "expected challenged_team with {players} players (one opponent: the only one "
                "who may answer), found {found}"), (("players",),), players=players,
                found=bet["answered_by"])
    yield from _designated_errors(d, err, sizes)
    if bet["raise_limit"] != "none" and not ladder:
        yield err(("betting", "raise_limit"), mark("expected no raise_limit without a ladder "
                  "(no raise is ever made), found {found}"), (("betting", "ladder"),),
                  found=bet["raise_limit"])
    if bet["refusal"] != "one_player":
        if not ladder:
            yield err(("betting", "refusal"), mark("expected no refusal without a ladder (no "
                      "raise is ever refused), found whole_team"), (("betting", "ladder"),))
        elif team_size < 2:
            yield err(("betting", "refusal"), mark(
                "expected one_player with {players} players (a team of one: its one fold is the "
                "whole team's), found whole_team"), (("players",),), players=d["players"])
    if bet["raise_back"] is False and len(bet["ladder"]) < 2:
        yield err(("betting", "raise_back"), mark(
            "expected no raise_back where the ladder has fewer than two steps (it has {steps}; "
            "no raise back exists), found false"), (("betting", "ladder"),),
            steps=len(bet["ladder"]))
