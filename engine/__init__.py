"""truco: a rules-as-data engine for Brazilian Truco.

>>> from engine import Match, load_variant
>>> m = Match.new("mineiro", seed=1)
>>> m.rules.games_to_win
2
"""

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

from engine.actions import Action, Deal
from engine.cards import Card, card_name, card_pretty, parse_card
from engine.errors import IllegalMoveError, LogError, PositionError, TrucoError, VariantError
from engine.game import Match
from engine.rules import Rules
from engine.variant import find_variant, load_variant


def _build() -> str:
    file = sys.modules[Match.__module__].__file__ or ""
    return "compiled" if file.endswith(tuple(EXTENSION_SUFFIXES)) else "pure"


#: Which build is running: ``"compiled"`` when the match's module is a mypyc extension module (a
#: wheel built with ``TRUCO_NATIVE=1``, or ``python build_native.py`` in a checkout), else
#: ``"pure"``, the pure-Python default (docs/performance.md). ``truco --version`` says it.
BUILD: Final = _build()

__all__ = [
    "BUILD", "Action", "Card", "Deal", "IllegalMoveError", "LogError", "Match", "PositionError",
    "Rules", "TrucoError", "VariantError", "card_name", "card_pretty", "find_variant",
    "load_variant", "parse_card",
]
