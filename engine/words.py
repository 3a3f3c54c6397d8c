"""The table's words for cards and moves, for people: what a variant calls particular cards
(``card_names``) and moves (``move_names``), and cards written with suit symbols. Shared by the
transcript of ``truco replay``, the terminal game and the viewer.

>>> named("4c", {"4c": "zap"}), pretty(None)
('4♣ (zap)', '??')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action
from engine.cards import card_pretty, parse_card
from engine.moves import KINDS
from engine.rules import Rules


def table_word(action: Action, rules: Rules) -> str | None:
    """What the table says for ``action`` where the variant names the move (``move_names``:
    Gaudério's ``quero``, ``não quero``, ``vou ao baralho``; the keys each kind's moves
    answer to, ``MoveKind.named``), else ``None``."""
    kind = KINDS.get(action.kind)
    for key, notation in kind.named if kind is not None else ():
        if str(action) == f"{action.kind} {action.seat} {notation}".rstrip():
            return rules.move_name(key, "") or None
    return None


def unanswered(kind: str) -> str:
    """How a side bet settled with no answer by a move of ``kind`` is told: ``refused``, or
    the kind's own word (``MoveKind.settles_as``: a flor is ``sung``, G38, G40)."""
    told = KINDS[kind].settles_as if kind in KINDS else None
    return told or "refused"


def pretty(card: str | None) -> str:
    """A card name (``'7h'``) for people (``'7♥'``); ``None`` (face down) as ``'??'``."""
    return "??" if card is None else card_pretty(parse_card(card))


def card_names(rules: Rules) -> dict[str, str]:
    """What players call particular cards (M1: the zap...), from the variant's optional
    ``card_names``: card name to name, e.g. ``{'4c': 'zap'}``; empty when the variant names
    none."""
    names = rules.data.get("card_names") if isinstance(rules.data, Mapping) else None
    return {str(c): str(n) for c, n in names.items()} if isinstance(names, Mapping) else {}


def named(card: str | None, names: Mapping[str, str]) -> str:
    """A card for people with its name where the variant gives one (``card_names``): ``'3♦'``,
    ``'4♣ (zap)'``, ``'X1 (coringa)'``; ``None`` (face down) as ``'??'``."""
    text = pretty(card)
    return f"{text} ({names[card]})" if card is not None and card in names else text


def manilhas_text(manilhas: Sequence[str], names: Mapping[str, str]) -> str:
    """The hand's manilhas, strongest first, with their names where the variant gives them:
    ``'manilhas 4♣ zap > 7♥ copas > ...'``."""
    shown = [pretty(c) + (f" {names[c]}" if c in names else "") for c in reversed(manilhas)]
    return "manilhas " + " > ".join(shown)
