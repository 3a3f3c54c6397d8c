"""``redeal`` (a house rule): a player dealt a void hand throws it in; nobody scores and the next
hand is dealt (docs/rules.md, "A void hand").

The variant names the void hand as data: ``redeal.void_ranks`` (default ``Q J K``, the three
figures, Truco Capixaba's *família real*): every card the player was dealt is of one of those
ranks and none is a manilha of the hand (an extra card, a joker, has no rank). With
``redeal.allowed``, such a player may make one move, ``redeal SEAT``:

- on his own turn in round 1, before his card (a card is awaited from him: state ``play``);
- while the hand is as dealt: no raise made (the hand at its initial value), no side bet
  called or sung;
- outside the special hands (P5, P6, M5, M6: the hand the score makes is played).

The hand then ends for nobody, as a hand whose rounds all tie under P8: a ``hand`` checkpoint
with no winner and no points, the deal passing to the next dealer, the next hand dealt from the
seed (or awaited, without one). The void hand is not shown: the engine checks it, and the other
seats learn only that it was void.

The variant keys: ``redeal.allowed`` and ``redeal.void_ranks``, read with
:meth:`Rules.block <engine.rules.Rules.block>`.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.cards import card_rank, is_extra
from engine.errors import Why
from engine.i18n import _, person
from engine.moves import MoveKind, VariantBlock, Words, flag, move_transitions, register, words
from engine.moves.outcome import conclude
from engine.moves.scoring import end_hand
from engine.payload import LogEvent, Payload
from engine.ruling import Ruling
from engine.state import NORMAL, Phase

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import MatchView

#: The kind's variant block (its keys: ``redeal.allowed``, ``redeal.void_ranks``).
BLOCK = "redeal"
#: Its schema: each key's type and default.
KEYS = VariantBlock(BLOCK, about=(
    "House rule, a void hand (the família real of Truco Capixaba's glossary): a player dealt "
    "a hand of void_ranks only, none a manilha, may throw it in on his first turn of the "
    "hand, before his card and before any raise or side bet; the hand scores for nobody and "
    "the next hand is dealt. Absent: no redeal."), keys={
    "allowed": flag(
        "House rule: a player whose dealt hand is void may make a redeal move (redeal SEAT) "
        "on his turn in round 1, before his card, while no raise or side bet was made, "
        "outside the special hands. Default false."),
    "void_ranks": words("A23456789TJQK", "QJK", (
        "House rule: the ranks of a void hand: every card the player was dealt is of one of "
        "them, and none is a manilha of the hand (an extra card, a joker, is of no rank). "
        "Default the figures, Q J K (the família real).")),
})


def allowed(rules: Rules) -> bool:
    """Whether the variant lets a void hand be thrown in (``redeal.allowed``)."""
    return bool(rules.block(BLOCK)["allowed"])


def is_void(rules: Rules, cards: tuple[int, ...], manilhas: tuple[int, ...]) -> bool:
    """Whether a hand dealt as ``cards`` is void: every card of a rank of
    ``redeal.void_ranks``, none of them a manilha (``manilhas``: the hand's) nor an extra card.

    >>> from engine.cards import parse_card
    >>> from engine.variant import load_variant
    >>> rules = load_variant("redeal")
    >>> hand = tuple(parse_card(c) for c in ("Qd", "Jc", "Ks"))
    >>> is_void(rules, hand, ()), is_void(rules, hand, (parse_card("Ks"),))
    (True, False)
    """
    ranks = rules.block(BLOCK)["void_ranks"]
    return all(not is_extra(c) and card_rank(c) in ranks and c not in manilhas for c in cards)


@cache
def _redeals(players: int) -> tuple[Action, ...]:
    """The redeal of each seat (made once per table size)."""
    return tuple(Action("redeal", s) for s in range(players))


def _refusal(m: MatchView, seat: int) -> str | None:
    """Why ``seat`` may not throw in his hand now, or ``None``."""
    hand, rnd = m.hand, m.round
    if hand.special != NORMAL:
        name = hand.rule.name  # type: ignore[union-attr]
        return Why("no_redeal_in_special_hand", f"no redeal in the {name}: it is played")
    if seat != rnd.turn:
        return Why("not_your_turn",
                   f"a player throws in his hand on his own turn; it is seat {rnd.turn}'s")
    if rnd.number != 0 or hand.value != m.rules.initial_value or (
            hand.side is not None and any(b.chain or b.sung for b in hand.side)):
        return Why("redeal_too_late", "a void hand is thrown in on its first turn, before its "
                                      "card and before any raise or side bet")
    if not is_void(m.rules, hand.dealt[seat], m.rules.manilhas_for(hand.vira)):
        ranks = " ".join(m.rules.block(BLOCK)["void_ranks"])
        return Why("hand_not_void", f"seat {seat}'s hand is not void (every card of {ranks}, "
                                    f"no manilha: redeal.void_ranks)")
    return None


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    why = _refusal(m, a.seat)
    if why is None:
        conclude(m, r, None, 0)  # the hand ends for nobody (as P8's)
    return why


def _effect(move: Action, r: Ruling) -> None:
    end_hand(r.model, r)


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    turn = m.round.turn
    if (seat is None or seat == turn) and _refusal(m, turn) is None:
        out.append(_redeals(m.move_table.players)[turn])


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    return move_transitions("redeal", Phase.PLAY, None, goes=False)  # it always ends the hand


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me,
                  _("you throw in a void hand: nobody scores, the cards are dealt again"),
                  _("{who} throws in a void hand: nobody scores, the cards are dealt again"),
                  who=w.who)


def _menu(a: Action, w: Words) -> str:
    return _("redeal (throw in your void hand: nobody scores, a new hand is dealt)")


KIND = register(MoveKind(
    name="redeal", tell=_tell, menu=_menu, order=11, judge=_judge, effect=_effect,
    lister=_lister, transitions=_transitions, enabled=allowed, payload=Payload(),
    log=LogEvent(place=12, version=2, named="a redeal move",
                 about=("Move (version 2, variants with redeal.allowed): the seat throws in the "
                        "void hand it was dealt (redeal.void_ranks), on its turn in round 1 "
                        "before its card; the hand ends for nobody (a hand checkpoint with no "
                        "winner) and the next hand is dealt.")),
    not_now={None: "no redeal now: a void hand is thrown in on its turn in round 1, before "
                   "its card",
             Phase.DEAL: "no hand is in play"},
    block=KEYS, keys=("redeal.allowed", "redeal.void_ranks"),
    # its words (truco play, the transcript) and its moves in engine.env's action space (after
    # a concede, before the side bets' calls)
    told=_tell,
    typed=lambda rules: [(5, ("redeal", "redistribui", "embaralha"), "")],
    space=lambda rules: [((5, 1), {}, "redeal")] if allowed(rules) else []))
