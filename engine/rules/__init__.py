"""The resolved, immutable rules of one variant, and the tables the engine derives from them.

A :class:`Rules` is built by the loader (:mod:`engine.variant`) from a validated YAML file; it is
frozen and hashable, so one loaded variant (and its one state machine) serves every game. It is
grouped in blocks as the file is (``rules.betting``, ``rules.game``, ...); names follow the
variant schema, and each carries the rule id it expresses.

The package's modules: :mod:`~engine.rules.blocks` (the blocks, one dataclass per mapping of
the YAML), :mod:`~engine.rules.core` (:class:`Rules` and its card-strength tables) and
:mod:`~engine.rules.build` (the rules built from a resolved variant); the variant schema and its
defaults are :mod:`engine.schemas`'s, a layer below. Every name is importable from here.
"""

from __future__ import annotations

from engine.rules.blocks import (
    AllTied,
    AnsweredBy,
    BettingRules,
    BothTeamsHand,
    ConcedeRules,
    CoveredCardRules,
    DeckRules,
    GameRules,
    ManilhaMode,
    ManilhaRules,
    MatchRules,
    OneTeamHand,
    Penalty,
    PlayRules,
    Raises,
    RaiseTiming,
    Refusal,
    RoundRules,
    SpecialHand,
    SpecialHandRules,
    Step,
    Teams,
    TieLeader,
)
from engine.rules.build import rules_from_data, special_hands_from_data
from engine.rules.core import _HOT as _HOT  # tests/test_rules_blocks.py
from engine.rules.core import ABOVE_MANILHAS, COVERED, Rules
from engine.schemas import NOT_RULES, variant_schema, with_defaults

__all__ = [
    "ABOVE_MANILHAS", "COVERED", "NOT_RULES", "AllTied", "AnsweredBy", "BettingRules",
    "BothTeamsHand", "ConcedeRules", "CoveredCardRules", "DeckRules", "GameRules",
    "ManilhaMode", "ManilhaRules", "MatchRules", "OneTeamHand", "Penalty", "PlayRules",
    "RaiseTiming", "Raises", "Refusal", "RoundRules", "Rules", "SpecialHand",
    "SpecialHandRules", "Step", "Teams", "TieLeader", "rules_from_data",
    "special_hands_from_data", "variant_schema", "with_defaults",
]
