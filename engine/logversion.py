"""Which version of the log format a log needs (docs/log-format.md, "Versions"): the one place
that says what each version added to the one before.

Version 2 is a superset of version 1: every version-1 log is a version-2 log that means the
same. A log needs version 2 when one of its events has something version 1 has not:

* an extra card (``X1``, ``X2``, ...: C2 ``deck.extra``) in a ``deal``, ``play`` or ``raise``;
* a ``concede`` move (``concede.allowed``, a house rule);
* a side bet's move (``envido``, ``flor``, ``quero``, ``nao_quero``) or checkpoint
  (``side_declare``, ``side_bet``, ``side_show``): ``side_bets``, G22-G41;
* scores and games of more than two teams (``teams``, a house rule): a variant's, known from
  the header (:func:`header_problem`);
* a header that starts the match at a position (``position``, docs/positions.md), known from
  the header (:func:`header_problem`).

A reader refuses an event that needs a newer version than its header names
(:func:`version_problem`); a writer writes the lowest version its log needs
(:func:`log_needs`), or, when it writes the header before the game is played, the version the
variant's logs may need (:func:`rules_need`). A new event names its version where it is
declared (a move kind's ``log``, :mod:`engine.logschema`), and :data:`EVENTS` follows; another
new feature of the format is one more test in :func:`event_needs` and, if a variant's rules can
call for it, in :func:`rules_need`. The version is always that of the parsed event, never
guessed from a line's bytes.

>>> event_needs({"event": "play", "seat": 1, "card": "4c"})
(1, '')
>>> event_needs({"event": "play", "seat": 1, "card": "X1"})
(2, 'the extra card X1')
>>> log_needs([{"event": "deal", "dealer": 0, "hands": [["X2", "4c", "5c"]]}])
2
>>> event_needs({"event": "concede", "seat": 2})
(2, 'a concede move')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.cards import EXTRA_LETTER
from engine.logschema import CHECKPOINTS, MOVES, NEWER, OTHERS
from engine.moves import KINDS

if TYPE_CHECKING:
    from engine.rules import Rules

#: The versions this engine reads, oldest first.
VERSIONS = (1, 2)
#: The newest version.
LATEST = VERSIONS[-1]
#: The version a header with a ``position`` needs.
POSITION_VERSION = 2


def _extra_card(event: Mapping[str, Any]) -> str | None:
    """The first extra card an event names, or ``None``."""
    card = event.get("card")
    if isinstance(card, str) and card.startswith(EXTRA_LETTER):
        return card
    if event.get("event") == "deal":
        vira = event.get("vira")
        for hand in (*event.get("hands", ()), [vira]):
            for c in hand if isinstance(hand, list) else ():
                if isinstance(c, str) and c.startswith(EXTRA_LETTER):
                    return c
    return None


#: Every event type of the format, with what it is (a move, a deal or a checkpoint) and the
#: version that added it, in the format's order, as the move kinds and the checkpoints declare
#: them (:mod:`engine.logschema`, which ``schemas/log.schema.json`` is made from).
EVENTS: dict[str, tuple[str, int]] = {
    **{e: ("deal" if e == "deal" else "move", NEWER.get(e, (1, ""))[0]) for e in MOVES},
    **{e: ("checkpoint", NEWER.get(e, (1, ""))[0]) for e in CHECKPOINTS},
    **{e: (e, NEWER.get(e, (1, ""))[0]) for e in OTHERS},
}

#: The event types version 1 has not (each needs version 2 or later).
NEWER_EVENTS = frozenset(e for e, (_, v) in EVENTS.items() if v > 1)


def event_needs(event: Mapping[str, Any]) -> tuple[int, str]:
    """The lowest format version that has this event (the header aside), and what in it needs
    that version (``""`` for version 1). It looks at the parsed event, never at its bytes:
    ``"flor"`` and ``"\\u0066lor"`` are the same event.

    >>> event_needs({"event": "flor", "seat": 0, "call": "flor"})
    (2, "a side bet's flor event")
    """
    kind = event.get("event")
    needed = NEWER.get(kind) if isinstance(kind, str) else None  # one version 1 has not
    if needed is not None:
        return needed
    card = _extra_card(event)
    if card is not None:
        return 2, f"the extra card {card}"
    return 1, ""


def log_needs(events: Iterable[Mapping[str, Any]]) -> int:
    """The lowest format version a log of these events (the header aside) can be written in."""
    return max((event_needs(e)[0] for e in events), default=1)


def rules_need(rules: Rules) -> int:
    """The version a log of this variant may need: 2 when its deck holds an extra card (a
    move may name it), a player may concede, it has more than two teams (its scores have
    an entry per team) or side bets, it draws its first dealer (a header's ``draw``), or it
    has a move kind whose event version 1 has not (a cut), else 1. What a writer that
    writes its header first uses (every log's header: made once per variant and registry of
    kinds, which only grows)."""
    return _rules_need(rules, len(KINDS))


@lru_cache(maxsize=64)
def _rules_need(rules: Rules, kinds: int) -> int:
    if (rules.deck_extra or rules.concede or rules.teams != 2 or rules.side_bets
            or rules.match.first_dealer == "drawn"):  # a drawn first dealer: its header's draw
        return 2
    # a kind the variant has whose event is newer than version 1 (a cut)
    return max((k.log.version for k in KINDS.values() if k.log is not None and k.enabled(rules)),
               default=1)


def header_problem(version: int, rules: Rules, *, position: bool = False,
                   draw: bool = False) -> str | None:
    """Why a log of this variant cannot be of ``version`` whatever its events (a variant of
    more than two teams writes every score with an entry per team; a header with a
    ``position`` starts the match there; one with a ``draw``, a drawn first dealer), or
    ``None``.

    >>> from engine.variant import find_variant
    >>> header_problem(1, find_variant("paulista"), position=True)[:44]
    'a header with a position needs log format ve'
    """
    if position and version < POSITION_VERSION:
        return ("a header with a position needs log format version 2, but the header says "
                "version 1: write \"truco_log\": 2 in the header")
    if draw and version < 2:
        return ("a header with a draw needs log format version 2, but the header says "
                "version 1: write \"truco_log\": 2 in the header")
    if rules.teams != 2 and version < 2:
        return (f"this variant has {rules.teams} teams, whose scores need log format version 2, "
                "but the header says version 1: write \"truco_log\": 2 in the header")
    return None


def version_problem(version: int, event: Mapping[str, Any]) -> str | None:
    """Why an event cannot stand in a log whose header names ``version``, or ``None``."""
    needed, why = event_needs(event)
    if needed <= version:
        return None
    return (f"{why} needs log format version {needed}, but the header says version {version}: "
            f"write \"truco_log\": {needed} in the header")
