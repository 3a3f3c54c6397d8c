"""A match's position now, as JSON-ready data (docs/positions.md): :func:`export`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.cards import Card, card_name
from engine.matchpos.schema import POSITION_FORMAT, Position
from engine.moves import KINDS, kind_states
from engine.state import NORMAL, PLAY

if TYPE_CHECKING:
    from engine.sidebets import BetState
    from engine.view import MatchView


def _card(c: Card | None) -> str | None:
    return None if c is None else card_name(c)


def _played(cards: Sequence[tuple[int, Card, bool]]) -> list[dict[str, Any]]:
    return [{"seat": s, "card": card_name(c), "covered": cov} for s, c, cov in cards]


def export(m: MatchView) -> Position:
    """The position of ``m`` now: a JSON-ready dict (docs/positions.md)."""
    hand = m.hand
    rnd = m.round
    rounds = [{"cards": _played([(s, c, cov) for r, s, c, cov in hand.played if r == i]),
               "winner": w} for i, w in enumerate(hand.results)]
    special: dict[str, Any] | None = None
    if hand.special != NORMAL:
        assert hand.rule is not None
        special = {"entry": hand.special - 1, "name": hand.rule.name,
                   "team": hand.special_team, "decider": hand.decider}
    pending: dict[str, Any] | None = None
    if hand.pending is not None:
        ps, pv, pc = hand.pending
        pending = {"seat": ps, "value": pv, "card": _card(pc)}
    last: dict[str, Any] | None = None
    if m.last_hand is not None:
        number, played, shown, results, blind = m.last_hand
        last = {"hand_number": number,
                "played": [{"round": r + 1, "seat": s, "card": card_name(c), "covered": cov}
                           for r, s, c, cov in played],
                "shown": [{"seat": s, "card": card_name(c)} for s, c in shown],
                "rounds": list(results), "blind": blind}
    return {
        "position": POSITION_FORMAT,
        "state": m.state,
        "score": m.score[:],
        "games": m.games[:],
        "winner": m.winner,
        "dealer": m.dealer,
        "hand_number": m.hand_number,
        "value": hand.value,
        "special": special,
        "pending": pending,
        # the folds of the pending raise (whole_team): a raise refused, they are over with it
        "refused": list(hand.refused) if hand.pending is not None else [],
        "last_raise_team": hand.last_raise_team,
        "vira": _card(hand.vira),
        "hands": [[card_name(c) for c in h] for h in hand.hands],
        "dealt": [[card_name(c) for c in h] for h in hand.dealt],
        "rounds": rounds,
        "round": {"number": rnd.number + 1, "leader": rnd.leader, "turn": rnd.turn,
                  "cards": _played(rnd.cards)},
        "shown": [{"seat": s, "card": card_name(c)} for s, c in hand.shown],
        "bound": [_card(c) for c in hand.bound],
        "last_hand": last,
        "rng": m.rng.state if m.rng is not None else None,
        **({"side_bets": _export_bets(hand.side)} if hand.side is not None else {}),
        # the kinds' own state (engine.moves.KindState), in the kinds' order
        **{s.key: s.export(hand.own[s.key]) for s in kind_states(m.rules)
           if s.shown(hand.own[s.key])},
    }


def _export_bets(side: Sequence[BetState]) -> list[dict[str, Any]]:
    """The hand's side bets (G22-G32), one entry per bet of the variant, in its order; in a
    variant with a bet that kills others (a flor, G33-G41) also whether each was killed (G37),
    and each bet's kind's own fields (``MoveKind.bet_fields``: of the flor the seats that
    sang and the flores that scored)."""
    out: list[dict[str, Any]] = [
        {"bet": b.bet.name, "calls": list(b.chain), "caller": b.caller,
         "pending": b.pending, "settled": b.settled, "accepted": b.accepted,
         "winner": b.winner, "points": b.points, "owed": b.owed,
         "shown": None if b.shown is None else
         {"seat": b.shown[0], "cards": [card_name(c) for c in b.shown[1]]}}
        for b in side]
    kinds = [KINDS[b.bet.kind] for b in side]
    if any(kind.bet_kills for kind in kinds):
        for entry, b, kind in zip(out, side, kinds, strict=True):
            entry["killed"] = b.killed
            if kind.bet_fields is not None:
                entry.update(kind.bet_fields(b, card_name))
    return out


def hand_has_moves(m: MatchView) -> bool:
    """Whether a move was made in the hand in play since its deal (a card, a raise, a side
    bet called or a flor sung, a special hand decided): a log starting at such a position has
    no ``deal`` line for this hand."""
    hand = m.hand
    if hand.played or hand.pending is not None or hand.last_raise_team is not None:
        return True
    if any(b.chain or b.sung or b.killed for b in hand.side or ()):
        return True
    if hand.own != m.move_table.own:  # a kind's own state changed by a move (a give-up asked)
        return True
    rule = hand.rule
    return m.state == PLAY and rule is not None and rule.decision  # M5: decided

