"""The deals of a log whose header commits to a secret seed (``seed_commitment``,
docs/log-format.md "Committed seeds"): replayed from their ``deal`` lines as the log goes, then
checked at its ``reveal``, the last line: the reveal must answer the commitment, and every deal
must be the one the revealed seed deals (the match played again, move for move, on a match of
that seed).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.cards import card_name, parse_card
from engine.errors import IllegalMoveError
from engine.fairness import deal_seed, reveal_problem
from engine.game import Match
from engine.rules import Rules


def seeded_deal_mismatch(m: Match, d: dict[str, Any]) -> str | None:
    """How the ``deal`` event ``d`` differs from the hand ``m`` (a seeded match) dealt, or
    ``None``: the dealer, each seat's cards in any order, the vira."""
    if d["dealer"] != m.dealer:
        return f"the dealer is seat {m.dealer} by rotation, not {d['dealer']}"
    hands = d["hands"]
    if len(hands) != len(m.hand.dealt):
        return f"expected {len(m.hand.dealt)} hands, found {len(hands)}"
    for seat, (found, dealt) in enumerate(zip(hands, m.hand.dealt, strict=True)):
        if sorted(parse_card(c) for c in found) != sorted(dealt):
            return (f"seat {seat} holds {' '.join(found)}, the seed deals "
                    f"{' '.join(card_name(c) for c in dealt)}")
    vira = d.get("vira")
    seeded = None if m.hand.vira is None else card_name(m.hand.vira)
    if vira != seeded:
        return f"the vira is {vira or 'missing'}, the seed turns {seeded or 'none'}"
    return None


def header_problem(h: dict[str, Any]) -> str | None:
    """Why a header with a ``seed_commitment`` is not one, or ``None``."""
    if "seed" in h:
        return ("a header with a seed_commitment has no seed: the reveal, the log's last "
                "line, gives it once the match is over")
    if "position" in h:
        return "a header with a seed_commitment has no position"
    if h["truco_log"] < 2:
        return ("a seed_commitment needs log format version 2, but the header says version 1: "
                "write \"truco_log\": 2 in the header")
    return None


class Sealed:
    """A committed log's deals and moves, kept until its reveal (:meth:`reveal`)."""

    def __init__(self, committed: str, rules: Rules, dealer: int) -> None:
        self.committed = committed
        self.rules = rules
        self.dealer = dealer
        #: The deal lines (line, event) and the moves (line, action), in the log's order.
        self.steps: list[tuple[int, dict[str, Any] | Action]] = []

    def deal(self, line: int, event: dict[str, Any]) -> None:
        self.steps.append((line, event))

    def move(self, line: int, action: Action) -> None:
        self.steps.append((line, action))

    def reveal(self, event: dict[str, Any]) -> str | None:
        """Why the reveal ``event`` does not prove the log's deals, or ``None`` when every
        deal follows from the seed it reveals."""
        seed, nonce, entropy = event["seed"], event["nonce"], event["entropy"]
        why = reveal_problem(self.committed, seed, nonce, entropy, self.rules.players)
        if why is not None:
            return why
        m = Match(self.rules, seed=deal_seed(seed, entropy), dealer=self.dealer)
        for line, step in self.steps:
            if isinstance(step, Action):
                try:
                    m.apply(step)
                except IllegalMoveError as exc:
                    why = f"the move at line {line} is illegal on the seed's deals: {exc.why}"
            else:
                found = seeded_deal_mismatch(m, step)
                if found is not None:
                    why = f"the deal at line {line} does not follow from the revealed seed: {found}"
            if why is not None:
                return f"reveal: {why}"
        return None
