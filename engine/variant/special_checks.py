"""The cross-key checks of ``special_hands`` (P5, P6, M5, M6, house): thresholds below the
target, keys without effect, and entries of the list that never apply."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from engine.errors import VariantError
from engine.i18n import Said, mark
from engine.rules import special_hands_from_data
from engine.variant.messages import Err
from engine.variant.reader import KeyPath


def _special_errors(d: dict[str, Any], err: Err,
                    stated: Callable[[KeyPath], bool]) -> Iterator[VariantError]:
    """The special hands' cross-key checks: thresholds below the target, keys that have no
    effect in their entry (a decider, fold points or partners' cards shown without a decision,
    a raise penalty where raises are not penalised), and entries of the list that can never
    apply because earlier ones always match first. ``stated(path)``: whether a file wrote the
    key (``d`` has the defaults filled in)."""
    target = d["game"]["target"]
    special = d["special_hands"]
    if isinstance(special, dict):
        for kind in ("one_team", "both_teams"):
            hand = special[kind]
            if hand["enabled"] and hand["from_score"] >= target:
                yield err(("special_hands", kind, "from_score"), mark(
                    "expected special_hands.{kind}.from_score below game.target, found {found} "
                    "and {target}"), (("game", "target"),), kind=kind, found=hand["from_score"],
                    target=target)
        one = special["one_team"]
        if stated(("special_hands", "one_team", "decider")) and not one["decision"]:
            yield err(("special_hands", "one_team", "decider"), mark(
                "special_hands.one_team.decider has no effect without a decision: expected "
                "decision: true, found false"), (("special_hands", "one_team", "decision"),))
        return
    names: dict[str, int] = {}
    for i, e in enumerate(special):
        at: KeyPath = ("special_hands", i)
        when = e["when"]
        lo, hi = when["from_score"], when["to_score"]
        if lo >= target:
            yield err((*at, "when", "from_score"), mark(
                "expected special_hands[{i}].when.from_score below game.target, found {found} "
                "and {target}"), (("game", "target"),), i=i, found=lo, target=target)
        if hi is not None and not lo <= hi < target:
            yield err((*at, "when", "to_score"), mark(
                "expected special_hands[{i}].when.to_score from from_score ({low}) to below "
                "game.target ({target}), found {found}"), i=i, low=lo, target=target, found=hi)
        if e["name"] in names:
            yield err((*at, "name"), mark("special hand name {name} is used twice (first "
                      "special_hands[{first}])"), name=repr(e["name"]), first=names[e["name"]])
        names.setdefault(e["name"], i)
        if e["decision"]:
            if when["teams"] != "exactly_one":
                yield err((*at, "decision"), mark("a decision needs one team at the score: "
                          "expected when.teams exactly_one, found {found}"), found=when["teams"])
            if not stated((*at, "fold_points")):
                yield err((*at,), mark("special_hands[{i}] has a decision: expected "
                          "fold_points (what the other team scores on a fold), found none"), i=i)
        else:
            for key in ("decider", "fold_points", "show_partner_cards"):
                if stated((*at, key)):
                    yield err((*at, key), mark("special_hands[{i}].{key} has no effect without "
                              "a decision: expected decision: true, found {found}"), i=i,
                              key=key, found="false" if stated((*at, "decision"))
                              else Said.of(mark("no decision")))
        if e["raises"] == "penalised" and not stated((*at, "raise_penalty")):
            yield err((*at, "raises"), mark("special_hands[{i}] penalises raises: expected "
                      "raise_penalty (team_at_score, other_team), found none"), i=i)
        if e["raises"] != "penalised" and stated((*at, "raise_penalty")):
            yield err((*at, "raise_penalty"), mark("special_hands[{i}].raise_penalty has no "
                      "effect with raises: {raises}: expected raises: penalised"), i=i,
                      raises=e["raises"])
    yield from _shadowed(special, target, len(d["teams"]) or 2, err)


def _shadowed(special: list[dict[str, Any]], target: int, teams: int,
              err: Err) -> Iterator[VariantError]:
    """Entries that never apply: at every score where one holds, an earlier entry holds (the
    first match wins). The scores are tried by class: a team's score matters only by which
    entries' ranges hold it, so one score per class of the ranges' bounds is enough."""
    hands = special_hands_from_data(special)
    bounds = {0}
    for h in hands:
        bounds.add(h.from_score)
        if h.to_score is not None:
            bounds.add(h.to_score + 1)
    scores = sorted(b for b in bounds if b < target)
    if len(scores) ** teams > 50_000:  # too many to try: refuse exact duplicates only
        seen: dict[tuple[Any, ...], int] = {}
        for i, h in enumerate(hands):
            key = (h.teams, h.from_score, h.to_score)
            if key in seen:
                yield err(("special_hands", i, "when"), mark(
                    "special_hands[{i}] ({name}) never applies: special_hands[{first}] has the "
                    "same condition"), i=i, name=h.name, first=seen[key])
            seen.setdefault(key, i)
        return
    holds = [[h.team_for(score)[0] for h in hands]
             for score in itertools.product(scores, repeat=teams)]
    for i, h in enumerate(hands):
        where = [row for row in holds if row[i]]
        if not where:
            yield err(("special_hands", i, "when"), mark(
                "special_hands[{i}] ({name}) never applies: no score below game.target "
                "({target}) meets its condition"), i=i, name=h.name, target=target)
        elif all(any(row[:i]) for row in where):
            alone = [j for j in range(i) if all(row[j] for row in where)]
            if alone:
                by = Said.of(mark("special_hands[{j}] ({name}) holds"), j=alone[0],
                             name=hands[alone[0]].name)
            else:
                by = Said.of(mark("earlier entries hold ({entries})"), entries=", ".join(
                    f"special_hands[{j}]" for j in range(i) if any(row[j] for row in where)))
            yield err(("special_hands", i, "when"), mark(
                "special_hands[{i}] ({name}) never applies: wherever it holds, {by} and the "
                "first that holds is the hand's"), i=i, name=h.name, by=by)
