"""``raise``: a team raises the bet to the next step of the ladder (C8), on its own turn or at
any time (P4, M3), never twice in a row (C10), naming a card where the variant says (M4); the
challenged team may raise back instead of answering (C9). In a special hand a raise is
penalised (it loses the hand or the game) or refused (P5, P6, M5, M6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import card_name
from engine.machine import Ruling
from engine.moves import MoveKind, has_ladder, move_transitions, register
from engine.moves.deal import has_decision
from engine.moves.outcome import accept_pending, conclude, end_hand, win_game
from engine.moves.play import beats_table
from engine.state import NORMAL, ONE_TEAM

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.game import Match
    from engine.rules import Rules


def _judge(m: Match, a: Action, r: Ruling) -> str | None:
    rules = m.rules
    seat = a.seat
    st = m.state
    hand = m.hand
    if hand.special != NORMAL:
        # P5, P6, M5, M6: any raise in a special hand is penalised (or refused)
        team = seat % 2
        if hand.special == ONE_TEAM:
            one = rules.one_team
            name, raises = one.name, one.raises
            penalty = (one.penalty_team_at_score if team == hand.special_team
                       else one.penalty_other_team)
        else:
            both = rules.both_teams
            name, raises, penalty = both.name, both.raises, both.penalty
        if raises == "illegal" or st not in ("play", "decide"):
            return f"no raise is allowed in the {name}"
        if penalty == "lose_hand":
            conclude(m, r, 1 - team, hand.value)
        else:  # lose_game: the game ends at once, the other team wins it, scores unchanged
            win_game(m, r, 1 - team)
        return None
    if st == "answer":
        pending = hand.pending
        assert pending is not None
        if seat % 2 == pending[0] % 2:
            return "only the challenged team may raise back"
        base = pending[1]
    else:  # play: the only other state with a raise in a normal hand
        turn = m.round.turn
        if rules.raise_timing == "own_turn" and seat != turn:
            return f"a raise only on one's own turn (P4); it is seat {turn}'s"
        if seat % 2 == hand.last_raise_team:
            return "a team cannot raise twice in a row (C10)"
        base = hand.value
    step = rules.next_step(base)
    if step is None:
        return f"the ladder stops at {base}"
    if a.value != step.value:
        return f"a raise names the next step, {step.value} ({step.name})"
    card = a.card
    if a.position is not None:
        return "a raise by position is a bot's view of a blind hand, not a move"
    if rules.name_card:
        cards = hand.hands[seat]
        if not cards:
            return "a seat with no card left cannot raise (M4)"
        if card is None:
            return "the raiser names the card he raises with (M4)"
        if card not in cards:
            return f"seat {seat} does not hold {card_name(card)}"
        bound = hand.bound[seat]
        if bound is not None and card != bound:
            return f"seat {seat} is bound to {card_name(bound)} (M4)"
    elif card is not None:
        return "this variant's raises name no card"
    if rules.raiser_must_beat and not beats_table(m, seat):
        return "a raiser's best card must beat the card on the table (play.raiser_must_beat)"
    return None


def _effect(ev: Any) -> None:
    m: Match = ev.model
    a, r = ev.args
    if r.ends:  # penalised in a special hand
        end_hand(m, r)
        return
    hand = m.hand
    if m.state == "answer":
        accept_pending(hand)  # a raise back accepts the pending raise (C9 pinned)
    hand.pending = (a.seat, a.value, a.card)


def _lister(m: Match, seat: int | None, out: list[Action]) -> None:
    """Raises in a normal hand (those a special hand penalises are never offered)."""
    hand = m.hand
    if hand.special != NORMAL:
        return
    moves = m.moves
    if m.state == "answer":
        pending = hand.pending
        assert pending is not None and seat is not None
        value = moves.next_value.get(pending[1])
        if value is not None and seat % 2 != pending[0] % 2:
            _raises(m, seat, value, out)
        return
    value = moves.next_value.get(hand.value)
    if value is None:
        return
    if moves.any_time:
        team = hand.last_raise_team
        for s in range(moves.players):
            if (seat is None or seat == s) and s % 2 != team:
                _raises(m, s, value, out)
    else:
        t = m.round.turn
        if (seat is None or seat == t) and t % 2 != hand.last_raise_team:
            _raises(m, t, value, out)


def _raises(m: Match, seat: int, value: int, out: list[Action]) -> None:
    rules = m.rules
    if rules.raiser_must_beat and not beats_table(m, seat):
        return
    table = m.moves.raises
    if not rules.name_card:
        out.append(table[seat, value, None])
        return
    hand = m.hand
    bound = hand.bound[seat]
    for c in (hand.hands[seat] if bound is None else (bound,)):
        out.append(table[seat, value, c])


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    one, both = rules.one_team, rules.both_teams
    # P5, P6, M5, M6: a raise in a special hand loses the hand or the game (or is refused)
    penalised = any(h.enabled and h.raises == "penalised" for h in (one, both))
    ladder = has_ladder(rules)
    out = []
    if has_decision(rules):
        # a raise is never a bet here: penalised (or refused, and then no transition passes)
        out += move_transitions("raise", "decide", None, goes=False)
    # A raise in a normal hand waits for its answer; in a special hand it is penalised.
    out += move_transitions("raise", "play", "answer" if ladder else None, ends=penalised)
    if ladder:
        out += move_transitions("raise", "answer", None, ends=False)  # a raise back (C9)
    return out


KIND = register(MoveKind(
    name="raise", order=4, judge=_judge, effect=_effect, lister=_lister,
    transitions=_transitions,
    not_now={None: "no raise is possible now"},
    keys=("betting", "special_hands.one_team.raises", "special_hands.one_team.raise_penalty",
          "special_hands.both_teams.raises", "special_hands.both_teams.raise_penalty",
          "play.raiser_must_beat")))
