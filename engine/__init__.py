"""truco: a rules-as-data engine for Brazilian Truco.

>>> from engine import Match, load_variant
>>> m = Match.new("mineiro", seed=1)
>>> m.rules.games_to_win
2
"""

from engine.actions import Action, Deal
from engine.cards import Card, card_name, card_pretty, parse_card
from engine.errors import IllegalMoveError, LogError, PositionError, TrucoError, VariantError
from engine.game import Match
from engine.rules import Rules
from engine.variant import find_variant, load_variant

__all__ = [
    "Action", "Card", "Deal", "IllegalMoveError", "LogError", "Match", "PositionError", "Rules",
    "TrucoError", "VariantError", "card_name", "card_pretty", "find_variant", "load_variant",
    "parse_card",
]
