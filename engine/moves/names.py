"""The names of the shipped move kinds that code outside their modules speaks about. Each
kind's module declares its own ``name`` (a kind is one module: copied under a new name, it is a
new kind, ``tests/test_new_kind.py``); a bot's strategy about raising, the table's drawing of a
played card or the machine's table of shared moves reads the name here rather than repeating
the string, so that renaming a kind is an edit in its module and here only
(``tests/test_kind_literals.py`` counts the literals left outside ``engine/moves/``, and checks
that each name here is a registered kind's). General code that branches on what a move does
asks its kind instead (:class:`MoveKind`)."""

from __future__ import annotations

from typing import Final

DEAL_KIND: Final = "deal"
DECIDE_KIND: Final = "decide"
PLAY_KIND: Final = "play"
RAISE_KIND: Final = "raise"
ACCEPT_KIND: Final = "accept"
FOLD_KIND: Final = "fold"
CONCEDE_KIND: Final = "concede"
ENVIDO_KIND: Final = "envido"
QUERO_KIND: Final = "quero"
NAO_QUERO_KIND: Final = "nao_quero"
FLOR_KIND: Final = "flor"
CUT_KIND: Final = "cut"
