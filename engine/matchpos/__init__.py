"""A match's position, in the match's layer: read and checked into a fresh match
(:func:`engine.matchpos.restore.set_position`, for :meth:`engine.game.Match.from_position`)
and exported (:func:`engine.matchpos.exporting.export`, for
:meth:`engine.game.Match.position`). The public module is :mod:`engine.position`
(docs/positions.md).

The modules, in the order a position is read: :mod:`~engine.matchpos.schema` (its shape),
:mod:`~engine.matchpos.reading` (its fields, one by one, into a ``PositionData``, and a match
set up from them), :mod:`~engine.matchpos.checks` and :mod:`~engine.matchpos.bets` (the
fields against each other and the rules, block by block), :mod:`~engine.matchpos.restore`
(the three in turn), :mod:`~engine.matchpos.exporting` (a match's position). Nothing here
imports the match: it is given one.

The package registers the move kinds first, in their order (:func:`engine.moves.load_kinds`):
its modules use functions of some kinds' modules, and a kind registers when its module is
first imported, so that importing one of them before the others would change the order.
"""

from engine.moves import load_kinds

load_kinds()
