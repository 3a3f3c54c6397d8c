"""``obligations`` (a house rule): the play obligations a raise that names its card (M4) cannot
dodge (docs/rules.md, "Obligations a raise cannot dodge").

Where a raise names the card it is made with (M4), that card, once the raise is accepted, is
the raiser's next card, before any play obligation (``play.highest_after_tied_first``,
``play.raiser_must_kill``): naming a low card lets him play it where the obligation would have
him play another. The kind's variant key, ``obligations.named_card``:

- ``free`` (the default, M4 as written): a raise names any card its raiser holds;
- ``obliged``: a raise names a card the play obligations would let him play next, judged when
  he names it (a card bound by an earlier accepted raise is named again, as M4 says):

  - ``play.highest_after_tied_first``: his next card is for a round after the first (it is
    round 2 or 3, or he has played his card of round 1) and round 1 is tied or not over yet
    (it may still tie): one of his highest cards;
  - ``play.raiser_must_kill``: he has not played his card of the round and a card of another
    team lies face up on the table (the raise binds him to beat it): a card that beats it,
    where he holds one.

Not in a blind hand (P6): there a raise names a hand position, and nobody sees his cards. The
kind has no move: :mod:`engine.moves.raising` asks :func:`named_cards` for the cards a raise
may name, in its judge and its lister.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from engine.cards import Card, card_name
from engine.errors import VariantError, Why
from engine.i18n import mark
from engine.moves import VariantBlock, choice, moveless
from engine.moves.play import kill_target

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import MatchView

#: The kind's variant block (its key: ``obligations.named_card``).
BLOCK_NAME = "obligations"
#: What ``obligations.named_card`` may say, the default first.
NAMED_CARD = ("free", "obliged")


def obliged(rules: Rules) -> bool:
    """Whether a raise names a card the play obligations let its raiser play next
    (``obligations.named_card: obliged``)."""
    return bool(rules.block(BLOCK_NAME)["named_card"] == "obliged")


def in_force(rules: Rules) -> bool:
    """Whether the variant ever leaves out a card a raise could name (:func:`named_cards`):
    a raise names its card (``betting.name_card``), ``obligations.named_card: obliged``, and a
    play obligation it binds is in force. Where not, a raise names any card its raiser holds:
    what the raise kind reads, once per variant, before it asks."""
    return bool(rules.name_card and (rules.highest_after_tied_first or rules.raiser_must_kill)
                and obliged(rules))


def named_cards(m: MatchView, seat: int, cards: Sequence[Card]) -> tuple[Sequence[Card], str]:
    """Of ``cards`` (those ``seat`` holds, not bound by a raise), the ones his raise may name
    now, and the obligation that leaves out the others (``""``: none does)."""
    rules = m.rules
    hand = m.hand
    if not (rules.highest_after_tied_first or rules.raiser_must_kill) or hand.blind or \
            not cards or not obliged(rules):  # cheap tests first: a raise's lister asks often
        return cards, ""
    rnd = m.round
    played = any(s == seat for s, _, _ in rnd.cards)
    strength = hand.strength
    if rules.highest_after_tied_first and (rnd.number or played) and (
            not hand.results or hand.results[0] is None):
        top = max(strength[c] for c in cards)
        return [c for c in cards if strength[c] == top], "play.highest_after_tied_first"
    if rules.raiser_must_kill and not played:
        best = kill_target(m, seat)
        killers = [] if best is None else [c for c in cards if strength[c] > best]
        if killers:
            return killers, "play.raiser_must_kill"
    return cards, ""


def refused(m: MatchView, seat: int, card: Card) -> str | None:
    """Why ``seat``'s raise may not name ``card`` (held, bound by no raise), or ``None``."""
    allowed, by = named_cards(m, seat, m.hand.hands[seat])
    if card in allowed:
        return None
    what = "one of his highest cards" if by == "play.highest_after_tied_first" else \
        "a card that beats the table"
    return Why("named_card_obliged",
               f"seat {seat} names {card_name(card)}: his raise names {what}, the card he "
               f"must play next ({by}, obligations.named_card)")


def _checks(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """``obliged`` where a raise names no card, or no play obligation is in force."""
    if d["obligations"]["named_card"] == "free":
        return
    if not d["betting"]["name_card"]:
        yield err(("obligations", "named_card"), mark(
            "expected betting.name_card: true with obligations.named_card: obliged (a raise "
            "names no card here), found false"), (("betting", "name_card"),))
    elif not (d["play"]["highest_after_tied_first"] or d["play"]["raiser_must_kill"]):
        yield err(("obligations", "named_card"), mark(
            "expected play.highest_after_tied_first or play.raiser_must_kill with "
            "obligations.named_card: obliged (no obligation to bind), found neither"),
            (("play",),))


BLOCK = VariantBlock(BLOCK_NAME, checks=_checks, about=(
    "House rule: the play obligations a raise that names its card (M4) cannot dodge. Absent: "
    "a raise names any card its raiser holds."), keys={
    "named_card": choice(NAMED_CARD, (
        "House rule: free: a raise names any card its raiser holds (M4); obliged: it names "
        "a card the play obligations would let him play next, judged when he names it: "
        "one of his highest where his next card is for a round after a tied first round "
        "or one not over yet (play.highest_after_tied_first); one that beats the table, "
        "where he holds one, before his card of the round (play.raiser_must_kill). Needs "
        "betting.name_card. Default free.")),
})


KIND = moveless(
    __name__, "it is which card a raise may name",
    # the raise kind asks named_cards where its key says
    block=BLOCK, keys=("obligations.named_card", "betting.name_card",
                       "play.highest_after_tied_first", "play.raiser_must_kill"))
