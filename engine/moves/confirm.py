"""``confirm`` (a house rule): giving up is a joint decision, which the partners confirm or
refuse (docs/rules.md, "Giving up as a team").

``confirm.moves`` lists the give-ups that need the partners: ``concede`` (a concede on one's
own turn, :mod:`engine.moves.concede`: "correr is a joint decision: the partner confirms or
says go on") and ``fold_hand`` (a special hand's fold, :mod:`engine.moves.decide`, M5: "it
needs both partners"). Such a move asks instead of acting: the match waits in state
``confirm`` while each partner of the asker, in playing order from him, makes one move,
``confirm SEAT yes`` (he agrees) or ``confirm SEAT no`` (go on). The last partner's ``yes``
makes the give-up, as the asker's move would have made it at once (the concede's or the fold's
points, its checkpoints after the ``confirm`` line); a ``no`` drops it and the hand goes on in
state ``play``: after a concede, the asker plays his card (his team concedes no more this
hand); after a special hand's fold, the team plays the hand (a ``no`` is a decision to play).

Not asked: a concede that answers a raise (``concede.instead_of_answer``) or a side bet's call
(G20), which answer at once, and a decision to play. The asked give-up, the partners who
agreed and the teams told to go on are the kind's state (``confirm`` in a position, public).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.actions import Action
from engine.errors import PositionError, VariantError, Why
from engine.i18n import mark
from engine.moves import (
    KINDS,
    KindState,
    MoveKind,
    VariantBlock,
    Waiting,
    Words,
    list_choice,
    move_transitions,
    register,
)
from engine.payload import Choice, LogEvent, Payload
from engine.ruling import Ruling, condition, effect
from engine.state import NORMAL, PLAY, set_own

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import MatchView

#: The kind's name, its variant block, its phase (``Match.state``: declared here, in its
#: ``phases``) and its key in a hand's own state and in a position.
NAME = "confirm"
#: The machine's condition and effect of a give-up that asks the partners (named after the
#: kind: a copy of this module under another name registers its own).
ASKS = f"{NAME}_asks"
#: The give-ups that may need the partners, as ``confirm.moves`` names them.
MOVES = ("concede", "fold_hand")


class Asked(NamedTuple):
    """The kind's state in a hand: the give-up waiting for the partners (``concede`` or
    ``fold_hand``, ``None``: none) and its asker, the partners who agreed so far, and the teams
    whose partners said go on to a concede this hand."""

    what: str | None
    seat: int
    agreed: tuple[int, ...]
    went_on: tuple[int, ...]


FRESH = Asked(None, 0, (), ())


def moves(rules: Rules) -> list[str]:
    """The give-ups the partners confirm (``confirm.moves``)."""
    return list(rules.block(NAME)["moves"])


def _asked(m: MatchView) -> Asked:
    own: Asked = m.hand.own[NAME]
    return own


def _the_move(asked: Asked) -> Action:
    """The asker's move that waits: a concede, or a special hand's fold."""
    if asked.what == "concede":
        return Action("concede", asked.seat)
    return Action("decide", asked.seat, play_on=False)


def partners(rules: Rules, seat: int) -> list[int]:
    """The seat's partners, in playing order from him: who confirms his give-up, in turn."""
    n, team_of = rules.players, rules.team_of
    return [s for s in ((seat + k) % n for k in range(1, n)) if team_of[s] == team_of[seat]]


def _next(m: MatchView) -> int:
    """The partner who confirms or refuses now: the first who has not agreed yet."""
    asked = _asked(m)
    return partners(m.rules, asked.seat)[len(asked.agreed)]


# -- asking: the give-ups' own transitions, from play and decide, go to confirm first ---------
@condition(ASKS)
def _asks(move: Action, ruling: Ruling) -> bool:
    """The legal give-up ``move`` needs the partners (``confirm.moves``): it asks."""
    wanted = moves(ruling.model.rules)
    if move.kind == "concede":
        return "concede" in wanted
    return move.kind == "decide" and not move.play_on and "fold_hand" in wanted


@effect(ASKS)
def _ask(move: Action, ruling: Ruling) -> None:
    """The give-up asked: its ruling (what it would do) is dropped, nothing changes but the
    kind's state; the partners rule it again when they agree."""
    ruling.ends, ruling.hand, ruling.game, ruling.match, ruling.owed = (
        False, None, None, None, None)
    m: MatchView = ruling.model
    what = "concede" if move.kind == "concede" else "fold_hand"
    set_own(m.hand, NAME, Asked(what, move.seat, (), _asked(m).went_on))


def _adjust(rules: Rules, transitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Before the give-ups' own transitions from ``play`` (a concede) and ``decide`` (a
    special hand's fold), one to ``confirm`` where the move asks the partners."""
    out: list[dict[str, Any]] = []
    wanted = moves(rules)
    asks = {("concede", PLAY): "concede" in wanted, ("decide", "decide"): "fold_hand" in wanted}
    for t in transitions:
        key = (t["trigger"], str(t["source"]))
        if asks.get(key):
            asks[key] = False  # once, before the first
            out.append({"trigger": t["trigger"], "source": t["source"], "dest": NAME,
                        "conditions": [f"legal_{t['trigger']}", ASKS],
                        "before": [ASKS]})
        out.append(t)
    return out


# -- the partners' answer -----------------------------------------------------------------
def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    asked = _asked(m)
    first = _next(m)
    if a.seat != first:
        return Why("not_asked", f"seat {first} confirms or refuses seat {asked.seat}'s "
                                f"{_named(asked.what)} now, not seat {a.seat}")
    if a.play_on and len(asked.agreed) + 1 == len(partners(m.rules, asked.seat)):
        move = _the_move(asked)  # the last partner agrees: the give-up, ruled as if made now
        return KINDS[move.kind].judge(m, move, r)
    return None


@condition(f"{NAME}_waits")
def _waits(move: Action, ruling: Ruling) -> bool:
    """A partner agreed, and another is still to answer (teams of three or more)."""
    return bool(move.play_on) and not ruling.ends


def _effect(move: Action, r: Ruling) -> None:
    m: MatchView = r.model
    asked = _asked(m)
    if not move.play_on:  # go on: the give-up dropped, a concede's team concedes no more
        went_on = asked.went_on
        if asked.what == "concede":
            went_on = (*went_on, m.rules.team_of[asked.seat])
        set_own(m.hand, NAME, Asked(None, 0, (), went_on))
    elif r.ends:
        set_own(m.hand, NAME, FRESH)
        move = _the_move(asked)
        KINDS[move.kind].effect(move, r)
    else:
        set_own(m.hand, NAME, asked._replace(agreed=(*asked.agreed, move.seat)))


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    list_choice(NAME, _next(m), seat, out)


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    stays = {"trigger": NAME, "source": NAME, "dest": None,
             "conditions": [f"legal_{NAME}", f"{NAME}_waits"], "before": [NAME]}
    return [stays, *move_transitions(NAME, NAME, PLAY)]  # type: ignore[arg-type]


def _sees(m: MatchView, seat: int) -> list[int]:
    """M5 while a special hand's fold waits for the partners: the team still sees its
    partners' cards where the decision shows them (``show_partner_cards``)."""
    if m.state != NAME or _asked(m).what != "fold_hand":
        return []
    rule, team_of = m.hand.rule, m.rules.team_of
    if rule is None or not rule.show_partner_cards or team_of[seat] != m.hand.special_team:
        return []
    return [s for s in range(len(team_of)) if team_of[s] == team_of[seat]]


# -- the variant's keys -------------------------------------------------------------------
def enabled(rules: Rules) -> bool:
    """Whether some give-up of the variant needs the partners."""
    return bool(rules.block(NAME)["moves"])


def _checks(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """Each give-up listed is one the variant has, and every player has a partner."""
    wanted = d[NAME]["moves"]
    if not wanted:
        return
    teams = d.get("teams") or [[s for s in range(d["players"]) if s % 2 == t] for t in (0, 1)]
    if any(len(team) < 2 for team in teams):
        yield err((NAME, "moves"), mark("expected teams of partners with confirm.moves (a "
                  "player alone has nobody to confirm), found a team of one player"),
                  (("teams",),))
    if "concede" in wanted and not d["concede"]["allowed"]:
        yield err((NAME, "moves"), mark("expected concede.allowed: true with concede in "
                  "confirm.moves, found concede.allowed false"), (("concede", "allowed"),))
    if "fold_hand" in wanted and not _decision(d["special_hands"]):
        yield err((NAME, "moves"), mark("expected a special hand with a decision with "
                  "fold_hand in confirm.moves, found none"), (("special_hands",),))


def _decision(specials: Any) -> bool:
    """Whether a special hand of the resolved ``special_hands`` starts with a decision."""
    if isinstance(specials, list):
        return any(h.get("decision") for h in specials)
    one = specials["one_team"]
    return bool(one["enabled"] and one["decision"])


BLOCK = VariantBlock(NAME, checks=_checks, about=(
    "House rule, giving up as a team: the give-ups that the partners confirm or refuse. "
    "Absent: every give-up acts at once."), keys={
    "moves": {"type": "array", "uniqueItems": True, "default": [],
              "items": {"type": "string", "enum": list(MOVES)}, "description": (
                  "House rule: the give-ups that need the partners: concede (a concede on "
                  "one's own turn, correr as a joint decision) and fold_hand (a special "
                  "hand's fold, M5: it needs both partners). The move asks; each partner in "
                  "playing order answers confirm SEAT yes or no; the last yes makes the "
                  "give-up, a no plays on (after a concede his team concedes no more this "
                  "hand). Needs partners. Default [] (none).")},
})


# -- the kind's state in a position ---------------------------------------------------------
def _export(asked: Asked) -> dict[str, Any]:
    give_up = None if asked.what is None else {
        "move": asked.what, "seat": asked.seat, "agreed": list(asked.agreed)}
    return {"asked": give_up, "went_on": list(asked.went_on)}


def _read(given: dict[str, Any]) -> Asked:
    asked = given["asked"]
    if asked is None:
        return Asked(None, 0, (), tuple(given["went_on"]))
    return Asked(asked["move"], asked["seat"], tuple(asked["agreed"]),
                 tuple(given["went_on"]))


def _refuse(message: str, at: str) -> PositionError:
    return PositionError(Why("bad_confirm", message), path=f"{NAME}.{at}")


def _check(m: MatchView, p: dict[str, Any]) -> None:
    """The give-up asked in a position: only in a variant with ``confirm.moves`` (left out
    while nothing is asked and no team was told to go on); a give-up exactly in state
    ``confirm``, one the variant lists, by a seat that may make it now, agreed by his first
    partners in playing order (not all); each team told to go on once."""
    rules = m.rules
    given = p.get(NAME)
    if given is not None and not enabled(rules):
        raise PositionError(Why("bad_confirm", "this variant has no confirm.moves"), path=NAME)
    if given is None:  # left out: nothing asked, nobody told to go on
        if p["state"] == NAME:
            raise _refuse("a give-up waits for the partners in state confirm: expected "
                          "confirm.asked, found no confirm", "asked")
        return
    went_on = given["went_on"]
    for k, team in enumerate(went_on):
        if not 0 <= team < rules.teams or team in went_on[:k]:
            raise _refuse(f"expected each team once (0..{rules.teams - 1}), found {team}",
                          f"went_on[{k}]")
    asked = given["asked"]
    if (asked is not None) != (p["state"] == NAME):
        raise _refuse("a give-up waits for the partners exactly in state confirm (the state "
                      f"is {p['state']})", "asked")
    if asked is None:
        return
    what, seat = asked["move"], asked["seat"]
    if what not in moves(rules):
        raise _refuse(f"this variant's partners confirm {', '.join(moves(rules))}, not "
                      f"{what}", "asked.move")
    if not 0 <= seat < rules.players:
        raise _refuse(f"there is no seat {seat}", "asked.seat")
    mates = partners(rules, seat)
    if list(asked["agreed"]) != mates[:len(asked["agreed"])] or len(asked["agreed"]) >= len(
            mates):
        raise _refuse(f"expected some of seat {seat}'s partners {mates} in this order, not "
                      "all, found {asked['agreed']}", "asked.agreed")
    _check_give_up(m, p, what, seat)


def _check_give_up(m: MatchView, p: dict[str, Any], what: str, seat: int) -> None:
    """The asked give-up is one the seat may make at this point of the hand."""
    rules = m.rules
    team = rules.team_of[seat]
    if what == "concede":
        turn = p["round"]["turn"]
        if seat != turn or p["pending"] is not None or team in p[NAME]["went_on"]:
            raise _refuse(f"seat {seat} concedes on his own turn (seat {turn}'s), with no "
                          "raise pending, his team not told to go on", "asked.seat")
        if p["special"] is not None and not rules.concede_in_special_hands:
            raise _refuse("no concede in a special hand (concede.in_special_hands)",
                          "asked.move")
        return
    special = p["special"]
    if special is None or m.hand.special == NORMAL or not m.hand.rule.decision:  # type: ignore[union-attr]
        raise _refuse("a special hand's fold is asked only in a special hand with a "
                      "decision (M5)", "asked.move")
    if team != m.hand.special_team or p["rounds"] or p["round"]["cards"]:
        raise _refuse(f"only the team at the score folds, before any card; not seat {seat}",
                      "asked.seat")


_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["asked", "went_on"],
    "description": ("House rule (confirm.moves): the give-up waiting for the partners' "
                    "confirmation, and the teams whose partners said go on to a concede this "
                    "hand. Only in a variant with confirm.moves, left out while nothing is "
                    "asked and no team was told to go on."),
    "properties": {
        "asked": {"description": "The give-up waiting for the partners, exactly in state "
                                 "confirm; null: none.", "oneOf": [{"type": "null"}, {
            "type": "object", "additionalProperties": False,
            "required": ["move", "seat", "agreed"],
            "properties": {
                "move": {"type": "string", "enum": list(MOVES),
                         "description": "concede, or fold_hand (a special hand's fold)."},
                "seat": {"type": "integer", "minimum": 0, "description": "Who asked."},
                "agreed": {"type": "array", "items": {"type": "integer", "minimum": 0},
                           "description": "His partners who agreed so far, in playing "
                                          "order from him."}}}]},
        "went_on": {"type": "array", "items": {"type": "integer", "minimum": 0},
                    "description": "The teams whose partners said go on to a concede this "
                                   "hand: they concede no more in it."}}}

STATE = KindState(NAME, enabled, FRESH, _SCHEMA, check=_check, export=_export, read=_read,
                  optional=True)


# -- its words ----------------------------------------------------------------------------
def _named(what: str | None) -> str:
    return "concede" if what == "concede" else "fold of the special hand"


def _tell(a: Action, w: Words) -> str:
    if a.play_on:
        return f"{w.who} agree{w.s}: the team gives up"
    return f"{w.who} say{w.s} go on: the team plays on"


def _menu(a: Action, w: Words) -> str:
    return "yes (agree: the team gives up)" if a.play_on else "no (go on: play the hand)"


KIND = register(MoveKind(
    name=NAME, tell=_tell, menu=_menu, judge=_judge, effect=_effect, lister=_lister,
    transitions=_transitions, adjust=_adjust, enabled=enabled,
    payload=Payload((Choice("agree", yes="yes", no="no",
                            doc="true: the partner agrees to give up; false: go on."),)),
    log=LogEvent(version=2, named="a confirm move", about=(
        "Move (version 2, variants with confirm.moves): a partner of the seat that asked to "
        "give up (a concede, a special hand's fold) agrees (true) or says go on (false).")),
    phases=(Waiting(NAME, lambda m: [_next(m)], pending="confirmation_pending",
                    about="a give-up waits for the partners' confirmation, house rule "
                          "confirm.moves"),),
    not_now={None: "no give-up waits for the partners' confirmation"},
    block=BLOCK, keys=("confirm.moves",), state=STATE, sees=_sees,
    told=_tell,
    hint=(3, lambda legal, rules: "yes/agree, no/go on"),
    typed=lambda rules: [(3, ("yes", "sim", "confirmo", "agree"), "yes"),
                         (6, ("no", "não", "nao", "vamos", "go on", "continua"), "no")],
    space=lambda rules: ([((), {"play_on": True}, "confirm yes"),
                          ((), {"play_on": False}, "confirm no")] if enabled(rules) else [])))
