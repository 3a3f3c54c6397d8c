"""``resign`` (a house rule): a player leaves the table, and his team gives up the game (or
the match) to the other team (docs/rules.md, "Leaving the table").

"A game left before its end goes to the other team": with ``resign.allowed``, a player may make
one move, ``resign SEAT``, on his own turn when a card is awaited from him (state ``play``, so
with no raise or decision pending). The other team wins the game at once, scores unchanged (no
``hand`` checkpoint: the hand is not played out), as a game lost by a forbidden raise (P5, P6);
with ``resign.gives: match`` it wins the match too, whatever the games won so far. A log
holding a ``resign`` is a version-2 log.

The variant keys: ``resign.allowed`` and ``resign.gives``, read with
:meth:`Rules.block <engine.rules.Rules.block>`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import VariantError, Why
from engine.i18n import mark
from engine.moves import MoveKind, VariantBlock, Words, flag, move_transitions, register
from engine.moves.outcome import other_team
from engine.moves.scoring import end_hand, win_game
from engine.payload import LogEvent, Payload
from engine.ruling import Ruling
from engine.state import Phase

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import MatchView

#: The kind's variant block (its keys: ``resign.allowed``, ``resign.gives``).
BLOCK_NAME = "resign"


def _checks(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """A resignation needs one other team to give the game to."""
    block = d["resign"]
    teams = d.get("teams")
    if block["allowed"] and teams and len(teams) > 2:
        yield err(("resign", "allowed"), mark("expected two teams with resign.allowed (the "
                  "game goes to the other team), found {found}"), (("teams",),),
                  found=len(teams))
    if block["gives"] != "game" and not block["allowed"]:
        yield err(("resign", "gives"), mark("expected resign.allowed: true with gives "
                  "(resigning is off), found resign.allowed false"), (("resign", "allowed"),))


BLOCK = VariantBlock(BLOCK_NAME, checks=_checks, about=(
    "House rule, leaving the table: a player gives up the game (or the match) for his team, "
    "which the other team wins. Absent: no resignation."), keys={
    "allowed": flag(
        "House rule: a player may resign (resign SEAT) on his own turn when a card is awaited "
        "from him; the other team wins the game at once, scores unchanged. Two teams only. "
        "Default false."),
    "gives": {"type": "string", "enum": ["game", "match"], "default": "game",
              "description": (
                  "House rule: what a resignation gives the other team: the game (it counts "
                  "toward match.games_to_win) or the whole match. Default game.")},
})


def allowed(rules: Rules) -> bool:
    """Whether the variant lets a player resign (``resign.allowed``)."""
    return bool(rules.block(BLOCK_NAME)["allowed"])


@cache
def _resigns(players: int) -> tuple[Action, ...]:
    """The resignation of each seat (made once per table size)."""
    return tuple(Action("resign", s) for s in range(players))


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    turn = m.round.turn
    if a.seat != turn:
        return Why("not_your_turn", f"a player resigns on his own turn; it is seat {turn}'s")
    rules = m.rules
    winner = other_team(rules, rules.team_of[a.seat])
    win_game(m, r, winner, match=rules.block(BLOCK_NAME)["gives"] == "match")
    return None


def _effect(move: Action, r: Ruling) -> None:
    end_hand(r.model, r)


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    turn = m.round.turn
    if seat is None or seat == turn:
        out.append(_resigns(m.move_table.players)[turn])


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    return move_transitions("resign", Phase.PLAY, None, goes=False)  # it always ends the game


def _tell(a: Action, w: Words) -> str:
    gives = w.rules.block(BLOCK_NAME)["gives"]
    return f"{w.who} resign{w.s}: the other team wins the {gives}"


def _menu(a: Action, w: Words) -> str:
    gives = w.rules.block(BLOCK_NAME)["gives"]
    return f"resign (leave the table: the other team wins the {gives})"


KIND = register(MoveKind(
    name="resign", tell=_tell, menu=_menu, judge=_judge, effect=_effect,
    lister=_lister, transitions=_transitions, enabled=allowed, payload=Payload(),
    log=LogEvent(version=2, named="a resign move",
                 about=("Move (version 2, variants with resign.allowed): the seat resigns on "
                        "its turn; the other team wins the game (resign.gives: match, the "
                        "match), scores unchanged: a game checkpoint, no hand checkpoint.")),
    not_now={None: "no resignation in this variant (resign.allowed)",
             Phase.ANSWER: "a raise is waiting for its answer: a player resigns on his turn, "
                           "when a card is awaited from him",
             Phase.DECIDE: "the special hand's decision comes first",
             Phase.DEAL: "no hand is in play"},
    block=BLOCK, keys=("resign.allowed", "resign.gives"),
    told=_tell,
    typed=lambda rules: [(5, ("resign", "desisto do jogo", "abandono", "saio"), "")],
    space=lambda rules: [((), {}, "resign")] if allowed(rules) else []))
