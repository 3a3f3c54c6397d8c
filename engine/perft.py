"""Perft for Truco: counting the distinct legal move sequences of a hand, as chess engines count
move paths from fixed positions to catch rule regressions.

From a position (a match whose hand is under way), ``perft(match, depth)`` is the number of
distinct sequences of exactly ``depth`` legal moves (:meth:`Match.legal_actions`) that stay in
this hand: a sequence stops where the hand ends, so a hand that ends after fewer moves adds
nothing to deeper counts (as a mate does in chess). Adding up, over every depth, the sequences
that end the hand there gives the number of distinct ways the whole hand can be played.

Penalised raises of special hands (P5, P6, M5, M6) are moves :meth:`Match.apply` accepts but
``legal_actions`` never offers; perft, like the legal move list, leaves them out.

>>> from engine import Deal
>>> deal = Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
...                    ["Jh", "Kh", "5s"]])
>>> m = position("mineiro", deal)
>>> [perft(m, d) for d in range(4)]
[1, 15, 162, 1209]
>>> perft_table(m, 2)
[(1, 15, 0), (2, 162, 24)]
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from engine.actions import Deal
from engine.game import Checkpoint, Match
from engine.rules import Rules

#: Checkpoints that end the hand (``game`` alone: a raise penalised with the game, P5/M5).
_HAND_ENDS = ("hand", "game")


def perft(match: Match, depth: int) -> int:
    """The number of distinct legal move sequences of exactly ``depth`` moves within the
    current hand (``perft(m, 0)`` is 1). ``match`` itself is left unchanged.

    >>> deal = Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
    ...                    ["Jh", "Kh", "5s"]], "3h")
    >>> perft(position("paulista", deal), 2)  # 3 cards or truco, then the answers
    18
    """
    if depth < 0:
        raise ValueError(f"depth {depth} is negative")
    if depth == 0:
        return 1
    if match.is_over or match.awaiting_deal:
        return 0
    count = 0
    for action in match.legal_actions():
        child = match.clone()
        if _ends_hand(child.apply(action)):
            count += int(depth == 1)
        else:
            count += perft(child, depth - 1)
    return count


def perft_table(match: Match, depth: int) -> list[tuple[int, int, int]]:
    """``(d, sequences, ended)`` for each ``d`` in ``1..depth``: the sequences of ``d`` moves
    within the hand, and how many of them end the hand with their last move. One depth-first
    walk over clones gives every row; ``match`` itself is left unchanged.

    The hand's whole count is the sum of the ``ended`` column once the deepest row has no
    sequences left (see :func:`whole_hand`)."""
    if depth < 0:
        raise ValueError(f"depth {depth} is negative")
    sequences = [0] * (depth + 1)
    ended = [0] * (depth + 1)

    def walk(node: Match, ply: int) -> None:
        for action in node.legal_actions():
            child = node.clone()
            events = child.apply(action)
            sequences[ply] += 1
            if _ends_hand(events):
                ended[ply] += 1
            elif ply < depth:
                walk(child, ply + 1)

    if depth and not match.is_over and not match.awaiting_deal:
        walk(match, 1)
    return [(d, sequences[d], ended[d]) for d in range(1, depth + 1)]


def perft_levels(match: Match, live_limit: int, max_depth: int) -> list[tuple[int, int, int]]:
    """:func:`perft_table` to the first depth where the hand is over in every sequence, or where
    more than ``live_limit`` sequences are still in the hand, or to ``max_depth``: a table
    as deep as a fixed amount of work allows, whatever the variant's branching.

    >>> deal = Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
    ...                    ["Jh", "Kh", "5s"]])
    >>> perft_levels(position("mineiro", deal), live_limit=100, max_depth=8)[-1]
    (2, 162, 24)
    """
    rows: list[tuple[int, int, int]] = []
    for depth in range(1, max_depth + 1):
        rows = perft_table(match, depth)  # the shallower rows cost a fraction of the last one
        _, sequences, ended = rows[-1]
        if sequences - ended == 0 or sequences - ended > live_limit:
            break
    return rows


def whole_hand(match: Match, limit: int = 64) -> int:
    """The number of distinct legal move sequences from here to the end of the hand (every
    sequence ends it within ``limit`` moves, or ``ValueError``).

    >>> deal = Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
    ...                    ["Jh", "Kh", "5s"]])
    >>> whole_hand(position("mineiro", deal, score=(10, 0)))  # M5: a decision, no raises
    2594
    """
    count = 0

    def walk(node: Match, ply: int) -> None:
        nonlocal count
        if ply > limit:
            raise ValueError(f"a hand goes on for more than {limit} moves")
        for action in node.legal_actions():
            child = node.clone()
            if _ends_hand(child.apply(action)):
                count += 1
            else:
                walk(child, ply + 1)

    if not match.is_over and not match.awaiting_deal:
        walk(match, 1)
    return count


def position(variant: Rules | str | os.PathLike[str], deal: Deal,
             score: Sequence[int] = (0, 0)) -> Match:
    """A match of ``variant`` at the start of the hand ``deal``, with the game's score set
    to ``score`` first (so that a special hand, P5/P6/M5/M6, can be reached directly; teams
    it leaves out are at 0).

    >>> deal = Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
    ...                    ["Jh", "Kh", "5s"]])
    >>> position("mineiro", deal, score=(10, 0)).state
    'decide'
    """
    match = Match.new(variant, dealer=deal.dealer)  # no seed: the hand waits for its deal
    match.score = [*score, *[0] * (match.rules.teams - len(score))]
    match.deal(deal)
    return match


def _ends_hand(events: list[Checkpoint]) -> bool:
    return any(ev["event"] in _HAND_ENDS for ev in events)
