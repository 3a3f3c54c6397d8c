"""``raise``: a team raises the bet to the next step of the ladder (C8), on its own turn or at
any time (P4, M3), never twice in a row (C10), naming a card where the variant says (M4); the
challenged team may raise back instead of answering (C9). In a special hand a raise is
penalised (it loses the hand or the game) or refused (P5, P6, M5, M6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action, as_card, declare
from engine.cards import Card, card_name
from engine.errors import Why
from engine.i18n import _, person
from engine.moves import (
    Judge,
    Lister,
    MoveKind,
    Words,
    has_ladder,
    move_transitions,
    register,
)
from engine.moves.answers import PINNED, who_answers
from engine.moves.deal import has_decision
from engine.moves.names import RAISE_KIND
from engine.moves.obligations import in_force, named_cards, refused
from engine.moves.outcome import accept_pending, conclude, other_team
from engine.moves.play import MUST_KILL, beats_table, kill_target
from engine.moves.scoring import end_hand, win_game
from engine.payload import CardField, LogEvent, Number, Payload
from engine.ruling import Ruling
from engine.state import ANSWER, DECIDE, NORMAL, PLAY, Phase, set_own

#: M3: a bot's view of declining an offer to raise out of turn (:func:`pass_`).
PASS = "pass"

if TYPE_CHECKING:
    from engine.checkpoint import Checkpoint
    from engine.rules import Rules
    from engine.view import Listing, MatchView, Quick


def _judge(m: MatchView, a: Action, r: Ruling, table: Raises | None = None) -> str | None:
    rules = m.rules
    seat = a.seat
    st = m.state
    hand = m.hand
    if hand.special != NORMAL:
        rule = hand.rule
        assert rule is not None
        if rule.raises != "allowed":
            # P5, P6, M5, M6: a raise in this special hand is penalised (or refused); its
            # penalty by whether the raising team is at the hand's score
            team = rules.team_of[seat]
            penalty = (rule.penalty_team_at_score if rule.at_score(m.score[team])
                       else rule.penalty_other_team)
            if rule.raises == "illegal" or st not in (PLAY, DECIDE):
                return Why("raise_not_allowed", f"no raise is allowed in the {rule.name}")
            if penalty == "lose_hand":
                conclude(m, r, other_team(rules, team), hand.value)
            else:  # lose_game: the game ends at once, the other team wins it, scores unchanged
                win_game(m, r, other_team(rules, team))
            return None
        if st == DECIDE:
            return Why("decision_first", f"the {rule.name}'s decision comes first")
    if st == ANSWER:
        pending = hand.pending
        assert pending is not None
        if rules.team_of[seat] == rules.team_of[pending[0]]:
            return Why("not_challenged", "only the challenged team may raise back")
        why = who_answers(m, seat)  # C9 house rules: the next seat, a partner who folded
        if why is not None:
            return why
        base = pending[1]
    else:  # play: the only other state with a raise in a normal hand
        turn = m.round.turn
        if rules.raise_timing == "own_turn" and seat != turn:
            return Why("not_your_turn", f"a raise only on one's own turn (P4); it is seat {turn}'s")
        if rules.team_of[seat] == hand.last_raise_team:
            return Why("same_team_raised_last", "a team cannot raise twice in a row (C10)")
        base = hand.value
    if rules.no_raise_when_winning and m.score[rules.team_of[seat]] + base >= rules.target:
        return Why("no_raise_when_winning",
                   f"no raise when winning the hand at {base} "
                   "already wins the game (betting.no_raise_when_winning)")
    step = rules.next_step(base)
    if step is None:
        return Why("ladder_exhausted", f"the ladder stops at {base}")
    if table is None:  # (the variant's judge has it: _judging)
        table = m.move_table.tables[RAISE_KIND]
    cap = raise_cap(m) if table.limited else None  # (a call less where nothing caps)
    if cap is not None and step.value > cap:
        return Why("raise_limit", f"no raise above {cap}: a hand worth {cap} already gives the "
                                  "trailing team the game (betting.raise_limit)")
    if a.value != step.value:
        return Why("wrong_step", f"a raise names the next step, {step.value} ({step.name})")
    card = a.card
    if a.position is not None:
        return Why("position_not_a_move",
                   "a raise by position is a bot's view of a blind hand, not a move")
    if table.name_card:
        cards = hand.hands[seat]
        if not cards:
            return Why("no_card_to_name", "a seat with no card left cannot raise (M4)")
        if card is None:
            return Why("card_not_named", "the raiser names the card he raises with (M4)")
        if card not in cards:
            return Why("card_not_held", f"seat {seat} does not hold {card_name(card)}")
        bound = hand.bound[seat]
        if bound is not None and card != bound:
            return Why("bound_card", f"seat {seat} is bound to {card_name(bound)} (M4)")
        if bound is None and table.obliged:
            # obligations.named_card: the card he must play next
            why = refused(m, seat, card)
            if why is not None:
                return why
    elif card is not None:
        return Why("card_named", "this variant's raises name no card")
    if table.must_beat and not beats_table(m, seat):
        return Why("does_not_beat_table",
                   "a raiser's best card must beat the card on the table (play.raiser_must_beat)")
    return None


def _judging(rules: Rules, table: Raises) -> Judge:
    """The raise kind's judge in the variant (``MoveKind.judging``): :func:`_judge` with its
    table, without looking it up a move."""

    def judge(m: MatchView, a: Action, r: Ruling) -> str | None:
        return _judge(m, a, r, table)

    return judge


def _quicking(rules: Rules, table: Raises, enters: dict[str, Any]) -> Quick | None:
    """The raise kind's quick move (``MoveKind.quick``, :mod:`engine.moves.quick`) in a
    normal hand: a raise on one's own turn to the next step (``play`` to ``answer``), or a
    raise back (C9), made whole as :func:`_judge` and :func:`_effect` would; where raises are
    plain (no card named, no house limit: ``Raises.plain``), no raiser must kill the table
    (``play.raiser_must_kill``), any player of the challenged team answers (C9 pinned) and
    the answer state runs nothing on entering it. None elsewhere."""
    if (not table.plain or table.limited or rules.raiser_must_kill
            or rules.answered_by != PINNED or enters.get(ANSWER)):
        return None
    next_value, team_of, back = table.next_value, rules.team_of, rules.raise_back

    def quick(m: MatchView, a: Action) -> list[Checkpoint] | None:
        hand = m.hand
        if hand.special != NORMAL or a.card is not None or a.position is not None:
            return None
        seat = a.seat
        st = m.state
        if st == PLAY:
            value = next_value.get(hand.value)
            if (value is None or value != a.value or seat != m.round.turn
                    or team_of[seat] == hand.last_raise_team):
                return None
            hand.pending = (seat, value, None)
            m.state = ANSWER
            return []
        pending = hand.pending
        if st != ANSWER or not back or hand.refused or pending is None:
            return None
        value = next_value.get(pending[1])
        if value is None or value != a.value or team_of[seat] == team_of[pending[0]]:
            return None
        accept_pending(hand, team_of)  # a raise back accepts the raise it answers (C9)
        hand.pending = (seat, value, None)
        return []

    return quick


def _effect(a: Any, r: Ruling) -> None:
    m: MatchView = r.model
    if r.ends:  # penalised in a special hand
        end_hand(m, r)
        return
    hand = m.hand
    if m.state == ANSWER:
        # a raise back accepts the pending raise (C9 pinned)
        accept_pending(hand, m.rules.team_of)
        if hand.refused:
            hand.refused = ()  # and overrules a partner's fold (betting.refusal: whole_team)
    hand.pending = (a.seat, a.value, a.card)
    seat = a.seat
    if m.rules.raiser_must_kill:
        killers = hand.own[MUST_KILL]
        if (seat not in killers and all(s != seat for s, _, _ in m.round.cards)
                and kill_target(m, seat) is not None):
            # C8 (house): a raise against a card on the table, before his card of the round;
            # once no longer pending with the hand going on, it was accepted (a refusal ends
            # the hand)
            set_own(hand, MUST_KILL, (*killers, seat))


class Raises:
    """The raise kind's table of a variant (``MoveKind.table``): every raise, made once, and
    what its judge and lister read of the rules."""

    __slots__ = ("moves", "by_value", "next_value", "winning", "any_time", "limited", "plain",
                 "name_card", "must_beat", "obliged")

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        cards: list[Card | None] = list(rules.deck) if rules.name_card else [None]
        #: Every raise, by seat, value and named card.
        self.moves = {(s, step.value, c): Action(RAISE_KIND, s, c, False, step.value)
                      for s in range(n) for step in rules.ladder for c in cards}
        #: The same, by value, then seat, then card named: no tuple key built to list one.
        self.by_value = {step.value: [{c: self.moves[s, step.value, c] for c in cards}
                                      for s in range(n)] for step in rules.ladder}
        values = [rules.initial_value, *(step.value for step in rules.ladder)]
        # C8: the only raise from each value is to the next step (none at the top)
        self.next_value = dict(zip(values, values[1:], strict=False))
        for special in rules.special_hands:  # a special hand that allows raises: its next step
            step = rules.next_step(special.value)
            if special.raises == "allowed" and step is not None:
                self.next_value.setdefault(special.value, step.value)
        #: The target no raise may reach from (betting.no_raise_when_winning), or None.
        self.winning = rules.target if rules.no_raise_when_winning else None
        self.any_time = rules.raise_timing == "any_time"
        #: Whether the trailing team's need caps the raises (betting.raise_limit).
        self.limited = rules.block("betting")["raise_limit"] != "none"
        #: Raises on one's own turn naming no card, with no house limit on who may raise
        #: (no_raise_when_winning, raiser_must_beat): the raise lister's usual case, inline.
        self.plain = (not self.any_time and not rules.name_card and self.winning is None
                      and not rules.raiser_must_beat)
        #: Whether raises name their card (M4), the raiser's best card must beat the table
        #: (``play.raiser_must_beat``), and the play obligations limit the card named
        #: (:func:`engine.moves.obligations.in_force`): read once, not a raise.
        self.name_card = rules.name_card
        self.must_beat = rules.raiser_must_beat
        self.obliged = in_force(rules)


def raises(m: MatchView) -> Raises:
    """The variant's raises (its :class:`Raises`)."""
    table: Raises = m.move_table.tables[RAISE_KIND]
    return table


def raises_any_time(m: MatchView) -> bool:
    """Whether anyone may raise while a card is awaited in ``m``'s variant (P4, M3:
    ``betting.raise_timing: any_time``): what drivers read to offer raises out of turn."""
    return raises(m).any_time


def _listing(rules: Rules, table: Raises) -> Lister:
    """The raise kind's lister in the variant: raises in a normal hand, or a special hand
    that allows them (those a special hand penalises are never offered); none where winning
    the hand at its value already wins the game, in a variant that forbids those
    (``betting.no_raise_when_winning``)."""
    moves, next_value, winning = table.moves, table.next_value, table.winning
    any_time, limited, plain, players = table.any_time, table.limited, table.plain, rules.players
    if plain and not limited:
        return _plain_listing(rules, table)

    def lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
        hand = m.hand
        if hand.special != NORMAL and (hand.rule.raises != "allowed"  # type: ignore[union-attr]
                                       or m.state == DECIDE):
            return
        if limited:
            cap = raise_cap(m)
            if cap is not None and next_value.get(
                    hand.pending[1] if m.state == ANSWER else hand.value,  # type: ignore[index]
                    cap + 1) > cap:
                return
        if m.state == ANSWER:
            pending = hand.pending
            assert pending is not None and seat is not None
            value = next_value.get(pending[1])
            if value is not None and (  # seat: one that may answer (answers.py)
                    winning is None or m.score[m.rules.team_of[seat]] + pending[1] < winning):
                _raises(m, table, seat, value, out)
            return
        value = next_value.get(hand.value)
        if value is None:
            return
        if plain:  # on one's own turn, no card named, no house limit (P4, C10)
            t = m.round.turn
            if (seat is None or seat == t) and m.rules.team_of[t] != hand.last_raise_team:
                out.append(moves[t, value, None])
            return
        team_of = m.rules.team_of
        if winning is not None:
            score = m.score
            base = hand.value
        if any_time:
            team = hand.last_raise_team
            for s in range(players):
                if (seat is None or seat == s) and team_of[s] != team and (
                        winning is None or score[team_of[s]] + base < winning):
                    _raises(m, table, s, value, out)
        else:
            t = m.round.turn
            if (seat is None or seat == t) and team_of[t] != hand.last_raise_team and (
                    winning is None or score[team_of[t]] + base < winning):
                _raises(m, table, t, value, out)

    return lister


def _plain_listing(rules: Rules, table: Raises) -> Lister:
    """The raise kind's lister where raises are plain (``Raises.plain``) and no house limit
    caps them: :func:`_listing`'s lister for that case, each seat's raise from a value found
    at once (``to[value][seat]``)."""
    team_of, to = rules.team_of, _rows(rules, table)

    def lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
        hand = m.hand
        st = m.state
        if hand.special != NORMAL and (hand.rule.raises != "allowed"  # type: ignore[union-attr]
                                       or st == DECIDE):
            return
        if st == ANSWER:  # seat: one that may answer (answers.py)
            row = to.get(hand.pending[1])  # type: ignore[index]
            if row is not None:
                out.append(row[seat])  # type: ignore[index]
            return
        row = to.get(hand.value)
        if row is not None:  # on one's own turn (P4, C10)
            t = m.round.turn
            if (seat is None or seat == t) and team_of[t] != hand.last_raise_team:
                out.append(row[t])

    return lister


def _rows(rules: Rules, table: Raises) -> dict[int, list[Action]]:
    """Each seat's plain raise from each value it may be made from (``to[value][seat]``)."""
    moves = table.moves
    return {value: [moves[s, step, None] for s in range(rules.players)]
            for value, step in table.next_value.items()}


def _quick_listing(rules: Rules, table: Raises, state: str) -> Listing | None:
    """The raise kind's lister as source (``MoveKind.quick_listing``, :mod:`engine.moves.quick`)
    in any state but a special hand's decision (on one's own turn or anyone's, or as the
    answer to a raise): :func:`_plain_listing`'s where raises are plain; else
    :func:`_listing`'s where no house limit applies (no trailing cap, no raise when winning,
    no raiser who must beat the table, no obligation on the card named)."""
    if (table.limited or state == DECIDE
            or not table.plain and (table.winning is not None or table.must_beat
                                    or table.obliged)):
        return None
    names: dict[str, Any] = {"raise_team_of": rules.team_of}
    lines = [f"if hand.special == {NORMAL!r} or hand.rule.raises == 'allowed':"]
    if table.plain:  # each seat's raise from a value found at once
        names["raise_to"] = _rows(rules, table)
        if state == ANSWER:  # a raise back by ``seat``, one that may answer (answers.py)
            return lines + ["    row = raise_to.get(hand.pending[1])",
                            "    if row is not None:",
                            "        out.append(row[seat])"], names
        return lines + ["    row = raise_to.get(hand.value)",
                        "    if row is not None:",
                        "        t = rnd.turn",
                        "        if (seat is None or seat == t) and "
                        "raise_team_of[t] != hand.last_raise_team:",
                        "            out.append(row[t])"], names
    names.update(raise_next=table.next_value, raise_by_value=table.by_value,
                 raise_seats=range(rules.players))
    lines.append("    value = raise_next.get(hand.pending[1])" if state == ANSWER
                 else "    value = raise_next.get(hand.value)")
    lines.append("    if value is not None:")
    if state == ANSWER:
        return lines + _raising("seat", "        ", table.name_card), names
    if table.any_time:  # anyone of a team that did not raise last (M3)
        lines += ["        team = hand.last_raise_team",
                  "        for s in raise_seats:",
                  "            if (seat is None or seat == s) and raise_team_of[s] != team:"]
        return lines + _raising("s", "                ", table.name_card), names
    lines += ["        t = rnd.turn",
              "        if (seat is None or seat == t) and "
              "raise_team_of[t] != hand.last_raise_team:"]
    return lines + _raising("t", "            ", table.name_card), names


def _raising(who: str, indent: str, name_card: bool) -> list[str]:
    """:func:`_raises`' lines for the seat named ``who`` (``value`` set), where no raiser
    must beat the table and no obligation limits the card named."""
    if not name_card:
        return [f"{indent}out.append(raise_by_value[value][{who}][None])"]
    return [f"{indent}row = raise_by_value[value][{who}]",
            f"{indent}bound = hand.bound[{who}]",
            f"{indent}if bound is not None:",
            f"{indent}    out.append(row[bound])",
            f"{indent}else:",
            f"{indent}    for c in hand.hands[{who}]:",
            f"{indent}        out.append(row[c])"]


def raise_cap(m: MatchView) -> int | None:
    """``betting.raise_limit: trailing_needs`` (CTruco): the highest value a raise may reach,
    the lowest of the hand's initial value and the ladder's steps that reaches what the
    trailing team still needs (``game.target`` minus the lowest score), or the top step where
    none does; ``None``: no limit (``none``).

    >>> from engine import Match
    >>> m = Match.new("raise-limit-trailing-needs", seed=None)
    >>> m.score = [9, 5]  # the trailing team needs 7: a hand worth 9 gives it the game
    >>> raise_cap(m)
    9
    """
    if not raises(m).limited:
        return None
    rules = m.rules
    need = rules.target - min(m.score)
    values = [rules.initial_value, *(step.value for step in rules.ladder)]
    return next((v for v in values if v >= need), values[-1])


def _raises(m: MatchView, raises: Raises, seat: int, value: int, out: list[Action]) -> None:
    if raises.must_beat and not beats_table(m, seat):
        return
    row = raises.by_value[value][seat]
    if not raises.name_card:
        out.append(row[None])
        return
    hand = m.hand
    bound = hand.bound[seat]
    if bound is not None:
        out.append(row[bound])
        return
    cards = hand.hands[seat]
    for c in (named_cards(m, seat, cards)[0] if raises.obliged else cards):
        out.append(row[c])


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    # P5, P6, M5, M6: a raise in a special hand loses the hand or the game (or is refused)
    penalised = any(h.raises == "penalised" for h in rules.special_hands)
    ladder = has_ladder(rules)
    out = []
    if has_decision(rules):
        # a raise is never a bet here: penalised (or refused, and then no transition passes)
        out += move_transitions("raise", Phase.DECIDE, None, goes=False)
    # A raise in a normal hand waits for its answer; in a special hand it is penalised.
    out += move_transitions("raise", Phase.PLAY, Phase.ANSWER if ladder else None, ends=penalised)
    if ladder and rules.raise_back:
        out += move_transitions("raise", Phase.ANSWER, None, ends=False)  # a raise back (C9)
    return out


def _tell(a: Action, w: Words) -> str:
    name = w.rules.step_name(a.value or 0).upper()
    if a.card is not None and a.seat == w.me:  # M4: the card is shown to the others only
        return _("you call {raise_} ({value}) with {card}").format(  # once accepted
            raise_=name, value=a.value, card=w.card(a.card))
    return person(a.seat == w.me, _("you call {raise_} ({value})"),
                  _("{who} calls {raise_} ({value})"), who=w.who, raise_=name, value=a.value)


def _menu(a: Action, w: Words) -> str:
    name = w.rules.step_name(a.value or 0)
    with_card = _(" with {card}").format(card=w.label(a.card)) if a.card is not None else ""
    if w.worth is not None:  # what a refusal gives: a raise back accepts the pending one (C9)
        value, pending = w.worth
        refused = pending if pending is not None else value
        return _("{raise_} (raise to {value}; {fold} gives {refused})").format(
            raise_=name, value=a.value, fold=w.rules.move_name("fold", "corro"),
            refused=refused) + with_card
    return _("{raise_} (raise to {value})").format(raise_=name, value=a.value) + with_card

def _space(rules: Rules) -> list[tuple[tuple[int, ...], dict[str, Any], str]]:
    """One raise (to the next step), or one per card where a raise names its card (M4), and
    after the other kinds' moves one per position of a blind hand (P6)."""
    if not rules.ladder:
        return []
    if not rules.name_card:
        return [((1,), {}, "raise")]
    out: list[tuple[tuple[int, ...], dict[str, Any], str]] = [
        ((1,), {"card": c}, f"raise {card_name(c)}") for c in rules.deck]
    if any(h.blind for h in rules.special_hands):
        out += [((10,), {"position": i}, f"raise #{i + 1}")
                for i in range(rules.cards_per_player)]
    return out


def _told(a: Action, w: Words) -> str:
    step = f"{w.rules.step_name(a.value or 0)} ({a.value})"
    if a.card is not None:
        said = person(a.seat == w.me, _("you raise: {step} with {card}"),
                      _("{who} raises: {step} with {card}"), who=w.who, step=step,
                      card=w.card(a.card))
    else:
        said = person(a.seat == w.me, _("you raise: {step}"), _("{who} raises: {step}"),
                      who=w.who, step=step)
    return said + ("  " + _("(a raise where none is allowed)") if w.settles else "")


def raise_to(seat: Any, value: Any, card: Any = None) -> Action:
    """A raise of the hand to ``value``, naming ``card`` where the variant asks (M4)."""
    return Action(RAISE_KIND, seat, None if card is None else as_card(card), False, value)


def pass_(seat: Any) -> Action:
    """A bot's answer to an offer to raise out of turn (M3): no raise."""
    return Action(PASS, seat)

KIND = register(MoveKind(
    name="raise", tell=_tell, menu=_menu, order=4, judge=_judge, effect=_effect, table=Raises,
    judging=_judging, quick=_quicking, quick_listing=_quick_listing,
    listing=_listing, transitions=_transitions, payload=Payload((
        Number(minimum=1, doc="The new value of the hand: 3, 6, 9, 12 ..."),
        CardField(required=False, doc="The card the raiser names (variants with M4).")),
        factories=(raise_to,)),
    log=LogEvent(place=2,
                 about="Move: a raise to the next step of the ladder."),
        not_now={None: "no raise is possible now",
                 # betting.raise_back false: no raise from the answer state (C9 house rule)
                 Phase.ANSWER: Why("no_raise_back", "no raise back in this variant: accept "
                                                    "or fold (betting.raise_back)")},
        keys=("betting", "betting.raise_back", "betting.answered_by",
              "betting.no_raise_when_winning", "betting.raise_limit",
              "special_hands.one_team.raises",
              "special_hands.one_team.raise_penalty",
          "special_hands.both_teams.raises", "special_hands.both_teams.raise_penalty",
          "play.raiser_must_beat", "play.raiser_must_kill"),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    hint=(1, lambda legal, rules: rules.step_name(
        next(a.value or 0 for a in legal if a.kind == "raise"))),
    told=_told,
    space=_space))

#: M3: a bot offered a raise out of turn (``raise_timing: any_time``) may decline it; a pass is
#: a bot's view of a move only (:func:`engine.bots.base.out_of_turn_raise`), never in a log.
declare(PASS, Payload(factories=(pass_,), logged=False))
